// SPDX-License-Identifier: Apache-2.0
// The basic-API names CATLASS needs from the twin: the mask-and-repeat forms of the element-wise
// vector ops with isSetMask (vector_level0.h), BlockReduceSum/Max/Min, RepeatReduceSum,
// CompareScalar, Load3Dv2's feature-map and padding registers (SetFmatrix, IsResetLoad3dConfig,
// LoadData3DParamsV2Pro), LocalTensor::SetAddr, SetFixPipeConfig<T, setRelu>, the converting
// L1 -> bias table DataCopy, likely/unlikely and the scalar min/max. Values against references
// computed here, the one instruction each op records, and its cost next to the form it mirrors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "models/aicore/pipe_costs.h"
#include "npusim/ascendc/block_runner.h"
#include "tests/models/aicore_bench.h"

namespace {

using npusim::ascendc::Mem;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

const npusim::models::PipeCosts& costs() {
  static const npusim::models::PipeCosts c(npusim::models::testing::aicore_config());
  return c;
}

void expect_error(const npusim::ascendc::RunResult& r, const std::string& what) {
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find(what), std::string::npos) << r.first_error();
}

constexpr float kSentinel = 7.0f;

float value_a(int i) { return static_cast<float>(i % 17) * 0.25f - 2.0f; }

// ---- unary: Exp<float, false> with the mask register ----

// Lanes 0..7 and 16..31 of the normal-mode mask, 2 repeats, destination repeats 16 blocks apart;
// then the count form over the same number of elements (for its cost).
extern "C" __global__ __vector__ void l0_exp(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 256);
  AscendC::LocalTensor<float> d(AscendC::TPosition::VECOUT, 1024, 256);
  AscendC::LocalTensor<float> e(AscendC::TPosition::VECOUT, 2048, 64);
  for (int i = 0; i < 256; ++i) {
    a(i) = value_a(i);
    d(i) = kSentinel;
  }
  AscendC::SetVectorMask<float>(0, 0x00000000FFFF00FFull);
  AscendC::Exp<float, false>(d, a, AscendC::MASK_PLACEHOLDER, 2, {1, 1, 16, 8});
  AscendC::ResetMask();
  AscendC::Exp(e, a, 48);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 256; ++i) o[i] = d(i);
}

TEST(Level0Vector, ExpWithTheMaskRegisterAndStrides) {
  std::vector<float> out(256, 0.0f);
  auto r = run_blocks(&l0_exp, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int rep = 0; rep < 2; ++rep) {
    for (int e = 0; e < 128; ++e) {
      const bool on = e < 8 || (e >= 16 && e < 32);
      const float want = on ? std::exp(value_a(rep * 64 + e)) : kSentinel;
      EXPECT_EQ(out[static_cast<std::size_t>(rep * 128 + e)], want) << rep << " " << e;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kVector);
  EXPECT_EQ(t.instrs[0].op, Op::kExp);
  EXPECT_EQ(t.instrs[0].count, 48u);  // 24 lanes x 2 repeats
  EXPECT_EQ(t.instrs[0].bytes, 192u);
  // The same cost as the count form over as many elements.
  EXPECT_EQ(costs().cycles(t.instrs[0]), costs().cycles(t.instrs[1]));
  EXPECT_GT(costs().cycles(t.instrs[0]), 0u);
}

// ---- scalar op with a count mask; Duplicate in counter mode and with block strides ----

extern "C" __global__ __vector__ void l0_muls_dup(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> a(AscendC::TPosition::VECIN, 0, 256);
  AscendC::LocalTensor<half> d(AscendC::TPosition::VECOUT, 1024, 256);
  AscendC::LocalTensor<float> f(AscendC::TPosition::VECOUT, 2048, 128);
  AscendC::LocalTensor<float> g(AscendC::TPosition::VECOUT, 3072, 256);
  for (int i = 0; i < 256; ++i) {
    a(i) = half(static_cast<float>(i % 9 - 4));
    d(i) = half(kSentinel);
    g(i) = kSentinel;
  }
  for (int i = 0; i < 128; ++i) f(i) = kSentinel;
  AscendC::Muls<half>(d, a, half(1.5f), 100, 2, {1, 1, 8, 8});
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 70);
  AscendC::Duplicate<float, false>(f, 3.5f, AscendC::MASK_PLACEHOLDER, 1, 1, 8);
  AscendC::SetMaskNorm();
  // 16 lanes = blocks 0 and 1 of each repeat, block stride 2, repeats 16 blocks apart.
  AscendC::Duplicate<float>(g, 1.0f, 16, 2, 2, 16);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 256; ++i) o[i] = static_cast<float>(d(i));
  for (int i = 0; i < 128; ++i) o[256 + i] = f(i);
  for (int i = 0; i < 256; ++i) o[384 + i] = g(i);
}

TEST(Level0Vector, MulsCountMaskAndDuplicateForms) {
  std::vector<float> out(640, 0.0f);
  auto r = run_blocks(&l0_muls_dup, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 256; ++i) {
    const float want = i % 128 < 100 ? static_cast<float>(i % 9 - 4) * 1.5f : kSentinel;
    EXPECT_EQ(out[static_cast<std::size_t>(i)], want) << i;
  }
  for (int i = 0; i < 128; ++i) EXPECT_EQ(out[256 + static_cast<std::size_t>(i)], i < 70 ? 3.5f : kSentinel) << i;
  for (int i = 0; i < 256; ++i) {
    const int e = i % 128;
    const bool on = i < 256 && (e < 8 || (e >= 16 && e < 24));
    EXPECT_EQ(out[384 + static_cast<std::size_t>(i)], on ? 1.0f : kSentinel) << i;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 3u);
  EXPECT_EQ(t.instrs[0].op, Op::kMuls);
  EXPECT_EQ(t.instrs[0].count, 200u);
  EXPECT_EQ(t.instrs[0].bytes, 400u);
  EXPECT_EQ(t.instrs[1].op, Op::kDuplicate);
  EXPECT_EQ(t.instrs[1].count, 70u);  // counter mode: 70 elements whatever repeatTime says
  EXPECT_EQ(t.instrs[2].count, 32u);
  EXPECT_LT(costs().cycles(t.instrs[2]), costs().cycles(t.instrs[1]));
}

extern "C" __global__ __vector__ void l0_mask_too_wide(GM_ADDR) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 256);
  AscendC::Adds<float>(a, a, 1.0f, 65, 1, {1, 1, 8, 8});
}

TEST(Level0Vector, CountMaskOverARepeatIsAKernelError) {
  auto r = run_blocks(&l0_mask_too_wide, 1, static_cast<GM_ADDR>(nullptr));
  expect_error(r, "Adds: mask 65");
}

// ---- And with a reused source repeat (CATLASS's fp8 -> fp16 cast) ----

extern "C" __global__ __vector__ void l0_and(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int16_t> a(AscendC::TPosition::VECIN, 0, 256);
  AscendC::LocalTensor<std::int16_t> b(AscendC::TPosition::VECIN, 1024, 128);
  AscendC::LocalTensor<std::int16_t> d(AscendC::TPosition::VECOUT, 2048, 256);
  for (int i = 0; i < 256; ++i) a(i) = static_cast<std::int16_t>((i * 37) & 0x7fff);
  for (int i = 0; i < 128; ++i) b(i) = static_cast<std::int16_t>(0x0f0f ^ i);
  AscendC::And<std::int16_t>(d, a, b, 128, 2, {1, 1, 1, 8, 8, 0});
  auto* o = reinterpret_cast<__gm__ std::int16_t*>(out);
  for (int i = 0; i < 256; ++i) o[i] = d(i);
}

TEST(Level0Vector, AndRepeatsOverOneSourceRepeat) {
  std::vector<std::int16_t> out(256, 0);
  auto r = run_blocks(&l0_and, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[static_cast<std::size_t>(i)],
              static_cast<std::int16_t>(((i * 37) & 0x7fff) & (0x0f0f ^ (i % 128))))
        << i;
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 1u);
  EXPECT_EQ(t.instrs[0].op, Op::kMin);  // priced as the V pipe's Min
  EXPECT_EQ(t.instrs[0].count, 256u);
  EXPECT_EQ(t.instrs[0].bytes, 512u);
}

// ---- BlockReduceSum / Max / Min, RepeatReduceSum ----

extern "C" __global__ __vector__ void l0_block_reduce(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 256);
  AscendC::LocalTensor<half> h(AscendC::TPosition::VECIN, 1024, 256);
  AscendC::LocalTensor<float> s(AscendC::TPosition::VECOUT, 2048, 32);
  AscendC::LocalTensor<half> m(AscendC::TPosition::VECOUT, 2176, 16);
  AscendC::LocalTensor<float> n(AscendC::TPosition::VECOUT, 2208, 8);
  AscendC::LocalTensor<float> rs(AscendC::TPosition::VECOUT, 2240, 8);
  for (int i = 0; i < 256; ++i) {
    a(i) = static_cast<float>(i % 11);
    h(i) = half(static_cast<float>((i * 37) % 101));
  }
  for (int i = 0; i < 32; ++i) s(i) = kSentinel;
  AscendC::BlockReduceSum<float, false>(s, a, 3, AscendC::MASK_PLACEHOLDER, 1, 1, 8);
  AscendC::BlockReduceMax<half>(m, h, 2, 128, 1, 1, 8);
  const std::uint64_t low4[2] = {0x0F0F0F0F0F0F0F0Full, 0};
  AscendC::BlockReduceMin<float>(n, a, 1, low4, 1, 1, 8);
  AscendC::SetVectorMask<float>(0, 0xFFFFFFFFull);  // the first 32 lanes
  AscendC::RepeatReduceSum<float, false>(rs, a, 4, AscendC::MASK_PLACEHOLDER, 0, 1, 1, 8);
  AscendC::ResetMask();
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 32; ++i) o[i] = s(i);
  for (int i = 0; i < 16; ++i) o[32 + i] = static_cast<float>(m(i));
  for (int i = 0; i < 8; ++i) o[48 + i] = n(i);
  for (int i = 0; i < 4; ++i) o[56 + i] = rs(i);
}

TEST(Level0Reduce, BlockAndRepeatReductions) {
  std::vector<float> out(60, 0.0f);
  auto r = run_blocks(&l0_block_reduce, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int blk = 0; blk < 32; ++blk) {  // 3 repeats x 8 blocks summed, then untouched
    float sum = 0.0f;
    for (int e = 0; e < 8; ++e) sum += static_cast<float>((blk * 8 + e) % 11);
    EXPECT_EQ(out[static_cast<std::size_t>(blk)], blk < 24 ? sum : kSentinel) << blk;
  }
  for (int blk = 0; blk < 16; ++blk) {
    int mx = 0;
    for (int e = 0; e < 16; ++e) mx = std::max(mx, ((blk * 16 + e) * 37) % 101);
    EXPECT_EQ(out[32 + static_cast<std::size_t>(blk)], static_cast<float>(mx)) << blk;
  }
  for (int blk = 0; blk < 8; ++blk) {  // lanes 0..3 of each block
    float mn = 100.0f;
    for (int e = 0; e < 4; ++e) mn = std::min(mn, static_cast<float>((blk * 8 + e) % 11));
    EXPECT_EQ(out[48 + static_cast<std::size_t>(blk)], mn) << blk;
  }
  for (int rep = 0; rep < 4; ++rep) {
    float sum = 0.0f;
    for (int e = 0; e < 32; ++e) sum += static_cast<float>((rep * 64 + e) % 11);
    EXPECT_EQ(out[56 + static_cast<std::size_t>(rep)], sum) << rep;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 4u);
  EXPECT_EQ(t.instrs[0].op, Op::kReduceSum);
  EXPECT_EQ(t.instrs[0].count, 192u);
  EXPECT_EQ(t.instrs[1].op, Op::kReduceMax);
  EXPECT_EQ(t.instrs[1].count, 256u);
  EXPECT_EQ(t.instrs[2].op, Op::kReduceMin);
  EXPECT_EQ(t.instrs[2].count, 32u);
  EXPECT_EQ(t.instrs[3].op, Op::kReduceSum);
  EXPECT_EQ(t.instrs[3].count, 128u);
  for (const auto& ins : t.instrs) EXPECT_EQ(ins.pipe, Pipe::kVector);
  EXPECT_GT(costs().cycles(t.instrs[0]), costs().cycles(t.instrs[3]));  // 192 vs 128 lanes
}

// ---- CompareScalar ----

extern "C" __global__ __vector__ void l0_compare_scalar(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 64);
  AscendC::LocalTensor<std::uint8_t> m(AscendC::TPosition::VECOUT, 256, 32);
  for (int i = 0; i < 64; ++i) a(i) = value_a(i);
  AscendC::CompareScalar(m, a, 0.5f, AscendC::CMPMODE::LE, 64);
  auto* o = reinterpret_cast<__gm__ std::uint8_t*>(out);
  for (int i = 0; i < 8; ++i) o[i] = m(i);
}

TEST(Level0Vector, CompareScalarWritesOneBitPerElement) {
  std::vector<std::uint8_t> out(8, 0);
  auto r = run_blocks(&l0_compare_scalar, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(((out[static_cast<std::size_t>(i / 8)] >> (i % 8)) & 1) != 0, value_a(i) <= 0.5f)
        << i;
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 1u);
  EXPECT_EQ(r.blocks[0].trace.instrs[0].count, 64u);
}

// ---- Load3Dv2 registers ----

// A 3 x 5 feature map of 16 half channels, padded by 1 on every side (padding value -1), through
// a 3 x 3 filter: 15 output positions (16 rows loaded; row 15 continues the position count) x
// 144 columns. Five loads, each to its own 8 KB of L0A: A with the params (default config, which
// also writes the registers), B with the registers A left, C with SetFmatrix /
// SetLoadDataPaddingValue, D as LoadData3DParamsV2Pro, E from the right register (fMatrixCtrl)
// while the left one holds another shape.
constexpr std::uint32_t kLoad = 16 * 144;

extern "C" __global__ __cube__ void l0_load3d(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 3 * 5 * 16);
  for (std::uint32_t i = 0; i < 3 * 5 * 16; ++i)
    l1(i) = static_cast<half>(static_cast<float>(i % 89) - 30.0f);
  static constexpr AscendC::IsResetLoad3dConfig kRegs = {false, false};
  const std::uint8_t pad[4] = {1, 1, 1, 1};
  AscendC::LoadData3DParamsV2<half> p;
  p.l1H = 3;
  p.l1W = 5;
  for (int i = 0; i < 4; ++i) p.padList[i] = 1;
  p.channelSize = 16;
  p.kExtension = 144;
  p.mExtension = 16;
  p.filterH = 3;
  p.filterW = 3;
  p.padValue = half(-1.0f);
  std::vector<AscendC::LocalTensor<half>> dst;
  for (std::uint32_t k = 0; k < 5; ++k) dst.emplace_back(AscendC::TPosition::A2, k * 8192, kLoad);
  AscendC::LoadData(dst[0], l1, p);
  AscendC::LoadData3DParamsV2<half> q = p;  // what the registers override
  q.l1H = 1;
  q.l1W = 1;
  for (int i = 0; i < 4; ++i) q.padList[i] = 0;
  q.padValue = half(0.0f);
  AscendC::LoadData<half, kRegs>(dst[1], l1, q);
  const std::uint8_t none[4] = {0, 0, 0, 0};
  AscendC::SetFmatrix(1, 2, none, AscendC::FmatrixMode::FMATRIX_LEFT);
  AscendC::SetLoadDataPaddingValue(half(5.0f));
  AscendC::Load3DSetFMatrixCal(3, 5, pad);  // the left register again
  AscendC::SetLoadDataPaddingValue(half(-1.0f));
  AscendC::LoadData<half, kRegs>(dst[2], l1, q);
  AscendC::LoadData3DParamsV2Pro v;
  v.channelSize = 16;
  v.extConfig = (16ull << 16) | 144ull;
  v.filterConfig = (1ull << 40) | (1ull << 32) | (3ull << 24) | (3ull << 16) | (1ull << 8) | 1ull;
  AscendC::LoadData(dst[3], l1, v);
  AscendC::SetFmatrix(3, 5, pad, AscendC::FmatrixMode::FMATRIX_RIGHT);
  AscendC::SetFmatrix(1, 2, none, AscendC::FmatrixMode::FMATRIX_LEFT);
  q.fMatrixCtrl = true;
  AscendC::LoadData<half, kRegs>(dst[4], l1, q);
  auto* o = reinterpret_cast<__gm__ half*>(out);
  for (std::uint32_t k = 0; k < 5; ++k)
    for (std::uint32_t i = 0; i < kLoad; ++i) o[k * kLoad + i] = dst[k](i);
}

TEST(Load3dRegisters, ConfigFormsAndV2ProMatchTheExplicitLoad) {
  std::vector<half> out(5 * kLoad);
  auto r = run_blocks(&l0_load3d, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  // X[position i][column j]: (c1 = 0, filter h, filter w, c0), padded positions -1.
  auto x = [](int i, int j) {
    const int c0 = j % 16, kpos = j / 16, kh = kpos / 3, kw = kpos % 3;
    const int y = i / 5 + kh - 1, xx = i % 5 + kw - 1;
    if (y < 0 || xx < 0 || y >= 3 || xx >= 5) return -1.0f;
    return static_cast<float>(((y * 5 + xx) * 16 + c0) % 89) - 30.0f;
  };
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 144; ++j) {
      const int za = (j / 16) * 256 + i * 16 + j % 16;  // 16 x 144 zZ: one fractal row
      for (int k = 0; k < 5; ++k)
        EXPECT_EQ(static_cast<float>(out[static_cast<std::size_t>(k * kLoad + za)]), x(i, j))
            << "load " << k << " at " << i << "," << j;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 5u);  // setting registers records nothing
  for (const auto& ins : t.instrs) {
    EXPECT_EQ(ins.pipe, Pipe::kMte1);
    EXPECT_EQ(ins.count, 9u);  // 9 fractals
    EXPECT_EQ(ins.bytes, 2u * kLoad);
    EXPECT_EQ(costs().cycles(ins), costs().cycles(t.instrs[0]));
  }
}

extern "C" __global__ __cube__ void l0_load3d_no_register(GM_ADDR) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> l1(AscendC::TPosition::B1, 0, 512);
  AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 512);
  static constexpr AscendC::IsResetLoad3dConfig kRegs = {false, true};
  AscendC::LoadData3DParamsV2<half> p;
  p.l1H = 1;
  p.l1W = 16;
  p.channelSize = 16;
  p.kExtension = 16;
  p.mExtension = 16;
  p.fMatrixCtrl = true;
  AscendC::LoadData<half, kRegs>(b, l1, p);
}

TEST(Load3dRegisters, AnUnsetRegisterIsAKernelError) {
  auto r = run_blocks(&l0_load3d_no_register, 1, static_cast<GM_ADDR>(nullptr));
  expect_error(r, "right feature-map register was never set");
}

// ---- LocalTensor::SetAddr ----

extern "C" __global__ __vector__ void l0_set_addr(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> h(AscendC::TPosition::VECCALC, 64, 64);
  for (int i = 0; i < 64; ++i) h(i) = half(0.0f);
  AscendC::LocalTensor<float> f;
  f.SetAddr(h[16].address_);  // 48 halves from byte 96: 24 floats
  f(0) = 1.0f;
  auto* o = reinterpret_cast<__gm__ std::uint32_t*>(out);
  o[0] = f.GetSize();
  o[1] = static_cast<std::uint32_t>(f.GetPhyAddr());
  o[2] = static_cast<std::uint32_t>(f.GetPosition() == AscendC::TPosition::VECCALC);
  o[3] = h(17).bits();  // the high half of 1.0f
  o[4] = f.twin_slot() == h.twin_slot() ? 1u : 0u;
}

TEST(LocalTensorSetAddr, ViewsAnotherTensorsMemory) {
  std::vector<std::uint32_t> out(5, 0);
  auto r = run_blocks(&l0_set_addr, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(out[0], 24u);
  EXPECT_EQ(out[1], 96u);
  EXPECT_EQ(out[2], 1u);
  EXPECT_EQ(out[3], 0x3f80u);
  EXPECT_EQ(out[4], 1u);
}

// ---- SetFixPipeConfig<T, setRelu> ----

extern "C" __global__ __cube__ void l0_fixpipe_config(GM_ADDR out, int relu) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::uint64_t> q(AscendC::TPosition::C2PIPE2GM, 0, 16);
  if (relu != 0) {
    AscendC::SetFixPipeConfig<std::uint64_t, true>(q, false);
  } else {
    AscendC::SetFixPipeConfig<std::uint64_t, false>(q, false);
  }
  *reinterpret_cast<__gm__ std::uint32_t*>(out) =
      npusim::ascendc::block().fixpipe_regs.quant_words;
}

TEST(FixpipeConfig, SetReluFalseSetsTheQuantTensorTrueIsAnError) {
  std::uint32_t words = 0;
  auto r = run_blocks(&l0_fixpipe_config, 1, reinterpret_cast<GM_ADDR>(&words), 0);
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(words, 16u);
  r = run_blocks(&l0_fixpipe_config, 1, reinterpret_cast<GM_ADDR>(&words), 1);
  expect_error(r, "setRelu = true");
}

// ---- L1 half -> bias table float ----

extern "C" __global__ __cube__ void l0_bias_table(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> l1(AscendC::TPosition::C1, 0, 128);
  AscendC::LocalTensor<float> bt(AscendC::TPosition::C2, 0, 128);
  for (int i = 0; i < 128; ++i) {
    l1(i) = half(static_cast<float>(i) * 0.5f - 3.0f);
    bt(i) = kSentinel;
  }
  AscendC::DataCopyParams whole(1, 2, 0, 0);  // 2 x 64 bytes: 64 halves
  AscendC::DataCopy(bt, l1, whole);
  AscendC::LocalTensor<float> bt2(AscendC::TPosition::C2, 512, 128);
  for (int i = 0; i < 128; ++i) bt2(i) = kSentinel;
  // 2 blocks of 32 halves, the second 64 source bytes later, 16 floats of gap in the table.
  AscendC::DataCopyParams gaps(2, 1, 2, 1);
  AscendC::DataCopy(bt2, l1, gaps);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 128; ++i) {
    o[i] = bt(i);
    o[128 + i] = bt2(i);
  }
}

TEST(BiasTableCopy, ConvertsHalfToFloatInBlocksOf64Bytes) {
  std::vector<float> out(256, 0.0f);
  auto r = run_blocks(&l0_bias_table, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  auto src = [](int i) { return static_cast<float>(i) * 0.5f - 3.0f; };
  for (int i = 0; i < 128; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], i < 64 ? src(i) : kSentinel) << i;
  for (int i = 0; i < 128; ++i) {
    const float want = i < 32 ? src(i) : (i >= 48 && i < 80) ? src(i - 48 + 64) : kSentinel;
    EXPECT_EQ(out[128 + static_cast<std::size_t>(i)], want) << i;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kMte1);
  EXPECT_EQ(t.instrs[0].src, Mem::kL1);
  EXPECT_EQ(t.instrs[0].dst, Mem::kBiasTable);
  EXPECT_EQ(t.instrs[0].bytes, 256u);
  EXPECT_EQ(t.instrs[1].bytes, 256u);
  EXPECT_EQ(t.instrs[1].count, 2u);  // two bursts
}

// ---- likely / unlikely, scalar min / max ----

namespace lib {  // a library's own min template, as CATLASS's tla::min
template <class T, class U>
constexpr auto min(T const& t, U const& u) {
  return t < u ? t : u;
}
}  // namespace lib

using namespace lib;

static_assert(::min(3u, 2u) == 2u, "unsigned min");
static_assert(::max(-3, 2) == 2, "int max");

TEST(ScalarBuiltins, MinIsNotAmbiguousWithALibraryTemplateAndHintsKeepTheValue) {
  const unsigned a = 7, b = 5;
  EXPECT_EQ(min(a, b), 5u);  // the plain ::min(unsigned, unsigned), not ambiguous with lib::min
  EXPECT_EQ(min(2.5f, 1.5f), 1.5f);
  EXPECT_TRUE(likely(a > b));
  EXPECT_FALSE(unlikely(a < b));
  int hits = 0;
  if (unlikely(a == 7)) ++hits;
  EXPECT_EQ(hits, 1);
}

}  // namespace
