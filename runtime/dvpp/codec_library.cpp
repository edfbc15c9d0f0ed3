// SPDX-License-Identifier: Apache-2.0
// The codec library's side of codec_abi.h: libacl_dvpp.so exports npusim_dvpp_codecs(), whose
// table wraps image_codecs.h and video_codec.h. Every entry catches what the C++ side may throw
// (allocation failure), so no exception crosses the C interface.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/dvpp/codec_abi.h"
#include "runtime/dvpp/image_codecs.h"
#include "runtime/dvpp/video_codec.h"

namespace npusim::rt::dvpp::codecs {
namespace {

using ::npusim::dvpp::VideoCodec;
using ::npusim::dvpp::VideoDecoder;
using ::npusim::dvpp::VideoEncoder;
using ::npusim::dvpp::YuvImage;

void put(const std::string& text, char* why, std::size_t why_size) {
  if (why == nullptr || why_size == 0) return;
  const std::size_t n = std::min(text.size(), why_size - 1);
  std::memcpy(why, text.data(), n);
  why[n] = '\0';
}

/// Runs `work` (returning bool); a thrown exception is a failure with its message.
template <class F>
int guarded(char* why, std::size_t why_size, F&& work) {
  std::string text;
  bool ok = false;
  try {
    ok = work(text);
  } catch (const std::exception& e) {
    text = e.what();
  } catch (...) {
    text = "unknown exception in the codec library";
  }
  if (!ok) put(text, why, why_size);
  return ok ? 1 : 0;
}

Image image_of(const npusim_dvpp_image& c) {
  Image i;
  i.data = c.data;
  i.width = c.width;
  i.height = c.height;
  i.width_stride = c.width_stride;
  i.height_stride = c.height_stride;
  i.kind = static_cast<Image::Kind>(c.kind);
  return i;
}

npusim_dvpp_picture picture_of(const YuvImage& img) {
  return {img.width, img.height, img.y.data(), img.u.data(), img.v.data()};
}

YuvImage image_of(const npusim_dvpp_picture& p) {
  YuvImage img;
  img.width = p.width;
  img.height = p.height;
  const std::size_t c = std::size_t{img.chroma_width()} * img.chroma_height();
  img.y.assign(p.y, p.y + std::size_t{p.width} * p.height);
  img.u.assign(p.u, p.u + c);
  img.v.assign(p.v, p.v + c);
  return img;
}

// ---- Still pictures ----

int c_jpeg_info(const void* data, std::size_t size, npusim_dvpp_jpeg_info* out, char* why,
                std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    JpegInfo i;
    if (!codecs::jpeg_info(data, size, i, text)) return false;
    *out = {i.width, i.height, i.components, static_cast<std::int32_t>(i.sampling),
            i.progressive ? 1 : 0, i.arithmetic ? 1 : 0};
    return true;
  });
}

int c_jpeg_decode(const void* data, std::size_t size, const npusim_dvpp_image* out, char* why,
                  std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    return codecs::jpeg_decode(data, size, image_of(*out), text);
  });
}

int c_jpeg_encode(const npusim_dvpp_image* in, int quality, void* dst, std::size_t capacity,
                  std::size_t* written, char* why, std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    return codecs::jpeg_encode(image_of(*in), quality, dst, capacity, *written, text);
  });
}

int c_png_info(const void* data, std::size_t size, npusim_dvpp_png_info* out, char* why,
               std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    PngInfo i;
    if (!codecs::png_info(data, size, i, text)) return false;
    *out = {i.width, i.height, i.components, i.bit_depth};
    return true;
  });
}

int c_png_decode(const void* data, std::size_t size, const npusim_dvpp_image* out, char* why,
                 std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    return codecs::png_decode(data, size, image_of(*out), text);
  });
}

// ---- VDEC ----

void* c_vdec_create(std::int32_t codec, char* why, std::size_t n) {
  std::unique_ptr<VideoDecoder> dec;
  guarded(why, n, [&](std::string& text) {
    dec = VideoDecoder::create(static_cast<VideoCodec>(codec), &text);
    return dec != nullptr;
  });
  return dec.release();
}

/// Runs a decoder step that appends pictures, then hands each to `sink`.
template <class F>
int pictures_to(npusim_dvpp_picture_sink sink, void* ctx, char* why, std::size_t n, F&& step) {
  return guarded(why, n, [&](std::string& text) {
    std::vector<YuvImage> pictures;
    const bool ok = step(&pictures, &text);
    for (const YuvImage& p : pictures) {
      const npusim_dvpp_picture c = picture_of(p);
      sink(ctx, &c);
    }
    return ok;
  });
}

int c_vdec_send(void* dec, const std::uint8_t* data, std::size_t size,
                npusim_dvpp_picture_sink sink, void* ctx, char* why, std::size_t n) {
  return pictures_to(sink, ctx, why, n, [&](std::vector<YuvImage>* out, std::string* text) {
    return static_cast<VideoDecoder*>(dec)->send(data, size, out, text);
  });
}

int c_vdec_flush(void* dec, npusim_dvpp_picture_sink sink, void* ctx, char* why, std::size_t n) {
  return pictures_to(sink, ctx, why, n, [&](std::vector<YuvImage>* out, std::string* text) {
    return static_cast<VideoDecoder*>(dec)->flush(out, text);
  });
}

void c_vdec_destroy(void* dec) { delete static_cast<VideoDecoder*>(dec); }

// ---- VENC ----

int c_venc_available(std::int32_t codec) {
  return VideoEncoder::available(static_cast<VideoCodec>(codec)) ? 1 : 0;
}

void* c_venc_create(const npusim_dvpp_venc_params* c, char* why, std::size_t n) {
  ::npusim::dvpp::EncoderParams p;
  p.codec = static_cast<VideoCodec>(c->codec);
  p.h264_profile = static_cast<::npusim::dvpp::H264Profile>(c->h264_profile);
  p.width = c->width;
  p.height = c->height;
  p.key_frame_interval = c->key_frame_interval;
  p.frame_rate = c->frame_rate;
  p.bit_rate_kbps = c->bit_rate_kbps;
  p.constant_bit_rate = c->constant_bit_rate != 0;
  std::unique_ptr<VideoEncoder> enc;
  guarded(why, n, [&](std::string& text) {
    enc = VideoEncoder::create(p, &text);
    return enc != nullptr;
  });
  return enc.release();
}

/// Runs an encoder step that appends packets, then hands each to `sink`.
template <class F>
int packets_to(npusim_dvpp_packet_sink sink, void* ctx, char* why, std::size_t n, F&& step) {
  return guarded(why, n, [&](std::string& text) {
    std::vector<std::vector<std::uint8_t>> packets;
    const bool ok = step(&packets, &text);
    for (const std::vector<std::uint8_t>& p : packets) sink(ctx, p.data(), p.size());
    return ok;
  });
}

int c_venc_encode(void* enc, const npusim_dvpp_picture* frame, int force_idr,
                  npusim_dvpp_packet_sink sink, void* ctx, char* why, std::size_t n) {
  return packets_to(sink, ctx, why, n, [&](auto* out, std::string* text) {
    return static_cast<VideoEncoder*>(enc)->encode(image_of(*frame), force_idr != 0, out, text);
  });
}

int c_venc_flush(void* enc, npusim_dvpp_packet_sink sink, void* ctx, char* why, std::size_t n) {
  return packets_to(sink, ctx, why, n, [&](auto* out, std::string* text) {
    return static_cast<VideoEncoder*>(enc)->flush(out, text);
  });
}

void c_venc_destroy(void* enc) { delete static_cast<VideoEncoder*>(enc); }

int c_write_yuv420sp(const npusim_dvpp_picture* picture, const npusim_dvpp_layout* l,
                     std::uint8_t* dst, std::size_t dst_size, char* why, std::size_t n) {
  return guarded(why, n, [&](std::string& text) {
    ::npusim::dvpp::Yuv420spLayout layout;
    layout.width = l->width;
    layout.height = l->height;
    layout.width_stride = l->width_stride;
    layout.height_stride = l->height_stride;
    layout.order = l->nv21 != 0 ? ::npusim::dvpp::ChromaOrder::kNv21
                                : ::npusim::dvpp::ChromaOrder::kNv12;
    return ::npusim::dvpp::write_yuv420sp(image_of(*picture), layout, dst, dst_size, &text);
  });
}

constexpr npusim_dvpp_codec_table kTable = {
    NPUSIM_DVPP_CODEC_ABI_VERSION,
    sizeof(npusim_dvpp_codec_table),
    c_jpeg_info,
    c_jpeg_decode,
    c_jpeg_encode,
    c_png_info,
    c_png_decode,
    c_vdec_create,
    c_vdec_send,
    c_vdec_flush,
    c_vdec_destroy,
    c_venc_available,
    c_venc_create,
    c_venc_encode,
    c_venc_flush,
    c_venc_destroy,
    c_write_yuv420sp,
};

}  // namespace
}  // namespace npusim::rt::dvpp::codecs

extern "C" __attribute__((visibility("default"))) const npusim_dvpp_codec_table* npusim_dvpp_codecs(
    std::uint32_t abi_version) {
  return abi_version == NPUSIM_DVPP_CODEC_ABI_VERSION ? &npusim::rt::dvpp::codecs::kTable
                                                      : nullptr;
}
