// SPDX-License-Identifier: Apache-2.0
// A JPEG decoded by the DVPP's JPEG decoder (JPEGD) into a YUV420SP (NV12) picture.
//
//   jpeg_decode IN.jpg OUT.yuv
//
// The steps of CANN's media API V1: read the image's size (acldvppJpegGetImageInfo), ask how big
// the output is (acldvppJpegPredictDecSize), put the JPEG into DVPP memory (acldvppMalloc), open
// a channel, describe the output picture (format, size, the strides JPEGD writes with), decode
// asynchronously on a stream, and copy the picture back. npusim decodes the pixels for real and
// times the frame on a JPEGD unit of the simulated chip.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE  // as with CANN: acl_dvpp.h declares the API only with it
#include "acl/ops/acl_dvpp.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

namespace {

uint32_t align_up(uint32_t v, uint32_t to) { return (v + to - 1) / to * to; }

acldvppPicDesc* output_picture(void* data, uint32_t size, uint32_t w, uint32_t h) {
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  CHECK(acldvppSetPicDescData(pic, data));
  CHECK(acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
  CHECK(acldvppSetPicDescWidth(pic, w));
  CHECK(acldvppSetPicDescHeight(pic, h));
  // JPEGD writes rows 128-byte aligned (64 on 310P) and the height 16-aligned.
  CHECK(acldvppSetPicDescWidthStride(pic, align_up(w, 128)));
  CHECK(acldvppSetPicDescHeightStride(pic, align_up(h, 16)));
  CHECK(acldvppSetPicDescSize(pic, size));
  return pic;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN.jpg OUT.yuv\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<char> jpeg((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
  if (jpeg.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const auto jpeg_size = static_cast<uint32_t>(jpeg.size());

  aclrtStream stream = OpenDevice0();  // aclInit, device 0, a stream (acl_check.h)

  uint32_t w = 0, h = 0, out_size = 0;
  int32_t components = 0;
  CHECK(acldvppJpegGetImageInfo(jpeg.data(), jpeg_size, &w, &h, &components));
  CHECK(acldvppJpegPredictDecSize(jpeg.data(), jpeg_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                                  &out_size));
  std::printf("input: %u x %u, %d components, %u bytes of JPEG\n", w, h, components, jpeg_size);

  void* dev_jpeg = nullptr;
  void* dev_yuv = nullptr;
  CHECK(acldvppMalloc(&dev_jpeg, jpeg_size));  // DVPP buffers come from acldvppMalloc
  CHECK(acldvppMalloc(&dev_yuv, out_size));
  CHECK(aclrtMemcpy(dev_jpeg, jpeg_size, jpeg.data(), jpeg_size, ACL_MEMCPY_HOST_TO_DEVICE));

  acldvppChannelDesc* channel = acldvppCreateChannelDesc();
  CHECK(acldvppCreateChannel(channel));
  acldvppPicDesc* picture = output_picture(dev_yuv, out_size, w, h);

  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(acldvppJpegDecodeAsync(channel, dev_jpeg, jpeg_size, picture, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));

  std::vector<char> yuv(acldvppGetPicDescSize(picture));
  CHECK(aclrtMemcpy(yuv.data(), yuv.size(), dev_yuv, yuv.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  std::ofstream(argv[2], std::ios::binary)
      .write(yuv.data(), static_cast<std::streamsize>(yuv.size()));
  std::printf("output: NV12, strides %u x %u, %zu bytes -> %s\n",
              acldvppGetPicDescWidthStride(picture), acldvppGetPicDescHeightStride(picture),
              yuv.size(), argv[2]);
  std::printf("decode: %.3f ms simulated on a JPEGD unit\n", ms);

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(acldvppDestroyPicDesc(picture));
  CHECK(acldvppDestroyChannel(channel));
  CHECK(acldvppDestroyChannelDesc(channel));
  CHECK(acldvppFree(dev_jpeg));
  CHECK(acldvppFree(dev_yuv));
  CloseDevice0(stream);
  return 0;
}
