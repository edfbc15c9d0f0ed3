// SPDX-License-Identifier: Apache-2.0
// npusim_dvpp_ref: inputs and references for the DVPP conformance runs (tools/conformance.sh
// --dvpp-samples) and tests. Independent of npusim's DVPP code: JPEG through libjpeg's ordinary
// (colour-managed) paths, resizing through libswscale.
//
//   gen-jpeg W H OUT.jpg [QUALITY]        synthetic 4:2:0 baseline JPEG (libjpeg defaults)
//   gen-nv12 W H WS HS OUT.yuv            synthetic NV12 picture with those strides
//   gen-png W H OUT.png                   synthetic RGB PNG
//   ref-jpegd IN.jpg WS HS OUT.yuv        libjpeg decode (no fancy upsampling) to NV12; for a
//                                         4:2:0 JPEG its chroma is the coded chroma: bit-exact
//                                         reference for a DVPP JPEGD output
//   ref-resize IN.yuv IW IH IWS IHS L R T B OW OH OWS OHS OUT.yuv
//                                         libswscale bilinear of the crop [L..R]x[T..B] to OWxOH
//                                         (the crop itself when it needs no scaling)
//   crop-nv12 IN.yuv WS HS L T W H OUT.yuv  the W x H region at (L, T) (L, T even) as a tight NV12
//   jpeg-to-nv12 IN.jpg OUT.yuv           decode any JPEG to a tight NV12 (for JPEGE checks)
//   compare A.yuv B.yuv W H AWS AHS BWS BHS [MIN_PSNR|exact]
//                                         NV12 pictures: prints PSNR of Y and UV; exit 1 when
//                                         below MIN_PSNR (default 30 dB) or not identical (exact)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <jpeglib.h>
#include <png.h>
extern "C" {
#include <libswscale/swscale.h>
#include <libavutil/pixfmt.h>
}

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const Bytes& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(2);
  }
}

std::uint8_t clamp(double v) {
  return static_cast<std::uint8_t>(v < 0 ? 0 : v > 255 ? 255 : std::lround(v));
}

/// Synthetic content: gradients, rings and a checker, so resizing and coding are exercised.
void pixel(std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h,
           std::uint8_t rgb[3]) {
  const double fx = static_cast<double>(x) / w, fy = static_cast<double>(y) / h;
  const double r = std::hypot(fx - 0.5, fy - 0.5);
  const double ring = 0.5 + 0.5 * std::cos(r * 60.0);
  const bool check = ((x / 32) + (y / 32)) % 2 == 0;
  rgb[0] = clamp(255 * fx * 0.7 + 60 * ring);
  rgb[1] = clamp(255 * fy * 0.6 + (check ? 40 : 0));
  rgb[2] = clamp(255 * (1 - fx) * 0.5 + 90 * ring);
}

int gen_jpeg(std::uint32_t w, std::uint32_t h, const std::string& out, int quality) {
  jpeg_compress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* buf = nullptr;
  unsigned long len = 0;
  jpeg_mem_dest(&c, &buf, &len);
  c.image_width = w;
  c.image_height = h;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);  // YCbCr 4:2:0, baseline Huffman
  jpeg_set_quality(&c, quality, TRUE);
  jpeg_start_compress(&c, TRUE);
  Bytes row(3 * static_cast<std::size_t>(w));
  while (c.next_scanline < h) {
    for (std::uint32_t x = 0; x < w; ++x) pixel(x, c.next_scanline, w, h, &row[3 * x]);
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  write_file(out, Bytes(buf, buf + len));
  std::free(buf);
  return 0;
}

int gen_nv12(std::uint32_t w, std::uint32_t h, std::uint32_t ws, std::uint32_t hs,
             const std::string& out) {
  Bytes b(static_cast<std::size_t>(ws) * hs * 3 / 2, 0);
  std::uint8_t rgb[3];
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      pixel(x, y, w, h, rgb);
      b[static_cast<std::size_t>(y) * ws + x] =
          clamp(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]);
    }
  }
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y) {
    for (std::uint32_t x = 0; x < (w + 1) / 2; ++x) {
      pixel(2 * x, 2 * y, w, h, rgb);
      std::uint8_t* uv =
          &b[static_cast<std::size_t>(ws) * hs + static_cast<std::size_t>(y) * ws + 2 * x];
      uv[0] = clamp(128 - 0.168736 * rgb[0] - 0.331264 * rgb[1] + 0.5 * rgb[2]);
      uv[1] = clamp(128 + 0.5 * rgb[0] - 0.418688 * rgb[1] - 0.081312 * rgb[2]);
    }
  }
  write_file(out, b);
  return 0;
}

int gen_png(std::uint32_t w, std::uint32_t h, const std::string& out) {
  Bytes rgb(3 * static_cast<std::size_t>(w) * h);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x)
      pixel(x, y, w, h, &rgb[3 * (static_cast<std::size_t>(y) * w + x)]);
  png_image img;
  std::memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = w;
  img.height = h;
  img.format = PNG_FORMAT_RGB;
  if (png_image_write_to_file(&img, out.c_str(), 0, rgb.data(), 0, nullptr) == 0) {
    std::fprintf(stderr, "png write failed: %s\n", img.message);
    return 2;
  }
  return 0;
}

/// Decodes to YCbCr without fancy upsampling: chroma samples are replicated, so the top-left
/// of each 2x2 block is the coded sample of a 4:2:0 JPEG.
bool decode_ycc(const Bytes& jpg, std::uint32_t& w, std::uint32_t& h, Bytes& ycc) {
  jpeg_decompress_struct d;
  jpeg_error_mgr err;
  d.err = jpeg_std_error(&err);
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, jpg.data(), static_cast<unsigned long>(jpg.size()));
  jpeg_read_header(&d, TRUE);
  d.out_color_space = d.num_components == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
  d.do_fancy_upsampling = FALSE;
  d.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&d);
  w = d.output_width;
  h = d.output_height;
  const int nc = d.output_components;
  ycc.assign(3 * static_cast<std::size_t>(w) * h, 128);
  Bytes row(static_cast<std::size_t>(nc) * w);
  while (d.output_scanline < h) {
    const std::uint32_t y = d.output_scanline;
    JSAMPROW r = row.data();
    jpeg_read_scanlines(&d, &r, 1);
    for (std::uint32_t x = 0; x < w; ++x)
      for (int c = 0; c < nc; ++c)
        ycc[3 * (static_cast<std::size_t>(y) * w + x) + c] = row[nc * x + c];
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  return true;
}

Bytes ycc_to_nv12(const Bytes& ycc, std::uint32_t w, std::uint32_t h, std::uint32_t ws,
                  std::uint32_t hs) {
  Bytes b(static_cast<std::size_t>(ws) * hs * 3 / 2, 0);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x)
      b[static_cast<std::size_t>(y) * ws + x] = ycc[3 * (static_cast<std::size_t>(y) * w + x)];
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y)
    for (std::uint32_t x = 0; x < (w + 1) / 2; ++x) {
      const std::size_t s = 3 * (static_cast<std::size_t>(2 * y) * w + 2 * x);
      std::uint8_t* uv =
          &b[static_cast<std::size_t>(ws) * hs + static_cast<std::size_t>(y) * ws + 2 * x];
      uv[0] = ycc[s + 1];
      uv[1] = ycc[s + 2];
    }
  return b;
}

// Decodes the JPEG file `in` into an NV12 file with strides ws x hs (`own_strides`: the picture's
// width and height) and prints the picture's size.
int decode_to_nv12(const std::string& in, bool own_strides, std::uint32_t ws, std::uint32_t hs,
                   const std::string& out) {
  std::uint32_t w = 0, h = 0;
  Bytes ycc;
  decode_ycc(read_file(in), w, h, ycc);
  write_file(out, own_strides ? ycc_to_nv12(ycc, w, h, w, h) : ycc_to_nv12(ycc, w, h, ws, hs));
  std::printf("%u %u\n", w, h);
  return 0;
}

int ref_jpegd(const std::string& in, std::uint32_t ws, std::uint32_t hs, const std::string& out) {
  return decode_to_nv12(in, false, ws, hs, out);
}

int jpeg_to_nv12(const std::string& in, const std::string& out) {
  return decode_to_nv12(in, true, 0, 0, out);
}

// Copies the w x h NV12 crop at (l, t) of `src` (strides ws x hs) into `dst` (dws x dhs).
void copy_nv12(const Bytes& src, std::uint32_t ws, std::uint32_t hs, std::uint32_t l,
               std::uint32_t t, std::uint32_t w, std::uint32_t h, Bytes& dst, std::uint32_t dws,
               std::uint32_t dhs) {
  for (std::uint32_t y = 0; y < h; ++y)
    std::memcpy(&dst[static_cast<std::size_t>(y) * dws],
                &src[static_cast<std::size_t>(t + y) * ws + l], w);
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y)
    std::memcpy(
        &dst[static_cast<std::size_t>(dws) * dhs + static_cast<std::size_t>(y) * dws],
        &src[static_cast<std::size_t>(ws) * hs + static_cast<std::size_t>(t / 2 + y) * ws + l],
        2 * ((w + 1) / 2));
}

// Scales the cw x ch NV12 crop at (l, t) of `src` to ow x oh into `dst` with swscale.
void scale_nv12(const Bytes& src, std::uint32_t iws, std::uint32_t ihs, std::uint32_t l,
                std::uint32_t t, int cw, int ch, Bytes& dst, std::uint32_t ows, std::uint32_t ohs,
                std::uint32_t ow, std::uint32_t oh) {
  SwsContext* sws =
      sws_getContext(cw, ch, AV_PIX_FMT_NV12, static_cast<int>(ow), static_cast<int>(oh),
                     AV_PIX_FMT_NV12, SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
  const std::uint8_t* sp[4] = {
      src.data() + static_cast<std::size_t>(t) * iws + l,
      src.data() + static_cast<std::size_t>(iws) * ihs + static_cast<std::size_t>(t / 2) * iws + l,
      nullptr, nullptr};
  const int ss[4] = {static_cast<int>(iws), static_cast<int>(iws), 0, 0};
  std::uint8_t* dp[4] = {dst.data(), dst.data() + static_cast<std::size_t>(ows) * ohs, nullptr,
                         nullptr};
  const int ds[4] = {static_cast<int>(ows), static_cast<int>(ows), 0, 0};
  sws_scale(sws, sp, ss, 0, ch, dp, ds);
  sws_freeContext(sws);
}

int ref_resize(const std::string& in, std::uint32_t iw, std::uint32_t ih, std::uint32_t iws,
               std::uint32_t ihs, std::uint32_t l, std::uint32_t r, std::uint32_t t,
               std::uint32_t b, std::uint32_t ow, std::uint32_t oh, std::uint32_t ows,
               std::uint32_t ohs, const std::string& out) {
  (void)iw;
  (void)ih;
  const Bytes src = read_file(in);
  const int cw = static_cast<int>(r - l + 1), ch = static_cast<int>(b - t + 1);
  Bytes dst(static_cast<std::size_t>(ows) * ohs * 3 / 2, 0);
  if (cw == static_cast<int>(ow) && ch == static_cast<int>(oh)) {
    // No scaling: the reference is the crop itself (swscale's unscaled NV12 path is not used).
    copy_nv12(src, iws, ihs, l, t, static_cast<std::uint32_t>(cw), static_cast<std::uint32_t>(ch),
              dst, ows, ohs);
  } else {
    scale_nv12(src, iws, ihs, l, t, cw, ch, dst, ows, ohs, ow, oh);
  }
  write_file(out, dst);
  return 0;
}

int crop_nv12(const std::string& in, std::uint32_t ws, std::uint32_t hs, std::uint32_t l,
              std::uint32_t t, std::uint32_t w, std::uint32_t h, const std::string& out) {
  const Bytes src = read_file(in);
  if (src.size() < static_cast<std::size_t>(ws) * hs * 3 / 2) {
    std::fprintf(stderr, "crop-nv12: %s is smaller than its picture\n", in.c_str());
    return 2;
  }
  Bytes dst(static_cast<std::size_t>(w) * h * 3 / 2, 0);
  copy_nv12(src, ws, hs, l, t, w, h, dst, w, h);
  write_file(out, dst);
  return 0;
}

double psnr(double mse) { return mse == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / mse); }

// The squared error of `rows` x `cols` bytes of two planes (offset, stride each).
struct PlaneError {
  double se = 0;
  std::size_t n = 0;
};

PlaneError plane_error(const Bytes& x, std::size_t xo, std::uint32_t xs, const Bytes& y,
                       std::size_t yo, std::uint32_t ys, std::uint32_t rows, std::uint32_t cols) {
  PlaneError e;
  for (std::uint32_t r = 0; r < rows; ++r)
    for (std::uint32_t c = 0; c < cols; ++c) {
      const double d = x[xo + static_cast<std::size_t>(r) * xs + c] -
                       y[yo + static_cast<std::size_t>(r) * ys + c];
      e.se += d * d;
      ++e.n;
    }
  return e;
}

int compare(const std::string& a, const std::string& b, std::uint32_t w, std::uint32_t h,
            std::uint32_t aws, std::uint32_t ahs, std::uint32_t bws, std::uint32_t bhs,
            const std::string& mode) {
  const Bytes x = read_file(a), y = read_file(b);
  if (x.size() < static_cast<std::size_t>(aws) * ahs * 3 / 2 ||
      y.size() < static_cast<std::size_t>(bws) * bhs * 3 / 2) {
    std::printf("compare: a file is smaller than its picture\n");
    return 1;
  }
  const PlaneError ey = plane_error(x, 0, aws, y, 0, bws, h, w);
  const PlaneError euv = plane_error(x, static_cast<std::size_t>(aws) * ahs, aws, y,
                                     static_cast<std::size_t>(bws) * bhs, bws, (h + 1) / 2,
                                     2 * ((w + 1) / 2));
  const double py = psnr(ey.se / ey.n), puv = psnr(euv.se / euv.n);
  const bool exact = ey.se == 0 && euv.se == 0;
  std::printf("PSNR Y %.2f dB, UV %.2f dB%s\n", py, puv, exact ? " (identical)" : "");
  if (mode == "exact") return exact ? 0 : 1;
  const double min = mode.empty() ? 30.0 : std::atof(mode.c_str());
  return py >= min && puv >= min ? 0 : 1;
}

std::uint32_t u(const char* s) { return static_cast<std::uint32_t>(std::strtoul(s, nullptr, 10)); }

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "gen-jpeg" && argc >= 5)
    return gen_jpeg(u(argv[2]), u(argv[3]), argv[4], argc > 5 ? std::atoi(argv[5]) : 90);
  if (cmd == "gen-nv12" && argc == 7)
    return gen_nv12(u(argv[2]), u(argv[3]), u(argv[4]), u(argv[5]), argv[6]);
  if (cmd == "gen-png" && argc == 5) return gen_png(u(argv[2]), u(argv[3]), argv[4]);
  if (cmd == "ref-jpegd" && argc == 6) return ref_jpegd(argv[2], u(argv[3]), u(argv[4]), argv[5]);
  if (cmd == "crop-nv12" && argc == 10)
    return crop_nv12(argv[2], u(argv[3]), u(argv[4]), u(argv[5]), u(argv[6]), u(argv[7]),
                     u(argv[8]), argv[9]);
  if (cmd == "jpeg-to-nv12" && argc == 4) return jpeg_to_nv12(argv[2], argv[3]);
  if (cmd == "ref-resize" && argc == 16)
    return ref_resize(argv[2], u(argv[3]), u(argv[4]), u(argv[5]), u(argv[6]), u(argv[7]),
                      u(argv[8]), u(argv[9]), u(argv[10]), u(argv[11]), u(argv[12]), u(argv[13]),
                      u(argv[14]), argv[15]);
  if (cmd == "compare" && argc >= 10)
    return compare(argv[2], argv[3], u(argv[4]), u(argv[5]), u(argv[6]), u(argv[7]), u(argv[8]),
                   u(argv[9]), argc > 10 ? argv[10] : "");
  std::fprintf(stderr, "usage: see tools/dvpp_ref/dvpp_ref.cpp\n");
  return 2;
}
