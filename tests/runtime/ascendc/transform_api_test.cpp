// SPDX-License-Identifier: Apache-2.0
// The tensor-transform and filter high-level APIs of the twin (lib/transform: Pad, UnPad,
// Transpose with TRANSPOSE_NZ2ND_0213, Fill; Broadcast's 1-D form; lib/filter: Select with a byte
// mask, DropOut) with their host tiling (tiling/tiling_api.h): values against references
// computed here, and the vector (and MTE3) instructions each call records.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::RunResult;

// The host tiling functions take the platform without asking it anything.
const platform_ascendc::PlatformAscendC kPlatform(nullptr);

constexpr std::uint32_t kBytes = 32768;  // each UB buffer of the kernels

/// The non-scalar instructions of block 0, as (pipe, op, count).
struct Rec {
  Pipe pipe;
  Op op;
  std::uint32_t count;
};
std::vector<Rec> recs(const RunResult& r) {
  std::vector<Rec> out;
  for (const auto& in : r.blocks.at(0).trace.instrs) {
    if (in.pipe != Pipe::kScalar) out.push_back({in.pipe, in.op, in.count});
  }
  return out;
}
std::size_t count_of(const RunResult& r, Pipe pipe, Op op) {
  std::size_t n = 0;
  for (const Rec& x : recs(r)) n += x.pipe == pipe && x.op == op ? 1 : 0;
  return n;
}
std::uint64_t vector_elems(const RunResult& r) {
  std::uint64_t n = 0;
  for (const Rec& x : recs(r)) n += x.pipe == Pipe::kVector ? x.count : 0;
  return n;
}

// ---- Pad / UnPad ----------------------------------------------------------------------------

struct PadCase {
  std::uint32_t h, w, ori_w;
  PadParams params;
};

// src <- in (h * w packed), Pad, out <- dst (h * aligned width).
void pad_kernel(GM_ADDR in, GM_ADDR out, PadCase c, std::uint8_t* tiling_bytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, td;
  pipe.InitBuffer(ts, kBytes);
  pipe.InitBuffer(td, kBytes);
  LocalTensor<float> src = ts.Get<float>(), dst = td.Get<float>();
  const std::uint32_t aw = (c.w + 7) / 8 * 8;
  std::memcpy(src.twin_data(), in, c.h * c.w * 4);
  tiling::PadTiling t;
  std::memcpy(&t, tiling_bytes, sizeof(t));
  Pad(dst, src, c.params, t);
  std::memcpy(out, dst.twin_data(), c.h * aw * 4);
}

std::vector<std::uint8_t> pad_tiling(std::uint32_t h, std::uint32_t w, std::uint32_t ori_w) {
  optiling::PadTiling t;
  uint32_t max = 7, min = 7;
  GetPadMaxMinTmpSize(TensorShape({h, w}), 4, max, min);
  EXPECT_EQ(max, 0u);
  PadTilingFunc(TensorShape({h, w}), TensorShape({h, ori_w}), max, 4, t);
  std::vector<std::uint8_t> bytes(t.GetDataSize());
  t.SaveToBuffer(bytes.data(), bytes.size());
  EXPECT_EQ(bytes.size(), sizeof(tiling::PadTiling));
  return bytes;
}

TEST(TransformApi, PadFillsTheRowsToThirtyTwoBytesAroundTheData) {
  const PadCase c{16, 29, 29, PadParams{2, 1, 321}};
  std::vector<float> x(c.h * c.w), y(c.h * 32, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<std::uint8_t> t = pad_tiling(c.h, c.w, c.ori_w);
  const RunResult r =
      npusim::ascendc::run_blocks(&pad_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), c, t.data());
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < c.h; ++i) {
    for (std::uint32_t j = 0; j < 32; ++j) {
      const float want = j < 2 || j >= 2 + c.w ? 321.0f : x[i * c.w + j - 2];
      ASSERT_EQ(y[i * 32 + j], want) << i << "," << j;
    }
  }
  // One Duplicate of the whole padded tensor, one Copy per row: all on the vector pipe.
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kDuplicate), 1u);
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kCopy), c.h);
  EXPECT_EQ(recs(r).size(), c.h + 1);
  EXPECT_EQ(vector_elems(r), c.h * 32 + c.h * c.w);
}

TEST(TransformApi, PadOfAnAlignedWidthOverwritesTheColumnsAfterTheValidOnes) {
  const PadCase c{4, 16, 13, PadParams{0, 2, -5}};
  std::vector<float> x(c.h * c.w), y(c.h * c.w, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<std::uint8_t> t = pad_tiling(c.h, c.w, c.ori_w);
  const RunResult r =
      npusim::ascendc::run_blocks(&pad_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), c, t.data());
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < c.h * c.w; ++i) {
    const std::uint32_t j = i % c.w;
    ASSERT_EQ(y[i], j == 13 || j == 14 ? -5.0f : x[i]) << i;
  }
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kDuplicate), c.h);  // the two columns of each row
}

TEST(TransformApi, PadBeyondTheAlignedWidthFailsNamingPad) {
  const PadCase c{2, 31, 31, PadParams{1, 1, 0}};
  std::vector<float> x(c.h * c.w), y(c.h * 32);
  std::vector<std::uint8_t> t = pad_tiling(c.h, c.w, c.ori_w);
  const RunResult r =
      npusim::ascendc::run_blocks(&pad_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), c, t.data());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("Pad: leftPad 1 + width 31 + rightPad 1 exceed the aligned width "
                                 "32"),
            std::string::npos)
      << r.first_error();
}

void unpad_kernel(GM_ADDR in, GM_ADDR out, std::uint32_t h, std::uint32_t w, UnPadParams p,
                  std::uint8_t* tiling_bytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, td;
  pipe.InitBuffer(ts, kBytes);
  pipe.InitBuffer(td, kBytes);
  LocalTensor<half> src = ts.Get<half>(), dst = td.Get<half>();
  std::memcpy(src.twin_data(), in, h * w * 2);
  tiling::UnPadTiling t;
  std::memcpy(&t, tiling_bytes, sizeof(t));
  UnPad(dst, src, p, t);
  std::memcpy(out, dst.twin_data(), h * (w - p.leftPad - p.rightPad) * 2);
}

TEST(TransformApi, UnPadDropsColumnsAtBothEndsOfEachRow) {
  const std::uint32_t h = 8, w = 32;
  const UnPadParams p{3, 2};
  std::vector<half> x(h * w), y(h * 27);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = half(static_cast<float>(i));
  optiling::UnPadTiling t;
  uint32_t max = 9, min = 9;
  GetUnPadMaxMinTmpSize(kPlatform, TensorShape({h, w}), 2, max, min);
  UnPadTilingFunc(TensorShape({h, w}), min, 2, t);
  std::vector<std::uint8_t> bytes(t.GetDataSize());
  t.SaveToBuffer(bytes.data(), bytes.size());
  const RunResult r =
      npusim::ascendc::run_blocks(&unpad_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), h, w, p, bytes.data());
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t i = 0; i < h; ++i) {
    for (std::uint32_t j = 0; j < 27; ++j) {
      ASSERT_EQ(static_cast<float>(y[i * 27 + j]), static_cast<float>(i * w + j + 3))
          << i << "," << j;
    }
  }
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kCopy), h);
  EXPECT_EQ(vector_elems(r), h * 27);
}

// ---- Broadcast (1-D), Transpose -------------------------------------------------------------

void broadcast1d_kernel(GM_ADDR out, std::uint32_t k) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, td;
  pipe.InitBuffer(ts, 32);
  pipe.InitBuffer(td, kBytes);
  LocalTensor<float> src = ts.Get<float>(), dst = td.Get<float>();
  src.twin_data()[0] = 4.25f;
  const std::uint32_t src_shape[1] = {1}, dst_shape[1] = {k};
  Broadcast<float, 1, 0>(dst, src, dst_shape, src_shape);
  std::memcpy(out, dst.twin_data(), k * 4);
}

TEST(TransformApi, OneDimensionalBroadcastRepeatsTheElementInOneInstruction) {
  const std::uint32_t k = 200;
  std::vector<float> y(k);
  const RunResult r =
      npusim::ascendc::run_blocks(&broadcast1d_kernel, 1, reinterpret_cast<GM_ADDR>(y.data()), k);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (float v : y) ASSERT_EQ(v, 4.25f);
  ASSERT_EQ(recs(r).size(), 1u);
  EXPECT_EQ(recs(r)[0].op, Op::kDuplicate);
  EXPECT_EQ(recs(r)[0].count, k);
}

void transpose_kernel(GM_ADDR in, GM_ADDR out, std::uint32_t total, std::uint8_t* tiling_bytes,
                      TransposeType type) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, td;
  pipe.InitBuffer(ts, kBytes);
  pipe.InitBuffer(td, kBytes);
  LocalTensor<half> src = ts.Get<half>(), dst = td.Get<half>();
  std::memcpy(src.twin_data(), in, total * 2);
  ConfusionTransposeTiling t;
  std::memcpy(&t, tiling_bytes, sizeof(t));
  Transpose(dst, src, type, t);
  std::memcpy(out, dst.twin_data(), total * 2);
}

TEST(TransformApi, TransposeNz2Nd0213SwapsHeadsAndSequence) {
  const std::uint32_t b = 2, n = 3, s = 32, hd = 32, total = b * n * s * hd;
  // src: per (b, n) an NZ matrix of S x H/N: column block hb, row i, element e.
  std::vector<half> x(total), y(total);
  auto value = [&](std::uint32_t ib, std::uint32_t in, std::uint32_t i, std::uint32_t col) {
    return static_cast<float>((((ib * n + in) * s + i) * hd + col) % 2000);
  };
  for (std::uint32_t ib = 0; ib < b; ++ib)
    for (std::uint32_t in = 0; in < n; ++in)
      for (std::uint32_t hb = 0; hb < hd / 16; ++hb)
        for (std::uint32_t i = 0; i < s; ++i)
          for (std::uint32_t e = 0; e < 16; ++e)
            x[(((ib * n + in) * (hd / 16) + hb) * s + i) * 16 + e] =
                half(value(ib, in, i, hb * 16 + e));
  optiling::ConfusionTransposeTiling t;
  uint32_t max = 1, min = 1;
  GetTransposeMaxMinTmpSize(TensorShape({b, n, s, hd}), 2, 1, max, min);
  GetTransposeTilingInfo(TensorShape({b, n, s, hd}), min, 2, 1, t);
  std::vector<std::uint8_t> bytes(t.GetDataSize());
  t.SaveToBuffer(bytes.data(), bytes.size());
  const RunResult r =
      npusim::ascendc::run_blocks(&transpose_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), total, bytes.data(),
                                  TransposeType::TRANSPOSE_NZ2ND_0213);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t ib = 0; ib < b; ++ib)
    for (std::uint32_t i = 0; i < s; ++i)
      for (std::uint32_t in = 0; in < n; ++in)
        for (std::uint32_t col = 0; col < hd; ++col)
          ASSERT_EQ(static_cast<float>(y[((ib * s + i) * n + in) * hd + col]),
                    value(ib, in, i, col));
  // Per (b, n, column block): S / 8 repeats of 8 strided blocks in one Copy.
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kCopy), b * n * (hd / 16));
  EXPECT_EQ(vector_elems(r), total);
  const RunResult other =
      npusim::ascendc::run_blocks(&transpose_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), total, bytes.data(),
                                  TransposeType::TRANSPOSE_NZ2NZ_0213);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.first_error().find("Transpose: TransposeType 2 is not supported"),
            std::string::npos)
      << other.first_error();
}

// ---- TransData ------------------------------------------------------------------------------

constexpr TransDataConfig kToFz3d = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};

struct Ncdhw {
  std::int32_t n, c, d, h, w;
  std::uint32_t hw_pad() const { return static_cast<std::uint32_t>((h * w + 15) / 16 * 16); }
};

void trans_data_kernel(GM_ADDR in, GM_ADDR out, Ncdhw s, std::uint32_t tmp_bytes,
                       std::uint32_t dst_elems) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, td, tt;
  pipe.InitBuffer(ts, 20480);
  pipe.InitBuffer(td, 65536);
  pipe.InitBuffer(tt, tmp_bytes);
  LocalTensor<half> src = ts.Get<half>(), dst = td.Get<half>();
  std::memcpy(src.twin_data(), in, static_cast<std::size_t>(s.n * s.c * s.d) * s.hw_pad() * 2);
  const std::int32_t n1 = (s.n + 15) / 16, c1 = (s.c + 15) / 16;
  auto from = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
  auto to = MakeLayout(MakeShape(s.d, c1, s.h, s.w, n1, 16, 16), MakeStride());
  TransDataParams<decltype(from), decltype(to)> params = {from, to};
  TransData<kToFz3d>(dst, src, tt.Get<std::uint8_t>(), params);
  std::memcpy(out, dst.twin_data(), dst_elems * 2);
}

TEST(TransformApi, TransDataNcdhwToFractalZ3dTransposesSixteenBySixteenBlocks) {
  const Ncdhw s{18, 17, 1, 3, 6};  // N and C padded to 32, H * W = 18 padded to 32 in UB
  const std::uint32_t hw = 18, np = 32, cp = 32, dst_elems = 1 * 2 * hw * np * 16;
  std::vector<half> x(static_cast<std::size_t>(s.n * s.c * s.d) * s.hw_pad(), half(-3.0f));
  auto value = [](std::int32_t n, std::int32_t c, std::uint32_t p) {
    return static_cast<float>((n * 37 + c * 11 + static_cast<std::int32_t>(p)) % 1000);
  };
  for (std::int32_t n = 0; n < s.n; ++n)
    for (std::int32_t c = 0; c < s.c; ++c)
      for (std::uint32_t p = 0; p < hw; ++p)
        x[(n * s.c + c) * s.hw_pad() + p] = half(value(n, c, p));
  uint32_t max = 0, min = 0;
  ASSERT_TRUE(GetTransDataMaxMinTmpSize(kPlatform, TensorShape({s.n, s.c, s.d, s.h, s.w}),
                                        TensorShape(), TensorDataType::DT_FLOAT16, kToFz3d, max,
                                        min));
  std::vector<half> y(dst_elems, half(-1.0f));
  const RunResult r =
      npusim::ascendc::run_blocks(&trans_data_kernel, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                  reinterpret_cast<GM_ADDR>(y.data()), s, min, dst_elems);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t c1 = 0; c1 < cp / 16; ++c1)
    for (std::uint32_t p = 0; p < hw; ++p)
      for (std::uint32_t n = 0; n < np; ++n)
        for (std::uint32_t c0 = 0; c0 < 16; ++c0) {
          const std::uint32_t c = c1 * 16 + c0;
          const float want = n < 18 && c < 17 ? value(static_cast<std::int32_t>(n),
                                                      static_cast<std::int32_t>(c), p)
                                              : 0.0f;
          ASSERT_EQ(static_cast<float>(y[((c1 * hw + p) * np + n) * 16 + c0]), want)
              << c1 << "," << p << "," << n << "," << c0;
        }
  // A zero block, one TransDataTo5HD (2 repeats) per (n, c1), one Copy run per c1.
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kDuplicate), 1u);
  EXPECT_EQ(count_of(r, Pipe::kVector, Op::kCopy), np * 2 + 2);
}

// ---- Fill -----------------------------------------------------------------------------------

void fill_kernel(GM_ADDR out, std::uint32_t n) {
  GlobalTensor<float> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), n);
  Fill(gm, n, 2.5f);
}

TEST(TransformApi, FillWritesTheValueToGlobalMemoryThroughUb) {
  for (std::uint32_t n : {256u, 300u, 9000u}) {
    std::vector<float> y(n + 8, -1.0f);
    const RunResult r =
        npusim::ascendc::run_blocks(&fill_kernel, 1, reinterpret_cast<GM_ADDR>(y.data()), n);
    ASSERT_TRUE(r.ok()) << r.first_error();
    for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.5f) << n << ": " << i;
    for (std::uint32_t i = n; i < n + 8; ++i) ASSERT_EQ(y[i], -1.0f) << n << ": " << i;
    EXPECT_EQ(count_of(r, Pipe::kVector, Op::kDuplicate), 1u);
    // 16 KiB of staging: 4096 floats per DataCopy.
    EXPECT_EQ(count_of(r, Pipe::kMte3, Op::kCopy), (n + 4095) / 4096) << n;
  }
}

// ---- Select / DropOut -----------------------------------------------------------------------

struct FilterCase {
  std::uint32_t first, src_last, mask_last;
  std::uint32_t tmp_bytes;
  bool dropout;
  float keep = 1.0f;
};

void filter_kernel(GM_ADDR in, GM_ADDR mask_in, GM_ADDR out, FilterCase c) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ts, tm, td, tt;
  pipe.InitBuffer(ts, kBytes);
  pipe.InitBuffer(tm, kBytes);
  pipe.InitBuffer(td, kBytes);
  pipe.InitBuffer(tt, c.tmp_bytes);
  LocalTensor<float> src = ts.Get<float>(), dst = td.Get<float>();
  LocalTensor<std::uint8_t> mask = tm.Get<std::uint8_t>(), tmp = tt.Get<std::uint8_t>();
  std::memcpy(src.twin_data(), in, c.first * c.src_last * 4);
  std::memcpy(mask.twin_data(), mask_in, c.first * c.mask_last);
  if (c.dropout) {
    DropOutShapeInfo info;
    info.firstAxis = c.first;
    info.srcLastAxis = c.src_last;
    info.maskLastAxis = c.mask_last;
    DropOut(dst, src, mask, tmp, c.keep, info);
  } else {
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = c.first;
    info.srcLastAxis = c.src_last;
    info.maskLastAxis = c.mask_last;
    Select(dst, src, 1.5f, mask, tmp, info);
  }
  std::memcpy(out, dst.twin_data(), c.first * c.src_last * 4);
}

struct FilterRun {
  RunResult run;
  std::vector<float> x, y;
  std::vector<std::uint8_t> mask;
};

FilterRun run_filter(const FilterCase& c) {
  FilterRun f;
  f.x.resize(c.first * c.src_last);
  f.y.assign(f.x.size(), -9.0f);
  f.mask.resize(c.first * c.mask_last);
  for (std::size_t i = 0; i < f.x.size(); ++i) f.x[i] = std::sin(0.37f * static_cast<float>(i)) * 8;
  for (std::size_t i = 0; i < f.mask.size(); ++i)
    f.mask[i] = static_cast<std::uint8_t>((i * 7 + i / 3) % 5 == 0 ? 0 : (i * 13) % 256);
  f.run = npusim::ascendc::run_blocks(&filter_kernel, 1, reinterpret_cast<GM_ADDR>(f.x.data()),
                                      reinterpret_cast<GM_ADDR>(f.mask.data()),
                                      reinterpret_cast<GM_ADDR>(f.y.data()), c);
  return f;
}

TEST(FilterApi, SelectTakesTheScalarWhereTheMaskByteIsNonZero) {
  uint32_t max = 0, min = 0;
  GetSelectMaxMinTmpSize(TensorShape({4, 96}), TensorShape({1}), 4, TensorShape({4, 128}), 1, false,
                         max, min);
  EXPECT_EQ(min, 64u * 3 + 64);
  EXPECT_EQ(max, 96u * 3 + 64);
  for (std::uint32_t tmp : {min, max}) {
    const FilterCase c{4, 96, 128, tmp, false};
    const FilterRun f = run_filter(c);
    ASSERT_TRUE(f.run.ok()) << f.run.first_error();
    for (std::uint32_t i = 0; i < c.first; ++i)
      for (std::uint32_t j = 0; j < c.src_last; ++j)
        ASSERT_EQ(f.y[i * 96 + j], f.mask[i * 128 + j] == 0 ? f.x[i * 96 + j] : 1.5f)
            << i << "," << j;
    // Per row and pass: Cast, Compares (recorded as Max), Select (as Copy).
    const std::uint32_t passes = c.first * (tmp == max ? 1 : 2);
    EXPECT_EQ(count_of(f.run, Pipe::kVector, Op::kCast), passes);
    EXPECT_EQ(count_of(f.run, Pipe::kVector, Op::kMax), passes);
    EXPECT_EQ(count_of(f.run, Pipe::kVector, Op::kCopy), passes);
    EXPECT_EQ(vector_elems(f.run), 3u * c.first * c.src_last);
  }
  const FilterRun small = run_filter({4, 96, 128, min - 32, false});
  ASSERT_FALSE(small.run.ok());
  EXPECT_NE(
      small.run.first_error().find(
          "Select: sharedTmpBuffer of 224 bytes is below the minimum of 256 bytes for 96 elements"),
      std::string::npos)
      << small.run.first_error();
}

TEST(FilterApi, DropOutKeepsAndScalesByByteOrByBit) {
  uint32_t max = 0, min = 0;
  GetDropOutMaxMinTmpSize(TensorShape({4, 256, 256}), 4, false, max, min);
  const FilterRun bytes = run_filter({4, 256, 256, min, true, 0.8f});
  ASSERT_TRUE(bytes.run.ok()) << bytes.run.first_error();
  const float scale = 1.0f / 0.8f;
  for (std::size_t i = 0; i < bytes.x.size(); ++i)
    ASSERT_EQ(bytes.y[i], bytes.mask[i] != 0 ? bytes.x[i] * scale : 0.0f) << i;
  EXPECT_EQ(count_of(bytes.run, Pipe::kVector, Op::kMuls), 1u);  // all rows at once
  // Bit mode: a 32-byte mask row covers 256 elements.
  const FilterRun bits = run_filter({4, 256, 32, min, true, 0.5f});
  ASSERT_TRUE(bits.run.ok()) << bits.run.first_error();
  for (std::size_t i = 0; i < bits.x.size(); ++i) {
    const bool keep = ((bits.mask[i / 8] >> (i % 8)) & 1) != 0;
    ASSERT_EQ(bits.y[i], keep ? bits.x[i] * 2.0f : 0.0f) << i;
  }
  EXPECT_EQ(recs(bits.run).size(), 2u);  // Select on the mask bits, Muls
  EXPECT_EQ(count_of(bits.run, Pipe::kVector, Op::kCast), 0u);
}

}  // namespace
