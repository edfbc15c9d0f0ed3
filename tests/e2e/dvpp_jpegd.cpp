// SPDX-License-Identifier: Apache-2.0
// e2e: a JPEG decoded through the installed DVPP API (-lacl_dvpp), as a CANN program does it.
//   dvpp_jpegd IN.jpg OUT.yuv    writes the NV12 output (widthStride 128-aligned, heightStride
//                                16-aligned) and prints the picture's size and strides.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "e2e_common.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define CHECK(x) E2E_CHECK_MSG(x)

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<char> jpg((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  aclrtStream stream = e2e_open(0);
  uint32_t w = 0, h = 0, size = 0;
  int32_t comps = 0;
  CHECK(acldvppJpegGetImageInfo(jpg.data(), static_cast<uint32_t>(jpg.size()), &w, &h, &comps));
  CHECK(acldvppJpegPredictDecSize(jpg.data(), static_cast<uint32_t>(jpg.size()),
                                  PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size));
  const uint32_t ws = (w + 127) / 128 * 128, hs = (h + 15) / 16 * 16;
  void* src = nullptr;
  void* dst = nullptr;
  CHECK(acldvppMalloc(&src, jpg.size()));
  CHECK(acldvppMalloc(&dst, size));
  CHECK(aclrtMemcpy(src, jpg.size(), jpg.data(), jpg.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  CHECK(acldvppCreateChannel(ch));
  acldvppPicDesc* out = acldvppCreatePicDesc();
  acldvppSetPicDescData(out, dst);
  acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(out, w);
  acldvppSetPicDescHeight(out, h);
  acldvppSetPicDescWidthStride(out, ws);
  acldvppSetPicDescHeightStride(out, hs);
  acldvppSetPicDescSize(out, size);
  CHECK(acldvppJpegDecodeAsync(ch, src, static_cast<uint32_t>(jpg.size()), out, stream));
  CHECK(aclrtSynchronizeStream(stream));
  std::vector<char> yuv(acldvppGetPicDescSize(out));
  CHECK(aclrtMemcpy(yuv.data(), yuv.size(), dst, yuv.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  std::ofstream(argv[2], std::ios::binary)
      .write(yuv.data(), static_cast<std::streamsize>(yuv.size()));
  std::printf("decoded %ux%u (%d components) into %ux%u strides, %zu bytes\n", w, h, comps, ws, hs,
              yuv.size());
  acldvppDestroyPicDesc(out);
  CHECK(acldvppDestroyChannel(ch));
  acldvppDestroyChannelDesc(ch);
  acldvppFree(src);
  acldvppFree(dst);
  e2e_close(stream, 0);
  return 0;
}
