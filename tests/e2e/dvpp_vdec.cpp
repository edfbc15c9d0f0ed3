// SPDX-License-Identifier: Apache-2.0
// e2e: an H.265 elementary stream decoded through the installed VDEC API (-lacl_dvpp) as the CANN
// vdec sample does it: a callback thread polling aclrtProcessReport, one access unit per
// aclvdecSendFrame, the picture copied out inside the callback, EOS at the end.
//   dvpp_vdec IN.h265 OUT.yuv    writes every picture (NV12, VDEC's layout) and prints
//                                "pictures=N width=W height=H wstride=WS hstride=HS ret=R".
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "e2e_common.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define CHECK(x) E2E_CHECK_MSG(x)

namespace {

std::atomic<bool> g_run{true};
std::vector<unsigned char> g_out;
int g_pictures = 0;
uint32_t g_w = 0, g_h = 0, g_ws = 0, g_hs = 0, g_ret = 0;

void on_picture(acldvppStreamDesc*, acldvppPicDesc* pic, void*) {
  const uint32_t size = acldvppGetPicDescSize(pic);
  g_w = acldvppGetPicDescWidth(pic);
  g_h = acldvppGetPicDescHeight(pic);
  g_ws = acldvppGetPicDescWidthStride(pic);
  g_hs = acldvppGetPicDescHeightStride(pic);
  g_ret |= acldvppGetPicDescRetCode(pic);
  std::vector<unsigned char> host(size);
  if (aclrtMemcpy(host.data(), size, acldvppGetPicDescData(pic), size,
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    g_ret |= 0x100;
  }
  g_out.insert(g_out.end(), host.begin(), host.end());
  acldvppFree(acldvppGetPicDescData(pic));
  acldvppDestroyPicDesc(pic);
  ++g_pictures;
}

void* poll(void* ctx) {
  aclrtSetCurrentContext(static_cast<aclrtContext>(ctx));
  while (g_run) (void)aclrtProcessReport(100);
  return nullptr;
}

/// The Annex-B access units of `s`: a new one starts at the first of a run of prefix NAL units
/// (VPS, SPS, PPS, AUD, prefix SEI...: types 32..39) or at a slice whose
/// first_slice_segment_in_pic_flag is set when no prefix unit started it.
std::vector<std::vector<unsigned char>> access_units(const std::vector<unsigned char>& s) {
  std::vector<std::size_t> starts;
  bool in_headers = false;
  for (std::size_t i = 0; i + 4 < s.size(); ++i) {
    if (s[i] != 0 || s[i + 1] != 0 || s[i + 2] != 1) continue;
    const std::size_t at = (i > 0 && s[i - 1] == 0) ? i - 1 : i;
    const int type = (s[i + 3] >> 1) & 0x3f;
    const bool header = type >= 32 && type <= 39;
    const bool first_slice = type < 32 && (s[i + 5] & 0x80) != 0;
    if ((header && !in_headers) || (first_slice && !in_headers)) starts.push_back(at);
    in_headers = header;
    i += 3;
  }
  std::vector<std::vector<unsigned char>> units;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : s.size();
    units.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                       s.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return units;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<unsigned char> stream((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK(aclrtGetCurrentContext(&ctx));
  pthread_t thread;
  pthread_create(&thread, nullptr, poll, ctx);
  aclvdecChannelDesc* ch = aclvdecCreateChannelDesc();
  CHECK(aclvdecSetChannelDescChannelId(ch, 0));
  CHECK(aclvdecSetChannelDescThreadId(ch, static_cast<uint64_t>(thread)));
  CHECK(aclvdecSetChannelDescCallback(ch, on_picture));
  CHECK(aclvdecSetChannelDescEnType(ch, H265_MAIN_LEVEL));
  CHECK(aclvdecSetChannelDescOutPicFormat(ch, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
  CHECK(aclvdecCreateChannel(ch));
  acldvppStreamDesc* sd = acldvppCreateStreamDesc();
  std::vector<void*> inputs;
  for (const auto& unit : access_units(stream)) {
    void* dev = nullptr;
    CHECK(acldvppMalloc(&dev, unit.size()));
    CHECK(aclrtMemcpy(dev, unit.size(), unit.data(), unit.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    inputs.push_back(dev);
    CHECK(acldvppSetStreamDescData(sd, dev));
    CHECK(acldvppSetStreamDescSize(sd, static_cast<uint32_t>(unit.size())));
    const uint32_t out_size = 1008 * 1000 * 3 / 2;  // 1000x1000: strides 1008 x 1000
    void* out = nullptr;
    CHECK(acldvppMalloc(&out, out_size));
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    CHECK(acldvppSetPicDescData(pic, out));
    CHECK(acldvppSetPicDescSize(pic, out_size));
    CHECK(acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    CHECK(aclvdecSendFrame(ch, sd, pic, nullptr, nullptr));
  }
  CHECK(acldvppSetStreamDescEos(sd, 1));
  CHECK(aclvdecSendFrame(ch, sd, nullptr, nullptr, nullptr));
  CHECK(aclvdecDestroyChannel(ch));
  CHECK(aclvdecDestroyChannelDesc(ch));
  CHECK(acldvppDestroyStreamDesc(sd));
  for (void* p : inputs) CHECK(acldvppFree(p));
  g_run = false;
  pthread_join(thread, nullptr);
  e2e_finish(0);
  std::ofstream out(argv[2], std::ios::binary);
  out.write(reinterpret_cast<const char*>(g_out.data()), static_cast<std::streamsize>(g_out.size()));
  std::printf("pictures=%d width=%u height=%u wstride=%u hstride=%u ret=%u\n", g_pictures, g_w,
              g_h, g_ws, g_hs, g_ret);
  return 0;
}
