// SPDX-License-Identifier: Apache-2.0
// The functional half of VDEC and VENC: H.264/H.265 decode and encode over FFmpeg's libavcodec
// (plain C++; no FFmpeg type leaks out of video_codec.cpp). The codecs and write_yuv420sp (libswscale)
// are in video_codec.cpp, part of the codec library libacl_dvpp.so, which the runtime reaches
// through its C table (codec_abi.h, codec_client.h); the rest (video_layout.cpp) is plain code the
// runtime links.
//
// Pictures cross this layer in DVPP's YUV420SP layout (NV12: Y plane then interleaved U,V; NV21:
// V,U) with explicit strides. VDEC's documented output alignment (CANN "VDEC functions and
// restrictions"): width stride = width rounded up to 16 (at least 32), height stride = height
// rounded up to 2, buffer >= width stride x height stride x 3/2 (vdec_layout()).
//
// Decoding follows VDEC's frame mode: each send() is one access unit (Annex-B NAL units of one
// frame); frames come out as libavcodec releases them (immediately for streams without B-frames),
// the rest at flush(). 10-bit streams are converted to 8 bits (VDEC does the same).
// Encoding uses libx264 / libx265 with one thread and no lookahead or B-frames, so every frame
// yields its packet at once and the bitstream is identical on every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::dvpp {

enum class VideoCodec { kH264, kH265 };
const char* video_codec_name(VideoCodec codec);  // "H.264" / "H.265"

/// Chroma order of a YUV420SP picture.
enum class ChromaOrder { kNv12, kNv21 };

/// A YUV420SP picture in memory: size, strides (bytes per luma row, luma rows before chroma).
struct Yuv420spLayout {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t width_stride = 0;
  std::uint32_t height_stride = 0;
  ChromaOrder order = ChromaOrder::kNv12;
  /// width_stride x height_stride x 3/2.
  std::size_t bytes() const {
    return static_cast<std::size_t>(width_stride) * height_stride * 3 / 2;
  }
};

/// VDEC's output layout for a width x height picture (the documented alignment).
Yuv420spLayout vdec_layout(std::uint32_t width, std::uint32_t height, ChromaOrder order);

/// An 8-bit planar 4:2:0 picture (tight planes; chroma planes are ceil(w/2) x ceil(h/2)).
struct YuvImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> y, u, v;
  std::uint32_t chroma_width() const { return (width + 1) / 2; }
  std::uint32_t chroma_height() const { return (height + 1) / 2; }
  /// A black-initialised image of the given size.
  static YuvImage blank(std::uint32_t width, std::uint32_t height);
};

/// True if `l` is a usable YUV420SP layout (even, non-zero size; strides at least the size); else
/// false with `error`.
bool yuv420sp_layout_ok(const Yuv420spLayout& l, std::string* error);

/// Writes `image` into `dst` laid out as `layout` (scaled with libswscale when the layout's
/// width/height differ from the image's; a straight copy otherwise). False (with `error`) if the
/// layout is inconsistent or `dst_size` is smaller than layout.bytes().
bool write_yuv420sp(const YuvImage& image, const Yuv420spLayout& layout, std::uint8_t* dst,
                    std::size_t dst_size, std::string* error);

/// Reads a YUV420SP picture (layout.width x layout.height) from `src`. False (with `error`) if the
/// layout is inconsistent, the size is odd or `src_size` is smaller than the picture needs
/// (the last chroma row may end at width, not width_stride).
bool read_yuv420sp(const std::uint8_t* src, std::size_t src_size, const Yuv420spLayout& layout,
                   YuvImage* image, std::string* error);

/// PSNR (dB) of the luma+chroma samples of two same-size images; +inf if identical, NaN if the
/// sizes differ.
double psnr(const YuvImage& a, const YuvImage& b);

class VideoDecoder {
 public:
  /// nullptr (with `error`) if libavcodec has no decoder for `codec`.
  static std::unique_ptr<VideoDecoder> create(VideoCodec codec, std::string* error);
  virtual ~VideoDecoder() = default;

  /// Decodes one access unit; appends the frames it released to `out`. False (with `error`) if
  /// the data is not a decodable stream of this codec; the decoder stays usable.
  virtual bool send(const std::uint8_t* data, std::size_t size, std::vector<YuvImage>* out,
                    std::string* error) = 0;
  /// End of stream: appends every frame still held; the decoder then accepts a new stream.
  virtual bool flush(std::vector<YuvImage>* out, std::string* error) = 0;
};

/// H.264 profiles VENC offers (H.265 is always Main).
enum class H264Profile { kBaseline, kMain, kHigh };

/// Decodes a whole Annex-B elementary stream (split into access units by libavcodec's parser):
/// every picture in display order. False (with `error`) if nothing could be decoded.
bool decode_stream(VideoCodec codec, const std::uint8_t* data, std::size_t size,
                   std::vector<YuvImage>* out, std::string* error);

struct EncoderParams {
  VideoCodec codec = VideoCodec::kH265;
  H264Profile h264_profile = H264Profile::kMain;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t key_frame_interval = 16;  // frames between IDR frames (GOP length)
  std::uint32_t frame_rate = 30;          // frames per second (rate control's time base)
  std::uint32_t bit_rate_kbps = 2000;     // target (CBR) / maximum (VBR) bit rate
  bool constant_bit_rate = false;         // CBR; else VBR capped at bit_rate_kbps
};

class VideoEncoder {
 public:
  /// True if this build of libavcodec has an encoder for `codec` (libx264 / libx265).
  static bool available(VideoCodec codec);
  /// nullptr (with `error`) if the encoder is missing or the parameters are out of range.
  static std::unique_ptr<VideoEncoder> create(const EncoderParams& params, std::string* error);
  virtual ~VideoEncoder() = default;

  /// Encodes one frame (its size must be the channel's); appends the Annex-B packets released
  /// to `out` (one per frame with these settings). `force_idr` makes this frame an IDR frame.
  virtual bool encode(const YuvImage& frame, bool force_idr,
                      std::vector<std::vector<std::uint8_t>>* out, std::string* error) = 0;
  /// End of stream: appends the packets still held.
  virtual bool flush(std::vector<std::vector<std::uint8_t>>* out, std::string* error) = 0;
};

}  // namespace npusim::dvpp
