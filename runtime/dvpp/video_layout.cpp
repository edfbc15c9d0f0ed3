// SPDX-License-Identifier: Apache-2.0
// The plain parts of the video layer (video_codec.h): layouts, picture copies and PSNR, with no
// FFmpeg, so the runtime uses them directly; the codecs themselves (video_codec.cpp) are in the
// codec library libacl_dvpp.so.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/dvpp/video_codec.h"

namespace npusim::dvpp {
namespace {

std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

void set_error(std::string* error, std::string text) {
  if (error != nullptr) *error = std::move(text);
}

}  // namespace

bool yuv420sp_layout_ok(const Yuv420spLayout& l, std::string* error) {
  if (l.width == 0 || l.height == 0 || l.width % 2 != 0 || l.height % 2 != 0) {
    set_error(error, "YUV420SP picture size " + std::to_string(l.width) + "x" +
                         std::to_string(l.height) + " must be non-zero and even");
    return false;
  }
  if (l.width_stride < l.width || l.height_stride < l.height) {
    set_error(error, "YUV420SP strides " + std::to_string(l.width_stride) + "x" +
                         std::to_string(l.height_stride) + " are smaller than the picture " +
                         std::to_string(l.width) + "x" + std::to_string(l.height));
    return false;
  }
  return true;
}

const char* video_codec_name(VideoCodec codec) {
  return codec == VideoCodec::kH264 ? "H.264" : "H.265";
}

Yuv420spLayout vdec_layout(std::uint32_t width, std::uint32_t height, ChromaOrder order) {
  Yuv420spLayout l;
  l.width = width;
  l.height = height;
  l.width_stride = std::max<std::uint32_t>(align_up(width, 16), 32);
  l.height_stride = align_up(height, 2);
  l.order = order;
  return l;
}

YuvImage YuvImage::blank(std::uint32_t width, std::uint32_t height) {
  YuvImage img;
  img.width = width;
  img.height = height;
  img.y.assign(std::size_t{width} * height, 16);
  const std::size_t c = std::size_t{img.chroma_width()} * img.chroma_height();
  img.u.assign(c, 128);
  img.v.assign(c, 128);
  return img;
}

bool read_yuv420sp(const std::uint8_t* src, std::size_t src_size, const Yuv420spLayout& layout,
                   YuvImage* image, std::string* error) {
  if (!yuv420sp_layout_ok(layout, error)) return false;
  const std::size_t luma = std::size_t{layout.width_stride} * layout.height_stride;
  const std::size_t need = luma + std::size_t{layout.width_stride} * (layout.height / 2 - 1) +
                           layout.width;
  if (src_size < need) {
    set_error(error, "input picture of " + std::to_string(src_size) + " bytes is smaller than its " +
                         std::to_string(layout.width) + "x" + std::to_string(layout.height) +
                         " YUV420SP layout (strides " + std::to_string(layout.width_stride) + "x" +
                         std::to_string(layout.height_stride) + ") needs: " +
                         std::to_string(need));
    return false;
  }
  *image = YuvImage::blank(layout.width, layout.height);
  for (std::uint32_t r = 0; r < layout.height; ++r)
    std::memcpy(&image->y[std::size_t{r} * layout.width], src + std::size_t{r} * layout.width_stride,
                layout.width);
  const bool nv12 = layout.order == ChromaOrder::kNv12;
  const std::uint32_t cw = image->chroma_width();
  for (std::uint32_t r = 0; r < layout.height / 2; ++r) {
    const std::uint8_t* row = src + luma + std::size_t{r} * layout.width_stride;
    for (std::uint32_t c = 0; c < cw; ++c) {
      image->u[std::size_t{r} * cw + c] = nv12 ? row[2 * c] : row[2 * c + 1];
      image->v[std::size_t{r} * cw + c] = nv12 ? row[2 * c + 1] : row[2 * c];
    }
  }
  return true;
}

double psnr(const YuvImage& a, const YuvImage& b) {
  if (a.width != b.width || a.height != b.height) return std::nan("");
  double sse = 0;
  std::size_t n = 0;
  auto add = [&](const std::vector<std::uint8_t>& x, const std::vector<std::uint8_t>& y) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = static_cast<double>(x[i]) - static_cast<double>(y[i]);
      sse += d * d;
    }
    n += x.size();
  };
  add(a.y, b.y);
  add(a.u, b.u);
  add(a.v, b.v);
  if (sse == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 * static_cast<double>(n) / sse);
}

}  // namespace npusim::dvpp
