// SPDX-License-Identifier: Apache-2.0
// npusim_vdec_rate (a benchmark, not a test): VDEC frame rate against the number of channels, in
// simulated time, next to the product's published "Performance Specifications" table (the
// preset's dvpp.vdec figures cite it). Runs on the ascend310p preset unless NPUSIM_CONFIG is set.
//
//   npusim_vdec_rate [frames per channel (default 24)] [width height (default 1920 1080)]
//   npusim_vdec_rate --quick      1, 4 and 12 channels of 8 1080p frames (the ctest)
//
// For n channels: n aclvdec channels (CANN's tables: one channel = one thread), one callback
// thread subscribed to all of them (aclrtProcessReport, as the samples), the main thread sending
// `frames` H.265 frames of width x height to each channel in turn, then EOS to each (which returns
// when the channel's last callback has returned). Timed with two events on a stream of the main
// thread, recorded before the first frame and after the last EOS:
//   rate = n x frames / elapsed. Published: min(n x fps, total_fps) x (ref pixels / pixels).
// The frame is one IDR picture (libx265) sent again and again, so every frame decodes alone.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "models/chip_config_loader.h"
#include "models/dvpp_config.h"
#include "runtime/dvpp/video_codec.h"
#include "tests/runtime/dvpp/video/synthetic_video.h"
#include "bench_check.h"

namespace {

#define CHECK(call) BENCH_CHECK(call)

std::atomic<bool> g_run{true};
std::atomic<int> g_pictures{0};
std::atomic<int> g_bad{0};

void on_picture(acldvppStreamDesc*, acldvppPicDesc* out, void*) {
  if (out == nullptr || acldvppGetPicDescRetCode(out) != 0) ++g_bad;
  ++g_pictures;
}

void* poll(void* ctx) {
  aclrtSetCurrentContext(static_cast<aclrtContext>(ctx));
  while (g_run) (void)aclrtProcessReport(100);
  return nullptr;
}

/// Frames per simulated second with `n` channels of `frames` frames each.
double run(int n, int frames, const std::vector<std::uint8_t>& packet, std::uint32_t w,
           std::uint32_t h, std::uint64_t tid) {
  const std::uint32_t out_size = npusim::dvpp::vdec_layout(w, h, npusim::dvpp::ChromaOrder::kNv12)
                                     .bytes();
  void* in = nullptr;
  CHECK(acldvppMalloc(&in, packet.size()));
  CHECK(aclrtMemcpy(in, packet.size(), packet.data(), packet.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  acldvppStreamDesc* sd = acldvppCreateStreamDesc();
  acldvppSetStreamDescData(sd, in);
  acldvppSetStreamDescSize(sd, static_cast<std::uint32_t>(packet.size()));
  acldvppStreamDesc* eos = acldvppCreateStreamDesc();
  acldvppSetStreamDescEos(eos, 1);
  std::vector<aclvdecChannelDesc*> chans(n);
  std::vector<void*> outs(n);
  std::vector<acldvppPicDesc*> pics(n);
  for (int i = 0; i < n; ++i) {
    chans[i] = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescChannelId(chans[i], static_cast<std::uint32_t>(i));
    aclvdecSetChannelDescThreadId(chans[i], tid);
    aclvdecSetChannelDescCallback(chans[i], on_picture);
    aclvdecSetChannelDescEnType(chans[i], H265_MAIN_LEVEL);
    aclvdecSetChannelDescOutPicFormat(chans[i], PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    CHECK(aclvdecCreateChannel(chans[i]));
    // One output buffer per channel, reused (the benchmark does not read the pictures).
    CHECK(acldvppMalloc(&outs[i], out_size));
    pics[i] = acldvppCreatePicDesc();
    acldvppSetPicDescData(pics[i], outs[i]);
    acldvppSetPicDescSize(pics[i], out_size);
    acldvppSetPicDescFormat(pics[i], PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  }
  aclrtStream s = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateStream(&s));
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));
  g_pictures = 0;
  CHECK(aclrtRecordEvent(start, s));
  for (int f = 0; f < frames; ++f)
    for (int i = 0; i < n; ++i) CHECK(aclvdecSendFrame(chans[i], sd, pics[i], nullptr, nullptr));
  for (int i = 0; i < n; ++i) CHECK(aclvdecSendFrame(chans[i], eos, nullptr, nullptr, nullptr));
  CHECK(aclrtRecordEvent(end, s));
  CHECK(aclrtSynchronizeStream(s));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  if (g_pictures != n * frames) {
    std::fprintf(stderr, "%d pictures for %d frames\n", g_pictures.load(), n * frames);
    std::exit(1);
  }
  for (int i = 0; i < n; ++i) {
    CHECK(aclvdecDestroyChannel(chans[i]));
    aclvdecDestroyChannelDesc(chans[i]);
    acldvppDestroyPicDesc(pics[i]);
    acldvppFree(outs[i]);
  }
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(end);
  aclrtDestroyStream(s);
  acldvppDestroyStreamDesc(sd);
  acldvppDestroyStreamDesc(eos);
  acldvppFree(in);
  return n * frames / (ms / 1000.0);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NPUSIM_CONFIG", "ascend310p", 0);
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const int frames = quick ? 8 : argc > 1 ? std::atoi(argv[1]) : 24;
  const std::uint32_t w = argc > 3 ? static_cast<std::uint32_t>(std::atoi(argv[2])) : 1920;
  const std::uint32_t h = argc > 3 ? static_cast<std::uint32_t>(std::atoi(argv[3])) : 1080;
  npusim::dvpp::EncoderParams p;
  p.codec = npusim::dvpp::VideoCodec::kH265;
  p.width = w;
  p.height = h;
  p.key_frame_interval = 1;
  std::string err;
  auto enc = npusim::dvpp::VideoEncoder::create(p, &err);
  std::vector<std::vector<std::uint8_t>> packets;
  if (enc == nullptr ||
      !enc->encode(npusim::dvpp::testing::synthetic_frame(w, h, 0), true, &packets, &err) ||
      packets.size() != 1) {
    std::fprintf(stderr, "cannot make the H.265 frame: %s\n", err.c_str());
    return 1;
  }
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK(aclrtGetCurrentContext(&ctx));
  pthread_t poller;
  pthread_create(&poller, nullptr, poll, ctx);
  const std::uint64_t tid = static_cast<std::uint64_t>(poller);
  // The published figures: on the 310P preset, CANN's VDEC table for Atlas inference products
  // (configs/ascend310p.yaml cites it) at its three resolutions; otherwise (another preset or
  // resolution) the preset's VDEC row at its reference resolution, scaled by pixels.
  const npusim::models::ChipConfig cfg = npusim::models::config_from_env();
  const auto& vdec = cfg.unit<npusim::models::DvppConfig>().vdec;
  double fps = vdec.fps;
  double total = vdec.total_fps;
  double scale = static_cast<double>(vdec.ref_width * vdec.ref_height) /
                 (static_cast<double>(w) * h);
  struct Row {
    std::uint32_t w, h;
    double fps, total;
  };
  static const Row k310p[] = {{1920, 1080, 240, 2880}, {1280, 720, 480, 5760},
                              {3840, 2160, 60, 720}};
  if (std::string(aclrtGetSocName()).find("310P") != std::string::npos) {
    for (const Row& r : k310p) {
      if (r.w == w && r.h == h) {
        fps = r.fps;
        total = r.total;
        scale = 1;
      }
    }
  }
  std::printf("VDEC frame rate vs channels on %s, %ux%u H.265, %d frames per channel\n",
              aclrtGetSocName(), w, h, frames);
  std::printf("%8s %12s %12s %8s\n", "channels", "fps(sim)", "published", "ratio");
  int worst = 0;
  const std::vector<int> counts = quick ? std::vector<int>{1, 4, 12}
                                         : std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16};
  for (int n : counts) {
    const double got = run(n, frames, packets[0], w, h, tid);
    const double want = std::min(n * fps, total) * scale;
    const double ratio = want > 0 ? got / want : 0;
    std::printf("%8d %12.1f %12.1f %8.3f\n", n, got, want, ratio);
    if (ratio < 0.9 || ratio > 1.1) worst = 1;
  }
  g_run = false;
  pthread_join(poller, nullptr);
  aclrtResetDevice(0);
  aclFinalize();
  if (g_bad != 0) std::printf("%d pictures reported an error\n", g_bad.load());
  std::printf(worst ? "some rates are outside +-10%% of the table\n"
                    : "every rate within +-10%% of the published table\n");
  return worst || g_bad != 0;
}
