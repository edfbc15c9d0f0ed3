// SPDX-License-Identifier: Apache-2.0
// DVPP decodes against bad input and misuse (issue 23, item 10): an output description destroyed
// between the decode call and the synchronize is never written (the task drops its results), and
// a JPEG whose data is cut short, or whose frame header claims more pixels than its data holds,
// fails the task (synchronize 507000, retCode 1) instead of decoding "successfully". A write
// into freed memory is seen by a quarantine: this binary's operator delete keeps the blocks freed
// while it is on, filled with a pattern, and the test checks the pattern after the synchronize.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "tests/runtime/dvpp/dvpp_support.h"

// A quarantine for the memory freed while `on`: this binary's operator delete fills such a block
// with a pattern and keeps it, instead of freeing it; intact() says whether any was written since.
namespace quarantine {
std::atomic<bool> on{false};
constexpr int kMax = 1024;
void* blocks[kMax];
std::size_t sizes[kMax];
std::atomic<int> count{0};
constexpr unsigned char kPattern = 0xA5;

bool intact() {
  const int n = std::min(count.load(), kMax);
  for (int i = 0; i < n; ++i) {
    const auto* b = static_cast<const unsigned char*>(blocks[i]);
    for (std::size_t k = 0; k < sizes[i]; ++k) {
      if (b[k] != kPattern) return false;
    }
  }
  return true;
}

void release() {
  const int n = std::min(count.exchange(0), kMax);
  for (int i = 0; i < n; ++i) std::free(blocks[i]);
}
}  // namespace quarantine

// Every single-object operator new and delete of the binary is replaced together (the nothrow
// ones too: the runtime makes descriptors with new (std::nothrow)), so what one allocates the
// other frees (AddressSanitizer checks that they match).
void* operator new(std::size_t n) {
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return std::malloc(n == 0 ? 1 : n);
}

namespace quarantine {
void free_block(void* p) noexcept {
  if (p != nullptr && on.load()) {
    const int i = count.fetch_add(1);
    if (i < kMax) {
      sizes[i] = malloc_usable_size(p);
      std::memset(p, kPattern, sizes[i]);
      blocks[i] = p;
      return;
    }
  }
  std::free(p);
}
}  // namespace quarantine

void operator delete(void* p) noexcept { quarantine::free_block(p); }
void operator delete(void* p, std::size_t) noexcept { quarantine::free_block(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { quarantine::free_block(p); }

namespace npusim::rt::testing {
namespace {

class DvppBadInput : public DvppChannelTest {
 protected:
  /// A w x h (multiples of 16) JPEG of a grey ramp, made by the JPEGE API.
  Bytes jpeg(std::uint32_t w, std::uint32_t h) {
    Bytes yuv(static_cast<std::size_t>(w) * h * 3 / 2, 128);
    for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h; ++i) {
      yuv[i] = static_cast<std::uint8_t>(i % w);
    }
    return jpeg_of(pic(device(yuv), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h,
                       static_cast<std::uint32_t>(yuv.size())));
  }
  /// Decodes `file` into a w x h NV12 output description: the synchronize's result.
  aclError decode(const Bytes& file, std::uint32_t w, std::uint32_t h, acldvppPicDesc** out) {
    const std::uint32_t ws = (w + 127) / 128 * 128, hs = (h + 15) / 16 * 16;
    const std::uint32_t size = ws * hs * 3 / 2;
    *out = pic(device({}, size), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs, size);
    EXPECT_EQ(acldvppJpegDecodeAsync(channel_, device(file), static_cast<uint32_t>(file.size()),
                                     *out, stream_),
              ACL_SUCCESS);
    return aclrtSynchronizeStream(stream_);
  }
};

/// Destroys `d` with the freed memory quarantined: filled with a pattern and kept from reuse, so
/// that a later write into it is seen (quarantine_intact).
void destroy_quarantined(acldvppPicDesc* d) {
  quarantine::on.store(true);
  EXPECT_EQ(acldvppDestroyPicDesc(d), ACL_SUCCESS);
  quarantine::on.store(false);
  EXPECT_GE(quarantine::count.load(), 1);
}

TEST_F(DvppBadInput, JpegdOutputDescriptionDestroyedBeforeTheSynchronizeIsNotWritten) {
  const Bytes file = jpeg(64, 48);
  const std::uint32_t size = 128 * 48 * 3 / 2;
  void* out = device({}, size);
  acldvppPicDesc* d = pic(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 48, 128, 48, size, false);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, device(file), static_cast<uint32_t>(file.size()), d,
                                   stream_),
            ACL_SUCCESS);
  destroy_quarantined(d);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(quarantine::intact()) << "the task wrote into the destroyed description";
  quarantine::release();
  Bytes y(64);  // the pixels still land in the output memory
  ASSERT_EQ(aclrtMemcpy(y.data(), 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_NEAR(y[63], 63, 3);
}

TEST_F(DvppBadInput, PngdOutputDescriptionDestroyedBeforeTheSynchronizeIsNotWritten) {
  const std::uint32_t w = 20, h = 10;
  Bytes rgb(3 * w * h, 77);
  Bytes file;
  ASSERT_TRUE(png_of(w, h, rgb, &file));
  const std::size_t len = file.size();
  acldvppPicDesc* d = pic(device({}, 128 * 16), PIXEL_FORMAT_RGB_888, 0, 0, 128, 16, 128 * 16,
                          false);
  ASSERT_EQ(acldvppPngDecodeAsync(channel_, device(file), static_cast<uint32_t>(len), d, stream_),
            ACL_SUCCESS);
  destroy_quarantined(d);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(quarantine::intact()) << "the task wrote into the destroyed description";
  quarantine::release();
}

TEST_F(DvppBadInput, AJpegCutToHalfItsLengthFailsTheDecode) {
  Bytes file = jpeg(256, 256);
  acldvppPicDesc* whole = nullptr;
  ASSERT_EQ(decode(file, 256, 256, &whole), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescRetCode(whole), 0u);
  file.resize(file.size() / 2);
  acldvppPicDesc* half = nullptr;
  EXPECT_EQ(decode(file, 256, 256, &half), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(acldvppGetPicDescRetCode(half), 1u);
}

TEST_F(DvppBadInput, AFrameHeaderClaimingMorePixelsThanTheDataHoldsFailsTheDecode) {
  Bytes file = jpeg(256, 256);
  std::size_t sof = 0;
  for (std::size_t i = 2; i + 9 < file.size() && sof == 0; ++i) {
    if (file[i] == 0xFF && file[i + 1] == 0xC0) sof = i;
  }
  ASSERT_NE(sof, 0u) << "no baseline frame header";
  for (std::size_t at : {sof + 5, sof + 7}) {  // height, then width: 8192 each
    file[at] = 0x20;
    file[at + 1] = 0x00;
  }
  uint32_t w = 0, h = 0;
  ASSERT_EQ(acldvppJpegGetImageInfo(file.data(), static_cast<uint32_t>(file.size()), &w, &h,
                                    nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(w, 8192u);
  ASSERT_EQ(h, 8192u);
  acldvppPicDesc* out = nullptr;
  EXPECT_EQ(decode(file, 8192, 8192, &out), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(acldvppGetPicDescRetCode(out), 1u);
  EXPECT_EQ(acldvppGetPicDescSize(out), 8192u * 8192 * 3 / 2);  // as set: no result written
}

}  // namespace
}  // namespace npusim::rt::testing
