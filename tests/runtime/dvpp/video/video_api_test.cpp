// SPDX-License-Identifier: Apache-2.0
// aclvdec*/aclvenc* on FakeBackend with a real callback thread polling aclrtProcessReport, as
// the CANN samples do: pictures decoded into the output buffers in order with DVPP's layout,
// callbacks that call the runtime, EOS, the documented error codes, and encode -> decode round
// trips (PSNR bounds).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#define ENABLE_DVPP_INTERFACE
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "models/dvpp_config.h"
#include "runtime/dvpp/video_channel.h"
#include "runtime/dvpp/video_codec.h"
#include "tests/runtime/test_support.h"
#include "tests/runtime/dvpp/video/synthetic_video.h"

namespace npusim::rt::testing {
namespace {

using dvpp::ChromaOrder;
using dvpp::EncoderParams;
using dvpp::VideoCodec;
using dvpp::VideoDecoder;
using dvpp::VideoEncoder;
using dvpp::YuvImage;
using ::npusim::dvpp::testing::synthetic_frame;
namespace codec = ::npusim::dvpp;

// A thread looping `while (run) aclrtProcessReport(100)`, as the samples' callback threads do.
class ReportThread {
 public:
  ReportThread() {
    thread_ = std::thread([this] {
      tid_ = static_cast<std::uint64_t>(pthread_self());
      started_ = true;
      while (run_) (void)aclrtProcessReport(100);
    });
    while (!started_) std::this_thread::yield();
  }
  ~ReportThread() { stop(); }
  void stop() {
    run_ = false;
    if (thread_.joinable()) thread_.join();
  }
  std::uint64_t tid() const { return tid_; }

 private:
  std::thread thread_;
  std::atomic<std::uint64_t> tid_{0};
  std::atomic<bool> started_{false};
  std::atomic<bool> run_{true};
};

/// What one VDEC callback saw.
struct Picture {
  std::uintptr_t user = 0;
  std::uint32_t ret = 0, width = 0, height = 0, wstride = 0, hstride = 0, size = 0;
  int copy_rc = -1;
  std::vector<std::uint8_t> bytes;  // copied out inside the callback with aclrtMemcpy
};
std::mutex g_mu;
std::vector<Picture> g_pictures;

void on_picture(acldvppStreamDesc* /*input*/, acldvppPicDesc* output, void* user) {
  Picture p;
  p.user = reinterpret_cast<std::uintptr_t>(user);
  if (output != nullptr) {
    p.ret = acldvppGetPicDescRetCode(output);
    p.width = acldvppGetPicDescWidth(output);
    p.height = acldvppGetPicDescHeight(output);
    p.wstride = acldvppGetPicDescWidthStride(output);
    p.hstride = acldvppGetPicDescHeightStride(output);
    p.size = acldvppGetPicDescSize(output);
    if (p.ret == 0) {
      p.bytes.resize(p.size);
      p.copy_rc = aclrtMemcpy(p.bytes.data(), p.size, acldvppGetPicDescData(output), p.size,
                              ACL_MEMCPY_DEVICE_TO_HOST);  // the runtime, inside the callback
    }
  }
  std::lock_guard<std::mutex> lock(g_mu);
  g_pictures.push_back(std::move(p));
}

std::vector<std::vector<std::uint8_t>> encode(VideoCodec codec, std::uint32_t w, std::uint32_t h,
                                              int frames) {
  EncoderParams p;
  p.codec = codec;
  p.width = w;
  p.height = h;
  p.bit_rate_kbps = 4000;
  std::string err;
  auto enc = VideoEncoder::create(p, &err);
  EXPECT_NE(enc, nullptr) << err;
  std::vector<std::vector<std::uint8_t>> packets;
  for (int i = 0; i < frames; ++i)
    EXPECT_TRUE(enc->encode(synthetic_frame(w, h, static_cast<std::uint32_t>(i)), false,
                            &packets, &err));
  return packets;
}

void* to_device(const void* data, std::size_t size) {
  void* dev = nullptr;
  EXPECT_EQ(acldvppMalloc(&dev, size), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return dev;
}

class VdecTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    std::lock_guard<std::mutex> lock(g_mu);
    g_pictures.clear();
  }
  aclvdecChannelDesc* make_channel(std::uint64_t tid, acldvppStreamFormat type,
                                   acldvppPixelFormat format) {
    aclvdecChannelDesc* d = aclvdecCreateChannelDesc();
    EXPECT_NE(d, nullptr);
    EXPECT_EQ(aclvdecSetChannelDescChannelId(d, 3), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescThreadId(d, tid), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescCallback(d, on_picture), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescEnType(d, type), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(d, format), ACL_SUCCESS);
    return d;
  }
};

class VdecRoundTrip : public VdecTest,
                      public ::testing::WithParamInterface<std::pair<VideoCodec, ChromaOrder>> {};

TEST_P(VdecRoundTrip, EveryFrameDecodesIntoItsOutputInOrderWithDvppLayout) {
  const auto [codec, order] = GetParam();
  const std::uint32_t w = 200, h = 130;  // width stride 208, height stride 130
  const int kFrames = 5;
  auto packets = encode(codec, w, h, kFrames);
  ASSERT_EQ(packets.size(), static_cast<std::size_t>(kFrames));
  ReportThread reports;
  const acldvppPixelFormat format = order == ChromaOrder::kNv12 ? PIXEL_FORMAT_YUV_SEMIPLANAR_420
                                                                : PIXEL_FORMAT_YVU_SEMIPLANAR_420;
  aclvdecChannelDesc* ch = make_channel(
      reports.tid(), codec == VideoCodec::kH264 ? H264_MAIN_LEVEL : H265_MAIN_LEVEL, format);
  ASSERT_EQ(aclvdecCreateChannel(ch), ACL_SUCCESS);
  const std::uint32_t out_size = 208 * 130 * 3 / 2;
  std::vector<void*> inputs, outputs;
  acldvppStreamDesc* in = acldvppCreateStreamDesc();
  for (int i = 0; i < kFrames; ++i) {
    inputs.push_back(to_device(packets[i].data(), packets[i].size()));
    ASSERT_EQ(acldvppSetStreamDescData(in, inputs.back()), ACL_SUCCESS);
    ASSERT_EQ(acldvppSetStreamDescSize(in, static_cast<std::uint32_t>(packets[i].size())),
              ACL_SUCCESS);
    void* out = nullptr;
    ASSERT_EQ(acldvppMalloc(&out, out_size), ACL_SUCCESS);
    outputs.push_back(out);
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    ASSERT_EQ(acldvppSetPicDescData(pic, out), ACL_SUCCESS);
    ASSERT_EQ(acldvppSetPicDescSize(pic, out_size), ACL_SUCCESS);
    ASSERT_EQ(acldvppSetPicDescFormat(pic, format), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSendFrame(ch, in, pic, nullptr, reinterpret_cast<void*>(std::uintptr_t(i))),
              ACL_SUCCESS);
  }
  // EOS: returns when every callback has returned.
  ASSERT_EQ(acldvppSetStreamDescEos(in, 1), ACL_SUCCESS);
  ASSERT_EQ(aclvdecSendFrame(ch, in, nullptr, nullptr, nullptr), ACL_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    ASSERT_EQ(g_pictures.size(), static_cast<std::size_t>(kFrames));
    for (int i = 0; i < kFrames; ++i) {
      const Picture& p = g_pictures[i];
      EXPECT_EQ(p.user, static_cast<std::uintptr_t>(i));
      EXPECT_EQ(p.ret, 0u);
      EXPECT_EQ(p.width, w);
      EXPECT_EQ(p.height, h);
      EXPECT_EQ(p.wstride, 208u);
      EXPECT_EQ(p.hstride, 130u);
      EXPECT_EQ(p.size, out_size);
      EXPECT_EQ(p.copy_rc, ACL_SUCCESS);  // runtime calls work inside the callback
      codec::Yuv420spLayout l = codec::vdec_layout(w, h, order);
      YuvImage got;
      std::string err;
      ASSERT_TRUE(codec::read_yuv420sp(p.bytes.data(), p.bytes.size(), l, &got, &err)) << err;
      EXPECT_GT(codec::psnr(got, synthetic_frame(w, h, static_cast<std::uint32_t>(i))), 35.0)
          << "frame " << i;
    }
  }
  // One VDEC task per frame on the DVPP unit.
  EXPECT_EQ(tasks_of(models::TaskKind::kDvppVdec), static_cast<std::size_t>(kFrames));
  EXPECT_EQ(aclvdecDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
  acldvppDestroyStreamDesc(in);
  for (void* p : inputs) acldvppFree(p);
  for (void* p : outputs) acldvppFree(p);
}

INSTANTIATE_TEST_SUITE_P(
    Formats, VdecRoundTrip,
    ::testing::Values(std::make_pair(VideoCodec::kH265, ChromaOrder::kNv12),
                      std::make_pair(VideoCodec::kH264, ChromaOrder::kNv21)),
    [](const auto& info) {
      return std::string(info.param.first == VideoCodec::kH264 ? "H264" : "H265") +
             (info.param.second == ChromaOrder::kNv12 ? "_NV12" : "_NV21");
    });

TEST_F(VdecTest, DestroyDeliversEveryPendingCallbackAndTooSmallBuffersReportIt) {
  auto packets = encode(VideoCodec::kH265, 160, 128, 2);
  ReportThread reports;
  aclvdecChannelDesc* ch = make_channel(reports.tid(), H265_MAIN_LEVEL,
                                        PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(aclvdecCreateChannel(ch), ACL_SUCCESS);
  acldvppStreamDesc* in = acldvppCreateStreamDesc();
  std::vector<void*> bufs;
  const std::uint32_t sizes[2] = {160 * 128 * 3 / 2, 100};  // the second is too small
  for (int i = 0; i < 2; ++i) {
    bufs.push_back(to_device(packets[i].data(), packets[i].size()));
    acldvppSetStreamDescData(in, bufs.back());
    acldvppSetStreamDescSize(in, static_cast<std::uint32_t>(packets[i].size()));
    void* out = nullptr;
    ASSERT_EQ(acldvppMalloc(&out, sizes[i]), ACL_SUCCESS);
    bufs.push_back(out);
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    acldvppSetPicDescData(pic, out);
    acldvppSetPicDescSize(pic, sizes[i]);
    ASSERT_EQ(aclvdecSendFrame(ch, in, pic, nullptr, reinterpret_cast<void*>(std::uintptr_t(i))),
              ACL_SUCCESS);
  }
  ASSERT_EQ(aclvdecDestroyChannel(ch), ACL_SUCCESS);  // no EOS sent: destroy delivers them
  {
    std::lock_guard<std::mutex> lock(g_mu);
    ASSERT_EQ(g_pictures.size(), 2u);
    EXPECT_EQ(g_pictures[0].ret, 0u);
    EXPECT_EQ(g_pictures[1].ret, dvpp::kVideoBufferTooSmall);
  }
  EXPECT_EQ(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
  acldvppDestroyStreamDesc(in);
  for (void* p : bufs) acldvppFree(p);
}

TEST_F(VdecTest, SkippedFramesAreDecodedWithoutOutputAndOutputSizeScales) {
  auto packets = encode(VideoCodec::kH264, 320, 240, 3);
  ReportThread reports;
  aclvdecChannelDesc* ch = make_channel(reports.tid(), H264_MAIN_LEVEL,
                                        PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(aclvdecSetChannelDescOutPicWidth(ch, 160), ACL_SUCCESS);
  ASSERT_EQ(aclvdecSetChannelDescOutPicHeight(ch, 120), ACL_SUCCESS);
  ASSERT_EQ(aclvdecCreateChannel(ch), ACL_SUCCESS);
  acldvppStreamDesc* in = acldvppCreateStreamDesc();
  std::vector<void*> bufs;
  const std::uint32_t out_size = 160 * 120 * 3 / 2;
  for (int i = 0; i < 3; ++i) {
    bufs.push_back(to_device(packets[i].data(), packets[i].size()));
    acldvppSetStreamDescData(in, bufs.back());
    acldvppSetStreamDescSize(in, static_cast<std::uint32_t>(packets[i].size()));
    void* user = reinterpret_cast<void*>(std::uintptr_t(i));
    if (i == 1) {  // P frame 1 is decoded (frame 2 refers to it) but not output
      ASSERT_EQ(aclvdecSendSkippedFrame(ch, in, nullptr, user), ACL_SUCCESS);
      continue;
    }
    void* out = nullptr;
    ASSERT_EQ(acldvppMalloc(&out, out_size), ACL_SUCCESS);
    bufs.push_back(out);
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    acldvppSetPicDescData(pic, out);
    acldvppSetPicDescSize(pic, out_size);
    ASSERT_EQ(aclvdecSendFrame(ch, in, pic, nullptr, user), ACL_SUCCESS);
  }
  ASSERT_EQ(aclvdecDestroyChannel(ch), ACL_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    ASSERT_EQ(g_pictures.size(), 3u);
    EXPECT_EQ(g_pictures[1].user, 1u);
    EXPECT_EQ(g_pictures[1].size, 0u);  // no output description: nothing filled in
    for (int i : {0, 2}) {
      const Picture& p = g_pictures[static_cast<std::size_t>(i)];
      EXPECT_EQ(p.ret, 0u);
      EXPECT_EQ(p.width, 160u);
      EXPECT_EQ(p.height, 120u);
      EXPECT_EQ(p.wstride, 160u);
      EXPECT_EQ(p.hstride, 120u);
      // Half size: compared with the source frame halved by the same scaler.
      const YuvImage src = synthetic_frame(320, 240, static_cast<std::uint32_t>(i));
      const codec::Yuv420spLayout l = codec::vdec_layout(160, 120, ChromaOrder::kNv12);
      std::vector<std::uint8_t> ref(l.bytes());
      std::string err;
      ASSERT_TRUE(codec::write_yuv420sp(src, l, ref.data(), ref.size(), &err)) << err;
      YuvImage want, got;
      ASSERT_TRUE(codec::read_yuv420sp(ref.data(), ref.size(), l, &want, &err)) << err;
      ASSERT_TRUE(codec::read_yuv420sp(p.bytes.data(), p.bytes.size(), l, &got, &err)) << err;
      EXPECT_GT(codec::psnr(got, want), 33.0) << "frame " << i;
    }
  }
  EXPECT_EQ(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
  acldvppDestroyStreamDesc(in);
  for (void* p : bufs) acldvppFree(p);
}

TEST_F(VdecTest, AnUndecodableFrameReportsNoPicture) {
  ReportThread reports;
  aclvdecChannelDesc* ch = make_channel(reports.tid(), H265_MAIN_LEVEL,
                                        PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(aclvdecCreateChannel(ch), ACL_SUCCESS);
  std::vector<std::uint8_t> junk(2048);
  for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<std::uint8_t>(i * 151 + 7);
  void* dev = to_device(junk.data(), junk.size());
  void* out = nullptr;
  ASSERT_EQ(acldvppMalloc(&out, 4096), ACL_SUCCESS);
  acldvppStreamDesc* in = acldvppCreateStreamDesc();
  acldvppSetStreamDescData(in, dev);
  acldvppSetStreamDescSize(in, 2048);
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  acldvppSetPicDescData(pic, out);
  acldvppSetPicDescSize(pic, 4096);
  ASSERT_EQ(aclvdecSendFrame(ch, in, pic, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclvdecDestroyChannel(ch), ACL_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    ASSERT_EQ(g_pictures.size(), 1u);
    EXPECT_EQ(g_pictures[0].ret, dvpp::kVideoNoPicture);
  }
  EXPECT_EQ(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
  acldvppDestroyPicDesc(pic);
  acldvppDestroyStreamDesc(in);
  acldvppFree(dev);
  acldvppFree(out);
}

TEST_F(VdecTest, BadArgumentsReturnTheDocumentedCodes) {
  aclvdecChannelDesc* ch = aclvdecCreateChannelDesc();
  EXPECT_EQ(aclvdecSetChannelDescEnType(ch, static_cast<acldvppStreamFormat>(7)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecSetChannelDescOutMode(ch, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecSetChannelDescCallback(ch, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecCreateChannel(ch), ACL_ERROR_INVALID_PARAM);  // no callback, no thread
  EXPECT_EQ(aclvdecSetChannelDescCallback(ch, on_picture), ACL_SUCCESS);
  EXPECT_EQ(aclvdecSetChannelDescThreadId(ch, static_cast<std::uint64_t>(pthread_self())),
            ACL_SUCCESS);
  EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(ch, PIXEL_FORMAT_RGB_888), ACL_SUCCESS);
  EXPECT_EQ(aclvdecCreateChannel(ch), ACL_ERROR_FEATURE_UNSUPPORTED);  // RGB output
  EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(ch, PIXEL_FORMAT_YUV_400), ACL_SUCCESS);
  EXPECT_EQ(aclvdecCreateChannel(ch), ACL_ERROR_INVALID_PARAM);
  acldvppStreamDesc* in = acldvppCreateStreamDesc();
  EXPECT_EQ(aclvdecSendFrame(ch, in, nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecGetChannelDescEnType(nullptr), H265_MAIN_LEVEL);
  EXPECT_EQ(aclvdecGetChannelDescThreadId(ch), static_cast<std::uint64_t>(pthread_self()));

  // A host buffer is not device memory the VDEC can read.
  EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(ch, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
  ASSERT_EQ(aclvdecCreateChannel(ch), ACL_SUCCESS);
  std::vector<std::uint8_t> host(64, 0);
  acldvppSetStreamDescData(in, host.data());
  acldvppSetStreamDescSize(in, 64);
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  EXPECT_EQ(aclvdecSendFrame(ch, in, pic, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
  acldvppDestroyPicDesc(pic);
  acldvppDestroyStreamDesc(in);
}

// ---- VENC ----

std::vector<std::vector<std::uint8_t>> g_packets;
std::vector<std::uint32_t> g_packet_rets;

void on_packet(acldvppPicDesc* /*input*/, acldvppStreamDesc* output, void* /*user*/) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_packet_rets.push_back(acldvppGetStreamDescRetCode(output));
  const std::uint32_t size = acldvppGetStreamDescSize(output);
  std::vector<std::uint8_t> bytes(size);
  if (size != 0 &&
      aclrtMemcpy(bytes.data(), size, acldvppGetStreamDescData(output), size,
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    bytes.clear();
  }
  g_packets.push_back(std::move(bytes));
}

class VencTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.unit<models::DvppConfig>().venc.channels = 3;  // the default chip has no VENC
  }
  void SetUp() override {
    DeviceTest::SetUp();
    std::lock_guard<std::mutex> lock(g_mu);
    g_packets.clear();
    g_packet_rets.clear();
  }
};

TEST_F(VencTest, EncodedPacketsDecodeBackToTheFrames) {
  const std::uint32_t w = 176, h = 144;  // width stride 176, height stride 144
  const int kFrames = 6;
  ReportThread reports;
  aclvencChannelDesc* ch = aclvencCreateChannelDesc();
  ASSERT_EQ(aclvencSetChannelDescThreadId(ch, reports.tid()), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescCallback(ch, on_packet), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescEnType(ch, H264_HIGH_LEVEL), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicFormat(ch, PIXEL_FORMAT_YVU_SEMIPLANAR_420), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicWidth(ch, w), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicHeight(ch, h), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescKeyFrameInterval(ch, 3), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescMaxBitRate(ch, 4000), ACL_SUCCESS);
  ASSERT_EQ(aclvencCreateChannel(ch), ACL_SUCCESS);
  aclvencFrameConfig* cfg = aclvencCreateFrameConfig();
  codec::Yuv420spLayout l = codec::vdec_layout(w, h, ChromaOrder::kNv21);
  std::vector<std::uint8_t> host(l.bytes());
  void* dev = nullptr;
  ASSERT_EQ(acldvppMalloc(&dev, host.size()), ACL_SUCCESS);
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  acldvppSetPicDescData(pic, dev);
  acldvppSetPicDescSize(pic, static_cast<std::uint32_t>(host.size()));
  for (int i = 0; i < kFrames; ++i) {
    std::string err;
    ASSERT_TRUE(codec::write_yuv420sp(synthetic_frame(w, h, static_cast<std::uint32_t>(i)), l,
                                     host.data(), host.size(), &err));
    ASSERT_EQ(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclvencSendFrame(ch, pic, nullptr, cfg, nullptr), ACL_SUCCESS);
  }
  ASSERT_EQ(aclvencSetFrameConfigEos(cfg, 1), ACL_SUCCESS);
  ASSERT_EQ(aclvencSendFrame(ch, nullptr, nullptr, cfg, nullptr), ACL_SUCCESS);  // waits
  std::vector<std::vector<std::uint8_t>> packets;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    packets = g_packets;
    ASSERT_EQ(packets.size(), static_cast<std::size_t>(kFrames));
    for (std::uint32_t r : g_packet_rets) EXPECT_EQ(r, 0u);
  }
  std::string err;
  auto dec = VideoDecoder::create(VideoCodec::kH264, &err);
  ASSERT_NE(dec, nullptr) << err;
  for (int i = 0; i < kFrames; ++i) {
    ASSERT_FALSE(packets[i].empty());
    std::vector<YuvImage> out;
    ASSERT_TRUE(dec->send(packets[i].data(), packets[i].size(), &out, &err)) << err;
    ASSERT_EQ(out.size(), 1u);
    EXPECT_GT(codec::psnr(out[0], synthetic_frame(w, h, static_cast<std::uint32_t>(i))), 33.0);
  }
  EXPECT_EQ(tasks_of(models::TaskKind::kDvppVenc), static_cast<std::size_t>(kFrames));
  EXPECT_EQ(aclvencDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(ch), ACL_SUCCESS);
  aclvencDestroyFrameConfig(cfg);
  acldvppDestroyPicDesc(pic);
  acldvppFree(dev);
}

TEST_F(VencTest, BadArgumentsReturnTheDocumentedCodes) {
  aclvencChannelDesc* ch = aclvencCreateChannelDesc();
  EXPECT_EQ(aclvencSetChannelDescRcMode(ch, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetChannelDescCallback(ch, on_packet), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescThreadId(ch, 42), ACL_SUCCESS);
  EXPECT_EQ(aclvencSetChannelDescPicWidth(ch, 100), ACL_SUCCESS);  // below 128
  EXPECT_EQ(aclvencSetChannelDescPicHeight(ch, 128), ACL_SUCCESS);
  EXPECT_EQ(aclvencCreateChannel(ch), ACL_ERROR_INVALID_PARAM);
  std::uint32_t width = 256;
  EXPECT_EQ(aclvencSetChannelDescParam(ch, ACL_VENC_PIC_WIDTH_UINT32, sizeof width, &width),
            ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescPicWidth(ch), 256u);
  EXPECT_EQ(aclvencSetChannelDescParam(ch, ACL_VENC_PIC_WIDTH_UINT32, 2, &width),
            ACL_ERROR_INVALID_PARAM);
  std::size_t got = 0;
  std::uint64_t tid = 0;
  EXPECT_EQ(aclvencGetChannelDescParam(ch, ACL_VENC_THREAD_ID_UINT64, sizeof tid, &got, &tid),
            ACL_SUCCESS);
  EXPECT_EQ(tid, 42u);
  EXPECT_EQ(got, sizeof tid);
  aclvencFrameConfig* cfg = aclvencCreateFrameConfig();
  EXPECT_EQ(aclvencSetFrameConfigEos(cfg, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSendFrame(ch, nullptr, nullptr, cfg, nullptr), ACL_ERROR_INVALID_PARAM);
  aclvencDestroyFrameConfig(cfg);
  EXPECT_EQ(aclvencDestroyChannelDesc(ch), ACL_SUCCESS);
}

class NoVencChip : public DeviceTest {};  // the default chip (Atlas A2 training) has no VENC

TEST_F(NoVencChip, CreatingAVencChannelIsNotSupported) {
  aclvencChannelDesc* ch = aclvencCreateChannelDesc();
  aclvencSetChannelDescCallback(ch, on_packet);
  aclvencSetChannelDescThreadId(ch, 42);
  aclvencSetChannelDescPicWidth(ch, 128);
  aclvencSetChannelDescPicHeight(ch, 128);
  EXPECT_EQ(aclvencCreateChannel(ch), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(aclvencDestroyChannelDesc(ch), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
