// SPDX-License-Identifier: Apache-2.0
// The DVPP descriptors: channel, picture, batch picture, stream, ROI, resize and JPEGE configs.
// Create functions return NULL on failure (a bad argument, no memory); setters return
// ACL_ERROR_INVALID_PARAM for a NULL descriptor; getters return CANN's default (0, NULL) for a
// NULL descriptor. They work before aclInit, as CANN's do (plain host objects).
#include <cstdint>
#include <new>

#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/core/api_call.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/pic_desc_link.h"
#include "runtime/core/errors.h"
#include "sim/log.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

template <class D, class F>
aclError set(const char* name, D* desc, const char* what, F&& apply) {
  return api_any(name, [&](Call&) {
    require_not_null(desc, what);
    apply(*desc);
  });
}

template <class D, class T, class F>
T get(const D* desc, T fallback, F&& read) {
  return desc == nullptr ? fallback : read(*desc);
}

template <class D>
aclError destroy(const char* name, D* desc, const char* what) {
  return api_any(name, [&](Call&) {
    require_not_null(desc, what);
    delete desc;
  });
}

}  // namespace

extern "C" {

// ---- Channel ----

acldvppChannelDesc* acldvppCreateChannelDesc() { return new (std::nothrow) acldvppChannelDesc(); }

aclError acldvppDestroyChannelDesc(acldvppChannelDesc* channelDesc) {
  return destroy("acldvppDestroyChannelDesc", channelDesc, "channelDesc");
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* channelDesc) {
  return get(channelDesc, uint64_t{0}, [](const acldvppChannelDesc& d) { return d.id; });
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc* channelDesc, uint32_t mode) {
  return set("acldvppSetChannelDescMode", channelDesc, "channelDesc", [&](acldvppChannelDesc& d) {
    require(mode != 0 && (mode & ~uint32_t{DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD |
                                           DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD}) == 0,
            ACL_ERROR_INVALID_PARAM,
            "mode " + std::to_string(mode) + " is not a combination of acldvppChannelMode bits");
    d.mode = mode;
  });
}

// ---- Picture ----

acldvppPicDesc* acldvppCreatePicDesc() { return new (std::nothrow) acldvppPicDesc(); }

aclError acldvppDestroyPicDesc(acldvppPicDesc* picDesc) {
  return api_any("acldvppDestroyPicDesc", [&](Call&) {
    require_not_null(picDesc, "picDesc");
    // The output of a decode still running: it drops its results instead of writing freed memory.
    if (dvpp::unlink_pic_desc(picDesc)) {
      npusim::sim::log_warn(
          "acldvppDestroyPicDesc: the descriptor is the output of a decode task that has not "
          "ended; its results (retCode, width, height...) are discarded");
    }
    delete picDesc;
  });
}

aclError acldvppSetPicDescData(acldvppPicDesc* picDesc, void* dataDev) {
  return set("acldvppSetPicDescData", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.data = dataDev; });
}

aclError acldvppSetPicDescSize(acldvppPicDesc* picDesc, uint32_t size) {
  return set("acldvppSetPicDescSize", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.size = size; });
}

aclError acldvppSetPicDescFormat(acldvppPicDesc* picDesc, acldvppPixelFormat format) {
  const int f = as_int(format);
  return set("acldvppSetPicDescFormat", picDesc, "picDesc", [&](acldvppPicDesc& d) {
    require(f >= 0, ACL_ERROR_INVALID_PARAM, "format " + std::to_string(f) + " is negative");
    d.format = static_cast<uint32_t>(f);
  });
}

aclError acldvppSetPicDescWidth(acldvppPicDesc* picDesc, uint32_t width) {
  return set("acldvppSetPicDescWidth", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.width = width; });
}

aclError acldvppSetPicDescHeight(acldvppPicDesc* picDesc, uint32_t height) {
  return set("acldvppSetPicDescHeight", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.height = height; });
}

aclError acldvppSetPicDescWidthStride(acldvppPicDesc* picDesc, uint32_t widthStride) {
  return set("acldvppSetPicDescWidthStride", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.width_stride = widthStride; });
}

aclError acldvppSetPicDescHeightStride(acldvppPicDesc* picDesc, uint32_t heightStride) {
  return set("acldvppSetPicDescHeightStride", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.height_stride = heightStride; });
}

aclError acldvppSetPicDescRetCode(acldvppPicDesc* picDesc, uint32_t retCode) {
  return set("acldvppSetPicDescRetCode", picDesc, "picDesc",
             [&](acldvppPicDesc& d) { d.ret_code = retCode; });
}

void* acldvppGetPicDescData(const acldvppPicDesc* picDesc) {
  return get(picDesc, static_cast<void*>(nullptr), [](const acldvppPicDesc& d) { return d.data; });
}

uint32_t acldvppGetPicDescSize(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.size; });
}

acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc* picDesc) {
  return get(picDesc, PIXEL_FORMAT_YUV_400,
             [](const acldvppPicDesc& d) { return static_cast<acldvppPixelFormat>(d.format); });
}

uint32_t acldvppGetPicDescWidth(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.width; });
}

uint32_t acldvppGetPicDescHeight(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.height; });
}

uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.width_stride; });
}

uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.height_stride; });
}

uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc* picDesc) {
  return get(picDesc, 0u, [](const acldvppPicDesc& d) { return d.ret_code; });
}

// ---- Batch of pictures ----

acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t batchSize) {
  if (batchSize == 0) {
    (void)api_any("acldvppCreateBatchPicDesc",
                  [](Call&) { fail(ACL_ERROR_INVALID_PARAM, "batchSize is 0"); });
    return nullptr;
  }
  auto* d = new (std::nothrow) acldvppBatchPicDesc();
  if (d == nullptr) return nullptr;
  try {
    d->pics.resize(batchSize);
  } catch (...) {
    delete d;
    return nullptr;
  }
  return d;
}

acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc* batchPicDesc, uint32_t index) {
  if (batchPicDesc == nullptr || index >= batchPicDesc->pics.size()) return nullptr;
  return &batchPicDesc->pics[index];
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc* batchPicDesc) {
  return destroy("acldvppDestroyBatchPicDesc", batchPicDesc, "batchPicDesc");
}

// ---- ROI, resize, JPEGE configs ----

acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                         uint32_t bottom) {
  auto* d = new (std::nothrow) acldvppRoiConfig();
  if (d != nullptr) *d = acldvppRoiConfig{left, right, top, bottom};
  return d;
}

aclError acldvppDestroyRoiConfig(acldvppRoiConfig* roiConfig) {
  return destroy("acldvppDestroyRoiConfig", roiConfig, "roiConfig");
}

aclError acldvppSetRoiConfigLeft(acldvppRoiConfig* config, uint32_t left) {
  return set("acldvppSetRoiConfigLeft", config, "config",
             [&](acldvppRoiConfig& d) { d.left = left; });
}

aclError acldvppSetRoiConfigRight(acldvppRoiConfig* config, uint32_t right) {
  return set("acldvppSetRoiConfigRight", config, "config",
             [&](acldvppRoiConfig& d) { d.right = right; });
}

aclError acldvppSetRoiConfigTop(acldvppRoiConfig* config, uint32_t top) {
  return set("acldvppSetRoiConfigTop", config, "config", [&](acldvppRoiConfig& d) { d.top = top; });
}

aclError acldvppSetRoiConfigBottom(acldvppRoiConfig* config, uint32_t bottom) {
  return set("acldvppSetRoiConfigBottom", config, "config",
             [&](acldvppRoiConfig& d) { d.bottom = bottom; });
}

aclError acldvppSetRoiConfig(acldvppRoiConfig* config, uint32_t left, uint32_t right, uint32_t top,
                             uint32_t bottom) {
  return set("acldvppSetRoiConfig", config, "config", [&](acldvppRoiConfig& d) {
    d = acldvppRoiConfig{left, right, top, bottom};
  });
}

acldvppResizeConfig* acldvppCreateResizeConfig() {
  return new (std::nothrow) acldvppResizeConfig();
}

aclError acldvppDestroyResizeConfig(acldvppResizeConfig* resizeConfig) {
  return destroy("acldvppDestroyResizeConfig", resizeConfig, "resizeConfig");
}

aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* resizeConfig,
                                             uint32_t interpolation) {
  return set("acldvppSetResizeConfigInterpolation", resizeConfig, "resizeConfig",
             [&](acldvppResizeConfig& d) {
               require(interpolation <= 2, ACL_ERROR_INVALID_PARAM,
                       "interpolation " + std::to_string(interpolation) +
                           " is not 0 (default: bilinear), 1 (bilinear) or 2 (nearest)");
               d.interpolation = interpolation;
             });
}

uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* resizeConfig) {
  return get(resizeConfig, 0u, [](const acldvppResizeConfig& d) { return d.interpolation; });
}

acldvppJpegeConfig* acldvppCreateJpegeConfig() { return new (std::nothrow) acldvppJpegeConfig(); }

aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* jpegeConfig) {
  return destroy("acldvppDestroyJpegeConfig", jpegeConfig, "jpegeConfig");
}

aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* jpegeConfig, uint32_t level) {
  return set("acldvppSetJpegeConfigLevel", jpegeConfig, "jpegeConfig", [&](acldvppJpegeConfig& d) {
    require(level <= 100, ACL_ERROR_INVALID_PARAM,
            "level " + std::to_string(level) + " is not in [0, 100]");
    d.level = level;
  });
}

uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* jpegeConfig) {
  return get(jpegeConfig, 0u, [](const acldvppJpegeConfig& d) { return d.level; });
}

// ---- Stream (coded data) ----

acldvppStreamDesc* acldvppCreateStreamDesc() { return new (std::nothrow) acldvppStreamDesc(); }

aclError acldvppDestroyStreamDesc(acldvppStreamDesc* streamDesc) {
  return destroy("acldvppDestroyStreamDesc", streamDesc, "streamDesc");
}

aclError acldvppSetStreamDescData(acldvppStreamDesc* streamDesc, void* dataDev) {
  return set("acldvppSetStreamDescData", streamDesc, "streamDesc",
             [&](acldvppStreamDesc& d) { d.data = dataDev; });
}

aclError acldvppSetStreamDescSize(acldvppStreamDesc* streamDesc, uint32_t size) {
  return set("acldvppSetStreamDescSize", streamDesc, "streamDesc",
             [&](acldvppStreamDesc& d) { d.size = size; });
}

aclError acldvppSetStreamDescFormat(acldvppStreamDesc* streamDesc, acldvppStreamFormat format) {
  const int f = as_int(format);
  return set("acldvppSetStreamDescFormat", streamDesc, "streamDesc", [&](acldvppStreamDesc& d) {
    require(f >= H265_MAIN_LEVEL && f <= H264_HIGH_LEVEL, ACL_ERROR_INVALID_PARAM,
            "format " + std::to_string(f) + " is not an acldvppStreamFormat");
    d.format = static_cast<uint32_t>(f);
  });
}

aclError acldvppSetStreamDescTimestamp(acldvppStreamDesc* streamDesc, uint64_t timestamp) {
  return set("acldvppSetStreamDescTimestamp", streamDesc, "streamDesc",
             [&](acldvppStreamDesc& d) { d.timestamp = timestamp; });
}

aclError acldvppSetStreamDescRetCode(acldvppStreamDesc* streamDesc, uint32_t retCode) {
  return set("acldvppSetStreamDescRetCode", streamDesc, "streamDesc",
             [&](acldvppStreamDesc& d) { d.ret_code = retCode; });
}

aclError acldvppSetStreamDescEos(acldvppStreamDesc* streamDesc, uint8_t eos) {
  return set("acldvppSetStreamDescEos", streamDesc, "streamDesc",
             [&](acldvppStreamDesc& d) { d.eos = eos; });
}

void* acldvppGetStreamDescData(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, static_cast<void*>(nullptr),
             [](const acldvppStreamDesc& d) { return d.data; });
}

uint32_t acldvppGetStreamDescSize(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, 0u, [](const acldvppStreamDesc& d) { return d.size; });
}

acldvppStreamFormat acldvppGetStreamDescFormat(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, H265_MAIN_LEVEL,
             [](const acldvppStreamDesc& d) { return static_cast<acldvppStreamFormat>(d.format); });
}

uint64_t acldvppGetStreamDescTimestamp(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, uint64_t{0}, [](const acldvppStreamDesc& d) { return d.timestamp; });
}

uint32_t acldvppGetStreamDescRetCode(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, 0u, [](const acldvppStreamDesc& d) { return d.ret_code; });
}

uint8_t acldvppGetStreamDescEos(const acldvppStreamDesc* streamDesc) {
  return get(streamDesc, uint8_t{0}, [](const acldvppStreamDesc& d) { return d.eos; });
}

}  // extern "C"
