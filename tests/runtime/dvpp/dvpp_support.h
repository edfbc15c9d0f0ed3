// SPDX-License-Identifier: Apache-2.0
// Shared set-up of the DVPP image API tests: a device with a stream and a DVPP channel, device
// buffers and picture descriptions freed at the end of the test, and PNG files made with libpng.
#pragma once

#include <png.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {

using Bytes = std::vector<std::uint8_t>;

/// Encodes `rgb` (w x h, RGB888) as a PNG file; false when libpng refuses either pass.
inline bool png_of(std::uint32_t w, std::uint32_t h, const Bytes& rgb, Bytes* file) {
  png_image img{};  // libpng's simplified API: zeroed, then version, size and format
  img.version = PNG_IMAGE_VERSION;
  img.width = w;
  img.height = h;
  img.format = PNG_FORMAT_RGB;
  png_alloc_size_t len = 0;
  if (png_image_write_to_memory(&img, nullptr, &len, 0, rgb.data(), 0, nullptr) == 0) return false;
  file->resize(len);
  const bool ok = png_image_write_to_memory(&img, file->data(), &len, 0, rgb.data(), 0, nullptr);
  file->resize(len);
  return ok;
}

class DvppChannelTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    channel_ = acldvppCreateChannelDesc();
    ASSERT_NE(channel_, nullptr);
    ASSERT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : buffers_) acldvppFree(p);
    for (acldvppPicDesc* d : descs_) acldvppDestroyPicDesc(d);
    if (channel_ != nullptr) {
      acldvppDestroyChannel(channel_);
      acldvppDestroyChannelDesc(channel_);
    }
    DeviceTest::TearDown();
  }
  /// DVPP memory of max(size, host.size()) bytes holding `host`; freed by TearDown.
  void* device(const Bytes& host, std::size_t size = 0) {
    void* p = nullptr;
    const std::size_t n = std::max(size, host.size());
    EXPECT_EQ(acldvppMalloc(&p, n), ACL_SUCCESS);
    if (!host.empty()) {
      EXPECT_EQ(aclrtMemcpy(p, n, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    buffers_.push_back(p);
    return p;
  }
  Bytes host(const void* dev, std::size_t n) {
    Bytes b(n);
    EXPECT_EQ(aclrtMemcpy(b.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return b;
  }
  /// A picture description the test destroys itself (`keep`: false) or TearDown does.
  acldvppPicDesc* pic(void* data, std::uint32_t format, std::uint32_t w, std::uint32_t h,
                      std::uint32_t ws, std::uint32_t hs, std::uint32_t size, bool keep = true) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    acldvppSetPicDescData(d, data);
    acldvppSetPicDescFormat(d, static_cast<acldvppPixelFormat>(format));
    acldvppSetPicDescWidth(d, w);
    acldvppSetPicDescHeight(d, h);
    acldvppSetPicDescWidthStride(d, ws);
    acldvppSetPicDescHeightStride(d, hs);
    acldvppSetPicDescSize(d, size);
    if (keep) descs_.push_back(d);
    return d;
  }
  /// JPEGE's output for the NV12 picture description `in` (quality `level`, 0: the default).
  Bytes jpeg_of(acldvppPicDesc* in, std::uint32_t level = 0) {
    acldvppJpegeConfig* cfg = acldvppCreateJpegeConfig();
    if (level != 0) {
      EXPECT_EQ(acldvppSetJpegeConfigLevel(cfg, level), ACL_SUCCESS);
    }
    uint32_t size = 0;
    EXPECT_EQ(acldvppJpegPredictEncSize(in, cfg, &size), ACL_SUCCESS);
    void* out = device({}, size);
    EXPECT_EQ(acldvppJpegEncodeAsync(channel_, in, out, &size, cfg, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    acldvppDestroyJpegeConfig(cfg);
    return host(out, size);
  }

  acldvppChannelDesc* channel_ = nullptr;
  std::vector<void*> buffers_;
  std::vector<acldvppPicDesc*> descs_;
};

}  // namespace npusim::rt::testing
