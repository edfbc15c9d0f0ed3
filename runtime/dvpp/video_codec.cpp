// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/video_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace npusim::dvpp {
namespace {

std::string av_error(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

void set_error(std::string* error, std::string text) {
  if (error != nullptr) *error = std::move(text);
}

/// libavcodec logs at INFO by default (x264 announces its CPU flags on every open): keep it to
/// errors unless the program chose a level itself.
void quiet_libav() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_ERROR);
  });
}

struct CodecContextDeleter {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameDeleter {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
using PacketPtr = std::unique_ptr<AVPacket, PacketDeleter>;

AVCodecID codec_id(VideoCodec codec) {
  return codec == VideoCodec::kH264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_HEVC;
}

const char* encoder_name(VideoCodec codec) {
  return codec == VideoCodec::kH264 ? "libx264" : "libx265";
}

/// Copies an 8-bit 4:2:0 AVFrame (any layout libswscale reads) into a YuvImage.
bool to_image(const AVFrame& frame, YuvImage* image, std::string* error) {
  const auto w = static_cast<std::uint32_t>(frame.width);
  const auto h = static_cast<std::uint32_t>(frame.height);
  *image = YuvImage::blank(w, h);
  const auto fmt = static_cast<AVPixelFormat>(frame.format);
  if (fmt == AV_PIX_FMT_YUV420P || fmt == AV_PIX_FMT_YUVJ420P) {
    for (std::uint32_t r = 0; r < h; ++r)
      std::memcpy(&image->y[std::size_t{r} * w], frame.data[0] + std::ptrdiff_t{r} * frame.linesize[0], w);
    const std::uint32_t cw = image->chroma_width(), ch = image->chroma_height();
    for (std::uint32_t r = 0; r < ch; ++r) {
      std::memcpy(&image->u[std::size_t{r} * cw], frame.data[1] + std::ptrdiff_t{r} * frame.linesize[1], cw);
      std::memcpy(&image->v[std::size_t{r} * cw], frame.data[2] + std::ptrdiff_t{r} * frame.linesize[2], cw);
    }
    return true;
  }
  // 10-bit and other layouts: converted to 8-bit planar 4:2:0 (what VDEC outputs too).
  SwsContext* sws = sws_getContext(frame.width, frame.height, fmt, frame.width, frame.height,
                                   AV_PIX_FMT_YUV420P, SWS_POINT, nullptr, nullptr, nullptr);
  if (sws == nullptr) {
    set_error(error, std::string("no conversion from decoded pixel format ") +
                         (av_get_pix_fmt_name(fmt) ? av_get_pix_fmt_name(fmt) : "?"));
    return false;
  }
  std::uint8_t* dst[4] = {image->y.data(), image->u.data(), image->v.data(), nullptr};
  int dst_stride[4] = {static_cast<int>(w), static_cast<int>(image->chroma_width()),
                       static_cast<int>(image->chroma_width()), 0};
  sws_scale(sws, frame.data, frame.linesize, 0, frame.height, dst, dst_stride);
  sws_freeContext(sws);
  return true;
}

class AvDecoder final : public VideoDecoder {
 public:
  AvDecoder(const AVCodec* codec, CodecContextPtr ctx) : codec_(codec), ctx_(std::move(ctx)) {}

  bool send(const std::uint8_t* data, std::size_t size, std::vector<YuvImage>* out,
            std::string* error) override {
    if (size == 0 || size > static_cast<std::size_t>(std::numeric_limits<int>::max() - 64)) {
      set_error(error, "stream size " + std::to_string(size) + " is out of range");
      return false;
    }
    PacketPtr pkt(av_packet_alloc());
    if (pkt == nullptr || av_new_packet(pkt.get(), static_cast<int>(size)) < 0) {
      set_error(error, "out of host memory for a packet");
      return false;
    }
    std::memcpy(pkt->data, data, size);
    int rc = avcodec_send_packet(ctx_.get(), pkt.get());
    if (rc == AVERROR(EAGAIN)) {  // frames pending: take them, then resend
      if (!drain(out, error)) return false;
      rc = avcodec_send_packet(ctx_.get(), pkt.get());
    }
    if (rc < 0) {
      set_error(error, std::string(codec_->name) + " rejected the frame: " + av_error(rc));
      return false;
    }
    return drain(out, error);
  }

  bool flush(std::vector<YuvImage>* out, std::string* error) override {
    int rc = avcodec_send_packet(ctx_.get(), nullptr);
    if (rc < 0 && rc != AVERROR_EOF) {
      set_error(error, "flush: " + av_error(rc));
      return false;
    }
    const bool ok = drain(out, error);
    avcodec_flush_buffers(ctx_.get());  // ready for a new stream
    return ok;
  }

  AVCodecContext* context() const { return ctx_.get(); }

 private:
  bool drain(std::vector<YuvImage>* out, std::string* error) {
    FramePtr frame(av_frame_alloc());
    while (true) {
      const int rc = avcodec_receive_frame(ctx_.get(), frame.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
      if (rc < 0) {
        set_error(error, std::string(codec_->name) + " failed to decode: " + av_error(rc));
        return false;
      }
      YuvImage image;
      const bool ok = to_image(*frame, &image, error);
      av_frame_unref(frame.get());
      if (!ok) return false;
      out->push_back(std::move(image));
    }
  }

  const AVCodec* codec_;
  CodecContextPtr ctx_;
};

class AvEncoder final : public VideoEncoder {
 public:
  AvEncoder(const EncoderParams& params, CodecContextPtr ctx)
      : params_(params), ctx_(std::move(ctx)) {}

  bool encode(const YuvImage& image, bool force_idr, std::vector<std::vector<std::uint8_t>>* out,
              std::string* error) override {
    if (image.width != params_.width || image.height != params_.height) {
      set_error(error, "frame " + std::to_string(image.width) + "x" +
                           std::to_string(image.height) + " differs from the channel's " +
                           std::to_string(params_.width) + "x" + std::to_string(params_.height));
      return false;
    }
    FramePtr frame(av_frame_alloc());
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = static_cast<int>(image.width);
    frame->height = static_cast<int>(image.height);
    // The image's planes are tight: point the frame at them (libavcodec copies what it keeps).
    frame->data[0] = const_cast<std::uint8_t*>(image.y.data());
    frame->data[1] = const_cast<std::uint8_t*>(image.u.data());
    frame->data[2] = const_cast<std::uint8_t*>(image.v.data());
    frame->linesize[0] = static_cast<int>(image.width);
    frame->linesize[1] = frame->linesize[2] = static_cast<int>(image.chroma_width());
    frame->pts = next_pts_++;
    frame->pict_type = force_idr ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    const int rc = avcodec_send_frame(ctx_.get(), frame.get());
    if (rc < 0) {
      set_error(error, std::string(encoder_name(params_.codec)) + " rejected the frame: " +
                           av_error(rc));
      return false;
    }
    return drain(out, error);
  }

  bool flush(std::vector<std::vector<std::uint8_t>>* out, std::string* error) override {
    if (flushed_) return true;
    flushed_ = true;
    const int rc = avcodec_send_frame(ctx_.get(), nullptr);
    if (rc < 0 && rc != AVERROR_EOF) {
      set_error(error, "flush: " + av_error(rc));
      return false;
    }
    return drain(out, error);
  }

 private:
  bool drain(std::vector<std::vector<std::uint8_t>>* out, std::string* error) {
    PacketPtr pkt(av_packet_alloc());
    while (true) {
      const int rc = avcodec_receive_packet(ctx_.get(), pkt.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
      if (rc < 0) {
        set_error(error, std::string(encoder_name(params_.codec)) + " failed: " + av_error(rc));
        return false;
      }
      out->emplace_back(pkt->data, pkt->data + pkt->size);
      av_packet_unref(pkt.get());
    }
  }

  EncoderParams params_;
  CodecContextPtr ctx_;
  std::int64_t next_pts_ = 0;
  bool flushed_ = false;
};

}  // namespace

bool write_yuv420sp(const YuvImage& image, const Yuv420spLayout& layout, std::uint8_t* dst,
                    std::size_t dst_size, std::string* error) {
  if (!yuv420sp_layout_ok(layout, error)) return false;
  if (dst_size < layout.bytes()) {
    set_error(error, "output buffer of " + std::to_string(dst_size) + " bytes is smaller than " +
                         std::to_string(layout.bytes()) + " (width stride " +
                         std::to_string(layout.width_stride) + " x height stride " +
                         std::to_string(layout.height_stride) + " x 3/2)");
    return false;
  }
  std::uint8_t* uv = dst + std::size_t{layout.width_stride} * layout.height_stride;
  const bool nv12 = layout.order == ChromaOrder::kNv12;
  if (image.width == layout.width && image.height == layout.height) {
    for (std::uint32_t r = 0; r < layout.height; ++r)
      std::memcpy(dst + std::size_t{r} * layout.width_stride, &image.y[std::size_t{r} * image.width],
                  image.width);
    const std::uint32_t cw = image.chroma_width();
    for (std::uint32_t r = 0; r < layout.height / 2; ++r) {
      std::uint8_t* row = uv + std::size_t{r} * layout.width_stride;
      const std::uint8_t* u = &image.u[std::size_t{r} * cw];
      const std::uint8_t* v = &image.v[std::size_t{r} * cw];
      for (std::uint32_t c = 0; c < cw; ++c) {
        row[2 * c] = nv12 ? u[c] : v[c];
        row[2 * c + 1] = nv12 ? v[c] : u[c];
      }
    }
    return true;
  }
  SwsContext* sws = sws_getContext(
      static_cast<int>(image.width), static_cast<int>(image.height), AV_PIX_FMT_YUV420P,
      static_cast<int>(layout.width), static_cast<int>(layout.height),
      nv12 ? AV_PIX_FMT_NV12 : AV_PIX_FMT_NV21, SWS_BILINEAR, nullptr, nullptr, nullptr);
  if (sws == nullptr) {
    set_error(error, "libswscale cannot scale " + std::to_string(image.width) + "x" +
                         std::to_string(image.height) + " to " + std::to_string(layout.width) +
                         "x" + std::to_string(layout.height));
    return false;
  }
  const std::uint8_t* src[4] = {image.y.data(), image.u.data(), image.v.data(), nullptr};
  const int src_stride[4] = {static_cast<int>(image.width), static_cast<int>(image.chroma_width()),
                             static_cast<int>(image.chroma_width()), 0};
  std::uint8_t* out[4] = {dst, uv, nullptr, nullptr};
  const int out_stride[4] = {static_cast<int>(layout.width_stride),
                             static_cast<int>(layout.width_stride), 0, 0};
  sws_scale(sws, src, src_stride, 0, static_cast<int>(image.height), out, out_stride);
  sws_freeContext(sws);
  return true;
}

std::unique_ptr<VideoDecoder> VideoDecoder::create(VideoCodec codec, std::string* error) {
  quiet_libav();
  const AVCodec* c = avcodec_find_decoder(codec_id(codec));
  if (c == nullptr) {
    set_error(error, std::string("this libavcodec has no ") + video_codec_name(codec) + " decoder");
    return nullptr;
  }
  CodecContextPtr ctx(avcodec_alloc_context3(c));
  if (ctx == nullptr) {
    set_error(error, "out of host memory for a decoder");
    return nullptr;
  }
  ctx->thread_count = 1;  // deterministic, and the simulator's time does not depend on it
  const int rc = avcodec_open2(ctx.get(), c, nullptr);
  if (rc < 0) {
    set_error(error, std::string("cannot open the ") + c->name + " decoder: " + av_error(rc));
    return nullptr;
  }
  return std::make_unique<AvDecoder>(c, std::move(ctx));
}

bool decode_stream(VideoCodec codec, const std::uint8_t* data, std::size_t size,
                   std::vector<YuvImage>* out, std::string* error) {
  quiet_libav();
  const AVCodec* c = avcodec_find_decoder(codec_id(codec));
  AVCodecParserContext* parser = c != nullptr ? av_parser_init(c->id) : nullptr;
  CodecContextPtr ctx(c != nullptr ? avcodec_alloc_context3(c) : nullptr);
  if (parser == nullptr || ctx == nullptr || avcodec_open2(ctx.get(), c, nullptr) < 0) {
    if (parser != nullptr) av_parser_close(parser);
    set_error(error, std::string("cannot open a ") + video_codec_name(codec) + " decoder");
    return false;
  }
  AvDecoder dec(c, std::move(ctx));
  // The parser reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past the end.
  std::vector<std::uint8_t> buf(data, data + size);
  buf.resize(size + AV_INPUT_BUFFER_PADDING_SIZE, 0);
  const std::uint8_t* p = buf.data();
  std::size_t left = size;
  bool ok = true;
  while (ok) {
    const bool flushing = left == 0;  // an empty call hands out the parser's last unit
    std::uint8_t* unit = nullptr;
    int unit_size = 0;
    const int used = av_parser_parse2(parser, dec.context(), &unit, &unit_size, p,
                                      static_cast<int>(left), AV_NOPTS_VALUE, AV_NOPTS_VALUE, 0);
    if (used < 0) break;
    p += used;
    left -= static_cast<std::size_t>(used);
    if (unit_size > 0) ok = dec.send(unit, static_cast<std::size_t>(unit_size), out, error);
    if (flushing && unit_size == 0) break;
  }
  av_parser_close(parser);
  if (ok) ok = dec.flush(out, error);
  if (ok && out->empty()) {
    set_error(error, std::string("no ") + video_codec_name(codec) + " picture in the stream");
    return false;
  }
  return ok;
}

bool VideoEncoder::available(VideoCodec codec) {
  return avcodec_find_encoder_by_name(encoder_name(codec)) != nullptr;
}

std::unique_ptr<VideoEncoder> VideoEncoder::create(const EncoderParams& p, std::string* error) {
  quiet_libav();
  const AVCodec* c = avcodec_find_encoder_by_name(encoder_name(p.codec));
  if (c == nullptr) {
    set_error(error, std::string("this libavcodec has no ") + encoder_name(p.codec) + " (" +
                         video_codec_name(p.codec) + ") encoder");
    return nullptr;
  }
  if (p.width < 2 || p.height < 2 || p.width % 2 != 0 || p.height % 2 != 0 || p.frame_rate == 0 ||
      p.bit_rate_kbps == 0 || p.key_frame_interval == 0) {
    set_error(error, "encoder parameters out of range (" + std::to_string(p.width) + "x" +
                         std::to_string(p.height) + ", " + std::to_string(p.frame_rate) +
                         " fps, " + std::to_string(p.bit_rate_kbps) + " kbit/s, key frame every " +
                         std::to_string(p.key_frame_interval) + ")");
    return nullptr;
  }
  CodecContextPtr ctx(avcodec_alloc_context3(c));
  if (ctx == nullptr) {
    set_error(error, "out of host memory for an encoder");
    return nullptr;
  }
  ctx->width = static_cast<int>(p.width);
  ctx->height = static_cast<int>(p.height);
  ctx->pix_fmt = AV_PIX_FMT_YUV420P;
  ctx->time_base = AVRational{1, static_cast<int>(p.frame_rate)};
  ctx->framerate = AVRational{static_cast<int>(p.frame_rate), 1};
  ctx->gop_size = static_cast<int>(p.key_frame_interval);
  ctx->max_b_frames = 0;
  ctx->thread_count = 1;
  const std::int64_t bps = std::int64_t{p.bit_rate_kbps} * 1000;
  ctx->rc_max_rate = bps;
  ctx->rc_buffer_size = static_cast<int>(std::min<std::int64_t>(bps, std::numeric_limits<int>::max()));
  AVDictionary* opts = nullptr;
  av_dict_set(&opts, "preset", "veryfast", 0);
  av_dict_set(&opts, "tune", "zerolatency", 0);
  av_dict_set(&opts, "forced-idr", "1", 0);
  if (p.constant_bit_rate) {
    ctx->bit_rate = bps;
  } else {
    av_dict_set(&opts, "crf", "23", 0);
  }
  if (p.codec == VideoCodec::kH264) {
    static const char* const kProfiles[] = {"baseline", "main", "high"};
    av_dict_set(&opts, "profile", kProfiles[static_cast<int>(p.h264_profile)], 0);
  } else {
    av_dict_set(&opts, "x265-params",
                "log-level=error:pools=none:frame-threads=1:bframes=0:rc-lookahead=0:open-gop=0:"
                "repeat-headers=1",
                0);
  }
  const int rc = avcodec_open2(ctx.get(), c, &opts);
  av_dict_free(&opts);
  if (rc < 0) {
    set_error(error, std::string("cannot open ") + c->name + ": " + av_error(rc));
    return nullptr;
  }
  return std::make_unique<AvEncoder>(p, std::move(ctx));
}

}  // namespace npusim::dvpp
