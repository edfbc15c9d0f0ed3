// SPDX-License-Identifier: Apache-2.0
// npusim_dvpp_rate (a benchmark, not a test): JPEGD and VPC frame rates against the number of
// channels, in simulated time, next to the product's published "Performance Specifications"
// table (the preset's dvpp.* figures cite it). Runs on the ascend310p preset unless
// NPUSIM_CONFIG is set.
//
// For n channels: n streams (CANN's tables: one channel = one thread submitting to its own
// stream), each submitting `frames` 1080p frames back to back (JPEGD: a 1920x1080 4:2:0 JPEG to
// NV12; VPC: a 1920x1080 NV12 resize to 1920x1080, the table's scenario), timed with events:
// rate = n x frames / (last end - first start). Published: min(n x fps, total_fps) of the preset.
//   npusim_dvpp_rate [FRAMES]      channels 1, 2, 4, 8, 12, 16, 20, 24 (default 8 frames each)
//   npusim_dvpp_rate --quick       channels 1, 4, 12, 2 frames each (the ctest bench_dvpp_rate_quick)
// Exit status 1 when a rate is outside +-10 % of the table.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <jpeglib.h>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "bench_check.h"

namespace {

#define CHECK(call) BENCH_CHECK(call)

constexpr std::uint32_t kW = 1920, kH = 1080;

std::vector<unsigned char> make_jpeg() {
  jpeg_compress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* buf = nullptr;
  unsigned long len = 0;
  jpeg_mem_dest(&c, &buf, &len);
  c.image_width = kW;
  c.image_height = kH;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 85, TRUE);
  jpeg_start_compress(&c, TRUE);
  std::vector<unsigned char> row(3 * kW);
  while (c.next_scanline < kH) {
    for (std::uint32_t x = 0; x < kW; ++x) {
      row[3 * x] = static_cast<unsigned char>(x * 255 / kW);
      row[3 * x + 1] = static_cast<unsigned char>(c.next_scanline * 255 / kH);
      row[3 * x + 2] = static_cast<unsigned char>(((x / 64) + (c.next_scanline / 64)) % 2 * 200);
    }
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::vector<unsigned char> out(buf, buf + len);
  std::free(buf);
  return out;
}

struct Module {
  const char* name;
  double fps, total;  // the published table (the preset's figures)
};

/// Frames per simulated second with `n` channels of `frames` frames each.
double run(bool jpegd, int n, int frames, const std::vector<unsigned char>& jpg,
           acldvppChannelDesc* ch) {
  const std::uint32_t ws = 1920, hs = 1088;  // JPEGD output: 64/128-aligned width, 16 height
  const std::uint32_t out_size = ws * hs * 3 / 2;
  void* in = nullptr;
  CHECK(acldvppMalloc(&in, jpegd ? jpg.size() : out_size));
  if (jpegd) {
    CHECK(aclrtMemcpy(in, jpg.size(), jpg.data(), jpg.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  } else {
    CHECK(aclrtMemset(in, out_size, 0x80, out_size));
  }
  std::vector<aclrtStream> streams(n);
  std::vector<aclrtEvent> start(n), end(n);
  std::vector<void*> outs(n);
  std::vector<acldvppPicDesc*> descs(n);
  acldvppPicDesc* src = acldvppCreatePicDesc();
  acldvppSetPicDescData(src, in);
  acldvppSetPicDescFormat(src, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(src, kW);
  acldvppSetPicDescHeight(src, kH);
  acldvppSetPicDescWidthStride(src, ws);
  acldvppSetPicDescHeightStride(src, hs);
  acldvppSetPicDescSize(src, out_size);
  acldvppResizeConfig* resize = acldvppCreateResizeConfig();
  for (int i = 0; i < n; ++i) {
    CHECK(aclrtCreateStream(&streams[i]));
    CHECK(aclrtCreateEvent(&start[i]));
    CHECK(aclrtCreateEvent(&end[i]));
    CHECK(acldvppMalloc(&outs[i], out_size));
    descs[i] = acldvppCreatePicDesc();
    acldvppSetPicDescData(descs[i], outs[i]);
    acldvppSetPicDescFormat(descs[i], PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(descs[i], kW);
    acldvppSetPicDescHeight(descs[i], kH);
    acldvppSetPicDescWidthStride(descs[i], ws);
    acldvppSetPicDescHeightStride(descs[i], hs);
    acldvppSetPicDescSize(descs[i], out_size);
  }
  for (int i = 0; i < n; ++i) CHECK(aclrtRecordEvent(start[i], streams[i]));
  for (int f = 0; f < frames; ++f) {
    for (int i = 0; i < n; ++i) {
      if (jpegd) {
        CHECK(acldvppJpegDecodeAsync(ch, in, static_cast<uint32_t>(jpg.size()), descs[i],
                                     streams[i]));
      } else {
        CHECK(acldvppVpcResizeAsync(ch, src, descs[i], resize, streams[i]));
      }
    }
  }
  for (int i = 0; i < n; ++i) CHECK(aclrtRecordEvent(end[i], streams[i]));
  for (int i = 0; i < n; ++i) CHECK(aclrtSynchronizeStream(streams[i]));
  float span = 0;
  for (int i = 0; i < n; ++i) {
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, start[0], end[i]));
    span = std::max(span, ms);
  }
  for (int i = 0; i < n; ++i) {
    acldvppDestroyPicDesc(descs[i]);
    acldvppFree(outs[i]);
    aclrtDestroyEvent(start[i]);
    aclrtDestroyEvent(end[i]);
    aclrtDestroyStream(streams[i]);
  }
  acldvppDestroyResizeConfig(resize);
  acldvppDestroyPicDesc(src);
  acldvppFree(in);
  return n * frames / (span / 1000.0);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NPUSIM_CONFIG", "ascend310p", 0);
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const int frames = quick ? 2 : argc > 1 ? std::atoi(argv[1]) : 8;
  const std::vector<int> counts =
      quick ? std::vector<int>{1, 4, 12} : std::vector<int>{1, 2, 4, 8, 12, 16, 20, 24};
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  CHECK(acldvppCreateChannel(ch));
  const std::vector<unsigned char> jpg = make_jpeg();
  // The preset's published figures (configs/ascend310p.yaml cites the tables).
  const Module modules[2] = {{"JPEGD", 128, 2048}, {"VPC", 360, 4320}};
  std::printf("DVPP frame rate vs channels on %s, 1080p, %d frames per channel\n",
              aclrtGetSocName(), frames);
  std::printf("%-6s %8s %12s %12s %8s\n", "module", "channels", "fps(sim)", "published", "ratio");
  int worst = 0;
  for (int m = 0; m < 2; ++m) {
    for (int n : counts) {
      const double got = run(m == 0, n, frames, jpg, ch);
      const double want = std::min(n * modules[m].fps, modules[m].total);
      const double ratio = got / want;
      std::printf("%-6s %8d %12.1f %12.1f %8.3f\n", modules[m].name, n, got, want, ratio);
      if (ratio < 0.9 || ratio > 1.1) worst = 1;
    }
  }
  acldvppDestroyChannel(ch);
  acldvppDestroyChannelDesc(ch);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf(worst ? "some rates are outside +-10%% of the table\n"
                    : "every rate within +-10%% of the published table\n");
  return worst;
}
