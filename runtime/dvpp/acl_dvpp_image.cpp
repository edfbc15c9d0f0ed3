// SPDX-License-Identifier: Apache-2.0
// The DVPP image calls: channels, JPEG/PNG queries, JPEGD, JPEGE and PNGD (the VPC's resize,
// crop, crop-and-paste, batch crop and colour conversion: acl_dvpp_vpc.cpp). Checks follow CANN's
// documented constraints and fail with ACL_ERROR_INVALID_PARAM (100000); a module the chip lacks
// fails with ACL_ERROR_FEATURE_UNSUPPORTED (200006). Work goes to the DVPP unit (dvpp_task.h);
// the pixels are computed by image_ops.h when the task ends in simulated time.
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
#include <string>

#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "runtime/dvpp/codec_loader.h"
#include "runtime/dvpp/image_args.h"
#include "runtime/dvpp/pic_desc_link.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using namespace npusim::rt::dvpp;  // NOLINT(google-build-using-namespace)
using npusim::models::DvppModule;

namespace {

std::atomic<std::uint64_t> g_next_channel{1};

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

/// The JPEG image-info calls: the header's size, components and (V2) sampling, where asked for.
aclError jpeg_image_info(const char* api, const void* data, std::uint32_t size,
                         std::uint32_t* width, std::uint32_t* height, std::int32_t* components,
                         acldvppJpegFormat* format) {
  return api_any(api, [&](Call&) {
    const dvpp::JpegInfo info = checked_jpeg(data, size);
    if (width != nullptr) *width = info.width;
    if (height != nullptr) *height = info.height;
    if (components != nullptr) *components = info.components;
    if (format != nullptr) *format = static_cast<acldvppJpegFormat>(info.sampling);
  });
}

/// JPEGD's output format: `format`, or for UNKNOWN the source's (4:2:0 sources only).
std::uint32_t jpegd_format(std::uint32_t format, const dvpp::JpegInfo& info) {
  if (format == PIXEL_FORMAT_UNKNOWN) {
    require(info.sampling == dvpp::JpegSampling::k420, ACL_ERROR_INVALID_PARAM,
            "outputDesc format UNKNOWN (the source's format) is supported for 4:2:0 JPEGs only");
    format = PIXEL_FORMAT_YVU_SEMIPLANAR_420;  // CANN: the source's sampling, V before U
  }
  require(yuv420sp(format), ACL_ERROR_INVALID_PARAM,
          "outputDesc format " + std::to_string(format) +
              " is not YUV420SP NV12 (1) / NV21 (2) (or UNKNOWN)");
  return format;
}

/// JPEGD's output strides and size (the file comment's rules); the decoded picture's bytes.
std::uint64_t check_jpegd_output(const Call& c, const acldvppPicDesc& o,
                                 const dvpp::JpegInfo& info) {
  const std::uint32_t wa = jpegd_width_align(c);
  require(o.width_stride % wa == 0 && o.width_stride >= info.width, ACL_ERROR_INVALID_PARAM,
          "outputDesc widthStride " + std::to_string(o.width_stride) + " must be a multiple of " +
              std::to_string(wa) + " covering the image width " + std::to_string(info.width));
  require(o.height_stride % 16 == 0 && o.height_stride >= info.height, ACL_ERROR_INVALID_PARAM,
          "outputDesc heightStride " + std::to_string(o.height_stride) +
              " must be a multiple of 16 covering the image height " + std::to_string(info.height));
  const std::uint64_t bytes = picture_bytes(Image::kNv12, o.width_stride, o.height_stride);
  require(o.size >= bytes, ACL_ERROR_INVALID_PARAM,
          "outputDesc size " + std::to_string(o.size) + " is smaller than the " +
              std::to_string(bytes) + " bytes of the decoded picture");
  return bytes;
}

/// A decoder's input: the encoded data in device memory.
struct Encoded {
  const void* data;
  std::uint32_t size;
  Range range;
};

/// A decoder's output picture: where it goes, its format and bytes.
struct Decoded {
  Image image;
  std::uint32_t format;
  std::uint64_t bytes;
  Range range;
};

/// A decoder (image_ops.h): false, with the reason, for corrupt or truncated data.
using DecodeFn = bool (*)(const void* data, std::size_t size, const Image& out, std::string& why);

/// Writes a decode's outcome into the output description (if the program still has it):
/// retCode, and on success the picture's format and size.
void report_decode(const std::shared_ptr<dvpp::PicDescLink>& desc, bool ok, const Decoded& out,
                   bool with_size) {
  desc->write([&](acldvppPicDesc& d) {
    d.ret_code = ok ? 0 : 1;
    if (!ok) return;
    d.format = out.format;
    d.width = out.image.width;
    d.height = out.image.height;
    if (with_size) d.size = static_cast<std::uint32_t>(out.bytes);
  });
}

/// Submits a decode of `in` into `out` on `module`: `decode` runs when the task ends; a failed
/// one (corrupt or truncated data) sets retCode 1 and fails the task.
void submit_decode(Call& c, void* stream, DvppModule module, const char* name, const Encoded& in,
                   const Decoded& out, std::shared_ptr<dvpp::PicDescLink> desc,
                   DecodeFn decode, bool with_size) {
  const MemoryRegistry* mem = &c.runtime().memory();
  const std::uint32_t w = out.image.width, h = out.image.height;
  dvpp::submit(c, stream, module, {dvpp::frame(w, h, in.size, w, h, out.bytes)}, name,
               [mem, in, out, desc, decode, with_size]() -> int {
                 if (!alive(mem, in.range, out.range)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                 std::string why;
                 const bool ok = decode(in.data, in.size, out.image, why);
                 report_decode(desc, ok, out, with_size);
                 return ok ? 0 : ACL_ERROR_RT_INTERNAL_ERROR;
               });
}

/// The PNG's header, or the reason it cannot be read.
dvpp::PngInfo png_header(const void* data, std::uint32_t size) {
  dvpp::PngInfo info;
  std::string why;
  require(dvpp::png_info(data, size, info, why), ACL_ERROR_INVALID_PARAM, why);
  return info;
}

dvpp::PngInfo checked_png(const void* data, std::uint32_t size) {
  require(data != nullptr && size > 0, ACL_ERROR_INVALID_PARAM, "data is NULL or empty");
  return png_header(data, size);
}

/// PNGD's output format: `format`, or for UNKNOWN RGBA8888 for a source with alpha, else RGB888.
std::uint32_t pngd_format(std::uint32_t format, const dvpp::PngInfo& info) {
  if (format == PIXEL_FORMAT_UNKNOWN) {
    format = info.components == 2 || info.components == 4 ? PIXEL_FORMAT_RGBA_8888
                                                          : PIXEL_FORMAT_RGB_888;
  }
  require(format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_RGBA_8888,
          ACL_ERROR_INVALID_PARAM, "outputDesc format must be RGB888, RGBA8888 or UNKNOWN");
  return format;
}

/// PNGD's output strides and size (the file comment's rules); the decoded picture's bytes.
std::uint64_t check_pngd_output(const acldvppPicDesc& o, const dvpp::PngInfo& info,
                                std::uint32_t format) {
  const std::uint32_t bpp = format == PIXEL_FORMAT_RGBA_8888 ? 4 : 3;
  require(
      o.width_stride % 128 == 0 && o.width_stride >= bpp * info.width, ACL_ERROR_INVALID_PARAM,
      "outputDesc widthStride " + std::to_string(o.width_stride) +
          " must be a multiple of 128 covering " + std::to_string(bpp * info.width) + " bytes");
  require(o.height_stride % 16 == 0 && o.height_stride >= info.height, ACL_ERROR_INVALID_PARAM,
          "outputDesc heightStride must be a multiple of 16 covering the image height");
  const std::uint64_t bytes = static_cast<std::uint64_t>(o.width_stride) * o.height_stride;
  require(o.size >= bytes, ACL_ERROR_INVALID_PARAM, "outputDesc size is too small");
  return bytes;
}

/// JPEGE's input: the VPC's picture rules but within [32, 8192] x [32, 8192].
Pic jpege_picture(Call& c, const acldvppPicDesc& d) {
  require(d.width >= 32 && d.width <= 8192 && d.height >= 32 && d.height <= 8192,
          ACL_ERROR_INVALID_PARAM, "inputDesc is outside JPEGE's [32, 8192] x [32, 8192]");
  acldvppPicDesc probe = d;  // the VPC rules minus its 4096 limit
  probe.width = std::min<std::uint32_t>(probe.width, 4096);
  probe.height = std::min<std::uint32_t>(probe.height, 4096);
  Pic p = vpc_picture(c, &probe, "inputDesc", false);
  require(d.width_stride >= d.width && d.height_stride >= d.height, ACL_ERROR_INVALID_PARAM,
          "inputDesc: widthStride/heightStride must cover the width/height");
  p.image.width = d.width;
  p.image.height = d.height;
  return p;
}

/// JPEGE's output buffer, its capacity and where the encoded size goes.
struct JpegOut {
  void* data;
  std::uint32_t capacity;
  uint32_t* size;
  Range range;
};

void submit_jpege(Call& c, void* stream, const Pic& in, const JpegOut& out, int quality) {
  const MemoryRegistry* mem = &c.runtime().memory();
  // The encoded size is known only after encoding: the write is timed at the raw 4:2:0
  // picture's size (an upper bound for practically every JPEG), capped by the buffer.
  const std::uint64_t raw = picture_bytes(in.image);
  const std::uint32_t w = in.image.width, h = in.image.height;
  dvpp::submit(c, stream, DvppModule::kJpege,
               {dvpp::frame(w, h, raw, w, h, std::min<std::uint64_t>(raw, out.capacity))},
               "JPEGE", [mem, in, out, quality]() -> int {
                 if (!alive(mem, in.range, out.range)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                 std::size_t written = 0;
                 std::string why;
                 if (!dvpp::jpeg_encode(in.image, quality, out.data, out.capacity, written, why)) {
                   return ACL_ERROR_RT_INTERNAL_ERROR;
                 }
                 *out.size = static_cast<uint32_t>(written);
                 return 0;
               });
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
  return jpeg_image_info("acldvppJpegGetImageInfo", data, size, width, height, components,
                         nullptr);
}

aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width,
                                   uint32_t* height, int32_t* components,
                                   acldvppJpegFormat* format) {
  return jpeg_image_info("acldvppJpegGetImageInfoV2", data, size, width, height, components,
                         format);
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
    const std::uint32_t format = jpegd_format(outputDesc->format, info);
    const std::uint64_t bytes = check_jpegd_output(c, *outputDesc, info);
    const Decoded out{image_of(*outputDesc, kind_of(format), info.width, info.height), format,
                      bytes, device_range(c, outputDesc->data, bytes, "outputDesc data")};
    submit_decode(c, stream, DvppModule::kJpegd, "JPEGD", Encoded{data, size, in}, out,
                  dvpp::link_pic_desc(outputDesc), dvpp::jpeg_decode, true);
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
    const Pic in = jpege_picture(c, *inputDesc);
    require(*size > 0, ACL_ERROR_INVALID_PARAM, "*size (the output buffer's size) is 0");
    const Range out = device_range(c, data, *size, "data");
    const int quality = std::max<int>(1, static_cast<int>(config->level));
    dvpp::require_codecs();  // the encoder (codec_loader.h): fail now, not in the task
    submit_jpege(c, stream, in, JpegOut{const_cast<void*>(data), *size, size, out}, quality);
  });
}

// ---- PNG ----

aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width,
                                uint32_t* height, int32_t* components) {
  return api_any("acldvppPngGetImageInfo", [&](Call&) {
    const dvpp::PngInfo info = checked_png(data, dataSize);
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
    const dvpp::PngInfo info = checked_png(data, dataSize);
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
    const dvpp::PngInfo info = png_header(data, size);
    require_not_null(outputDesc, "outputDesc");
    const std::uint32_t format = pngd_format(outputDesc->format, info);
    const std::uint64_t bytes = check_pngd_output(*outputDesc, info, format);
    const Image::Kind kind = format == PIXEL_FORMAT_RGBA_8888 ? Image::kRgba : Image::kRgb;
    const Decoded out{image_of(*outputDesc, kind, info.width, info.height), format, bytes,
                      device_range(c, outputDesc->data, bytes, "outputDesc data")};
    submit_decode(c, stream, DvppModule::kPngd, "PNGD", Encoded{data, size, in}, out,
                  dvpp::link_pic_desc(outputDesc), dvpp::png_decode, false);
  });
}

}  // extern "C"
