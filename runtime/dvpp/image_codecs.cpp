// SPDX-License-Identifier: Apache-2.0
// JPEG and PNG for DVPP (JPEGD, JPEGE, PNGD) over libjpeg-turbo and libpng: part of the codec
// library libacl_dvpp.so (codec_library.cpp), which the runtime loads at the first codec use, so
// the runtime itself links no media library. The behaviour is documented in image_ops.h, whose
// jpeg_*/png_* are the runtime's way in (codec_client.cpp forwards them here).
#include "runtime/dvpp/image_codecs.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <jpeglib.h>
#include <png.h>

namespace npusim::rt::dvpp::codecs {
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

/// libjpeg reports recoverable damage (data cut short, corrupt entropy-coded segments) as
/// warnings and goes on with made-up samples; the first one's text is kept (num_warnings counts
/// them), and a decode that had any fails, as JPEGD's does.
void jpeg_keep_warning(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegError*>(cinfo->err);
  if (err->message[0] == '\0') (*cinfo->err->format_message)(cinfo, err->message);
}

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
  err.pub.output_message = jpeg_keep_warning;
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

/// A JPEG's decoded components as libjpeg's raw output gives them (whole MCU rows); the sampling
/// factors are copied because jpeg_finish_decompress frees comp_info.
struct RawPlanes {
  int components = 0;
  std::vector<std::uint8_t> planes[3];
  std::uint32_t width[3] = {0, 0, 0};
  int h_samp[3] = {1, 1, 1}, v_samp[3] = {1, 1, 1};
  int max_h = 1, max_v = 1;
  std::vector<JSAMPROW> rows[3];
};

enum class DecodeCheck { kOk, kColourSpace, kSize };

/// Whether JPEGD decodes this header into `out`: YCbCr or grey, and no larger than `out`.
DecodeCheck decode_check(const jpeg_decompress_struct& cinfo, const Image& out) {
  if (cinfo.num_components != 1 &&
      !(cinfo.num_components == 3 && cinfo.jpeg_color_space == JCS_YCbCr)) {
    return DecodeCheck::kColourSpace;
  }
  if (cinfo.image_width > out.width || cinfo.image_height > out.height) {
    return DecodeCheck::kSize;  // not the picture `out` was laid out for
  }
  return DecodeCheck::kOk;
}

/// Sizes `raw`'s planes for the whole image (in MCU rows of max_v * DCTSIZE lines).
void size_planes(const jpeg_decompress_struct& cinfo, RawPlanes& raw) {
  raw.components = cinfo.num_components;
  raw.max_h = cinfo.max_h_samp_factor;
  raw.max_v = cinfo.max_v_samp_factor;
  const JDIMENSION passes =
      (cinfo.output_height + raw.max_v * DCTSIZE - 1) / (raw.max_v * DCTSIZE);
  for (int c = 0; c < raw.components; ++c) {
    const jpeg_component_info& comp = cinfo.comp_info[c];
    raw.width[c] = comp.width_in_blocks * DCTSIZE;
    raw.h_samp[c] = comp.h_samp_factor;
    raw.v_samp[c] = comp.v_samp_factor;
    const std::size_t h = static_cast<std::size_t>(passes) * comp.v_samp_factor * DCTSIZE;
    raw.planes[c].assign(raw.width[c] * h, 0);
    raw.rows[c].resize(static_cast<std::size_t>(comp.v_samp_factor) * DCTSIZE);
  }
}

/// Decodes the whole image into `raw` (runs inside guarded(): no object with a destructor here).
void read_raw(jpeg_decompress_struct& cinfo, RawPlanes& raw) {
  cinfo.raw_data_out = TRUE;
  cinfo.do_fancy_upsampling = FALSE;
  cinfo.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&cinfo);
  size_planes(cinfo, raw);
  JSAMPARRAY arrays[3] = {nullptr, nullptr, nullptr};
  for (JDIMENSION p = 0; cinfo.output_scanline < cinfo.output_height; ++p) {
    for (int c = 0; c < raw.components; ++c) {
      const std::size_t n = raw.rows[c].size();
      for (std::size_t r = 0; r < n; ++r) {
        raw.rows[c][r] = raw.planes[c].data() + (p * n + r) * raw.width[c];
      }
      arrays[c] = raw.rows[c].data();
    }
    jpeg_read_raw_data(&cinfo, arrays, static_cast<JDIMENSION>(raw.max_v * DCTSIZE));
  }
  jpeg_finish_decompress(&cinfo);
}

std::string decode_failure(DecodeCheck check, bool damaged, const char* message) {
  if (check == DecodeCheck::kColourSpace) return "the JPEG's colour space is not YCbCr or grey";
  if (check == DecodeCheck::kSize) return "the JPEG is larger than the output picture";
  return (damaged ? "the JPEG's data is corrupt or truncated: " : "JPEG decoding failed: ") +
         std::string(message);
}

/// Reads the header and, if JPEGD decodes it into `out`, the whole image into `raw` (runs inside
/// guarded()).
DecodeCheck read_jpeg(jpeg_decompress_struct& cinfo, const void* data, std::size_t size,
                      const Image& out, RawPlanes& raw) {
  jpeg_mem_src(&cinfo, static_cast<const unsigned char*>(data), static_cast<unsigned long>(size));
  jpeg_read_header(&cinfo, TRUE);
  const DecodeCheck check = decode_check(cinfo, out);
  if (check == DecodeCheck::kOk) read_raw(cinfo, raw);
  return check;
}

void copy_luma(const RawPlanes& raw, std::uint32_t w, std::uint32_t h, const Image& out) {
  for (std::uint32_t y = 0; y < h; ++y) {
    std::memcpy(out.data + static_cast<std::size_t>(y) * out.width_stride,
                raw.planes[0].data() + static_cast<std::size_t>(y) * raw.width[0], w);
  }
}

/// The mean of the 2x2 luma positions' chroma samples of component `c` around chroma (x, y).
std::uint8_t chroma_mean(const RawPlanes& raw, int c, std::uint32_t x, std::uint32_t y,
                         std::uint32_t w, std::uint32_t h) {
  std::uint32_t sum = 0;
  for (std::uint32_t d = 0; d < 4; ++d) {
    const std::uint32_t lx = std::min(2 * x + (d & 1), w - 1);
    const std::uint32_t ly = std::min(2 * y + (d >> 1), h - 1);
    const std::size_t cx = lx * static_cast<std::uint32_t>(raw.h_samp[c]) / raw.max_h;
    const std::size_t cy = ly * static_cast<std::uint32_t>(raw.v_samp[c]) / raw.max_v;
    sum += raw.planes[c][cy * raw.width[c] + cx];
  }
  return static_cast<std::uint8_t>((sum + 2) / 4);
}

/// The interleaved 4:2:0 chroma plane of `out` (grey: 0x80).
void write_chroma(const RawPlanes& raw, std::uint32_t w, std::uint32_t h, const Image& out) {
  std::uint8_t* uv = chroma_plane(out);
  const std::uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  const bool nv21 = out.kind == Image::kNv21;
  for (std::uint32_t y = 0; y < ch; ++y) {
    std::uint8_t* row = uv + static_cast<std::size_t>(y) * out.width_stride;
    if (raw.components == 1) {
      std::memset(row, 0x80, 2 * cw);
      continue;
    }
    for (std::uint32_t x = 0; x < cw; ++x) {
      const std::uint8_t u = chroma_mean(raw, 1, x, y, w, h);
      const std::uint8_t v = chroma_mean(raw, 2, x, y, w, h);
      row[2 * x] = nv21 ? v : u;
      row[2 * x + 1] = nv21 ? u : v;
    }
  }
}

/// A 4:2:0 picture in three planes padded to whole 16x16 MCUs (edge samples replicated), as
/// libjpeg's raw_data_in wants them.
struct Padded420 {
  std::uint32_t pw = 0, ph = 0;  // the luma plane's padded size
  std::vector<std::uint8_t> y, u, v;
};

/// The U and V planes of `p` from `in`'s interleaved chroma, edges replicated.
void pad_chroma(const Image& in, Padded420& p) {
  const std::uint32_t cw = (in.width + 1) / 2, ch = (in.height + 1) / 2;
  const bool nv21 = in.kind == Image::kNv21;
  for (std::uint32_t y = 0; y < p.ph / 2; ++y) {
    const std::uint8_t* src =
        chroma_plane(in) + static_cast<std::size_t>(std::min(y, ch - 1)) * in.width_stride;
    for (std::uint32_t x = 0; x < p.pw / 2; ++x) {
      const std::uint32_t sx = std::min(x, cw - 1);
      p.u[static_cast<std::size_t>(y) * (p.pw / 2) + x] = src[2 * sx + (nv21 ? 1 : 0)];
      p.v[static_cast<std::size_t>(y) * (p.pw / 2) + x] = src[2 * sx + (nv21 ? 0 : 1)];
    }
  }
}

Padded420 padded_planes(const Image& in) {
  const std::uint32_t w = in.width, h = in.height;
  Padded420 p;
  p.pw = (w + 15) / 16 * 16;
  p.ph = (h + 15) / 16 * 16;
  p.y.resize(static_cast<std::size_t>(p.pw) * p.ph);
  p.u.resize(static_cast<std::size_t>(p.pw / 2) * (p.ph / 2));
  p.v.resize(p.u.size());
  for (std::uint32_t y = 0; y < p.ph; ++y) {
    const std::uint8_t* src =
        in.data + static_cast<std::size_t>(std::min(y, h - 1)) * in.width_stride;
    for (std::uint32_t x = 0; x < p.pw; ++x)
      p.y[static_cast<std::size_t>(y) * p.pw + x] = src[std::min(x, w - 1)];
  }
  pad_chroma(in, p);
  return p;
}

/// A baseline YCbCr 4:2:0 encoder of raw data at `quality`.
void configure_420(jpeg_compress_struct& cinfo, std::uint32_t w, std::uint32_t h, int quality) {
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
}

/// Compresses `pad`, one MCU row (16 luma lines) a call (runs inside guarded()).
void write_raw(jpeg_compress_struct& cinfo, const Padded420& pad,
               std::vector<JSAMPROW> (&rows)[3]) {
  jpeg_start_compress(&cinfo, TRUE);
  JSAMPARRAY arrays[3] = {rows[0].data(), rows[1].data(), rows[2].data()};
  const std::size_t pw = pad.pw;
  for (std::uint32_t p = 0; cinfo.next_scanline < cinfo.image_height; ++p) {
    for (std::uint32_t r = 0; r < 16; ++r)
      rows[0][r] = const_cast<std::uint8_t*>(pad.y.data()) + (p * 16 + r) * pw;
    for (std::uint32_t r = 0; r < 8; ++r) {
      rows[1][r] = const_cast<std::uint8_t*>(pad.u.data()) + (p * 8 + r) * (pw / 2);
      rows[2][r] = const_cast<std::uint8_t*>(pad.v.data()) + (p * 8 + r) * (pw / 2);
    }
    jpeg_write_raw_data(&cinfo, arrays, 16);
  }
  jpeg_finish_compress(&cinfo);
}

/// Reads a PNG's header into `image` (false, with the reason, for what is not a PNG; `image` is
/// then freed).
bool png_begin(const void* data, std::size_t size, png_image& image, std::string& why) {
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, data, size) != 0) return true;
  why = std::string("not a PNG image: ") + image.message;
  png_image_free(&image);
  return false;
}

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
  RawPlanes raw;
  jpeg_create_decompress(&cinfo);
  DecodeCheck check = DecodeCheck::kOk;
  const bool ok = guarded(err, [&] { check = read_jpeg(cinfo, data, size, out, raw); });
  const bool damaged = ok && err.pub.num_warnings > 0;
  if (!ok || check != DecodeCheck::kOk || damaged) {
    why = decode_failure(check, damaged, err.message);
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  copy_luma(raw, cinfo.image_width, cinfo.image_height, out);
  write_chroma(raw, cinfo.image_width, cinfo.image_height, out);
  jpeg_destroy_decompress(&cinfo);
  return true;
}

bool jpeg_encode(const Image& in, int quality, void* dst, std::size_t capacity,
                 std::size_t& written, std::string& why) {
  const Padded420 pad = padded_planes(in);
  jpeg_compress_struct cinfo;
  JpegError err;
  init_error(err);
  cinfo.err = &err.pub;
  unsigned char* buffer = nullptr;
  unsigned long length = 0;
  std::vector<JSAMPROW> rows[3] = {std::vector<JSAMPROW>(16), std::vector<JSAMPROW>(8),
                                   std::vector<JSAMPROW>(8)};
  jpeg_create_compress(&cinfo);
  const bool ok = guarded(err, [&] {
    jpeg_mem_dest(&cinfo, &buffer, &length);
    configure_420(cinfo, in.width, in.height, quality);
    write_raw(cinfo, pad, rows);
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
  if (!png_begin(data, size, image, why)) return false;
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
  if (!png_begin(data, size, image, why)) return false;
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

}  // namespace npusim::rt::dvpp::codecs
