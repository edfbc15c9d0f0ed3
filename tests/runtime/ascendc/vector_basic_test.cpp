// SPDX-License-Identifier: Apache-2.0
// The twin's basic vector API beyond vector_ops.h (vector_mask.h, vector_basic.h,
// vector_reduce.h, vector_select.h, vector_sort.h, int4.h): values, the mask modes, and the one
// V instruction each op records (pipe, element count, bytes).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

constexpr std::uint32_t kBytes = 8192;  // each of the three UB buffers

enum class Which : std::uint32_t {
  kLeakyRelu,
  kCastInt4,
  kCounterSum,
  kCounterAdd,
  kDataBlockMax,
  kPairSum,
  kRepeatMinIndex,
  kReduceMaxMask,
  kReduceSumSpr,
  kCmpMask,
  kSelectSpr,
  kSelectScalar,
  kGatherb,
  kTranspose16,
  kTransposeNchw,
  kTrans5hd,
  kSortMerge,
  kLogic,
  kCompound,
  kMaskTooWide,
  kSymbols,
};

// a <- in0, b <- in1, c <- out; one op; out <- c. No copy instructions: the trace holds the ops.
void lab(GM_ADDR in0, GM_ADDR in1, GM_ADDR out, Which which) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ta, tb, tc;
  pipe.InitBuffer(ta, kBytes);
  pipe.InitBuffer(tb, kBytes);
  pipe.InitBuffer(tc, kBytes);
  LocalTensor<std::uint8_t> a = ta.Get<std::uint8_t>(), b = tb.Get<std::uint8_t>(),
                            c = tc.Get<std::uint8_t>();
  std::memcpy(a.twin_data(), in0, kBytes);
  std::memcpy(b.twin_data(), in1, kBytes);
  std::memcpy(c.twin_data(), out, kBytes);
  auto fa = a.ReinterpretCast<float>(), fb = b.ReinterpretCast<float>(),
       fc = c.ReinterpretCast<float>();
  auto ha = a.ReinterpretCast<half>(), hc = c.ReinterpretCast<half>();
  switch (which) {
    case Which::kLeakyRelu:  // 3 repeats of the first 40 floats, dst repeats 16 blocks apart
      LeakyRelu(fc, fa, 0.5f, 40, 3, {1, 1, 16, 8});
      break;
    case Which::kCastInt4: {
      auto i4 = c.ReinterpretCast<int4b_t>();
      Cast<int4b_t, half>(i4, ha, RoundMode::CAST_CEIL, 128, 2, {1, 1, 2, 8});
      break;
    }
    case Which::kCounterSum:  // 200 floats: 4 repeat sums (64 + 64 + 64 + 8)
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(0, 200);
      ReduceRepeat<ReduceType::SUM, float, float, false>(fc, fa, MASK_PLACEHOLDER, 1, 1, 1, 8);
      SetMaskNorm();
      break;
    case Which::kCounterAdd:
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(0, 100);
      Add<float, false>(fc, fa, fb, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
      SetMaskNorm();
      break;
    case Which::kDataBlockMax:  // 2 repeats of 128 halves: 16 block maxima
      ReduceDataBlock<ReduceType::MAX, half>(hc, ha, 128, 2, 1, 1, 8);
      break;
    case Which::kPairSum: {
      std::uint64_t mask[2] = {~0ull, ~0ull};
      ReducePairElem<ReduceType::SUM, half>(hc, ha, mask, 1, 1, 1, 8);
      break;
    }
    case Which::kRepeatMinIndex:  // 2 repeats of 64 floats: (min, index) pairs
      ReduceRepeat<ReduceType::MIN, float>(fc, fa, 64, 2, 1, 1, 8);
      break;
    case Which::kReduceMaxMask:
      ReduceMax<float>(fc, fa, fb, 64, 3, 8, true);
      break;
    case Which::kReduceSumSpr: {
      ReduceSum<float>(fc, fa, fb, 100);
      const float s = GetReduceRepeatSumSpr<float>();
      fc.SetValue(1, s);
      break;
    }
    case Which::kCmpMask:  // CMPMASK <- a < b over 64 floats; 16 bytes out
      Compare(fa, fb, CMPMODE::LT, 64, BinaryRepeatParams{});
      GetCmpMask(c);
      break;
    case Which::kSelectSpr:  // the first 64 bits of b select, for every repeat of 64 floats
      Select(fc, b, fa, fa[128], SELMODE::VSEL_CMPMASK_SPR, 128);
      break;
    case Which::kSelectScalar:
      Select(fc, b, fa, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
      break;
    case Which::kGatherb: {
      auto offsets = b.ReinterpretCast<std::uint32_t>();
      Gatherb<float>(fc, fa, offsets, 1, GatherRepeatParams{1, 8});
      break;
    }
    case Which::kTranspose16:
      Transpose<half>(hc, ha);
      break;
    case Which::kTransposeNchw: {
      TransposeParamsExt p;
      p.nSize = 2;
      p.cSize = 3;
      p.hSize = 2;
      p.wSize = 4;
      p.transposeType = TransposeType::TRANSPOSE_NCHW2NHWC;
      Transpose(hc, ha, b, p);
      break;
    }
    case Which::kTrans5hd: {  // one repeat: 16 rows of 16 halves -> 16 columns
      std::uint64_t dst[16], src[16];
      for (int i = 0; i < 16; ++i) {
        src[i] = ha[static_cast<std::uint32_t>(i) * 16].GetPhyAddr();
        dst[i] = hc[static_cast<std::uint32_t>(i) * 16].GetPhyAddr();
      }
      TransDataTo5HD<half>(dst, src, TransDataTo5HDParams(false, false, 1, 0, 0));
      break;
    }
    case Which::kSortMerge: {  // 64 scores: two Sort32 queues merged
      auto idx = b.ReinterpretCast<std::uint32_t>();
      auto work = fc[1024];
      Sort32<float>(work, fa, idx, 2);
      MrgSort4Info info;
      info.elementLengths[0] = 32;
      info.elementLengths[1] = 32;
      info.validBit = 0b11;
      MrgSortSrcList<float> list;
      list.src1 = work;
      list.src2 = work[64];
      list.src3 = work;
      list.src4 = work;
      MrgSort<float>(fc, list, info);
      break;
    }
    case Which::kLogic: {
      auto ua = a.ReinterpretCast<std::uint16_t>(), ub = b.ReinterpretCast<std::uint16_t>(),
           uc = c.ReinterpretCast<std::uint16_t>();
      And(uc, ua, ub, 16);
      Or(uc[16], ua, ub, 16);
      ShiftRight(uc[32], ua, std::uint16_t(2), 16);
      CreateVecIndex(fc[64], 3.0f, 8);
      break;
    }
    case Which::kCompound:
      AddRelu<float>(fc, fa, fb, 16);
      Axpy<float, float>(fc[16], fa, 2.0f, 16);
      break;
    case Which::kMaskTooWide:
      LeakyRelu(fc, fa, 0.5f, 65, 1, {1, 1, 8, 8});
      break;
    case Which::kSymbols: {  // whole-tensor operators: count = the destination's size
      LocalTensor<float> d[4] = {fc, fc[16], fc[32], fc[48]};
      for (auto& t : d) t.SetSize(16);
      d[0] = fa + fb;
      d[1] = fa - fb;
      d[2] = fa * fb;
      d[3] = fa / fb;
      LocalTensor<std::int32_t> i0 = c.ReinterpretCast<std::int32_t>()[64],
                                i1 = c.ReinterpretCast<std::int32_t>()[88];
      i0.SetSize(24);
      i1.SetSize(24);
      i0 = a.ReinterpretCast<std::int32_t>() & b.ReinterpretCast<std::int32_t>();
      i1 = a.ReinterpretCast<std::int32_t>() | b.ReinterpretCast<std::int32_t>();
      break;
    }
  }
  std::memcpy(out, c.twin_data(), kBytes);
}

struct Lab {
  std::vector<std::uint8_t> in0 = std::vector<std::uint8_t>(kBytes, 0);
  std::vector<std::uint8_t> in1 = std::vector<std::uint8_t>(kBytes, 0);
  std::vector<std::uint8_t> out = std::vector<std::uint8_t>(kBytes, 0);

  template <class T>
  T* as(std::vector<std::uint8_t>& v) {
    return reinterpret_cast<T*>(v.data());
  }
  npusim::ascendc::RunResult run(Which w) {
    return run_blocks(&lab, 1, reinterpret_cast<GM_ADDR>(in0.data()),
                      reinterpret_cast<GM_ADDR>(in1.data()), reinterpret_cast<GM_ADDR>(out.data()),
                      w);
  }
};

// The one V instruction of a run with a single op.
const npusim::ascendc::Instr& only_op(const npusim::ascendc::RunResult& r) {
  EXPECT_EQ(r.blocks[0].trace.instrs.size(), 1u);
  return r.blocks[0].trace.instrs.at(0);
}

TEST(VectorBasic, LeakyReluRepeatFormAppliesTheMaskAndStrides) {
  Lab l;
  float* x = l.as<float>(l.in0);
  for (int i = 0; i < 1024; ++i) x[i] = static_cast<float>(i % 2 == 0 ? i : -i);
  float* y = l.as<float>(l.out);
  for (int i = 0; i < 1024; ++i) y[i] = 1234.0f;
  auto r = l.run(Which::kLeakyRelu);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int rep = 0; rep < 3; ++rep) {
    for (int e = 0; e < 64; ++e) {
      const float in = x[rep * 64 + e];
      const float want = e >= 40 ? 1234.0f : in >= 0 ? in : in * 0.5f;
      EXPECT_EQ(y[rep * 128 + e], want) << rep << " " << e;
    }
  }
  const auto& ins = only_op(r);
  EXPECT_EQ(ins.pipe, Pipe::kVector);
  EXPECT_EQ(ins.op, Op::kRelu);
  EXPECT_EQ(ins.count, 120u);
  EXPECT_EQ(ins.bytes, 480u);
}

TEST(VectorBasic, LeakyReluMaskOverARepeatIsAKernelError) {
  Lab l;
  auto r = l.run(Which::kMaskTooWide);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("LeakyRelu: mask 65"), std::string::npos) << r.first_error();
}

TEST(VectorBasic, CastToInt4PacksTwoPerByteWithCeilAndSaturation) {
  Lab l;
  half* x = l.as<half>(l.in0);
  for (int i = 0; i < 256; ++i) x[i] = half(static_cast<float>(i % 23) * 0.75f - 9.0f);
  auto r = l.run(Which::kCastInt4);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 256; ++i) {
    int want = static_cast<int>(std::ceil(static_cast<float>(i % 23) * 0.75f - 9.0f));
    want = want < -8 ? -8 : want > 7 ? 7 : want;
    const std::uint8_t byte = l.out[static_cast<std::size_t>(i / 2)];
    int got = i % 2 == 0 ? (byte & 0xf) : (byte >> 4);
    got = got >= 8 ? got - 16 : got;
    EXPECT_EQ(got, want) << i;
  }
  const auto& ins = only_op(r);
  EXPECT_EQ(ins.op, Op::kCast);
  EXPECT_EQ(ins.count, 256u);
  EXPECT_EQ(ins.bytes, 512u);  // the wider type: half
}

TEST(VectorBasic, CounterModeRunsCeilCountOverPerRepeats) {
  Lab l;
  float* x = l.as<float>(l.in0);
  for (int i = 0; i < 256; ++i) x[i] = 1.0f + static_cast<float>(i / 64);
  auto r = l.run(Which::kCounterSum);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* y = l.as<float>(l.out);
  EXPECT_EQ(y[0], 64.0f);
  EXPECT_EQ(y[1], 128.0f);
  EXPECT_EQ(y[2], 192.0f);
  EXPECT_EQ(y[3], 32.0f);  // 8 elements of 4
  EXPECT_EQ(y[4], 0.0f);
  EXPECT_EQ(only_op(r).count, 200u);
  EXPECT_EQ(only_op(r).op, Op::kReduceSum);
}

TEST(VectorBasic, AddWithTheMaskRegisterInCounterMode) {
  Lab l;
  float* a = l.as<float>(l.in0);
  float* b = l.as<float>(l.in1);
  for (int i = 0; i < 128; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f;
  }
  auto r = l.run(Which::kCounterAdd);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* y = l.as<float>(l.out);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(y[i], i < 100 ? static_cast<float>(i) + 0.5f : 0.0f);
  EXPECT_EQ(only_op(r).count, 100u);
  EXPECT_EQ(only_op(r).bytes, 400u);
}

TEST(VectorBasic, ReduceDataBlockAndPairElem) {
  Lab l;
  half* x = l.as<half>(l.in0);
  for (int i = 0; i < 256; ++i) x[i] = half(static_cast<float>((i * 37) % 101));
  auto r = l.run(Which::kDataBlockMax);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const half* y = l.as<half>(l.out);
  for (int blk = 0; blk < 16; ++blk) {
    int m = 0;
    for (int e = 0; e < 16; ++e) m = std::max(m, ((blk * 16 + e) * 37) % 101);
    EXPECT_EQ(static_cast<float>(y[blk]), static_cast<float>(m)) << blk;
  }
  EXPECT_EQ(only_op(r).op, Op::kReduceMax);
  EXPECT_EQ(only_op(r).count, 256u);
  l.out.assign(kBytes, 0);
  r = l.run(Which::kPairSum);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int k = 0; k < 64; ++k)
    EXPECT_EQ(static_cast<float>(y[k]), static_cast<float>(((2 * k * 37) % 101) +
                                                           (((2 * k + 1) * 37) % 101)));
  EXPECT_EQ(static_cast<float>(y[64]), 0.0f);
}

TEST(VectorBasic, ReduceRepeatMinWritesValueIndexPairs) {
  Lab l;
  float* x = l.as<float>(l.in0);
  for (int i = 0; i < 128; ++i) x[i] = 100.0f - static_cast<float>((i * 7) % 64);
  x[70] = -5.0f;
  auto r = l.run(Which::kRepeatMinIndex);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* y = l.as<float>(l.out);
  const std::uint32_t* yi = l.as<std::uint32_t>(l.out);
  EXPECT_EQ(y[0], 37.0f);  // (i * 7) % 64 == 63 first at i = 9
  EXPECT_EQ(yi[1], 9u);
  EXPECT_EQ(y[2], -5.0f);
  EXPECT_EQ(yi[3], 6u);
}

TEST(VectorBasic, RepeatFormReduceMaxAndTheSumRegister) {
  Lab l;
  float* x = l.as<float>(l.in0);
  for (int i = 0; i < 192; ++i) x[i] = static_cast<float>(i % 50);
  x[150] = 99.0f;
  auto r = l.run(Which::kReduceMaxMask);
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(l.as<float>(l.out)[0], 99.0f);
  EXPECT_EQ(l.as<std::uint32_t>(l.out)[1], 150u);
  EXPECT_EQ(only_op(r).count, 192u);
  for (int i = 0; i < 100; ++i) x[i] = 1.0f;
  r = l.run(Which::kReduceSumSpr);
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(l.as<float>(l.out)[0], 100.0f);
  EXPECT_EQ(l.as<float>(l.out)[1], 100.0f);  // GetReduceRepeatSumSpr, stored by SetValue
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 2u);
  EXPECT_EQ(r.blocks[0].trace.instrs[1].pipe, Pipe::kScalar);
}

TEST(VectorBasic, CompareToTheCmpMaskRegisterAndSelectModes) {
  Lab l;
  float* a = l.as<float>(l.in0);
  float* b = l.as<float>(l.in1);
  for (int i = 0; i < 64; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(i % 3 == 0 ? i + 1 : i);
  }
  auto r = l.run(Which::kCmpMask);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 64; ++i) EXPECT_EQ((l.out[i / 8] >> (i % 8)) & 1, i % 3 == 0 ? 1 : 0) << i;
  for (int i = 8; i < 16; ++i) EXPECT_EQ(l.out[i], 0);
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 2u);
  EXPECT_EQ(r.blocks[0].trace.instrs[0].pipe, Pipe::kVector);
  EXPECT_EQ(r.blocks[0].trace.instrs[1].pipe, Pipe::kVector);

  for (int i = 0; i < 256; ++i) a[i] = static_cast<float>(i);
  for (int i = 0; i < 8; ++i) l.in1[i] = static_cast<std::uint8_t>(0x0f);  // bits 0-3 of each 8
  // VSEL_CMPMASK_SPR: the first 64 bits of the selMask (in1) serve both repeats.
  const float* y = l.as<float>(l.out);
  r = l.run(Which::kSelectSpr);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 128; ++i) EXPECT_EQ(y[i], i % 8 < 4 ? a[i] : a[128 + i]) << i;
  r = l.run(Which::kSelectScalar);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(y[i], i % 8 < 4 ? a[i] : -1.0f) << i;
}

TEST(VectorBasic, GatherbCopiesBlocksByByteOffset) {
  Lab l;
  float* a = l.as<float>(l.in0);
  for (int i = 0; i < 512; ++i) a[i] = static_cast<float>(i);
  std::uint32_t* off = l.as<std::uint32_t>(l.in1);
  for (int j = 0; j < 8; ++j) off[j] = static_cast<std::uint32_t>((7 - j) * 64);
  auto r = l.run(Which::kGatherb);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* y = l.as<float>(l.out);
  for (int j = 0; j < 8; ++j)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(y[j * 8 + e], static_cast<float>((7 - j) * 16 + e));
  EXPECT_EQ(only_op(r).count, 64u);
}

TEST(VectorBasic, TransposesMatricesAndLayouts) {
  Lab l;
  std::uint16_t* a = l.as<std::uint16_t>(l.in0);
  for (int i = 0; i < 256; ++i) a[i] = static_cast<std::uint16_t>(i);
  const std::uint16_t* y = l.as<std::uint16_t>(l.out);
  auto r = l.run(Which::kTranspose16);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) EXPECT_EQ(y[i * 16 + j], a[j * 16 + i]);
  r = l.run(Which::kTrans5hd);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) EXPECT_EQ(y[i * 16 + j], a[j * 16 + i]);
  r = l.run(Which::kTransposeNchw);  // N2 C3 H2 W4 -> N2 H2 W4 C3
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 4; ++w)
          EXPECT_EQ(y[((n * 2 + h) * 4 + w) * 3 + c], a[((n * 3 + c) * 2 + h) * 4 + w]);
}

TEST(VectorBasic, Sort32ThenMrgSortGiveOneDescendingQueue) {
  Lab l;
  float* s = l.as<float>(l.in0);
  std::uint32_t* idx = l.as<std::uint32_t>(l.in1);
  for (int i = 0; i < 64; ++i) {
    s[i] = static_cast<float>((i * 29) % 64);
    idx[i] = static_cast<std::uint32_t>(i);
  }
  auto r = l.run(Which::kSortMerge);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const float* y = l.as<float>(l.out);
  const std::uint32_t* yi = l.as<std::uint32_t>(l.out);
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(y[2 * k], static_cast<float>(63 - k)) << k;
    EXPECT_EQ(s[yi[2 * k + 1]], y[2 * k]) << k;
  }
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 2u);
  EXPECT_EQ(r.blocks[0].trace.instrs[1].count, 64u);
  EXPECT_EQ(r.blocks[0].trace.instrs[1].bytes, 512u);
}

TEST(VectorBasic, LogicShiftsIndexAndCompoundOps) {
  Lab l;
  std::uint16_t* a = l.as<std::uint16_t>(l.in0);
  std::uint16_t* b = l.as<std::uint16_t>(l.in1);
  for (int i = 0; i < 16; ++i) {
    a[i] = static_cast<std::uint16_t>(0x1234 + i * 0x111);
    b[i] = static_cast<std::uint16_t>(0xf0f0 - i);
  }
  auto r = l.run(Which::kLogic);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const std::uint16_t* y = l.as<std::uint16_t>(l.out);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(y[i], a[i] & b[i]);
    EXPECT_EQ(y[16 + i], a[i] | b[i]);
    EXPECT_EQ(y[32 + i], a[i] >> 2);
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(l.as<float>(l.out)[64 + i], 3.0f + static_cast<float>(i));
  EXPECT_EQ(r.blocks[0].trace.instrs.size(), 4u);

  float* fa = l.as<float>(l.in0);
  float* fb = l.as<float>(l.in1);
  float* fy = l.as<float>(l.out);
  for (int i = 0; i < 16; ++i) {
    fa[i] = static_cast<float>(i) - 8.0f;
    fb[i] = 3.0f;
    fy[16 + i] = 1.0f;
  }
  r = l.run(Which::kCompound);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(fy[i], std::max(0.0f, fa[i] + 3.0f));
    EXPECT_EQ(fy[16 + i], 1.0f + fa[i] * 2.0f);
  }
}

TEST(VectorBasic, WholeTensorOperatorsIssueTheCountFormOverTheDestination) {
  Lab l;
  float* fa = l.as<float>(l.in0);
  float* fb = l.as<float>(l.in1);
  for (int i = 0; i < 24; ++i) {
    fa[i] = static_cast<float>(i) - 5.0f;
    fb[i] = 0.5f * static_cast<float>(i % 4 + 1);
  }
  float* fy = l.as<float>(l.out);
  for (int i = 0; i < 128; ++i) fy[i] = -99.0f;
  auto r = l.run(Which::kSymbols);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const std::int32_t* ia = l.as<std::int32_t>(l.in0);
  const std::int32_t* ib = l.as<std::int32_t>(l.in1);
  const std::int32_t* iy = l.as<std::int32_t>(l.out);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(fy[i], fa[i] + fb[i]) << i;
    EXPECT_EQ(fy[16 + i], fa[i] - fb[i]) << i;
    EXPECT_EQ(fy[32 + i], fa[i] * fb[i]) << i;
    EXPECT_FLOAT_EQ(fy[48 + i], fa[i] / fb[i]) << i;
  }
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(iy[64 + i], ia[i] & ib[i]) << i;
    EXPECT_EQ(iy[88 + i], ia[i] | ib[i]) << i;
  }
  EXPECT_EQ(fy[112], -99.0f);  // nothing beyond the destinations
  // One V instruction each, over the destination's elements (16 floats, then 24 int32).
  const auto& ins = r.blocks[0].trace.instrs;
  ASSERT_EQ(ins.size(), 6u);
  const Op ops[4] = {Op::kAdd, Op::kSub, Op::kMul, Op::kDiv};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(ins[i].pipe, Pipe::kVector);
    EXPECT_EQ(ins[i].count, i < 4 ? 16u : 24u);
    if (i < 4) {
      EXPECT_EQ(ins[i].op, ops[i]);
    }
  }
}

}  // namespace
