// SPDX-License-Identifier: Apache-2.0
// The DVPP image calls: channels, JPEG/PNG queries, JPEGD, JPEGE, PNGD and the VPC (resize, crop,
// crop-and-paste, batch crop, colour conversion). Checks follow CANN's documented constraints and
// fail with ACL_ERROR_INVALID_PARAM (100000); a module the chip lacks fails with
// ACL_ERROR_FEATURE_UNSUPPORTED (200006). Work goes to the DVPP unit (dvpp_task.h); the pixels
// are computed by image_ops.h when the task ends in simulated time.
//
// Picture rules checked (CANN "media data processing V1", VPC/JPEGD/JPEGE constraints):
//  - VPC input/output: YUV420SP NV12/NV21 (colour conversion also RGB888/BGR888); width in
//    [10, 4096], height in [6, 4096]; widthStride a multiple of 16 and >= width (RGB: >= 3 x
//    width); heightStride a multiple of 2 and >= height; size >= widthStride x heightStride x 3/2
//    (RGB: x 1); data inside one device allocation of that size.
//  - crop ROI: left and top even, right and bottom odd, inside the input, at least 10 x 6;
//    paste ROI: left a multiple of 16, top even, right/bottom odd, inside the output; the
//    output (paste area, or the whole output picture) 1/32 to 16 times the crop per direction.
//  - JPEGD output: widthStride a multiple of 64 on 310P (npu_arch 2002) and of 128 elsewhere,
//    heightStride a multiple of 16, both covering the image; the decoded picture's width/height
//    are written back to the output description (size = widthStride x heightStride x 3/2).
//    Input: baseline Huffman JPEG (not progressive, not arithmetic), 32x32 .. 8192x8192.
//  - A JPEG/PNG whose data turns out corrupt or truncated while decoding (a JPEG cut short, or
//    whose frame header claims more pixels than its data holds) fails the task: the stream's
//    synchronize returns ACL_ERROR_RT_INTERNAL_ERROR (507000) and the output description's
//    retCode (acldvppGetPicDescRetCode) is 1. The output description may be destroyed before
//    the synchronize: the task then drops its results (pic_desc_link.h).
//  - JPEGE input: YUV420SP, 32x32 .. 8192x8192, widthStride multiple of 16, heightStride of 2.
//  - PNGD output: RGB888 (or RGBA8888), widthStride a multiple of 128 covering 3 (4) x width,
//    heightStride a multiple of 16.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/core/api_call.h"
#include "runtime/core/context.h"
#include "runtime/dvpp/codec_loader.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/dvpp_task.h"
#include "runtime/dvpp/image_ops.h"
#include "runtime/dvpp/pic_desc_link.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/runtime.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using npusim::models::DvppModule;
using npusim::rt::dvpp::Image;
using npusim::rt::dvpp::Rect;

namespace {

std::atomic<std::uint64_t> g_next_channel{1};

std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

std::uint32_t channel_bit(DvppModule m) {
  switch (m) {
    case DvppModule::kVpc:
      return DVPP_CHNMODE_VPC;
    case DvppModule::kJpegd:
      return DVPP_CHNMODE_JPEGD;
    case DvppModule::kJpege:
      return DVPP_CHNMODE_JPEGE;
    case DvppModule::kPngd:
      return DVPP_CHNMODE_PNGD;
    default:
      return 0;
  }
}

/// The channel runs `module`'s work: created, its mode includes the module, the chip has it.
void check_channel(Call& c, const acldvppChannelDesc* ch, DvppModule module, const char* api) {
  require_not_null(ch, "channelDesc");
  require(ch->created, ACL_ERROR_INVALID_PARAM,
          "channelDesc was not created with acldvppCreateChannel (or was destroyed)");
  require(ch->mode == 0 || (ch->mode & channel_bit(module)) != 0, ACL_ERROR_INVALID_PARAM,
          std::string("the channel's mode does not include ") +
              npusim::models::dvpp_module_name(module));
  dvpp::check_module(c, module, api);
}

/// A device range the task will touch: checked now, re-checked (alive) when the task runs.
struct Range {
  std::uint64_t serial = 0;
};

Range device_range(Call& c, const void* p, std::uint64_t bytes, const std::string& what) {
  require(p != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const Allocation* a = c.runtime().memory().find(p);
  require(a != nullptr && (a->kind == MemKind::kDevice || a->kind == MemKind::kManaged),
          ACL_ERROR_INVALID_PARAM, what + " is not device memory (allocate it with acldvppMalloc)");
  const std::uint32_t device = c.context().device;
  require(a->device == device, ACL_ERROR_INVALID_PARAM,
          what + " is memory of device " + std::to_string(a->device) +
              ", not of the current device " + std::to_string(device));
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), bytes), ACL_ERROR_INVALID_PARAM,
          what + " + " + std::to_string(bytes) + " bytes runs past the end of its allocation");
  return Range{a->serial};
}

bool yuv420sp(std::uint32_t f) {
  return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

Image::Kind kind_of(std::uint32_t f) {
  switch (f) {
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
      return Image::kNv21;
    case PIXEL_FORMAT_RGB_888:
      return Image::kRgb;
    case PIXEL_FORMAT_BGR_888:
      return Image::kBgr;
    case PIXEL_FORMAT_RGBA_8888:
      return Image::kRgba;
    default:
      return Image::kNv12;
  }
}

/// Bytes a picture of `kind` occupies with these strides.
std::uint64_t picture_bytes(Image::Kind kind, std::uint32_t ws, std::uint32_t hs) {
  const std::uint64_t plane = static_cast<std::uint64_t>(ws) * hs;
  return kind == Image::kNv12 || kind == Image::kNv21 ? plane * 3 / 2 : plane;
}

struct Pic {
  Image image;
  Range range;
};

/// The picture `d` describes as an image of `kind`, `width` x `height` (its strides and data).
Image image_of(const acldvppPicDesc& d, Image::Kind kind, std::uint32_t width,
               std::uint32_t height) {
  Image img;
  img.kind = kind;
  img.data = static_cast<std::uint8_t*>(d.data);
  img.width = width;
  img.height = height;
  img.width_stride = d.width_stride;
  img.height_stride = d.height_stride;
  return img;
}

/// A VPC picture (see the file comment); `rgb_ok`: RGB888/BGR888 are accepted too.
Pic vpc_picture(Call& c, const acldvppPicDesc* d, const std::string& what, bool rgb_ok) {
  require(d != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const bool rgb = d->format == PIXEL_FORMAT_RGB_888 || d->format == PIXEL_FORMAT_BGR_888;
  require(yuv420sp(d->format) || (rgb_ok && rgb), ACL_ERROR_INVALID_PARAM,
          what + ": format " + std::to_string(d->format) +
              (rgb_ok ? " is not YUV420SP (1, 2) or RGB888/BGR888 (12, 13)"
                      : " is not YUV420SP NV12 (1) or NV21 (2)"));
  require(d->width >= 10 && d->width <= 4096 && d->height >= 6 && d->height <= 4096,
          ACL_ERROR_INVALID_PARAM,
          what + ": " + std::to_string(d->width) + "x" + std::to_string(d->height) +
              " is outside [10, 4096] x [6, 4096]");
  const std::uint32_t row = rgb ? 3 * d->width : d->width;
  require(d->width_stride % 16 == 0 && d->width_stride >= row, ACL_ERROR_INVALID_PARAM,
          what + ": widthStride " + std::to_string(d->width_stride) +
              " must be a multiple of 16 and at least " + std::to_string(row));
  require(d->height_stride % 2 == 0 && d->height_stride >= d->height, ACL_ERROR_INVALID_PARAM,
          what + ": heightStride " + std::to_string(d->height_stride) +
              " must be a multiple of 2 and at least the height " + std::to_string(d->height));
  Pic p;
  p.image = image_of(*d, kind_of(d->format), d->width, d->height);
  const std::uint64_t bytes = picture_bytes(p.image.kind, d->width_stride, d->height_stride);
  require(d->size >= bytes, ACL_ERROR_INVALID_PARAM,
          what + ": size " + std::to_string(d->size) + " is smaller than the picture's " +
              std::to_string(bytes) + " bytes");
  p.range = device_range(c, d->data, bytes, what + " data");
  return p;
}

Rect roi(const acldvppRoiConfig* r, const std::string& what, const Image& pic, bool paste) {
  require(r != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const Rect rect{r->left, r->right, r->top, r->bottom};
  require(r->right > r->left && r->bottom > r->top, ACL_ERROR_INVALID_PARAM,
          what + ": right/bottom must be greater than left/top");
  require(paste ? r->left % 16 == 0 : r->left % 2 == 0, ACL_ERROR_INVALID_PARAM,
          what + ": left " + std::to_string(r->left) +
              (paste ? " must be a multiple of 16" : " must be even"));
  require(r->top % 2 == 0 && r->right % 2 == 1 && r->bottom % 2 == 1, ACL_ERROR_INVALID_PARAM,
          what + ": top must be even, right and bottom odd");
  require(r->right < pic.width && r->bottom < pic.height, ACL_ERROR_INVALID_PARAM,
          what + " (" + std::to_string(r->left) + ".." + std::to_string(r->right) + " x " +
              std::to_string(r->top) + ".." + std::to_string(r->bottom) + ") is not inside the " +
              std::to_string(pic.width) + "x" + std::to_string(pic.height) + " picture");
  require(rect.width() >= 10 && rect.height() >= 6, ACL_ERROR_INVALID_PARAM,
          what + " is smaller than 10x6");
  return rect;
}

dvpp::Interp interp_of(const acldvppResizeConfig* cfg) {
  require(cfg != nullptr, ACL_ERROR_INVALID_PARAM, "resizeConfig is NULL");
  return cfg->interpolation == 2 ? dvpp::Interp::kNearest : dvpp::Interp::kBilinear;
}

/// One crop (+resize) (+paste) of the VPC.
struct VpcJob {
  Pic in, out;
  Rect crop, paste;
};

dvpp::DvppFrame vpc_frame(const VpcJob& j) {
  return dvpp::frame(j.crop.width(), j.crop.height(),
                     picture_bytes(j.in.image.kind, j.crop.width(), j.crop.height()),
                     j.paste.width(), j.paste.height(),
                     picture_bytes(j.out.image.kind, j.paste.width(), j.paste.height()));
}

/// CANN's VPC scaling range: the output is 1/32 to 16 times the crop in each direction.
void check_scale(const VpcJob& j) {
  const std::uint64_t cw = j.crop.width(), ch = j.crop.height();
  const std::uint64_t pw = j.paste.width(), ph = j.paste.height();
  require(pw * 32 >= cw && pw <= cw * 16 && ph * 32 >= ch && ph <= ch * 16,
          ACL_ERROR_INVALID_PARAM,
          "scaling " + std::to_string(cw) + "x" + std::to_string(ch) + " to " +
              std::to_string(pw) + "x" + std::to_string(ph) +
              " is outside the VPC's [1/32, 16] range per direction");
}

void submit_vpc(Call& c, void* stream, std::vector<VpcJob> jobs, dvpp::Interp interp,
                const char* name) {
  std::vector<dvpp::DvppFrame> frames;
  for (const VpcJob& j : jobs) {
    check_scale(j);
    frames.push_back(vpc_frame(j));
  }
  const MemoryRegistry* mem = &c.runtime().memory();
  dvpp::submit(c, stream, DvppModule::kVpc, std::move(frames), name,
               [mem, jobs = std::move(jobs), interp]() -> int {
                 for (const VpcJob& j : jobs) {
                   if (!mem->alive(j.in.range.serial) || !mem->alive(j.out.range.serial)) {
                     return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // freed before the task ran
                   }
                 }
                 for (const VpcJob& j : jobs) {
                   dvpp::resize_yuv420sp(j.in.image, j.crop, j.out.image, j.paste, interp);
                 }
                 return 0;
               });
}

Rect whole(const Image& img) { return Rect{0, img.width - 1, 0, img.height - 1}; }

// ---- JPEG ----

std::uint32_t jpegd_width_align(const Call& c) {
  return c.config().soc.npu_arch == 2002 ? 64 : 128;
}

dvpp::JpegInfo checked_jpeg(const void* data, std::uint32_t size) {
  require(data != nullptr, ACL_ERROR_INVALID_PARAM, "data is NULL");
  require(size > 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  dvpp::JpegInfo info;
  std::string why;
  require(dvpp::jpeg_info(data, size, info, why), ACL_ERROR_INVALID_PARAM, why);
  return info;
}

void check_decodable(const dvpp::JpegInfo& info) {
  require(!info.progressive && !info.arithmetic, ACL_ERROR_INVALID_PARAM,
          "JPEGD decodes Huffman-coded baseline JPEGs only (this one is progressive or "
          "arithmetic-coded)");
  require(info.sampling != dvpp::JpegSampling::kUnknown, ACL_ERROR_INVALID_PARAM,
          "the JPEG's colour space/subsampling is not one JPEGD decodes (YUV 444/422/420/440/"
          "400)");
  require(info.width >= 32 && info.width <= 8192 && info.height >= 32 && info.height <= 8192,
          ACL_ERROR_INVALID_PARAM,
          "the JPEG is " + std::to_string(info.width) + "x" + std::to_string(info.height) +
              ", outside JPEGD's [32, 8192] x [32, 8192]");
}

}  // namespace

extern "C" {

aclError acldvppCreateChannel(acldvppChannelDesc* channelDesc) {
  return api("acldvppCreateChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    c.context();  // a current context is needed, as for every device resource
    require(!channelDesc->created, ACL_ERROR_INVALID_PARAM, "the channel is already created");
    const DvppModule image_modules[] = {DvppModule::kVpc, DvppModule::kJpegd, DvppModule::kJpege,
                                        DvppModule::kPngd};
    bool any = false;
    for (DvppModule m : image_modules) {
      if (channelDesc->mode != 0 && (channelDesc->mode & channel_bit(m)) != 0) {
        dvpp::check_module(c, m, "acldvppCreateChannel");
      }
      any = any || dvpp::has_module(c.config(), m);
    }
    require(any, ACL_ERROR_FEATURE_UNSUPPORTED,
            "acldvppCreateChannel: " + c.config().soc.name + " has no DVPP image modules");
    channelDesc->id = g_next_channel.fetch_add(1);
    channelDesc->created = true;
  });
}

aclError acldvppDestroyChannel(acldvppChannelDesc* channelDesc) {
  return api("acldvppDestroyChannel", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->created, ACL_ERROR_INVALID_PARAM, "the channel was not created");
    channelDesc->created = false;
  });
}

aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                 int32_t* components) {
  return api_any("acldvppJpegGetImageInfo", [&](Call&) {
    const dvpp::JpegInfo info = checked_jpeg(data, size);
    if (width != nullptr) *width = info.width;
    if (height != nullptr) *height = info.height;
    if (components != nullptr) *components = info.components;
  });
}

aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width,
                                   uint32_t* height, int32_t* components,
                                   acldvppJpegFormat* format) {
  return api_any("acldvppJpegGetImageInfoV2", [&](Call&) {
    const dvpp::JpegInfo info = checked_jpeg(data, size);
    if (width != nullptr) *width = info.width;
    if (height != nullptr) *height = info.height;
    if (components != nullptr) *components = info.components;
    if (format != nullptr) *format = static_cast<acldvppJpegFormat>(info.sampling);
  });
}

aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize,
                                   acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
  const int f = as_int(outputPixelFormat);
  return api("acldvppJpegPredictDecSize", [&](Call& c) {
    require_not_null(decSize, "decSize");
    const dvpp::JpegInfo info = checked_jpeg(data, dataSize);
    require(yuv420sp(static_cast<std::uint32_t>(f)) || f == PIXEL_FORMAT_UNKNOWN,
            ACL_ERROR_INVALID_PARAM,
            "outputPixelFormat " + std::to_string(f) +
                " is not one npusim's JPEGD writes (YUV420SP NV12/NV21, or UNKNOWN for a 4:2:0 "
                "source)");
    *decSize = static_cast<uint32_t>(picture_bytes(
        Image::kNv12, align_up(info.width, jpegd_width_align(c)), align_up(info.height, 16)));
  });
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api("acldvppJpegDecodeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kJpegd, "acldvppJpegDecodeAsync");
    const Range in = device_range(c, data, size, "data");
    const dvpp::JpegInfo info = checked_jpeg(data, size);
    check_decodable(info);
    require_not_null(outputDesc, "outputDesc");
    acldvppPicDesc& o = *outputDesc;
    std::uint32_t format = o.format;
    if (format == PIXEL_FORMAT_UNKNOWN) {
      require(info.sampling == dvpp::JpegSampling::k420, ACL_ERROR_INVALID_PARAM,
              "outputDesc format UNKNOWN (the source's format) is supported for 4:2:0 JPEGs only");
      format = PIXEL_FORMAT_YVU_SEMIPLANAR_420;  // CANN: the source's sampling, V before U
    }
    require(yuv420sp(format), ACL_ERROR_INVALID_PARAM,
            "outputDesc format " + std::to_string(o.format) +
                " is not YUV420SP NV12 (1) / NV21 (2) (or UNKNOWN)");
    const std::uint32_t wa = jpegd_width_align(c);
    require(o.width_stride % wa == 0 && o.width_stride >= info.width, ACL_ERROR_INVALID_PARAM,
            "outputDesc widthStride " + std::to_string(o.width_stride) + " must be a multiple of " +
                std::to_string(wa) + " covering the image width " + std::to_string(info.width));
    require(o.height_stride % 16 == 0 && o.height_stride >= info.height, ACL_ERROR_INVALID_PARAM,
            "outputDesc heightStride " + std::to_string(o.height_stride) +
                " must be a multiple of 16 covering the image height " +
                std::to_string(info.height));
    const std::uint64_t bytes = picture_bytes(Image::kNv12, o.width_stride, o.height_stride);
    require(o.size >= bytes, ACL_ERROR_INVALID_PARAM,
            "outputDesc size " + std::to_string(o.size) + " is smaller than the " +
                std::to_string(bytes) + " bytes of the decoded picture");
    const Range out = device_range(c, o.data, bytes, "outputDesc data");
    const Image img = image_of(o, kind_of(format), info.width, info.height);
    const MemoryRegistry* mem = &c.runtime().memory();
    auto desc = dvpp::link_pic_desc(outputDesc);  // the program may destroy it before the task
    dvpp::submit(c, stream, DvppModule::kJpegd,
                 {dvpp::frame(info.width, info.height, size, info.width, info.height, bytes)},
                 "JPEGD", [mem, in, out, data, size, img, desc, format, bytes]() -> int {
                   if (!mem->alive(in.serial) || !mem->alive(out.serial)) {
                     return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                   }
                   std::string why;
                   // Corrupt or truncated entropy-coded data, or less of it than the frame
                   // header's size needs: retCode 1 and a failed task.
                   const bool ok = dvpp::jpeg_decode(data, size, img, why);
                   desc->write([&](acldvppPicDesc& d) {
                     d.ret_code = ok ? 0 : 1;
                     if (!ok) return;
                     d.format = format;
                     d.width = img.width;
                     d.height = img.height;
                     d.size = static_cast<std::uint32_t>(bytes);
                   });
                   return ok ? 0 : ACL_ERROR_RT_INTERNAL_ERROR;
                 });
  });
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc* inputDesc,
                                   const acldvppJpegeConfig* config, uint32_t* size) {
  return api_any("acldvppJpegPredictEncSize", [&](Call&) {
    require_not_null(inputDesc, "inputDesc");
    require_not_null(config, "config");
    require_not_null(size, "size");
    require(inputDesc->width > 0 && inputDesc->height > 0, ACL_ERROR_INVALID_PARAM,
            "inputDesc width/height is 0");
    // An upper bound of a baseline 4:2:0 JPEG of any content at any quality: twice the raw
    // 4:2:0 picture plus headers (npusim's bound; CANN's formula is not documented).
    const std::uint64_t raw = picture_bytes(Image::kNv12, align_up(inputDesc->width, 16),
                                            align_up(inputDesc->height, 16));
    *size = static_cast<uint32_t>(std::min<std::uint64_t>(2 * raw + 4096, UINT32_MAX));
  });
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                const void* data, uint32_t* size, acldvppJpegeConfig* config,
                                aclrtStream stream) {
  return api("acldvppJpegEncodeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kJpege, "acldvppJpegEncodeAsync");
    require_not_null(inputDesc, "inputDesc");
    require_not_null(size, "size");
    require_not_null(config, "config");
    require(inputDesc->width >= 32 && inputDesc->width <= 8192 && inputDesc->height >= 32 &&
                inputDesc->height <= 8192,
            ACL_ERROR_INVALID_PARAM, "inputDesc is outside JPEGE's [32, 8192] x [32, 8192]");
    const Pic in = [&] {
      acldvppPicDesc probe = *inputDesc;  // the VPC rules minus its 4096 limit
      probe.width = std::min<std::uint32_t>(probe.width, 4096);
      probe.height = std::min<std::uint32_t>(probe.height, 4096);
      Pic p = vpc_picture(c, &probe, "inputDesc", false);
      require(inputDesc->width_stride >= inputDesc->width &&
                  inputDesc->height_stride >= inputDesc->height,
              ACL_ERROR_INVALID_PARAM,
              "inputDesc: widthStride/heightStride must cover the width/height");
      p.image.width = inputDesc->width;
      p.image.height = inputDesc->height;
      return p;
    }();
    require(*size > 0, ACL_ERROR_INVALID_PARAM, "*size (the output buffer's size) is 0");
    const Range out = device_range(c, data, *size, "data");
    const int quality = std::max<int>(1, static_cast<int>(config->level));
    const MemoryRegistry* mem = &c.runtime().memory();
    void* dst = const_cast<void*>(data);
    const std::uint32_t capacity = *size;
    uint32_t* size_out = size;
    // The encoded size is known only after encoding: the write is timed at the raw 4:2:0
    // picture's size (an upper bound for practically every JPEG), capped by the buffer.
    const std::uint64_t raw =
        picture_bytes(in.image.kind, in.image.width_stride, in.image.height_stride);
    dvpp::require_codecs();  // the encoder (codec_loader.h): fail now, not in the task
    dvpp::submit(c, stream, DvppModule::kJpege,
                 {dvpp::frame(in.image.width, in.image.height, raw, in.image.width, in.image.height,
                              std::min<std::uint64_t>(raw, capacity))},
                 "JPEGE", [mem, in, out, dst, capacity, size_out, quality]() -> int {
                   if (!mem->alive(in.range.serial) || !mem->alive(out.serial)) {
                     return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                   }
                   std::size_t written = 0;
                   std::string why;
                   if (!dvpp::jpeg_encode(in.image, quality, dst, capacity, written, why)) {
                     return ACL_ERROR_RT_INTERNAL_ERROR;
                   }
                   *size_out = static_cast<uint32_t>(written);
                   return 0;
                 });
  });
}

// ---- PNG ----

aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width,
                                uint32_t* height, int32_t* components) {
  return api_any("acldvppPngGetImageInfo", [&](Call&) {
    require(data != nullptr && dataSize > 0, ACL_ERROR_INVALID_PARAM, "data is NULL or empty");
    dvpp::PngInfo info;
    std::string why;
    require(dvpp::png_info(data, dataSize, info, why), ACL_ERROR_INVALID_PARAM, why);
    if (width != nullptr) *width = info.width;
    if (height != nullptr) *height = info.height;
    if (components != nullptr) *components = info.components;
  });
}

aclError acldvppPngPredictDecSize(const void* data, uint32_t dataSize,
                                  acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
  const int f = as_int(outputPixelFormat);
  return api_any("acldvppPngPredictDecSize", [&](Call&) {
    require_not_null(decSize, "decSize");
    require(data != nullptr && dataSize > 0, ACL_ERROR_INVALID_PARAM, "data is NULL or empty");
    dvpp::PngInfo info;
    std::string why;
    require(dvpp::png_info(data, dataSize, info, why), ACL_ERROR_INVALID_PARAM, why);
    int bpp = 0;
    if (f == PIXEL_FORMAT_RGB_888) bpp = 3;
    if (f == PIXEL_FORMAT_RGBA_8888) bpp = 4;
    if (f == PIXEL_FORMAT_UNKNOWN) bpp = info.components == 2 || info.components == 4 ? 4 : 3;
    require(bpp != 0, ACL_ERROR_INVALID_PARAM,
            "outputPixelFormat " + std::to_string(f) + " is not RGB888, RGBA8888 or UNKNOWN");
    *decSize = align_up(bpp * info.width, 128) * align_up(info.height, 16);
  });
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                               acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api("acldvppPngDecodeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kPngd, "acldvppPngDecodeAsync");
    const Range in = device_range(c, data, size, "data");
    dvpp::PngInfo info;
    std::string why;
    require(dvpp::png_info(data, size, info, why), ACL_ERROR_INVALID_PARAM, why);
    require_not_null(outputDesc, "outputDesc");
    acldvppPicDesc& o = *outputDesc;
    std::uint32_t format = o.format;
    if (format == PIXEL_FORMAT_UNKNOWN) {
      format = info.components == 2 || info.components == 4 ? PIXEL_FORMAT_RGBA_8888
                                                            : PIXEL_FORMAT_RGB_888;
    }
    require(format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_RGBA_8888,
            ACL_ERROR_INVALID_PARAM, "outputDesc format must be RGB888, RGBA8888 or UNKNOWN");
    const std::uint32_t bpp = format == PIXEL_FORMAT_RGBA_8888 ? 4 : 3;
    require(
        o.width_stride % 128 == 0 && o.width_stride >= bpp * info.width, ACL_ERROR_INVALID_PARAM,
        "outputDesc widthStride " + std::to_string(o.width_stride) +
            " must be a multiple of 128 covering " + std::to_string(bpp * info.width) + " bytes");
    require(o.height_stride % 16 == 0 && o.height_stride >= info.height, ACL_ERROR_INVALID_PARAM,
            "outputDesc heightStride must be a multiple of 16 covering the image height");
    const std::uint64_t bytes = static_cast<std::uint64_t>(o.width_stride) * o.height_stride;
    require(o.size >= bytes, ACL_ERROR_INVALID_PARAM, "outputDesc size is too small");
    const Range out = device_range(c, o.data, bytes, "outputDesc data");
    const Image img = image_of(o, format == PIXEL_FORMAT_RGBA_8888 ? Image::kRgba : Image::kRgb,
                               info.width, info.height);
    const MemoryRegistry* mem = &c.runtime().memory();
    auto desc = dvpp::link_pic_desc(outputDesc);  // the program may destroy it before the task
    dvpp::submit(c, stream, DvppModule::kPngd,
                 {dvpp::frame(info.width, info.height, size, info.width, info.height, bytes)},
                 "PNGD", [mem, in, out, data, size, img, desc, format]() -> int {
                   if (!mem->alive(in.serial) || !mem->alive(out.serial)) {
                     return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                   }
                   std::string reason;
                   const bool ok = dvpp::png_decode(data, size, img, reason);
                   desc->write([&](acldvppPicDesc& d) {
                     d.ret_code = ok ? 0 : 1;
                     if (!ok) return;
                     d.format = format;
                     d.width = img.width;
                     d.height = img.height;
                   });
                   return ok ? 0 : ACL_ERROR_RT_INTERNAL_ERROR;
                 });
  });
}

// ---- VPC ----

aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                               acldvppPicDesc* outputDesc, acldvppResizeConfig* resizeConfig,
                               aclrtStream stream) {
  return api("acldvppVpcResizeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcResizeAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j{vpc_picture(c, inputDesc, "inputDesc", false),
             vpc_picture(c, outputDesc, "outputDesc", false),
             {},
             {}};
    j.crop = whole(j.in.image);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, interp, "VPC_RESIZE");
  });
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                             acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                             aclrtStream stream) {
  return api("acldvppVpcCropAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropAsync");
    VpcJob j{vpc_picture(c, inputDesc, "inputDesc", false),
             vpc_picture(c, outputDesc, "outputDesc", false),
             {},
             {}};
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, dvpp::Interp::kBilinear, "VPC_CROP");
  });
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                   acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                   acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcCropResizeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropResizeAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j{vpc_picture(c, inputDesc, "inputDesc", false),
             vpc_picture(c, outputDesc, "outputDesc", false),
             {},
             {}};
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, interp, "VPC_CROP_RESIZE");
  });
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                     acldvppRoiConfig* pasteArea, aclrtStream stream) {
  return api("acldvppVpcCropAndPasteAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropAndPasteAsync");
    VpcJob j{vpc_picture(c, inputDesc, "inputDesc", false),
             vpc_picture(c, outputDesc, "outputDesc", false),
             {},
             {}};
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = roi(pasteArea, "pasteArea", j.out.image, true);
    submit_vpc(c, stream, {j}, dvpp::Interp::kBilinear, "VPC_CROP_AND_PASTE");
  });
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                        acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                        acldvppRoiConfig* pasteArea,
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcCropResizePasteAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropResizePasteAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j{vpc_picture(c, inputDesc, "inputDesc", false),
             vpc_picture(c, outputDesc, "outputDesc", false),
             {},
             {}};
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = roi(pasteArea, "pasteArea", j.out.image, true);
    submit_vpc(c, stream, {j}, interp, "VPC_CROP_RESIZE_PASTE");
  });
}

}  // extern "C"

namespace {

/// The batch calls: srcs[i] gives roiNums[i] crops, in order, to dsts[k] (k over all ROIs).
void batch(Call& c, acldvppChannelDesc* ch, acldvppBatchPicDesc* srcs, uint32_t* roiNums,
           uint32_t size, acldvppBatchPicDesc* dsts, acldvppRoiConfig* crops[],
           acldvppRoiConfig* pastes[], acldvppResizeConfig* resize, void* stream, const char* api,
           const char* name) {
  check_channel(c, ch, DvppModule::kVpc, api);
  require_not_null(srcs, "srcBatchPicDescs");
  require_not_null(dsts, "dstBatchPicDescs");
  require_not_null(roiNums, "roiNums");
  require_not_null(crops, "cropAreas");
  require(size > 0 && size <= srcs->pics.size(), ACL_ERROR_INVALID_PARAM,
          "size " + std::to_string(size) + " is 0 or more than the source batch's " +
              std::to_string(srcs->pics.size()) + " pictures");
  const dvpp::Interp interp = resize != nullptr ? interp_of(resize) : dvpp::Interp::kBilinear;
  std::uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) {
    require(roiNums[i] > 0, ACL_ERROR_INVALID_PARAM, "roiNums[" + std::to_string(i) + "] is 0");
    total += roiNums[i];
  }
  require(total <= dsts->pics.size(), ACL_ERROR_INVALID_PARAM,
          "the ROIs (" + std::to_string(total) + ") outnumber the destination batch's " +
              std::to_string(dsts->pics.size()) + " pictures");
  require(total <= 256, ACL_ERROR_INVALID_PARAM, "more than 256 ROIs in one batch call");
  std::vector<VpcJob> jobs;
  std::uint32_t k = 0;
  for (uint32_t i = 0; i < size; ++i) {
    const std::string src = "srcBatchPicDescs[" + std::to_string(i) + "]";
    const Pic in = vpc_picture(c, &srcs->pics[i], src, false);
    for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
      const std::string dst = "dstBatchPicDescs[" + std::to_string(k) + "]";
      VpcJob j{in, vpc_picture(c, &dsts->pics[k], dst, false), {}, {}};
      j.crop = roi(crops[k], "cropAreas[" + std::to_string(k) + "]", in.image, false);
      j.paste = pastes != nullptr
                    ? roi(pastes[k], "pasteAreas[" + std::to_string(k) + "]", j.out.image, true)
                    : whole(j.out.image);
      jobs.push_back(j);
    }
  }
  submit_vpc(c, stream, std::move(jobs), interp, name);
}

}  // namespace

extern "C" {

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* channelDesc,
                                  acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                  uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                  acldvppRoiConfig* cropAreas[], aclrtStream stream) {
  return api("acldvppVpcBatchCropAsync", [&](Call& c) {
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          nullptr, stream, "acldvppVpcBatchCropAsync", "VPC_BATCH_CROP");
  });
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* channelDesc,
                                        acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                        uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                        acldvppRoiConfig* cropAreas[],
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcBatchCropResizeAsync", [&](Call& c) {
    require_not_null(resizeConfig, "resizeConfig");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          resizeConfig, stream, "acldvppVpcBatchCropResizeAsync", "VPC_BATCH_CROP_RESIZE");
  });
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* channelDesc,
                                          acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                          uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                          acldvppRoiConfig* cropAreas[],
                                          acldvppRoiConfig* pasteAreas[], aclrtStream stream) {
  return api("acldvppVpcBatchCropAndPasteAsync", [&](Call& c) {
    require_not_null(pasteAreas, "pasteAreas");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas,
          nullptr, stream, "acldvppVpcBatchCropAndPasteAsync", "VPC_BATCH_CROP_AND_PASTE");
  });
}

aclError acldvppVpcBatchCropResizePasteAsync(
    acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
    uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs, acldvppRoiConfig* cropAreas[],
    acldvppRoiConfig* pasteAreas[], acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcBatchCropResizePasteAsync", [&](Call& c) {
    require_not_null(pasteAreas, "pasteAreas");
    require_not_null(resizeConfig, "resizeConfig");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas,
          resizeConfig, stream, "acldvppVpcBatchCropResizePasteAsync",
          "VPC_BATCH_CROP_RESIZE_PASTE");
  });
}

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api("acldvppVpcConvertColorAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcConvertColorAsync");
    const Pic in = vpc_picture(c, inputDesc, "inputDesc", true);
    const Pic out = vpc_picture(c, outputDesc, "outputDesc", true);
    require(in.image.width == out.image.width && in.image.height == out.image.height,
            ACL_ERROR_INVALID_PARAM,
            "colour conversion keeps the size: inputDesc and outputDesc width/height differ");
    const MemoryRegistry* mem = &c.runtime().memory();
    const std::uint64_t in_bytes =
        picture_bytes(in.image.kind, in.image.width_stride, in.image.height_stride);
    const std::uint64_t out_bytes =
        picture_bytes(out.image.kind, out.image.width_stride, out.image.height_stride);
    dvpp::submit(c, stream, DvppModule::kVpc,
                 {dvpp::frame(in.image.width, in.image.height, in_bytes, out.image.width,
                              out.image.height, out_bytes)},
                 "VPC_CONVERT_COLOR", [mem, in, out]() -> int {
                   if (!mem->alive(in.range.serial) || !mem->alive(out.range.serial)) {
                     return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                   }
                   dvpp::convert_color(in.image, out.image);
                   return 0;
                 });
  });
}

}  // extern "C"
