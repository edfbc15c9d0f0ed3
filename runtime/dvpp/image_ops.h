// SPDX-License-Identifier: Apache-2.0
// The functional side of the DVPP image modules (plain C++, no runtime state): JPEG and PNG
// parsing/decoding/encoding with libjpeg-turbo and libpng, and the VPC's crop/resize/paste and
// colour conversion on semi-planar YUV 4:2:0 (NV12 = UV order, NV21 = VU order) and packed RGB.
// The JPEG/PNG functions run in the codec library libacl_dvpp.so (image_codecs.cpp), reached
// through its C table (codec_client.cpp, codec_loader.h): jpeg_info and png_info, called by API
// calls, fail the call (ApiError, ACL_ERROR_FEATURE_UNSUPPORTED) when that library cannot be
// loaded; the others return false with the reason. Resize and colour conversion are here.
//
// JPEG decode to YUV420SP: the components are read as raw downsampled planes (libjpeg
// raw_data_out: no colour conversion, no upsampling), so a 4:2:0 JPEG's chroma is exactly the
// coded one (bit-exact with libjpeg's own raw decode). Other subsamplings are brought to 4:2:0 by
// averaging, for each 2x2 luma block, the chroma samples its four pixels map to ((sum + 2) / 4);
// a grey JPEG gets chroma 0x80 (as CANN documents for JPEGD).
//
// VPC resize (npusim's own, not libswscale: the result must not depend on the library's build or
// SIMD path and must match the documented sampling): each output plane sample (x, y) maps to the
// source position ((x + 0.5) * sw / dw - 0.5, same for y), clamped to the plane; "bilinear" blends
// the four neighbours with weights in 1/2048 steps and rounds to nearest ((acc + 2^21) >> 22);
// "nearest" takes the sample at floor(mapped + 0.5). The luma plane and the interleaved chroma
// plane (at half resolution, each of the two components separately) are resized independently.
// Colour conversion YUV <-> RGB uses BT.601 full range (JFIF) in 16.16 fixed point, rounded to
// nearest and clamped to [0, 255]; chroma of RGB -> YUV420SP is the mean of the 2x2 block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace npusim::rt::dvpp {

/// A picture in memory: semi-planar YUV 4:2:0 (nv21 says VU order) or packed RGB/BGR 888.
struct Image {
  std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t width_stride = 0;   // bytes per luma row (RGB: bytes per row)
  std::uint32_t height_stride = 0;  // rows of the luma plane; chroma follows at stride*hstride
  enum Kind : std::uint8_t { kNv12, kNv21, kRgb, kBgr, kRgba } kind = kNv12;
};

/// A rectangle, inclusive bounds (DVPP's ROI convention).
struct Rect {
  std::uint32_t left = 0, right = 0, top = 0, bottom = 0;
  std::uint32_t width() const { return right - left + 1; }
  std::uint32_t height() const { return bottom - top + 1; }
};

enum class JpegSampling : std::int32_t {
  k444 = 0,
  k422 = 1,
  k420 = 2,
  kGray = 3,
  k440 = 4,
  k411 = 5,
  kUnknown = 1000
};

struct JpegInfo {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::int32_t components = 0;
  JpegSampling sampling = JpegSampling::kUnknown;
  bool progressive = false;
  bool arithmetic = false;
};

/// Reads the JPEG header. False (and `why`) when it is not a baseline/extended Huffman JPEG.
bool jpeg_info(const void* data, std::size_t size, JpegInfo& info, std::string& why);
/// Decodes into `out` (kNv12/kNv21; width/height = the image's, strides as given). False + why.
bool jpeg_decode(const void* data, std::size_t size, const Image& out, std::string& why);
/// Encodes `in` (kNv12/kNv21) as a baseline 4:2:0 JPEG at `quality` (1..100) into `dst` (room
/// `capacity`); `written` = its size. False + why (including "too small").
bool jpeg_encode(const Image& in, int quality, void* dst, std::size_t capacity,
                 std::size_t& written, std::string& why);

struct PngInfo {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::int32_t components = 0;  // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  std::int32_t bit_depth = 0;
};
bool png_info(const void* data, std::size_t size, PngInfo& info, std::string& why);
/// Decodes to packed RGB888 (kRgb: alpha composited over black, as libpng's simplified API does)
/// or RGBA8888 (kRgba); grey is expanded, 16-bit samples reduced to 8 (libpng's rounding).
bool png_decode(const void* data, std::size_t size, const Image& out, std::string& why);

enum class Interp : std::uint8_t { kBilinear, kNearest };

/// Resizes the `crop` area of `in` into the `paste` area of `out` (both YUV420SP; the rest of
/// `out` is untouched). Rect bounds must be inside the pictures (callers check).
void resize_yuv420sp(const Image& in, const Rect& crop, const Image& out, const Rect& paste,
                     Interp interp);

/// Converts `in` to `out` (same width/height): YUV420SP <-> RGB/BGR, NV12 <-> NV21, RGB <-> BGR.
void convert_color(const Image& in, const Image& out);

}  // namespace npusim::rt::dvpp
