// SPDX-License-Identifier: Apache-2.0
// The DVPP image API (acl/ops/acl_dvpp.h) against FakeBackend: channels, the documented error
// codes (100000 for bad arguments, 200006 for a module the chip lacks), JPEGD/VPC alignment rules,
// the tasks submitted (one per call, of the module's kind) and the pictures they produce.
#include <cstring>
#include <string>
#include <vector>

#include "models/dvpp_config.h"
#include "runtime/dvpp/image_ops.h"
#include "tests/runtime/dvpp/dvpp_support.h"

namespace npusim::rt::testing {
namespace {

/// A NV12 picture with Y = f(x, y) and constant chroma.
Bytes nv12(std::uint32_t w, std::uint32_t h, std::uint32_t ws, std::uint32_t hs,
           std::uint8_t (*f)(std::uint32_t, std::uint32_t), std::uint8_t u, std::uint8_t v) {
  Bytes b(static_cast<std::size_t>(ws) * hs * 3 / 2, 0);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) b[y * ws + x] = f(x, y);
  for (std::uint32_t y = 0; y < (h + 1) / 2; ++y)
    for (std::uint32_t x = 0; x < (w + 1) / 2; ++x) {
      b[ws * hs + y * ws + 2 * x] = u;
      b[ws * hs + y * ws + 2 * x + 1] = v;
    }
  return b;
}

class DvppTest : public DvppChannelTest {
 protected:
  /// A JPEG of `picture` (NV12 w x h, strides ws x hs) made by the JPEGE API.
  Bytes encode(const Bytes& picture, std::uint32_t w, std::uint32_t h, std::uint32_t ws,
               std::uint32_t hs) {
    void* in = device(picture);
    return jpeg_of(pic(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs,
                       static_cast<std::uint32_t>(picture.size())),
                   100);
  }
  /// The name of the last DVPP task the backend ran.
  std::string last_dvpp() {
    for (auto it = fake().tasks().rbegin(); it != fake().tasks().rend(); ++it) {
      if (it->kind >= TaskKind::kDvppVpc && it->kind <= TaskKind::kDvppVenc) return it->name;
    }
    return "";
  }
};

std::uint8_t ramp(std::uint32_t x, std::uint32_t) { return static_cast<std::uint8_t>(10 * x); }
std::uint8_t flat(std::uint32_t, std::uint32_t) { return 100; }
std::uint8_t pattern(std::uint32_t x, std::uint32_t y) {
  return static_cast<std::uint8_t>((x * 7 + y * 13) & 0xFF);
}

TEST_F(DvppTest, MallocRoundsAndAligns) {
  void* p = nullptr;
  ASSERT_EQ(acldvppMalloc(&p, 100), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 128, 0u);
  EXPECT_EQ(aclrtMemset(p, 160, 0, 160), ACL_SUCCESS);  // 100 -> 128 + 32 usable bytes
  EXPECT_EQ(acldvppFree(p), ACL_SUCCESS);
  EXPECT_EQ(acldvppMalloc(nullptr, 100), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppMalloc(&p, 0), ACL_ERROR_INVALID_PARAM);
}

TEST_F(DvppTest, DescriptorsKeepTheirValues) {
  acldvppPicDesc* d = pic(nullptr, PIXEL_FORMAT_YVU_SEMIPLANAR_420, 30, 20, 32, 20, 960);
  EXPECT_EQ(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
  EXPECT_EQ(acldvppGetPicDescWidth(d), 30u);
  EXPECT_EQ(acldvppGetPicDescWidthStride(d), 32u);
  EXPECT_EQ(acldvppGetPicDescSize(d), 960u);
  EXPECT_EQ(acldvppGetPicDescWidth(nullptr), 0u);
  EXPECT_EQ(acldvppSetPicDescWidth(nullptr, 1), ACL_ERROR_INVALID_PARAM);
  acldvppBatchPicDesc* batch = acldvppCreateBatchPicDesc(3);
  ASSERT_NE(batch, nullptr);
  EXPECT_NE(acldvppGetPicDesc(batch, 2), nullptr);
  EXPECT_EQ(acldvppGetPicDesc(batch, 3), nullptr);
  EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_SUCCESS);
  EXPECT_EQ(acldvppCreateBatchPicDesc(0), nullptr);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(r, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(r, 2), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetResizeConfigInterpolation(r), 2u);
  acldvppDestroyResizeConfig(r);
}

TEST_F(DvppTest, ChannelLifecycle) {
  EXPECT_EQ(acldvppCreateChannel(channel_), ACL_ERROR_INVALID_PARAM);  // already created
  EXPECT_NE(acldvppGetChannelDescChannelId(channel_), 0u);
  EXPECT_EQ(acldvppDestroyChannel(channel_), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannel(channel_), ACL_ERROR_INVALID_PARAM);
  const Bytes in = nv12(16, 8, 16, 8, flat, 128, 128);
  void* a = device(in);
  void* b = device(in);
  acldvppPicDesc* src = pic(a, 1, 16, 8, 16, 8, 192);
  acldvppPicDesc* dst = pic(b, 1, 16, 8, 16, 8, 192);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppVpcResizeAsync(channel_, src, dst, r, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
  EXPECT_EQ(acldvppVpcResizeAsync(channel_, src, dst, r, stream_), ACL_SUCCESS);
  acldvppDestroyResizeConfig(r);
}

TEST_F(DvppTest, ChannelModeLimitsTheModules) {
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  EXPECT_EQ(acldvppSetChannelDescMode(ch, 16), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acldvppSetChannelDescMode(ch, DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
  ASSERT_EQ(acldvppCreateChannel(ch), ACL_SUCCESS);
  const Bytes in = nv12(16, 8, 16, 8, flat, 128, 128);
  acldvppPicDesc* src = pic(device(in), 1, 16, 8, 16, 8, 192);
  acldvppPicDesc* dst = pic(device(in), 1, 16, 8, 16, 8, 192);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppVpcResizeAsync(ch, src, dst, r, stream_), ACL_ERROR_INVALID_PARAM);
  acldvppDestroyResizeConfig(r);
  acldvppDestroyChannel(ch);
  acldvppDestroyChannelDesc(ch);
}

TEST_F(DvppTest, JpegRoundTripThroughJpegeAndJpegd) {
  const std::uint32_t w = 64, h = 48;
  const Bytes picture = nv12(w, h, w, h, flat, 90, 160);
  const Bytes jpg = encode(picture, w, h, w, h);
  ASSERT_GT(jpg.size(), 100u);
  EXPECT_EQ(jpg[0], 0xFF);
  EXPECT_EQ(jpg[1], 0xD8);  // SOI
  uint32_t iw = 0, ih = 0;
  int32_t comps = 0;
  acldvppJpegFormat format = ACL_JPEG_CSS_UNKNOWN;
  ASSERT_EQ(acldvppJpegGetImageInfoV2(jpg.data(), static_cast<uint32_t>(jpg.size()), &iw, &ih,
                                      &comps, &format),
            ACL_SUCCESS);
  EXPECT_EQ(iw, w);
  EXPECT_EQ(ih, h);
  EXPECT_EQ(comps, 3);
  EXPECT_EQ(format, ACL_JPEG_CSS_420);
  uint32_t dec = 0;
  ASSERT_EQ(acldvppJpegPredictDecSize(jpg.data(), static_cast<uint32_t>(jpg.size()),
                                      PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec),
            ACL_SUCCESS);
  EXPECT_EQ(dec, 128u * 48 * 3 / 2);  // 910B rule: widthStride 128-aligned, heightStride 16
  void* in = device(Bytes(jpg.begin(), jpg.end()));
  void* out = device({}, dec);
  acldvppPicDesc* d = pic(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, 128, 48, dec);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, static_cast<uint32_t>(jpg.size()), d, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescWidth(d), w);
  EXPECT_EQ(acldvppGetPicDescSize(d), dec);
  const Bytes yuv = host(out, dec);
  // Flat colour at quality 100: every sample within 1 of the original.
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) EXPECT_NEAR(yuv[y * 128 + x], 100, 1);
  EXPECT_NEAR(yuv[128 * 48], 90, 1);
  EXPECT_NEAR(yuv[128 * 48 + 1], 160, 1);
  EXPECT_EQ(tasks_of(TaskKind::kDvppJpege), 1u);
  EXPECT_EQ(tasks_of(TaskKind::kDvppJpegd), 1u);
  EXPECT_EQ(last_dvpp(), "JPEGD");
}

TEST_F(DvppTest, JpegeInputRules) {
  void* in = device({}, 4608 * 64 * 3 / 2);
  void* out = device({}, 65536);
  acldvppJpegeConfig* cfg = acldvppCreateJpegeConfig();
  uint32_t size = 65536;
  // Wider than 4096 (JPEGE takes up to 8192) but the stride does not cover the width.
  EXPECT_EQ(acldvppJpegEncodeAsync(channel_, pic(in, 1, 4600, 64, 4096, 64, 4096 * 96), out,
                                   &size, cfg, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppJpegEncodeAsync(channel_, pic(in, 1, 16, 64, 16, 64, 1536), out, &size, cfg,
                                   stream_),
            ACL_ERROR_INVALID_PARAM);  // narrower than 32
  size = 0;
  EXPECT_EQ(acldvppJpegEncodeAsync(channel_, pic(in, 1, 64, 64, 64, 64, 6144), out, &size, cfg,
                                   stream_),
            ACL_ERROR_INVALID_PARAM);  // no room for the output
  EXPECT_EQ(tasks_of(TaskKind::kDvppJpege), 0u);
  acldvppDestroyJpegeConfig(cfg);
}

TEST_F(DvppTest, JpegdOutputAlignmentRules) {
  const Bytes jpg = encode(nv12(64, 48, 64, 48, pattern, 128, 128), 64, 48, 64, 48);
  void* in = device(jpg);
  void* out = device({}, 256 * 64 * 3 / 2);
  const auto n = static_cast<uint32_t>(jpg.size());
  // widthStride 64: not a multiple of 128 on this chip (910B).
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, n, pic(out, 1, 64, 48, 64, 48, 9216), stream_),
            ACL_ERROR_INVALID_PARAM);
  // heightStride 50: not a multiple of 16.
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, n, pic(out, 1, 64, 48, 128, 50, 9600), stream_),
            ACL_ERROR_INVALID_PARAM);
  // size smaller than widthStride x heightStride x 3/2.
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, n, pic(out, 1, 64, 48, 128, 48, 9215), stream_),
            ACL_ERROR_INVALID_PARAM);
  // Output format RGB: not a JPEGD output.
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, n, pic(out, 12, 64, 48, 128, 48, 9216), stream_),
            ACL_ERROR_INVALID_PARAM);
  // Input not in device memory.
  EXPECT_EQ(
      acldvppJpegDecodeAsync(channel_, jpg.data(), n, pic(out, 1, 64, 48, 128, 48, 9216), stream_),
      ACL_ERROR_INVALID_PARAM);
  // Not a JPEG.
  const Bytes junk(64, 0x55);
  EXPECT_EQ(acldvppJpegGetImageInfo(junk.data(), 64, nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(tasks_of(TaskKind::kDvppJpegd), 0u);
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, n, pic(out, 2, 64, 48, 128, 48, 9216), stream_),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(DvppTest, ResizeValuesFollowTheDocumentedSampling) {
  // 10x6 ramp (Y = 10 x) to 20x6: output x samples (x + 0.5) / 2 - 0.5, bilinear, rounded.
  const Bytes in = nv12(10, 6, 16, 6, ramp, 100, 200);
  void* a = device(in);
  void* b = device({}, 32 * 6 * 3 / 2);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppVpcResizeAsync(channel_, pic(a, 1, 10, 6, 16, 6, 144),
                                  pic(b, 2, 20, 6, 32, 6, 288), r, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes out = host(b, 288);
  const std::uint8_t want[20] = {0,  3,  8,  13, 18, 23, 28, 33, 38, 43,
                                 48, 53, 58, 63, 68, 73, 78, 83, 88, 90};
  for (int x = 0; x < 20; ++x) EXPECT_EQ(out[5 * 32 + x], want[x]) << x;
  // NV12 in, NV21 out: the chroma pair is swapped.
  EXPECT_EQ(out[32 * 6], 200);
  EXPECT_EQ(out[32 * 6 + 1], 100);
  EXPECT_EQ(tasks_of(TaskKind::kDvppVpc), 1u);
  EXPECT_EQ(last_dvpp(), "VPC_RESIZE");
  // Nearest: sample floor(mapped + 0.5) = floor(x / 2 + 0.25): 0, 0, 10, 10, 20, ...
  ASSERT_EQ(acldvppSetResizeConfigInterpolation(r, 2), ACL_SUCCESS);
  ASSERT_EQ(acldvppVpcResizeAsync(channel_, pic(a, 1, 10, 6, 16, 6, 144),
                                  pic(b, 1, 20, 6, 32, 6, 288), r, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes near = host(b, 288);
  for (int x = 0; x < 20; ++x) EXPECT_EQ(near[x], 10 * (x / 2)) << x;
  acldvppDestroyResizeConfig(r);
}

TEST_F(DvppTest, CropAndPasteCopyExactlyAndCheckTheRoiRules) {
  const Bytes in = nv12(64, 32, 64, 32, pattern, 1, 2);
  void* a = device(in);
  void* b = device(Bytes(48 * 16 * 3 / 2, 7));
  acldvppPicDesc* src = pic(a, 1, 64, 32, 64, 32, 3072);
  acldvppPicDesc* dst = pic(b, 1, 48, 16, 48, 16, 1152);
  auto roi = [](uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return acldvppCreateRoiConfig(l, r, t, b);
  };
  acldvppRoiConfig* crop = roi(10, 25, 4, 13);   // 16x10
  acldvppRoiConfig* paste = roi(16, 31, 2, 11);  // 16x10 at (16, 2)
  ASSERT_EQ(acldvppVpcCropAndPasteAsync(channel_, src, dst, crop, paste, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes out = host(b, 1152);
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 48; ++x) {
      const bool inside = x >= 16 && x < 32 && y >= 2 && y < 12;
      EXPECT_EQ(out[y * 48 + x], inside ? pattern(x - 16 + 10, y - 2 + 4) : 7) << x << "," << y;
    }
  EXPECT_EQ(out[48 * 16 + 1 * 48 + 16], 1);  // chroma row 1 (luma 2), U
  EXPECT_EQ(out[48 * 16 + 1 * 48 + 17], 2);  // V
  EXPECT_EQ(out[48 * 16 + 0 * 48 + 16], 7);  // chroma row 0 untouched
  // ROI rules: left even, right odd, top even, bottom odd, inside; paste left a multiple of 16.
  const struct {
    uint32_t l, r, t, b;
    bool paste;
  } bad[] = {
      {11, 25, 4, 13, false}, {10, 24, 4, 13, false}, {10, 25, 5, 13, false},
      {10, 25, 4, 12, false}, {10, 65, 4, 13, false}, {10, 15, 4, 9, false},
      {8, 23, 2, 11, true},
  };
  for (const auto& c : bad) {
    acldvppRoiConfig* x = roi(c.l, c.r, c.t, c.b);
    EXPECT_EQ(acldvppVpcCropAndPasteAsync(channel_, src, dst, c.paste ? crop : x,
                                          c.paste ? x : paste, stream_),
              ACL_ERROR_INVALID_PARAM)
        << c.l << " " << c.r << " " << c.t << " " << c.b;
    acldvppDestroyRoiConfig(x);
  }
  // Picture rules: widthStride a multiple of 16, heightStride even, size large enough.
  EXPECT_EQ(acldvppVpcCropAsync(channel_, pic(a, 1, 64, 32, 72, 32, 3456), dst, crop, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, pic(a, 1, 64, 31, 64, 31, 3072), dst, crop, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, pic(a, 1, 64, 32, 64, 32, 3071), dst, crop, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, pic(a, 3, 64, 32, 64, 32, 3072), dst, crop, stream_),
            ACL_ERROR_INVALID_PARAM);  // YUV422SP is not a VPC format here
  EXPECT_EQ(tasks_of(TaskKind::kDvppVpc), 1u);
  acldvppDestroyRoiConfig(crop);
  acldvppDestroyRoiConfig(paste);
  // Scaling range [1/32, 16] per direction: 10x6 up to 176x6 (17.6x wider) is refused.
  void* big = device({}, 176 * 6 * 3 / 2);
  acldvppRoiConfig* small = roi(0, 9, 0, 5);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, src, pic(big, 1, 176, 6, 176, 6, 1584), small, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, src, pic(big, 1, 160, 6, 160, 6, 1440), small, stream_),
            ACL_SUCCESS);  // 16x
  acldvppDestroyRoiConfig(small);
}

TEST_F(DvppTest, BatchCropIsOneTaskWithAFramePerRoi) {
  const Bytes in = nv12(64, 32, 64, 32, pattern, 9, 8);
  acldvppBatchPicDesc* srcs = acldvppCreateBatchPicDesc(1);
  acldvppBatchPicDesc* dsts = acldvppCreateBatchPicDesc(2);
  void* a = device(in);
  auto fill = [](acldvppPicDesc* d, void* data, uint32_t w, uint32_t h) {
    acldvppSetPicDescData(d, data);
    acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(d, w);
    acldvppSetPicDescHeight(d, h);
    acldvppSetPicDescWidthStride(d, w);
    acldvppSetPicDescHeightStride(d, h);
    acldvppSetPicDescSize(d, w * h * 3 / 2);
  };
  fill(acldvppGetPicDesc(srcs, 0), a, 64, 32);
  void* o0 = device({}, 16 * 10 * 3 / 2);
  void* o1 = device({}, 16 * 10 * 3 / 2);
  fill(acldvppGetPicDesc(dsts, 0), o0, 16, 10);
  fill(acldvppGetPicDesc(dsts, 1), o1, 16, 10);
  acldvppRoiConfig* rois[2] = {acldvppCreateRoiConfig(0, 15, 0, 9),
                               acldvppCreateRoiConfig(20, 35, 10, 19)};
  uint32_t nums[1] = {2};
  ASSERT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, nums, 1, dsts, rois, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes r0 = host(o0, 240), r1 = host(o1, 240);
  for (std::uint32_t y = 0; y < 10; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      EXPECT_EQ(r0[y * 16 + x], pattern(x, y));
      EXPECT_EQ(r1[y * 16 + x], pattern(x + 20, y + 10));
    }
  EXPECT_EQ(tasks_of(TaskKind::kDvppVpc), 1u);
  EXPECT_EQ(last_dvpp(), "VPC_BATCH_CROP");
  nums[0] = 3;  // more ROIs than destination pictures
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, nums, 1, dsts, rois, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, nums, 2, dsts, rois, stream_),
            ACL_ERROR_INVALID_PARAM);  // size beyond the source batch
  for (acldvppRoiConfig* r : rois) acldvppDestroyRoiConfig(r);
  acldvppDestroyBatchPicDesc(srcs);
  acldvppDestroyBatchPicDesc(dsts);
}

TEST_F(DvppTest, ConvertColorBt601FullRange) {
  const Bytes grey = nv12(16, 6, 16, 6, flat, 128, 128);
  void* a = device(grey);
  void* b = device({}, 48 * 6);
  ASSERT_EQ(acldvppVpcConvertColorAsync(channel_, pic(a, 1, 16, 6, 16, 6, 144),
                                        pic(b, PIXEL_FORMAT_RGB_888, 16, 6, 48, 6, 288), stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes rgb = host(b, 288);
  EXPECT_EQ(rgb[0], 100);
  EXPECT_EQ(rgb[1], 100);
  EXPECT_EQ(rgb[2], 100);
  // Pure red to NV12: Y 76, U 85, V 255 (clamped).
  Bytes red(48 * 6, 0);
  for (std::size_t i = 0; i < red.size(); i += 3) red[i] = 255;
  void* c = device(red);
  void* d = device({}, 144);
  ASSERT_EQ(acldvppVpcConvertColorAsync(channel_, pic(c, PIXEL_FORMAT_RGB_888, 16, 6, 48, 6, 288),
                                        pic(d, 1, 16, 6, 16, 6, 144), stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes yuv = host(d, 144);
  EXPECT_EQ(yuv[0], 76);
  EXPECT_EQ(yuv[96], 85);
  EXPECT_EQ(yuv[97], 255);
  EXPECT_EQ(acldvppVpcConvertColorAsync(channel_, pic(a, 1, 16, 6, 16, 6, 144),
                                        pic(d, 1, 14, 6, 16, 6, 144), stream_),
            ACL_ERROR_INVALID_PARAM);  // sizes differ
}

TEST_F(DvppTest, PngDecodeIsExact) {
  const std::uint32_t w = 20, h = 10;
  Bytes rgb(3 * w * h);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i * 3);
  Bytes file;
  ASSERT_TRUE(png_of(w, h, rgb, &file));
  const std::size_t len = file.size();
  uint32_t iw = 0, ih = 0, size = 0;
  int32_t comps = 0;
  ASSERT_EQ(acldvppPngGetImageInfo(file.data(), static_cast<uint32_t>(len), &iw, &ih, &comps),
            ACL_SUCCESS);
  EXPECT_EQ(iw, w);
  EXPECT_EQ(ih, h);
  EXPECT_EQ(comps, 3);
  ASSERT_EQ(acldvppPngPredictDecSize(file.data(), static_cast<uint32_t>(len), PIXEL_FORMAT_RGB_888,
                                     &size),
            ACL_SUCCESS);
  EXPECT_EQ(size, 128u * 16);
  void* in = device(file);
  void* out = device({}, size);
  acldvppPicDesc* d = pic(out, PIXEL_FORMAT_RGB_888, w, h, 128, 16, size);
  ASSERT_EQ(acldvppPngDecodeAsync(channel_, in, static_cast<uint32_t>(len), d, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const Bytes got = host(out, size);
  for (std::uint32_t y = 0; y < h; ++y)
    EXPECT_EQ(std::memcmp(&got[y * 128], &rgb[y * 3 * w], 3 * w), 0) << y;
  EXPECT_EQ(tasks_of(TaskKind::kDvppPngd), 1u);
}

TEST_F(DvppTest, PicturesMustBeMemoryOfTheCurrentDevice) {
  const Bytes in = nv12(16, 8, 16, 8, flat, 128, 128);
  void* local = device(in);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* other = nullptr;
  ASSERT_EQ(acldvppMalloc(&other, in.size()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppVpcResizeAsync(channel_, pic(local, 1, 16, 8, 16, 8, 192),
                                  pic(other, 1, 16, 8, 16, 8, 192), r, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("memory of device 1"), std::string::npos);
  acldvppDestroyResizeConfig(r);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(acldvppFree(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(DvppTest, RandomDescriptorsGetDocumentedCodesOnly) {
  // Deterministic random pictures, strides, sizes, formats and ROIs over small buffers: every
  // call either succeeds (and its task runs within the buffers: the sanitizer build checks) or
  // fails with ACL_ERROR_INVALID_PARAM.
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&](std::uint32_t n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<std::uint32_t>(x % n);
  };
  const std::size_t cap = 64 * 48 * 3 / 2;
  void* a = device(nv12(64, 48, 64, 48, pattern, 50, 60));
  void* b = device({}, cap);
  acldvppResizeConfig* r = acldvppCreateResizeConfig();
  int ok = 0;
  for (int i = 0; i < 3000; ++i) {
    auto random_pic = [&](void* data) {
      const std::uint32_t w = next(80), h = next(60);
      const std::uint32_t ws = next(3) == 0 ? next(100) : (w + 15) / 16 * 16;
      const std::uint32_t hs = next(3) == 0 ? next(70) : (h + 1) / 2 * 2;
      const std::uint32_t formats[] = {1, 2, 3, 12, 1000, 10000};
      return pic(data, formats[next(6)], w, h, ws, hs, next(2) ? ws * hs * 3 / 2 : next(5000));
    };
    acldvppPicDesc* in = random_pic(a);
    acldvppPicDesc* out = random_pic(b);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(next(70), next(80), next(50), next(60));
    acldvppRoiConfig* paste = acldvppCreateRoiConfig(next(4) * 16, next(80), next(50), next(60));
    aclError rc = ACL_SUCCESS;
    switch (next(5)) {
      case 0: rc = acldvppVpcResizeAsync(channel_, in, out, r, stream_); break;
      case 1: rc = acldvppVpcCropAsync(channel_, in, out, crop, stream_); break;
      case 2: rc = acldvppVpcCropAndPasteAsync(channel_, in, out, crop, paste, stream_); break;
      case 3: rc = acldvppVpcConvertColorAsync(channel_, in, out, stream_); break;
      default:
        rc = acldvppJpegDecodeAsync(channel_, a, static_cast<uint32_t>(next(cap)), out, stream_);
    }
    EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_INVALID_PARAM) << rc;
    ok += rc == ACL_SUCCESS;
    acldvppDestroyRoiConfig(crop);
    acldvppDestroyRoiConfig(paste);
    descs_.pop_back();
    descs_.pop_back();
    acldvppDestroyPicDesc(in);
    acldvppDestroyPicDesc(out);
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_GT(ok, 0);
  acldvppDestroyResizeConfig(r);
}

TEST_F(DvppTest, UnimplementedFunctionsReturnFeatureUnsupported) {
  EXPECT_EQ(acldvppVpcPyrDownAsync(channel_, nullptr, nullptr, nullptr, stream_),
            ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acldvppCreateLutMap(), nullptr);
}

class NoDvppTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& c, FakeTiming&) override {
    models::DvppConfig& d = c.unit<models::DvppConfig>();
    for (models::DvppModuleConfig* m :
         {&d.vpc, &d.jpegd, &d.jpege, &d.pngd, &d.vdec, &d.venc}) {
      m->channels = 0;
    }
  }
};

TEST_F(NoDvppTest, ChannelCreationIsRejected) {
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  EXPECT_EQ(acldvppCreateChannel(ch), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("no DVPP"), std::string::npos);
  acldvppDestroyChannelDesc(ch);
}

class NoJpegdTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& c, FakeTiming&) override {
    c.unit<models::DvppConfig>().jpegd.channels = 0;
  }
};

TEST_F(NoJpegdTest, OnlyTheMissingModuleIsRejected) {
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  ASSERT_EQ(acldvppCreateChannel(ch), ACL_SUCCESS);  // VPC, JPEGE, PNGD remain
  void* p = nullptr;
  ASSERT_EQ(acldvppMalloc(&p, 4096), ACL_SUCCESS);
  acldvppPicDesc* d = acldvppCreatePicDesc();
  EXPECT_EQ(acldvppJpegDecodeAsync(ch, p, 100, d, stream_), ACL_ERROR_FEATURE_UNSUPPORTED);
  acldvppChannelDesc* only = acldvppCreateChannelDesc();
  ASSERT_EQ(acldvppSetChannelDescMode(only, DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
  EXPECT_EQ(acldvppCreateChannel(only), ACL_ERROR_FEATURE_UNSUPPORTED);
  acldvppDestroyPicDesc(d);
  acldvppFree(p);
  acldvppDestroyChannelDesc(only);
  acldvppDestroyChannel(ch);
  acldvppDestroyChannelDesc(ch);
}

}  // namespace
}  // namespace npusim::rt::testing
