// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/image_ops.h"

// The VPC's resampling and colour conversion (npusim's own code, no media library). JPEG and PNG
// (jpeg_*/png_* of image_ops.h) are in image_codecs.cpp, in the codec library libacl_dvpp.so.
#include <algorithm>
#include <cstring>
#include <vector>

namespace npusim::rt::dvpp {
namespace {

std::uint8_t* chroma_plane(const Image& img) {
  return img.data + static_cast<std::size_t>(img.width_stride) * img.height_stride;
}

// ---- Resampling (see the header) ----

/// Source index and weight (1/2048) of output sample `o` of `dst` samples over `src` samples.
struct Tap {
  std::uint32_t i0, i1, w;  // value = ((2048 - w) * s[i0] + w * s[i1]) / 2048
};

Tap tap(std::uint32_t o, std::uint32_t src, std::uint32_t dst, Interp interp) {
  // mapped = ((2o + 1) * src - dst) / (2 dst)
  const std::int64_t num = (2 * static_cast<std::int64_t>(o) + 1) * src - dst;
  const std::int64_t den = 2 * static_cast<std::int64_t>(dst);
  const std::int64_t last = static_cast<std::int64_t>(src) - 1;
  if (interp == Interp::kNearest) {
    std::int64_t n = num + dst;  // floor(mapped + 0.5)
    std::int64_t i = n < 0 ? 0 : n / den;
    i = std::min(i, last);
    return {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i), 0};
  }
  if (num <= 0) return {0, 0, 0};
  std::int64_t i0 = num / den;
  if (i0 >= last) return {static_cast<std::uint32_t>(last), static_cast<std::uint32_t>(last), 0};
  const std::int64_t rem = num - i0 * den;
  const std::int64_t w = (rem * 2048 * 2 + den) / (2 * den);  // rounded to nearest
  return {static_cast<std::uint32_t>(i0), static_cast<std::uint32_t>(i0 + 1),
          static_cast<std::uint32_t>(w)};
}

/// Resizes a plane of `comps` interleaved components; `swap` exchanges the two components
/// (NV12 <-> NV21).
void resize_plane(const std::uint8_t* src, std::uint32_t sstride, std::uint32_t sx,
                  std::uint32_t sy, std::uint32_t sw, std::uint32_t sh, std::uint8_t* dst,
                  std::uint32_t dstride, std::uint32_t dx, std::uint32_t dy, std::uint32_t dw,
                  std::uint32_t dh, int comps, bool swap, Interp interp) {
  std::vector<Tap> xs(dw);
  for (std::uint32_t x = 0; x < dw; ++x) xs[x] = tap(x, sw, dw, interp);
  for (std::uint32_t y = 0; y < dh; ++y) {
    const Tap ty = tap(y, sh, dh, interp);
    const std::uint8_t* r0 = src + static_cast<std::size_t>(sy + ty.i0) * sstride;
    const std::uint8_t* r1 = src + static_cast<std::size_t>(sy + ty.i1) * sstride;
    std::uint8_t* out = dst + static_cast<std::size_t>(dy + y) * dstride;
    for (std::uint32_t x = 0; x < dw; ++x) {
      const Tap& tx = xs[x];
      for (int c = 0; c < comps; ++c) {
        const int sc = swap ? 1 - c : c;
        const std::size_t a = static_cast<std::size_t>(sx + tx.i0) * comps + sc;
        const std::size_t b = static_cast<std::size_t>(sx + tx.i1) * comps + sc;
        const std::uint64_t wx = tx.w, wy = ty.w;
        const std::uint64_t acc = (2048 - wx) * (2048 - wy) * r0[a] + wx * (2048 - wy) * r0[b] +
                                  (2048 - wx) * wy * r1[a] + wx * wy * r1[b];
        out[static_cast<std::size_t>(dx + x) * comps + c] =
            static_cast<std::uint8_t>((acc + (1u << 21)) >> 22);
      }
    }
  }
}

std::uint8_t clamp255(std::int32_t v) {
  return static_cast<std::uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

bool is_yuv(Image::Kind k) { return k == Image::kNv12 || k == Image::kNv21; }

// ---- Colour conversion (see the header) ----

struct Rgb {
  std::int32_t r, g, b;
};

int bytes_per_pixel(Image::Kind k) { return k == Image::kRgba ? 4 : 3; }

/// Pixel (x, y) of an RGB888 / BGR888 / RGBA8888 picture.
Rgb rgb_at(const Image& in, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = in.data + static_cast<std::size_t>(y) * in.width_stride +
                          static_cast<std::size_t>(x) * bytes_per_pixel(in.kind);
  return in.kind == Image::kBgr ? Rgb{p[2], p[1], p[0]} : Rgb{p[0], p[1], p[2]};
}

/// Writes a pixel of an RGB888 / BGR888 / RGBA8888 picture (alpha 255).
void put_rgb(std::uint8_t* p, Image::Kind kind, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  p[0] = kind == Image::kBgr ? b : r;
  p[1] = g;
  p[2] = kind == Image::kBgr ? r : b;
  if (kind == Image::kRgba) p[3] = 255;
}

void yuv_to_rgb(const Image& in, const Image& out) {
  const bool nv21 = in.kind == Image::kNv21;
  const int bpp = bytes_per_pixel(out.kind);
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* yr = in.data + static_cast<std::size_t>(y) * in.width_stride;
    const std::uint8_t* cr = chroma_plane(in) + static_cast<std::size_t>(y / 2) * in.width_stride;
    std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < in.width; ++x) {
      const std::int32_t Y = yr[x];
      const std::int32_t U = cr[(x / 2) * 2 + (nv21 ? 1 : 0)] - 128;
      const std::int32_t V = cr[(x / 2) * 2 + (nv21 ? 0 : 1)] - 128;
      put_rgb(o + static_cast<std::size_t>(x) * bpp, out.kind,
              clamp255(Y + ((91881 * V + 32768) >> 16)),
              clamp255(Y - ((22554 * U + 46802 * V + 32768) >> 16)),
              clamp255(Y + ((116130 * U + 32768) >> 16)));
    }
  }
}

void rgb_to_rgb(const Image& in, const Image& out) {
  const int obpp = bytes_per_pixel(out.kind);
  for (std::uint32_t y = 0; y < in.height; ++y) {
    std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < in.width; ++x) {
      const Rgb c = rgb_at(in, x, y);
      put_rgb(o + static_cast<std::size_t>(x) * obpp, out.kind, static_cast<std::uint8_t>(c.r),
              static_cast<std::uint8_t>(c.g), static_cast<std::uint8_t>(c.b));
    }
  }
}

/// The 4:2:0 chroma of output position (x, y): the mean of its 2x2 pixels' U and V.
void chroma_of(const Image& in, std::uint32_t x, std::uint32_t y, std::int32_t& u,
               std::int32_t& v) {
  std::int32_t su = 0, sv = 0;
  for (std::uint32_t d = 0; d < 4; ++d) {
    const Rgb c = rgb_at(in, std::min(2 * x + (d & 1), in.width - 1),
                         std::min(2 * y + (d >> 1), in.height - 1));
    su += clamp255(((-11059 * c.r - 21709 * c.g + 32768 * c.b + 32768) >> 16) + 128);
    sv += clamp255(((32768 * c.r - 27439 * c.g - 5329 * c.b + 32768) >> 16) + 128);
  }
  u = (su + 2) / 4;
  v = (sv + 2) / 4;
}

void rgb_to_yuv(const Image& in, const Image& out) {
  const std::uint32_t w = in.width, h = in.height;
  const bool nv21 = out.kind == Image::kNv21;
  for (std::uint32_t y = 0; y < h; ++y) {
    std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < w; ++x) {
      const Rgb c = rgb_at(in, x, y);
      o[x] = clamp255((19595 * c.r + 38470 * c.g + 7471 * c.b + 32768) >> 16);
    }
  }
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y) {
    std::uint8_t* o = chroma_plane(out) + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < (w + 1) / 2; ++x) {
      std::int32_t u = 0, v = 0;
      chroma_of(in, x, y, u, v);
      o[2 * x + (nv21 ? 1 : 0)] = static_cast<std::uint8_t>(u);
      o[2 * x + (nv21 ? 0 : 1)] = static_cast<std::uint8_t>(v);
    }
  }
}

}  // namespace

void resize_yuv420sp(const Image& in, const Rect& crop, const Image& out, const Rect& paste,
                     Interp interp) {
  resize_plane(in.data, in.width_stride, crop.left, crop.top, crop.width(), crop.height(), out.data,
               out.width_stride, paste.left, paste.top, paste.width(), paste.height(), 1, false,
               interp);
  const std::uint32_t scw = (crop.width() + 1) / 2, sch = (crop.height() + 1) / 2;
  const std::uint32_t dcw = (paste.width() + 1) / 2, dch = (paste.height() + 1) / 2;
  resize_plane(chroma_plane(in), in.width_stride / 2 * 2, crop.left / 2, crop.top / 2, scw, sch,
               chroma_plane(out), out.width_stride / 2 * 2, paste.left / 2, paste.top / 2, dcw, dch,
               2, in.kind != out.kind, interp);
}

void convert_color(const Image& in, const Image& out) {
  if (is_yuv(in.kind) && is_yuv(out.kind)) {
    const Rect all{0, in.width - 1, 0, in.height - 1};
    resize_yuv420sp(in, all, out, all, Interp::kNearest);  // same size: a copy (and a swap)
  } else if (is_yuv(in.kind)) {
    yuv_to_rgb(in, out);
  } else if (!is_yuv(out.kind)) {
    rgb_to_rgb(in, out);
  } else {
    rgb_to_yuv(in, out);
  }
}

}  // namespace npusim::rt::dvpp
