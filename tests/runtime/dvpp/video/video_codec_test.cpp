// SPDX-License-Identifier: Apache-2.0
// The VDEC/VENC codec layer: DVPP layouts, NV12/NV21 packing, and encode -> decode round trips
// through libx264/libx265 and libavcodec's decoders.
#include "runtime/dvpp/video_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/runtime/dvpp/video/synthetic_video.h"

namespace npusim::dvpp {
namespace {

using testing::synthetic_frame;
using Packets = std::vector<std::vector<std::uint8_t>>;

TEST(VideoLayout, VdecAlignmentIsWidth16AndHeight2) {
  Yuv420spLayout l = vdec_layout(1280, 720, ChromaOrder::kNv12);
  EXPECT_EQ(l.width_stride, 1280u);
  EXPECT_EQ(l.height_stride, 720u);
  EXPECT_EQ(l.bytes(), 1280u * 720 * 3 / 2);
  l = vdec_layout(1918, 1078, ChromaOrder::kNv21);
  EXPECT_EQ(l.width_stride, 1920u);
  EXPECT_EQ(l.height_stride, 1078u);
  EXPECT_EQ(l.order, ChromaOrder::kNv21);
  l = vdec_layout(10, 6, ChromaOrder::kNv12);  // width stride at least 32
  EXPECT_EQ(l.width_stride, 32u);
  EXPECT_EQ(l.height_stride, 6u);
  l = vdec_layout(1920, 1081, ChromaOrder::kNv12);
  EXPECT_EQ(l.height_stride, 1082u);
}

TEST(VideoLayout, Nv12AndNv21PackChromaInTheirOrder) {
  const YuvImage img = synthetic_frame(64, 48, 3);
  for (ChromaOrder order : {ChromaOrder::kNv12, ChromaOrder::kNv21}) {
    const Yuv420spLayout l = vdec_layout(64, 48, order);
    std::vector<std::uint8_t> buf(l.bytes(), 0);
    std::string err;
    ASSERT_TRUE(write_yuv420sp(img, l, buf.data(), buf.size(), &err)) << err;
    const std::size_t uv = std::size_t{l.width_stride} * l.height_stride;
    EXPECT_EQ(buf[uv + 0], order == ChromaOrder::kNv12 ? img.u[0] : img.v[0]);
    EXPECT_EQ(buf[uv + 1], order == ChromaOrder::kNv12 ? img.v[0] : img.u[0]);
    EXPECT_EQ(buf[5 * l.width_stride + 7], img.y[5 * 64 + 7]);
    YuvImage back;
    ASSERT_TRUE(read_yuv420sp(buf.data(), buf.size(), l, &back, &err)) << err;
    EXPECT_TRUE(std::isinf(psnr(img, back)));  // exact
  }
}

TEST(VideoLayout, BadLayoutsAndShortBuffersAreRejected) {
  const YuvImage img = synthetic_frame(64, 48, 0);
  Yuv420spLayout l = vdec_layout(64, 48, ChromaOrder::kNv12);
  std::vector<std::uint8_t> buf(l.bytes() - 1);
  std::string err;
  EXPECT_FALSE(write_yuv420sp(img, l, buf.data(), buf.size(), &err));
  EXPECT_NE(err.find("smaller than"), std::string::npos) << err;
  l.width_stride = 32;  // narrower than the picture
  buf.resize(1 << 16);
  EXPECT_FALSE(write_yuv420sp(img, l, buf.data(), buf.size(), &err));
  l = vdec_layout(63, 48, ChromaOrder::kNv12);  // odd width
  EXPECT_FALSE(read_yuv420sp(buf.data(), buf.size(), l, nullptr, &err));
  EXPECT_NE(err.find("even"), std::string::npos) << err;
}

TEST(VideoLayout, ScalesWhenTheOutputSizeDiffers) {
  const YuvImage img = synthetic_frame(128, 96, 0);
  const Yuv420spLayout l = vdec_layout(64, 48, ChromaOrder::kNv12);
  std::vector<std::uint8_t> buf(l.bytes());
  std::string err;
  ASSERT_TRUE(write_yuv420sp(img, l, buf.data(), buf.size(), &err)) << err;
  YuvImage half;
  ASSERT_TRUE(read_yuv420sp(buf.data(), buf.size(), l, &half, &err)) << err;
  // The gradient survives halving: the top-left and bottom-right luma stay near the source's.
  EXPECT_NEAR(half.y[0], img.y[0], 3);
  EXPECT_NEAR(half.y[47 * 64 + 63], img.y[95 * 128 + 127], 3);
}

/// NAL unit types of the Annex-B packet (start codes 00 00 01 / 00 00 00 01).
std::vector<int> nal_types(const std::vector<std::uint8_t>& p, VideoCodec codec) {
  std::vector<int> types;
  for (std::size_t i = 0; i + 3 < p.size(); ++i)
    if (p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 1) {
      const std::uint8_t h = p[i + 3];
      types.push_back(codec == VideoCodec::kH264 ? (h & 0x1f) : ((h >> 1) & 0x3f));
      i += 3;
    }
  return types;
}

bool is_idr(const std::vector<std::uint8_t>& p, VideoCodec codec) {
  for (int t : nal_types(p, codec))
    if (codec == VideoCodec::kH264 ? t == 5 : (t == 19 || t == 20)) return true;
  return false;
}

// Encoder parameters of `codec` at width x height (the other fields at their defaults).
EncoderParams params_of(VideoCodec codec, std::uint32_t width, std::uint32_t height) {
  EncoderParams p;
  p.codec = codec;
  p.width = width;
  p.height = height;
  return p;
}

class VideoRoundTrip : public ::testing::TestWithParam<VideoCodec> {};

TEST_P(VideoRoundTrip, EveryFrameEncodesToOnePacketAndDecodesBackAtOnce) {
  const VideoCodec codec = GetParam();
  ASSERT_TRUE(VideoEncoder::available(codec));
  EncoderParams p = params_of(codec, 320, 240);
  p.key_frame_interval = 8;
  p.bit_rate_kbps = 4000;
  std::string err;
  auto enc = VideoEncoder::create(p, &err);
  ASSERT_NE(enc, nullptr) << err;
  auto dec = VideoDecoder::create(codec, &err);
  ASSERT_NE(dec, nullptr) << err;
  const int kFrames = 14;
  for (int i = 0; i < kFrames; ++i) {
    const YuvImage src = synthetic_frame(320, 240, static_cast<std::uint32_t>(i));
    Packets packets;
    ASSERT_TRUE(enc->encode(src, /*force_idr=*/i == 5, &packets, &err)) << err;
    ASSERT_EQ(packets.size(), 1u) << "frame " << i;
    // IDR frames where the GOP starts (0), where forced (5), and a GOP after that (13).
    EXPECT_EQ(is_idr(packets[0], codec), i == 0 || i == 5 || i == 13) << "frame " << i;
    std::vector<YuvImage> frames;
    ASSERT_TRUE(dec->send(packets[0].data(), packets[0].size(), &frames, &err)) << err;
    ASSERT_EQ(frames.size(), 1u) << "frame " << i;
    EXPECT_EQ(frames[0].width, 320u);
    EXPECT_EQ(frames[0].height, 240u);
    EXPECT_GT(psnr(src, frames[0]), 35.0) << "frame " << i;
  }
  Packets rest;
  ASSERT_TRUE(enc->flush(&rest, &err)) << err;
  EXPECT_TRUE(rest.empty());
  std::vector<YuvImage> tail;
  ASSERT_TRUE(dec->flush(&tail, &err)) << err;
  EXPECT_TRUE(tail.empty());
}

TEST_P(VideoRoundTrip, EncodingIsDeterministic) {
  EncoderParams p = params_of(GetParam(), 128, 128);
  std::string err;
  Packets runs[2];
  for (Packets& run : runs) {
    auto enc = VideoEncoder::create(p, &err);
    ASSERT_NE(enc, nullptr) << err;
    for (std::uint32_t i = 0; i < 6; ++i)
      ASSERT_TRUE(enc->encode(synthetic_frame(128, 128, i), false, &run, &err)) << err;
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST_P(VideoRoundTrip, FrameOfTheWrongSizeIsRejected) {
  EncoderParams p = params_of(GetParam(), 128, 128);
  std::string err;
  auto enc = VideoEncoder::create(p, &err);
  ASSERT_NE(enc, nullptr) << err;
  Packets out;
  EXPECT_FALSE(enc->encode(synthetic_frame(64, 64, 0), false, &out, &err));
  EXPECT_NE(err.find("differs"), std::string::npos) << err;
  EXPECT_TRUE(out.empty());
}

INSTANTIATE_TEST_SUITE_P(Codecs, VideoRoundTrip,
                         ::testing::Values(VideoCodec::kH264, VideoCodec::kH265),
                         [](const auto& info) {
                           return std::string(info.param == VideoCodec::kH264 ? "H264" : "H265");
                         });

TEST(VideoDecoder, AWholeStreamIsSplitIntoItsPictures) {
  EncoderParams p = params_of(VideoCodec::kH264, 96, 64);
  std::string err;
  auto enc = VideoEncoder::create(p, &err);
  ASSERT_NE(enc, nullptr) << err;
  Packets packets;
  for (std::uint32_t i = 0; i < 7; ++i)
    ASSERT_TRUE(enc->encode(synthetic_frame(96, 64, i), false, &packets, &err)) << err;
  std::vector<std::uint8_t> stream;
  for (const auto& pkt : packets) stream.insert(stream.end(), pkt.begin(), pkt.end());
  std::vector<YuvImage> pictures;
  ASSERT_TRUE(decode_stream(VideoCodec::kH264, stream.data(), stream.size(), &pictures, &err))
      << err;
  ASSERT_EQ(pictures.size(), 7u);
  EXPECT_GT(psnr(pictures[6], synthetic_frame(96, 64, 6)), 35.0);
}

TEST(VideoDecoder, GarbageYieldsNoPicture) {
  std::string err;
  auto dec = VideoDecoder::create(VideoCodec::kH265, &err);
  ASSERT_NE(dec, nullptr) << err;
  std::vector<std::uint8_t> junk(4096);
  for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<std::uint8_t>(i * 37 + 11);
  std::vector<YuvImage> frames;
  (void)dec->send(junk.data(), junk.size(), &frames, &err);  // may or may not report an error
  (void)dec->flush(&frames, &err);
  EXPECT_TRUE(frames.empty());
}

TEST(VideoEncoder, ParametersOutOfRangeAreRejected) {
  EncoderParams p;
  p.width = 127;  // odd
  p.height = 128;
  std::string err;
  EXPECT_EQ(VideoEncoder::create(p, &err), nullptr);
  EXPECT_NE(err.find("out of range"), std::string::npos) << err;
}

}  // namespace
}  // namespace npusim::dvpp
