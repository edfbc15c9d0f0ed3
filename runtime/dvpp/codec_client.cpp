// SPDX-License-Identifier: Apache-2.0
// image_ops.h's JPEG/PNG functions and codec_client.h's video codecs, forwarded to the codec
// library's C table (codec_abi.h).
#include "runtime/dvpp/codec_client.h"

#include <utility>
#include <vector>

#include "runtime/dvpp/codec_loader.h"
#include "runtime/dvpp/image_ops.h"

namespace npusim::rt::dvpp {
namespace {

using ::npusim::dvpp::YuvImage;

constexpr std::size_t kWhySize = 1024;

/// A reason buffer for one call into the table.
struct Why {
  char text[kWhySize] = {};
};

npusim_dvpp_image c_image(const Image& i) {
  return {i.data, i.width, i.height, i.width_stride, i.height_stride,
          static_cast<std::int32_t>(i.kind)};
}

npusim_dvpp_picture c_picture(const YuvImage& img) {
  return {img.width, img.height, img.y.data(), img.u.data(), img.v.data()};
}

/// The table for a call made in a task (loaded by the API call that made the task).
const npusim_dvpp_codec_table* task_table(std::string& why) { return codec_table(&why); }

void collect_picture(void* ctx, const npusim_dvpp_picture* p) {
  YuvImage img;
  img.width = p->width;
  img.height = p->height;
  const std::size_t c = std::size_t{img.chroma_width()} * img.chroma_height();
  img.y.assign(p->y, p->y + std::size_t{p->width} * p->height);
  img.u.assign(p->u, p->u + c);
  img.v.assign(p->v, p->v + c);
  static_cast<std::vector<YuvImage>*>(ctx)->push_back(std::move(img));
}

void collect_packet(void* ctx, const std::uint8_t* data, std::size_t size) {
  static_cast<std::vector<std::vector<std::uint8_t>>*>(ctx)->emplace_back(data, data + size);
}

bool done(int rc, const Why& why, std::string* error) {
  if (rc == 0 && error != nullptr) *error = why.text;
  return rc != 0;
}

class TableDecoder : public ::npusim::dvpp::VideoDecoder {
 public:
  TableDecoder(const npusim_dvpp_codec_table& t, void* handle) : t_(t), handle_(handle) {}
  ~TableDecoder() override { t_.vdec_destroy(handle_); }
  bool send(const std::uint8_t* data, std::size_t size, std::vector<YuvImage>* out,
            std::string* error) override {
    Why why;
    return done(t_.vdec_send(handle_, data, size, collect_picture, out, why.text, kWhySize), why,
                error);
  }
  bool flush(std::vector<YuvImage>* out, std::string* error) override {
    Why why;
    return done(t_.vdec_flush(handle_, collect_picture, out, why.text, kWhySize), why, error);
  }

 private:
  const npusim_dvpp_codec_table& t_;
  void* handle_;
};

class TableEncoder : public ::npusim::dvpp::VideoEncoder {
 public:
  TableEncoder(const npusim_dvpp_codec_table& t, void* handle) : t_(t), handle_(handle) {}
  ~TableEncoder() override { t_.venc_destroy(handle_); }
  bool encode(const YuvImage& frame, bool force_idr, std::vector<std::vector<std::uint8_t>>* out,
              std::string* error) override {
    Why why;
    const npusim_dvpp_picture p = c_picture(frame);
    return done(t_.venc_encode(handle_, &p, force_idr ? 1 : 0, collect_packet, out, why.text,
                               kWhySize),
                why, error);
  }
  bool flush(std::vector<std::vector<std::uint8_t>>* out, std::string* error) override {
    Why why;
    return done(t_.venc_flush(handle_, collect_packet, out, why.text, kWhySize), why, error);
  }

 private:
  const npusim_dvpp_codec_table& t_;
  void* handle_;
};

}  // namespace

// ---- image_ops.h: JPEG / PNG ----

bool jpeg_info(const void* data, std::size_t size, JpegInfo& info, std::string& why) {
  Why w;
  npusim_dvpp_jpeg_info c{};
  if (require_codecs().jpeg_info(data, size, &c, w.text, kWhySize) == 0) return done(0, w, &why);
  info.width = c.width;
  info.height = c.height;
  info.components = c.components;
  info.sampling = static_cast<JpegSampling>(c.sampling);
  info.progressive = c.progressive != 0;
  info.arithmetic = c.arithmetic != 0;
  return true;
}

// One picture task of the codec library: run(table, the picture as the library takes it, the
// text its reason goes to) returns the library's result code.
template <class F>
bool picture_task(const Image& image, std::string& why, F&& run) {
  const npusim_dvpp_codec_table* t = task_table(why);
  if (t == nullptr) return false;
  Why w;
  const npusim_dvpp_image c = c_image(image);
  return done(run(*t, c, w.text), w, &why);
}

bool jpeg_decode(const void* data, std::size_t size, const Image& out, std::string& why) {
  return picture_task(out, why, [&](const auto& t, const npusim_dvpp_image& c, char* text) {
    return t.jpeg_decode(data, size, &c, text, kWhySize);
  });
}

bool jpeg_encode(const Image& in, int quality, void* dst, std::size_t capacity,
                 std::size_t& written, std::string& why) {
  return picture_task(in, why, [&](const auto& t, const npusim_dvpp_image& c, char* text) {
    return t.jpeg_encode(&c, quality, dst, capacity, &written, text, kWhySize);
  });
}

bool png_info(const void* data, std::size_t size, PngInfo& info, std::string& why) {
  Why w;
  npusim_dvpp_png_info c{};
  if (require_codecs().png_info(data, size, &c, w.text, kWhySize) == 0) return done(0, w, &why);
  info.width = c.width;
  info.height = c.height;
  info.components = c.components;
  info.bit_depth = c.bit_depth;
  return true;
}

bool png_decode(const void* data, std::size_t size, const Image& out, std::string& why) {
  return picture_task(out, why, [&](const auto& t, const npusim_dvpp_image& c, char* text) {
    return t.png_decode(data, size, &c, text, kWhySize);
  });
}

// ---- codec_client.h: video ----

namespace codec {

std::unique_ptr<::npusim::dvpp::VideoDecoder> create_decoder(::npusim::dvpp::VideoCodec codec,
                                                             std::string* error) {
  const npusim_dvpp_codec_table& t = require_codecs();
  Why w;
  void* h = t.vdec_create(static_cast<std::int32_t>(codec), w.text, kWhySize);
  if (h == nullptr) {
    done(0, w, error);
    return nullptr;
  }
  return std::make_unique<TableDecoder>(t, h);
}

bool encoder_available(::npusim::dvpp::VideoCodec codec) {
  return require_codecs().venc_available(static_cast<std::int32_t>(codec)) != 0;
}

std::unique_ptr<::npusim::dvpp::VideoEncoder> create_encoder(
    const ::npusim::dvpp::EncoderParams& p, std::string* error) {
  const npusim_dvpp_codec_table& t = require_codecs();
  const npusim_dvpp_venc_params c = {
      static_cast<std::int32_t>(p.codec), static_cast<std::int32_t>(p.h264_profile), p.width,
      p.height, p.key_frame_interval, p.frame_rate, p.bit_rate_kbps, p.constant_bit_rate ? 1 : 0};
  Why w;
  void* h = t.venc_create(&c, w.text, kWhySize);
  if (h == nullptr) {
    done(0, w, error);
    return nullptr;
  }
  return std::make_unique<TableEncoder>(t, h);
}

bool write_yuv420sp(const YuvImage& image, const ::npusim::dvpp::Yuv420spLayout& layout,
                    std::uint8_t* dst, std::size_t dst_size, std::string* error) {
  std::string why;
  const npusim_dvpp_codec_table* t = task_table(why);
  if (t == nullptr) {
    if (error != nullptr) *error = why;
    return false;
  }
  const npusim_dvpp_picture p = c_picture(image);
  const npusim_dvpp_layout l = {layout.width, layout.height, layout.width_stride,
                                layout.height_stride,
                                layout.order == ::npusim::dvpp::ChromaOrder::kNv21 ? 1 : 0};
  Why w;
  return done(t->write_yuv420sp(&p, &l, dst, dst_size, w.text, kWhySize), w, error);
}

}  // namespace codec
}  // namespace npusim::rt::dvpp
