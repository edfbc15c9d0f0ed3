// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/image_ops.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <jpeglib.h>
#include <png.h>

namespace npusim::rt::dvpp {
namespace {

// ---- libjpeg error handling: longjmp out of the library into guarded() ----

struct JpegError {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void jpeg_error_exit(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegError*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

void jpeg_silent(j_common_ptr) {}

/// Runs `work` (which holds no object with a destructor across library calls); false when the
/// library failed (err.message says why).
template <class F>
bool guarded(JpegError& err, F&& work) {
  if (setjmp(err.jump) != 0) return false;
  work();
  return true;
}

void init_error(JpegError& err) {
  jpeg_std_error(&err.pub);
  err.pub.error_exit = jpeg_error_exit;
  err.pub.output_message = jpeg_silent;
  err.message[0] = '\0';
}

JpegSampling sampling_of(const jpeg_decompress_struct& c) {
  if (c.num_components == 1) return JpegSampling::kGray;
  if (c.num_components != 3) return JpegSampling::kUnknown;
  for (int i = 1; i < 3; ++i) {
    if (c.comp_info[i].h_samp_factor != 1 || c.comp_info[i].v_samp_factor != 1) {
      return JpegSampling::kUnknown;
    }
  }
  const int h = c.comp_info[0].h_samp_factor, v = c.comp_info[0].v_samp_factor;
  if (h == 1 && v == 1) return JpegSampling::k444;
  if (h == 2 && v == 1) return JpegSampling::k422;
  if (h == 2 && v == 2) return JpegSampling::k420;
  if (h == 1 && v == 2) return JpegSampling::k440;
  if (h == 4 && v == 1) return JpegSampling::k411;
  return JpegSampling::kUnknown;
}

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

}  // namespace

bool jpeg_info(const void* data, std::size_t size, JpegInfo& info, std::string& why) {
  jpeg_decompress_struct cinfo;
  JpegError err;
  init_error(err);
  cinfo.err = &err.pub;
  jpeg_create_decompress(&cinfo);
  const bool ok = guarded(err, [&] {
    jpeg_mem_src(&cinfo, static_cast<const unsigned char*>(data), static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
  });
  if (ok) {
    info.width = cinfo.image_width;
    info.height = cinfo.image_height;
    info.components = cinfo.num_components;
    info.sampling = sampling_of(cinfo);
    info.progressive = cinfo.progressive_mode != 0;
    info.arithmetic = cinfo.arith_code != 0;
  } else {
    why = std::string("not a JPEG image: ") + err.message;
  }
  jpeg_destroy_decompress(&cinfo);
  return ok;
}

bool jpeg_decode(const void* data, std::size_t size, const Image& out, std::string& why) {
  jpeg_decompress_struct cinfo;
  JpegError err;
  init_error(err);
  cinfo.err = &err.pub;
  std::vector<std::uint8_t> planes[3];
  std::uint32_t plane_w[3] = {0, 0, 0};
  int h_samp[3] = {1, 1, 1}, v_samp[3] = {1, 1, 1};  // copied: finish frees comp_info
  std::vector<JSAMPROW> rows[3];
  jpeg_create_decompress(&cinfo);
  bool colorspace_ok = true;
  bool size_ok = true;
  const bool ok = guarded(err, [&] {
    jpeg_mem_src(&cinfo, static_cast<const unsigned char*>(data), static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.num_components != 1 &&
        !(cinfo.num_components == 3 && cinfo.jpeg_color_space == JCS_YCbCr)) {
      colorspace_ok = false;
      return;
    }
    if (cinfo.image_width > out.width || cinfo.image_height > out.height) {
      size_ok = false;  // not the picture `out` was laid out for
      return;
    }
    cinfo.raw_data_out = TRUE;
    cinfo.do_fancy_upsampling = FALSE;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    const int nc = cinfo.num_components;
    const int max_v = cinfo.max_v_samp_factor;
    const JDIMENSION passes = (cinfo.output_height + max_v * DCTSIZE - 1) / (max_v * DCTSIZE);
    for (int c = 0; c < nc; ++c) {
      const jpeg_component_info& comp = cinfo.comp_info[c];
      plane_w[c] = comp.width_in_blocks * DCTSIZE;
      h_samp[c] = comp.h_samp_factor;
      v_samp[c] = comp.v_samp_factor;
      const std::size_t h = static_cast<std::size_t>(passes) * comp.v_samp_factor * DCTSIZE;
      planes[c].assign(plane_w[c] * h, 0);
      rows[c].resize(static_cast<std::size_t>(comp.v_samp_factor) * DCTSIZE);
    }
    JSAMPARRAY arrays[3] = {nullptr, nullptr, nullptr};
    for (JDIMENSION p = 0; cinfo.output_scanline < cinfo.output_height; ++p) {
      for (int c = 0; c < nc; ++c) {
        const std::size_t n = rows[c].size();
        for (std::size_t r = 0; r < n; ++r) {
          rows[c][r] = planes[c].data() + (p * n + r) * plane_w[c];
        }
        arrays[c] = rows[c].data();
      }
      jpeg_read_raw_data(&cinfo, arrays, static_cast<JDIMENSION>(max_v * DCTSIZE));
    }
    jpeg_finish_decompress(&cinfo);
  });
  if (!ok || !colorspace_ok || !size_ok) {
    why = !colorspace_ok ? std::string("the JPEG's colour space is not YCbCr or grey")
          : !size_ok     ? std::string("the JPEG is larger than the output picture")
                         : std::string("JPEG decoding failed: ") + err.message;
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  const std::uint32_t w = cinfo.image_width, h = cinfo.image_height;
  for (std::uint32_t y = 0; y < h; ++y) {
    std::memcpy(out.data + static_cast<std::size_t>(y) * out.width_stride,
                planes[0].data() + static_cast<std::size_t>(y) * plane_w[0], w);
  }
  std::uint8_t* uv = chroma_plane(out);
  const std::uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  const bool nv21 = out.kind == Image::kNv21;
  if (cinfo.num_components == 1) {
    for (std::uint32_t y = 0; y < ch; ++y) {
      std::memset(uv + static_cast<std::size_t>(y) * out.width_stride, 0x80, 2 * cw);
    }
  } else {
    const int max_h = cinfo.max_h_samp_factor, max_v = cinfo.max_v_samp_factor;
    for (std::uint32_t y = 0; y < ch; ++y) {
      std::uint8_t* row = uv + static_cast<std::size_t>(y) * out.width_stride;
      for (std::uint32_t x = 0; x < cw; ++x) {
        std::uint32_t sum[2] = {0, 0};
        for (std::uint32_t d = 0; d < 4; ++d) {
          const std::uint32_t lx = std::min(2 * x + (d & 1), w - 1);
          const std::uint32_t ly = std::min(2 * y + (d >> 1), h - 1);
          for (int c = 1; c < 3; ++c) {
            const std::size_t cx = lx * static_cast<std::uint32_t>(h_samp[c]) / max_h;
            const std::size_t cy = ly * static_cast<std::uint32_t>(v_samp[c]) / max_v;
            sum[c - 1] += planes[c][cy * plane_w[c] + cx];
          }
        }
        const std::uint8_t u = static_cast<std::uint8_t>((sum[0] + 2) / 4);
        const std::uint8_t v = static_cast<std::uint8_t>((sum[1] + 2) / 4);
        row[2 * x] = nv21 ? v : u;
        row[2 * x + 1] = nv21 ? u : v;
      }
    }
  }
  jpeg_destroy_decompress(&cinfo);
  return true;
}

bool jpeg_encode(const Image& in, int quality, void* dst, std::size_t capacity,
                 std::size_t& written, std::string& why) {
  const std::uint32_t w = in.width, h = in.height;
  const std::uint32_t pw = (w + 15) / 16 * 16, ph = (h + 15) / 16 * 16;
  // Padded planes (edge samples replicated), as raw_data_in wants whole MCUs.
  std::vector<std::uint8_t> yp(static_cast<std::size_t>(pw) * ph);
  std::vector<std::uint8_t> up(static_cast<std::size_t>(pw / 2) * (ph / 2));
  std::vector<std::uint8_t> vp(up.size());
  for (std::uint32_t y = 0; y < ph; ++y) {
    const std::uint8_t* src =
        in.data + static_cast<std::size_t>(std::min(y, h - 1)) * in.width_stride;
    for (std::uint32_t x = 0; x < pw; ++x)
      yp[static_cast<std::size_t>(y) * pw + x] = src[std::min(x, w - 1)];
  }
  const std::uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  const bool nv21 = in.kind == Image::kNv21;
  for (std::uint32_t y = 0; y < ph / 2; ++y) {
    const std::uint8_t* src =
        chroma_plane(in) + static_cast<std::size_t>(std::min(y, ch - 1)) * in.width_stride;
    for (std::uint32_t x = 0; x < pw / 2; ++x) {
      const std::uint32_t sx = std::min(x, cw - 1);
      up[static_cast<std::size_t>(y) * (pw / 2) + x] = src[2 * sx + (nv21 ? 1 : 0)];
      vp[static_cast<std::size_t>(y) * (pw / 2) + x] = src[2 * sx + (nv21 ? 0 : 1)];
    }
  }
  jpeg_compress_struct cinfo;
  JpegError err;
  init_error(err);
  cinfo.err = &err.pub;
  unsigned char* buffer = nullptr;
  unsigned long length = 0;
  std::vector<JSAMPROW> yrows(16), urows(8), vrows(8);
  jpeg_create_compress(&cinfo);
  const bool ok = guarded(err, [&] {
    jpeg_mem_dest(&cinfo, &buffer, &length);
    cinfo.image_width = w;
    cinfo.image_height = h;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_YCbCr;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, JCS_YCbCr);
    cinfo.raw_data_in = TRUE;
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.comp_info[0].h_samp_factor = 2;
    cinfo.comp_info[0].v_samp_factor = 2;
    for (int c = 1; c < 3; ++c) {
      cinfo.comp_info[c].h_samp_factor = 1;
      cinfo.comp_info[c].v_samp_factor = 1;
    }
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    JSAMPARRAY arrays[3] = {yrows.data(), urows.data(), vrows.data()};
    for (std::uint32_t p = 0; cinfo.next_scanline < cinfo.image_height; ++p) {
      for (std::uint32_t r = 0; r < 16; ++r)
        yrows[r] = yp.data() + (p * 16 + r) * static_cast<std::size_t>(pw);
      for (std::uint32_t r = 0; r < 8; ++r) {
        urows[r] = up.data() + (p * 8 + r) * static_cast<std::size_t>(pw / 2);
        vrows[r] = vp.data() + (p * 8 + r) * static_cast<std::size_t>(pw / 2);
      }
      jpeg_write_raw_data(&cinfo, arrays, 16);
    }
    jpeg_finish_compress(&cinfo);
  });
  jpeg_destroy_compress(&cinfo);
  bool result = ok;
  if (!ok) {
    why = std::string("JPEG encoding failed: ") + err.message;
  } else if (length > capacity) {
    why = "the encoded picture (" + std::to_string(length) + " bytes) does not fit the " +
          std::to_string(capacity) + "-byte output buffer";
    result = false;
  } else {
    std::memcpy(dst, buffer, length);
    written = length;
  }
  std::free(buffer);
  return result;
}

bool png_info(const void* data, std::size_t size, PngInfo& info, std::string& why) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, data, size) == 0) {
    why = std::string("not a PNG image: ") + image.message;
    png_image_free(&image);
    return false;
  }
  info.width = image.width;
  info.height = image.height;
  const bool color = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  const bool alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  info.components = (color ? 3 : 1) + (alpha ? 1 : 0);
  info.bit_depth = (image.format & PNG_FORMAT_FLAG_LINEAR) != 0 ? 16 : 8;
  png_image_free(&image);
  return true;
}

bool png_decode(const void* data, std::size_t size, const Image& out, std::string& why) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, data, size) == 0) {
    why = std::string("not a PNG image: ") + image.message;
    png_image_free(&image);
    return false;
  }
  if (image.width > out.width || image.height > out.height) {
    why = "the PNG is larger than the output picture";
    png_image_free(&image);
    return false;
  }
  image.format = out.kind == Image::kRgba ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  if (png_image_finish_read(&image, nullptr, out.data, static_cast<png_int_32>(out.width_stride),
                            nullptr) == 0) {
    why = std::string("PNG decoding failed: ") + image.message;
    png_image_free(&image);
    return false;
  }
  return true;
}

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
  const std::uint32_t w = in.width, h = in.height;
  if (is_yuv(in.kind) && is_yuv(out.kind)) {
    const Rect all{0, w - 1, 0, h - 1};
    resize_yuv420sp(in, all, out, all, Interp::kNearest);  // same size: a copy (and a swap)
    return;
  }
  if (is_yuv(in.kind)) {
    const bool nv21 = in.kind == Image::kNv21;
    const int bpp = out.kind == Image::kRgba ? 4 : 3;
    for (std::uint32_t y = 0; y < h; ++y) {
      const std::uint8_t* yr = in.data + static_cast<std::size_t>(y) * in.width_stride;
      const std::uint8_t* cr = chroma_plane(in) + static_cast<std::size_t>(y / 2) * in.width_stride;
      std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
      for (std::uint32_t x = 0; x < w; ++x) {
        const std::int32_t Y = yr[x];
        const std::int32_t U = cr[(x / 2) * 2 + (nv21 ? 1 : 0)] - 128;
        const std::int32_t V = cr[(x / 2) * 2 + (nv21 ? 0 : 1)] - 128;
        const std::uint8_t r = clamp255(Y + ((91881 * V + 32768) >> 16));
        const std::uint8_t g = clamp255(Y - ((22554 * U + 46802 * V + 32768) >> 16));
        const std::uint8_t b = clamp255(Y + ((116130 * U + 32768) >> 16));
        std::uint8_t* p = o + static_cast<std::size_t>(x) * bpp;
        p[0] = out.kind == Image::kBgr ? b : r;
        p[1] = g;
        p[2] = out.kind == Image::kBgr ? r : b;
        if (bpp == 4) p[3] = 255;
      }
    }
    return;
  }
  const int ibpp = in.kind == Image::kRgba ? 4 : 3;
  auto rgb = [&](std::uint32_t x, std::uint32_t y, std::int32_t& r, std::int32_t& g,
                 std::int32_t& b) {
    const std::uint8_t* p = in.data + static_cast<std::size_t>(y) * in.width_stride +
                            static_cast<std::size_t>(x) * ibpp;
    r = in.kind == Image::kBgr ? p[2] : p[0];
    g = p[1];
    b = in.kind == Image::kBgr ? p[0] : p[2];
  };
  if (!is_yuv(out.kind)) {
    const int obpp = out.kind == Image::kRgba ? 4 : 3;
    for (std::uint32_t y = 0; y < h; ++y) {
      std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
      for (std::uint32_t x = 0; x < w; ++x) {
        std::int32_t r, g, b;
        rgb(x, y, r, g, b);
        std::uint8_t* p = o + static_cast<std::size_t>(x) * obpp;
        p[0] = static_cast<std::uint8_t>(out.kind == Image::kBgr ? b : r);
        p[1] = static_cast<std::uint8_t>(g);
        p[2] = static_cast<std::uint8_t>(out.kind == Image::kBgr ? r : b);
        if (obpp == 4) p[3] = 255;
      }
    }
    return;
  }
  const bool nv21 = out.kind == Image::kNv21;
  for (std::uint32_t y = 0; y < h; ++y) {
    std::uint8_t* o = out.data + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < w; ++x) {
      std::int32_t r, g, b;
      rgb(x, y, r, g, b);
      o[x] = clamp255((19595 * r + 38470 * g + 7471 * b + 32768) >> 16);
    }
  }
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y) {
    std::uint8_t* o = chroma_plane(out) + static_cast<std::size_t>(y) * out.width_stride;
    for (std::uint32_t x = 0; x < (w + 1) / 2; ++x) {
      std::int32_t su = 0, sv = 0;
      for (std::uint32_t d = 0; d < 4; ++d) {
        std::int32_t r, g, b;
        rgb(std::min(2 * x + (d & 1), w - 1), std::min(2 * y + (d >> 1), h - 1), r, g, b);
        su += clamp255(((-11059 * r - 21709 * g + 32768 * b + 32768) >> 16) + 128);
        sv += clamp255(((32768 * r - 27439 * g - 5329 * b + 32768) >> 16) + 128);
      }
      o[2 * x + (nv21 ? 1 : 0)] = static_cast<std::uint8_t>((su + 2) / 4);
      o[2 * x + (nv21 ? 0 : 1)] = static_cast<std::uint8_t>((sv + 2) / 4);
    }
  }
}

}  // namespace npusim::rt::dvpp
