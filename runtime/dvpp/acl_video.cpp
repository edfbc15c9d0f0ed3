// SPDX-License-Identifier: Apache-2.0
// C skin of VDEC and VENC (acl/ops/acl_dvpp.h: aclvdec*, aclvenc*): the channel and frame
// configuration descriptions, and the channel calls (model: runtime/dvpp/video_channel.h).
// Picture and stream descriptions (runtime/dvpp/descriptors.h) are read when the call is made and
// updated just before the callback that hands them back runs.
#include <cstring>
#include <memory>
#include <string>

#include "runtime/core/api_call.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/video_channel.h"
#include "runtime/core/errors.h"

using namespace npusim::rt;         // NOLINT(google-build-using-namespace): the C skin only
using namespace npusim::rt::dvpp;   // NOLINT(google-build-using-namespace)

struct aclvdecChannelDesc {
  VdecConfig config;
  std::uint32_t ref_frame_num = 0;
  std::uint32_t bit_depth = 0;
  std::uint32_t out_mode = 0;
  std::shared_ptr<VdecChannel> channel;  // between aclvdecCreateChannel and DestroyChannel
};

struct aclvdecFrameConfig {
  int reserved = 0;
};

struct aclvencChannelDesc {
  VencConfig config;
  std::uint32_t ip_prop = 0;
  std::shared_ptr<VencChannel> channel;
};

struct aclvencFrameConfig {
  std::uint8_t force_i_frame = 0;
  std::uint8_t eos = 0;
};

namespace {

template <class T>
T enum_value(int v) {
  T e;
  std::memcpy(&e, &v, sizeof e);
  return e;
}

/// A setter on a description: checks it and runs `set`.
template <class D, class F>
aclError set_field(const char* name, D* desc, F&& set) {
  return api_any(name, [&](Call&) {
    require_not_null(desc, "channelDesc");
    set(*desc);
  });
}

/// A getter: the field, or CANN's default `fallback` for a NULL description (plain host objects,
/// as the picture and stream descriptions' getters: no lock, no trace).
template <class T, class D, class F>
T get_field(const char* /*name*/, const D* desc, T fallback, F&& get) {
  return desc == nullptr ? fallback : get(*desc);
}

void check_stream_format(int v) {
  require(v >= H265_MAIN_LEVEL && v <= H264_HIGH_LEVEL, ACL_ERROR_INVALID_PARAM,
          "enType " + std::to_string(v) +
              " is not a stream format (0 = H.265 main, 1..3 = H.264 baseline/main/high)");
}

}  // namespace

extern "C" {

// ---- VDEC channel description ----

aclvdecChannelDesc* aclvdecCreateChannelDesc() {
  return api_value<aclvdecChannelDesc*>("aclvdecCreateChannelDesc", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvdecChannelDesc; });
}

aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc* channelDesc) {
  return api_any("aclvdecDestroyChannelDesc", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is still open: call aclvdecDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc* channelDesc, uint32_t channelId) {
  return set_field("aclvdecSetChannelDescChannelId", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.channel_id = channelId; });
}

aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc* channelDesc, uint64_t threadId) {
  return set_field("aclvdecSetChannelDescThreadId", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.thread = threadId; });
}

aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc* channelDesc, aclvdecCallback callback) {
  return set_field("aclvdecSetChannelDescCallback", channelDesc, [&](aclvdecChannelDesc& d) {
    require(callback != nullptr, ACL_ERROR_INVALID_PARAM, "callback is NULL");
    d.config.callback = callback;
  });
}

aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc* channelDesc, acldvppStreamFormat enType) {
  const int v = as_int(enType);
  return set_field("aclvdecSetChannelDescEnType", channelDesc, [&](aclvdecChannelDesc& d) {
    check_stream_format(v);
    d.config.en_type = v;
  });
}

aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc* channelDesc,
                                           acldvppPixelFormat outPicFormat) {
  const int v = as_int(outPicFormat);
  return set_field("aclvdecSetChannelDescOutPicFormat", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_format = v; });
}

aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc* channelDesc, uint32_t outPicWidth) {
  return set_field("aclvdecSetChannelDescOutPicWidth", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_width = outPicWidth; });
}

aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc* channelDesc, uint32_t outPicHeight) {
  return set_field("aclvdecSetChannelDescOutPicHeight", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_height = outPicHeight; });
}

aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc* channelDesc, uint32_t refFrameNum) {
  return set_field("aclvdecSetChannelDescRefFrameNum", channelDesc, [&](aclvdecChannelDesc& d) {
    require(refFrameNum <= 16, ACL_ERROR_INVALID_PARAM,
            "refFrameNum " + std::to_string(refFrameNum) + " is above 16");
    d.ref_frame_num = refFrameNum;
  });
}

aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc* channelDesc, uint32_t bitDepth) {
  return set_field("aclvdecSetChannelDescBitDepth", channelDesc, [&](aclvdecChannelDesc& d) {
    require(bitDepth == 0 || bitDepth == 1, ACL_ERROR_INVALID_PARAM,
            "bitDepth " + std::to_string(bitDepth) + " is not 0 (8 bits) or 1 (10 bits)");
    d.bit_depth = bitDepth;
  });
}

aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc* channelDesc, uint32_t outMode) {
  return set_field("aclvdecSetChannelDescOutMode", channelDesc, [&](aclvdecChannelDesc& d) {
    require(outMode <= 1, ACL_ERROR_INVALID_PARAM,
            "outMode " + std::to_string(outMode) + " is not 0 (default) or 1 (fast output)");
    d.out_mode = outMode;
  });
}

uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescChannelId", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.channel_id; });
}

uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint64_t>("aclvdecGetChannelDescThreadId", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.thread; });
}

aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc* channelDesc) {
  return get_field<aclvdecCallback>("aclvdecGetChannelDescCallback", channelDesc, nullptr,
                                    [](const aclvdecChannelDesc& d) { return d.config.callback; });
}

acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc* channelDesc) {
  return get_field<acldvppStreamFormat>(
      "aclvdecGetChannelDescEnType", channelDesc, H265_MAIN_LEVEL,
      [](const aclvdecChannelDesc& d) { return enum_value<acldvppStreamFormat>(d.config.en_type); });
}

acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc* channelDesc) {
  return get_field<acldvppPixelFormat>(
      "aclvdecGetChannelDescOutPicFormat", channelDesc, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
      [](const aclvdecChannelDesc& d) {
        return enum_value<acldvppPixelFormat>(d.config.out_format);
      });
}

uint32_t aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutPicWidth", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.out_width; });
}

uint32_t aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutPicHeight", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.out_height; });
}

uint32_t aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescRefFrameNum", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.ref_frame_num; });
}

uint32_t aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescBitDepth", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.bit_depth; });
}

uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutMode", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.out_mode; });
}

aclvdecFrameConfig* aclvdecCreateFrameConfig() {
  return api_value<aclvdecFrameConfig*>("aclvdecCreateFrameConfig", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvdecFrameConfig; });
}

aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig* vdecFrameConfig) {
  return api_any("aclvdecDestroyFrameConfig", [&](Call&) {
    require_not_null(vdecFrameConfig, "vdecFrameConfig");
    delete vdecFrameConfig;
  });
}

// ---- VDEC channel ----

aclError aclvdecCreateChannel(aclvdecChannelDesc* channelDesc) {
  return api("aclvdecCreateChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is already created");
    channelDesc->channel = VdecChannel::create(c, channelDesc->config);
  });
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc* channelDesc) {
  return api("aclvdecDestroyChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel was not created (aclvdecCreateChannel)");
    std::shared_ptr<VdecChannel> ch = channelDesc->channel;
    ch->destroy(c);
    channelDesc->channel.reset();
  });
}

aclError aclvdecSendFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                          acldvppPicDesc* output, aclvdecFrameConfig* config, void* userData) {
  (void)config;  // no per-frame settings
  const StreamInfo in = read_stream(input);
  const PicInfo out = read_pic(output);
  return api("aclvdecSendFrame", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel was not created (aclvdecCreateChannel)");
    require_not_null(input, "input");
    std::shared_ptr<VdecChannel> ch = channelDesc->channel;
    if (in.eos) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, out, userData, false);
  });
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                                 aclvdecFrameConfig* config, void* userData) {
  (void)config;
  const StreamInfo in = read_stream(input);
  return api("aclvdecSendSkippedFrame", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel was not created (aclvdecCreateChannel)");
    require_not_null(input, "input");
    std::shared_ptr<VdecChannel> ch = channelDesc->channel;
    if (in.eos) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, PicInfo{}, userData, true);
  });
}

// ---- VENC channel description ----

aclvencChannelDesc* aclvencCreateChannelDesc() {
  return api_value<aclvencChannelDesc*>("aclvencCreateChannelDesc", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvencChannelDesc; });
}

aclError aclvencDestroyChannelDesc(aclvencChannelDesc* channelDesc) {
  return api_any("aclvencDestroyChannelDesc", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is still open: call aclvencDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc* channelDesc, uint64_t threadId) {
  return set_field("aclvencSetChannelDescThreadId", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.thread = threadId; });
}

aclError aclvencSetChannelDescCallback(aclvencChannelDesc* channelDesc, aclvencCallback callback) {
  return set_field("aclvencSetChannelDescCallback", channelDesc, [&](aclvencChannelDesc& d) {
    require(callback != nullptr, ACL_ERROR_INVALID_PARAM, "callback is NULL");
    d.config.callback = callback;
  });
}

aclError aclvencSetChannelDescEnType(aclvencChannelDesc* channelDesc, acldvppStreamFormat enType) {
  const int v = as_int(enType);
  return set_field("aclvencSetChannelDescEnType", channelDesc, [&](aclvencChannelDesc& d) {
    check_stream_format(v);
    d.config.en_type = v;
  });
}

aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc* channelDesc,
                                        acldvppPixelFormat picFormat) {
  const int v = as_int(picFormat);
  return set_field("aclvencSetChannelDescPicFormat", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.pic_format = v; });
}

aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc* channelDesc, uint32_t picWidth) {
  return set_field("aclvencSetChannelDescPicWidth", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.width = picWidth; });
}

aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc* channelDesc, uint32_t picHeight) {
  return set_field("aclvencSetChannelDescPicHeight", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.height = picHeight; });
}

aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc* channelDesc,
                                               uint32_t keyFrameInterval) {
  return set_field("aclvencSetChannelDescKeyFrameInterval", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.key_frame_interval = keyFrameInterval; });
}

aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc* channelDesc, void* bufAddr) {
  return set_field("aclvencSetChannelDescBufAddr", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.buf_addr = bufAddr; });
}

aclError aclvencSetChannelDescBufSize(aclvencChannelDesc* channelDesc, uint32_t bufSize) {
  return set_field("aclvencSetChannelDescBufSize", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.buf_size = bufSize; });
}

aclError aclvencSetChannelDescRcMode(aclvencChannelDesc* channelDesc, uint32_t rcMode) {
  return set_field("aclvencSetChannelDescRcMode", channelDesc, [&](aclvencChannelDesc& d) {
    require(rcMode <= 2, ACL_ERROR_INVALID_PARAM,
            "rcMode " + std::to_string(rcMode) + " is not 0 (default), 1 (VBR) or 2 (CBR)");
    d.config.rc_mode = rcMode;
  });
}

aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc* channelDesc, uint32_t srcRate) {
  return set_field("aclvencSetChannelDescSrcRate", channelDesc, [&](aclvencChannelDesc& d) {
    require(srcRate <= 120, ACL_ERROR_INVALID_PARAM,
            "srcRate " + std::to_string(srcRate) + " is above 120 frames per second");
    d.config.src_rate = srcRate;
  });
}

aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc* channelDesc, uint32_t maxBitRate) {
  return set_field("aclvencSetChannelDescMaxBitRate", channelDesc, [&](aclvencChannelDesc& d) {
    require(maxBitRate <= 614400, ACL_ERROR_INVALID_PARAM,
            "maxBitRate " + std::to_string(maxBitRate) + " kbit/s is above 614400");
    d.config.max_bit_rate = maxBitRate;
  });
}

void* aclvencGetChannelDescBufAddr(const aclvencChannelDesc* channelDesc) {
  return get_field<void*>("aclvencGetChannelDescBufAddr", channelDesc, nullptr,
                          [](const aclvencChannelDesc& d) { return d.config.buf_addr; });
}

uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescBufSize", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.buf_size; });
}

uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescChannelId", channelDesc, 0u,
                             [](const aclvencChannelDesc&) { return 0u; });
}

uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc* channelDesc) {
  return get_field<uint64_t>("aclvencGetChannelDescThreadId", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.thread; });
}

aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc* channelDesc) {
  return get_field<aclvencCallback>("aclvencGetChannelDescCallback", channelDesc, nullptr,
                                    [](const aclvencChannelDesc& d) { return d.config.callback; });
}

acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc* channelDesc) {
  return get_field<acldvppStreamFormat>(
      "aclvencGetChannelDescEnType", channelDesc, H265_MAIN_LEVEL,
      [](const aclvencChannelDesc& d) { return enum_value<acldvppStreamFormat>(d.config.en_type); });
}

acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc* channelDesc) {
  return get_field<acldvppPixelFormat>(
      "aclvencGetChannelDescPicFormat", channelDesc, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
      [](const aclvencChannelDesc& d) {
        return enum_value<acldvppPixelFormat>(d.config.pic_format);
      });
}

uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescPicWidth", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.width; });
}

uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescPicHeight", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.height; });
}

uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescKeyFrameInterval", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.key_frame_interval; });
}

uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescRcMode", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.rc_mode; });
}

uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescSrcRate", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.src_rate; });
}

uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescMaxBitRate", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.max_bit_rate; });
}

aclError aclvencSetChannelDescParam(aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    const void* param) {
  const int type = as_int(paramType);
  return set_field("aclvencSetChannelDescParam", channelDesc, [&](aclvencChannelDesc& d) {
    require_not_null(param, "param");
    auto take = [&](auto& field) {
      require(length == sizeof field, ACL_ERROR_INVALID_PARAM,
              "length " + std::to_string(length) + " differs from the parameter's size " +
                  std::to_string(sizeof field));
      std::memcpy(&field, param, sizeof field);
    };
    switch (type) {
      case ACL_VENC_THREAD_ID_UINT64: take(d.config.thread); break;
      case ACL_VENC_CALLBACK_PTR: take(d.config.callback); break;
      case ACL_VENC_PIXEL_FORMAT_UINT32: take(d.config.pic_format); break;
      case ACL_VENC_ENCODE_TYPE_UINT32: {
        int v = 0;
        take(v);
        check_stream_format(v);
        d.config.en_type = v;
        break;
      }
      case ACL_VENC_PIC_WIDTH_UINT32: take(d.config.width); break;
      case ACL_VENC_PIC_HEIGHT_UINT32: take(d.config.height); break;
      case ACL_VENC_KEY_FRAME_INTERVAL_UINT32: take(d.config.key_frame_interval); break;
      case ACL_VENC_BUF_ADDR_PTR: take(d.config.buf_addr); break;
      case ACL_VENC_BUF_SIZE_UINT32: take(d.config.buf_size); break;
      case ACL_VENC_RC_MODE_UINT32: take(d.config.rc_mode); break;
      case ACL_VENC_SRC_RATE_UINT32: take(d.config.src_rate); break;
      case ACL_VENC_MAX_BITRATE_UINT32: take(d.config.max_bit_rate); break;
      case ACL_VENC_MAX_IP_PROP_UINT32: take(d.ip_prop); break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "paramType " + std::to_string(type) + " is unknown");
    }
  });
}

aclError aclvencGetChannelDescParam(const aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    size_t* paramRetSize, void* param) {
  const int type = as_int(paramType);
  return api_any("aclvencGetChannelDescParam", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require_not_null(paramRetSize, "paramRetSize");
    require_not_null(param, "param");
    const aclvencChannelDesc& d = *channelDesc;
    auto give = [&](const auto& field) {
      require(length >= sizeof field, ACL_ERROR_INVALID_PARAM,
              "length " + std::to_string(length) + " is below the parameter's size " +
                  std::to_string(sizeof field));
      std::memcpy(param, &field, sizeof field);
      *paramRetSize = sizeof field;
    };
    switch (type) {
      case ACL_VENC_THREAD_ID_UINT64: give(d.config.thread); break;
      case ACL_VENC_CALLBACK_PTR: give(d.config.callback); break;
      case ACL_VENC_PIXEL_FORMAT_UINT32: give(d.config.pic_format); break;
      case ACL_VENC_ENCODE_TYPE_UINT32: give(d.config.en_type); break;
      case ACL_VENC_PIC_WIDTH_UINT32: give(d.config.width); break;
      case ACL_VENC_PIC_HEIGHT_UINT32: give(d.config.height); break;
      case ACL_VENC_KEY_FRAME_INTERVAL_UINT32: give(d.config.key_frame_interval); break;
      case ACL_VENC_BUF_ADDR_PTR: give(d.config.buf_addr); break;
      case ACL_VENC_BUF_SIZE_UINT32: give(d.config.buf_size); break;
      case ACL_VENC_RC_MODE_UINT32: give(d.config.rc_mode); break;
      case ACL_VENC_SRC_RATE_UINT32: give(d.config.src_rate); break;
      case ACL_VENC_MAX_BITRATE_UINT32: give(d.config.max_bit_rate); break;
      case ACL_VENC_MAX_IP_PROP_UINT32: give(d.ip_prop); break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "paramType " + std::to_string(type) + " is unknown");
    }
  });
}

// ---- VENC frame configuration ----

aclvencFrameConfig* aclvencCreateFrameConfig() {
  return api_value<aclvencFrameConfig*>("aclvencCreateFrameConfig", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvencFrameConfig; });
}

aclError aclvencDestroyFrameConfig(aclvencFrameConfig* config) {
  return api_any("aclvencDestroyFrameConfig", [&](Call&) {
    require_not_null(config, "config");
    delete config;
  });
}

aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig* config, uint8_t forceIFrame) {
  return api_any("aclvencSetFrameConfigForceIFrame", [&](Call&) {
    require_not_null(config, "config");
    require(forceIFrame <= 1, ACL_ERROR_INVALID_PARAM, "forceIFrame must be 0 or 1");
    config->force_i_frame = forceIFrame;
  });
}

aclError aclvencSetFrameConfigEos(aclvencFrameConfig* config, uint8_t eos) {
  return api_any("aclvencSetFrameConfigEos", [&](Call&) {
    require_not_null(config, "config");
    require(eos <= 1, ACL_ERROR_INVALID_PARAM, "eos must be 0 or 1");
    config->eos = eos;
  });
}

uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig* config) {
  return config == nullptr ? 0 : config->force_i_frame;
}

uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig* config) {
  return config == nullptr ? 0 : config->eos;
}

// ---- VENC channel ----

aclError aclvencCreateChannel(aclvencChannelDesc* channelDesc) {
  auto out = std::make_unique<acldvppStreamDesc>();  // what the callbacks get
  bool made = false;
  const aclError rc = api("aclvencCreateChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is already created");
    channelDesc->channel = VencChannel::create(c, channelDesc->config, out.get());
    made = true;
  });
  if (made) (void)out.release();  // the channel's until aclvencDestroyChannel
  return rc;
}

aclError aclvencDestroyChannel(aclvencChannelDesc* channelDesc) {
  acldvppStreamDesc* out = nullptr;
  const aclError rc = api("aclvencDestroyChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel was not created (aclvencCreateChannel)");
    std::shared_ptr<VencChannel> ch = channelDesc->channel;
    ch->destroy(c);
    out = ch->out_desc();
    channelDesc->channel.reset();
  });
  delete out;
  return rc;
}

aclError aclvencSendFrame(aclvencChannelDesc* channelDesc, acldvppPicDesc* input, void* reserve,
                          aclvencFrameConfig* config, void* userdata) {
  (void)reserve;  // reserved by CANN
  const PicInfo in = read_pic(input);
  return api("aclvencSendFrame", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel was not created (aclvencCreateChannel)");
    require_not_null(config, "config");
    std::shared_ptr<VencChannel> ch = channelDesc->channel;
    if (config->eos != 0) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, config->force_i_frame != 0, userdata);
  });
}

}  // extern "C"
