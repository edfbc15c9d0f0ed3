// SPDX-License-Identifier: Apache-2.0
// The basic-API modes of the twin that CANN 9's basic examples use: Select VSEL_CMPMASK_SPR
// (selMask through the CMPMASK register; the register form after Compare), DataCopyPad's padding
// with SetPadValue, Mmad's GEMV mode (m == 1) and Mmad / LoadData / tensor offsets of int4b_t:
// values against references computed here, the recorded instructions and their costs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "models/aicore/pipe_costs.h"
#include "npusim/ascendc/block_runner.h"
#include "tests/models/aicore_bench.h"

namespace {

using npusim::ascendc::Instr;
using npusim::ascendc::Mem;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

const npusim::models::PipeCosts& costs() {
  static const npusim::models::PipeCosts c(npusim::models::testing::aicore_config());
  return c;
}

float value_a(int i) { return static_cast<float>(i % 13) - 6.0f; }
float value_b(int i) { return static_cast<float>(i % 7) + 0.5f; }
std::uint8_t sel_byte(int i) { return static_cast<std::uint8_t>(i * 37 + 11); }
bool bit(const std::uint8_t* bytes, int i) { return ((bytes[i / 8] >> (i % 8)) & 1) != 0; }

// ---- Select VSEL_CMPMASK_SPR ----

// out[0..n): Select(mode 0) of a, b by sel (n floats); out[n..n+4): the CMPMASK register after it.
extern "C" __global__ __vector__ void select_spr(GM_ADDR out, std::uint32_t n) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 512);
  AscendC::LocalTensor<float> b(AscendC::TPosition::VECIN, 2048, 512);
  AscendC::LocalTensor<float> d(AscendC::TPosition::VECOUT, 4096, 512);
  AscendC::LocalTensor<std::uint8_t> sel(AscendC::TPosition::VECIN, 6144, 32);
  AscendC::LocalTensor<std::uint32_t> reg(AscendC::TPosition::VECOUT, 6176, 8);
  for (int i = 0; i < 512; ++i) {
    a(i) = value_a(i);
    b(i) = value_b(i);
  }
  for (int i = 0; i < 32; ++i) sel(i) = sel_byte(i);
  AscendC::Select(d, sel, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, n);
  AscendC::GetCmpMask(reg);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (std::uint32_t i = 0; i < n; ++i) o[i] = d(i);
  for (std::uint32_t i = 0; i < 4; ++i) reinterpret_cast<__gm__ std::uint32_t*>(o + n)[i] = reg(i);
}

TEST(SelectSpr, EveryRepeatUsesTheFirst64BitsOfSelMask) {
  std::uint8_t sel[32];
  for (int i = 0; i < 32; ++i) sel[i] = sel_byte(i);
  std::vector<std::uint64_t> cycles;
  for (std::uint32_t n : {64u, 256u}) {
    std::vector<float> out(n + 4, -1.0f);
    auto r = run_blocks(&select_spr, 1, reinterpret_cast<GM_ADDR>(out.data()), n);
    ASSERT_TRUE(r.ok()) << r.first_error();
    for (std::uint32_t i = 0; i < n; ++i)
      EXPECT_EQ(out[i], bit(sel, static_cast<int>(i % 64)) ? value_a(i) : value_b(i)) << i;
    std::uint8_t reg[16];
    std::memcpy(reg, out.data() + n, 16);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(reg[i], i < 8 ? sel[i] : 0) << i;  // 64 bits loaded
    const auto& t = r.blocks[0].trace;
    ASSERT_EQ(t.instrs.size(), 3u);  // register load, select, GetCmpMask
    EXPECT_EQ(t.instrs[0].pipe, Pipe::kVector);
    EXPECT_EQ(t.instrs[0].bytes, 16u);
    EXPECT_EQ(t.instrs[1].pipe, Pipe::kVector);
    EXPECT_EQ(t.instrs[1].count, n);
    EXPECT_EQ(t.instrs[1].bytes, n * sizeof(float));
    cycles.push_back(costs().cycles(t.instrs[1]));
  }
  EXPECT_GT(cycles[1], cycles[0]);  // the select costs its elements
}

// CMPMASK <- a[e] < b[e] for the 64 floats of one repeat (Compare without dst); then the register
// form selects two repeats with it under a vector mask of the first 48 lanes.
extern "C" __global__ __vector__ void select_register(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 128);
  AscendC::LocalTensor<float> b(AscendC::TPosition::VECIN, 512, 128);
  AscendC::LocalTensor<float> d(AscendC::TPosition::VECOUT, 1024, 128);
  for (int i = 0; i < 128; ++i) {
    a(i) = value_a(i);
    b(i) = value_b(i + 3) - 3.0f;
    d(i) = -100.0f;
  }
  AscendC::Compare(a, b, AscendC::CMPMODE::LT, 64, AscendC::BinaryRepeatParams{});
  AscendC::SetVectorMask<float>(48);
  AscendC::Select<float, AscendC::SELMODE::VSEL_CMPMASK_SPR>(d, a, b, 2,
                                                               AscendC::BinaryRepeatParams{});
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 128; ++i) o[i] = d(i);
}

TEST(SelectSpr, RegisterFormReadsWhatCompareWrote) {
  std::vector<float> out(128);
  auto r = run_blocks(&select_register, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 128; ++i) {
    const int e = i % 64;
    const bool lt = value_a(e) < value_b(e + 3) - 3.0f;
    const float want = e >= 48 ? -100.0f : lt ? value_a(i) : value_b(i + 3) - 3.0f;
    EXPECT_EQ(out[i], want) << i;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[1].pipe, Pipe::kVector);
  EXPECT_EQ(t.instrs[1].count, 96u);  // the active lanes of two repeats
}

extern "C" __global__ __vector__ void select_bad_mode() {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, 64);
  AscendC::Select<float, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE>(a, a, a, 1,
                                                                    AscendC::BinaryRepeatParams{});
}

TEST(SelectSpr, RegisterFormOfAnotherModeIsAKernelError) {
  auto r = run_blocks(&select_bad_mode, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("only VSEL_CMPMASK_SPR"), std::string::npos) << r.first_error();
}

// ---- DataCopyPad with SetPadValue ----

// 20 halves -> UB (pre-filled with 7), right padding 12 with isPad false; `set` calls
// SetPadValue(1) first, `is_pad` uses isPad true with paddingValue 3 instead.
extern "C" __global__ __vector__ void pad_value(GM_ADDR out, GM_ADDR src, int set, int is_pad) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(src));
  AscendC::LocalTensor<half> ub(AscendC::TPosition::VECIN, 0, 32);
  for (int i = 0; i < 32; ++i) ub(i) = static_cast<half>(7.0f);
  if (set != 0) AscendC::SetPadValue(static_cast<half>(1.0f));
  AscendC::DataCopyPadExtParams<half> pad(is_pad != 0, 0, 12, static_cast<half>(3.0f));
  AscendC::DataCopyPad(ub, g, AscendC::DataCopyExtParams(1, 20 * sizeof(half), 0, 0, 0), pad);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (int i = 0; i < 32; ++i) o[i] = static_cast<float>(ub(i));
}

TEST(DataCopyPadValue, SetPadValueFillsThePaddingWhenIsPadIsFalse) {
  std::vector<half> src(20);
  for (int i = 0; i < 20; ++i) src[i] = static_cast<half>(static_cast<float>(i) + 10.0f);
  struct Case {
    int set, is_pad;
    float pad;
  };
  for (const Case c : {Case{1, 0, 1.0f}, Case{0, 0, 7.0f}, Case{1, 1, 3.0f}}) {
    std::vector<float> out(32);
    auto r = run_blocks(&pad_value, 1, reinterpret_cast<GM_ADDR>(out.data()),
                        reinterpret_cast<GM_ADDR>(src.data()), c.set, c.is_pad);
    ASSERT_TRUE(r.ok()) << r.first_error();
    for (int i = 0; i < 32; ++i)
      EXPECT_EQ(out[i], i < 20 ? static_cast<float>(i) + 10.0f : c.pad) << c.set << c.is_pad << i;
    const auto& t = r.blocks[0].trace;
    ASSERT_EQ(t.instrs.size(), 1u);  // SetPadValue is a register write, no instruction
    EXPECT_EQ(t.instrs[0].pipe, Pipe::kMte2);
    EXPECT_EQ(t.instrs[0].bytes, 40u);  // the data bytes, however the padding is filled
  }
}

// ---- Mmad GEMV ----

float gemv_b(int k, int n) { return static_cast<float>((k * 5 + n) % 9) - 4.0f; }
float gemv_a(int k) { return static_cast<float>(k % 11) - 5.0f; }

// 1 x 40 by 40 x 32 (half): with GEMV (m == 1), A is 40 contiguous halves in L0A; as row 0 of
// zZ fractals, m is given as zz_mmad_m(1) (16, rows 1..15 zero). out: the two C rows.
extern "C" __global__ __cube__ void mmad_gemv(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> av(AscendC::TPosition::A2, 0, 512);
  AscendC::LocalTensor<half> az(AscendC::TPosition::A2, 1024, 1024);  // 3 fractals of zZ
  AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 3 * 2 * 256);
  AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 512);
  for (int i = 0; i < 1024; ++i) az(i) = static_cast<half>(0.0f);
  for (int k = 0; k < 48; ++k) {
    const float v = k < 40 ? gemv_a(k) : 0.0f;
    av(k) = static_cast<half>(v);
    az((k / 16) * 256 + k % 16) = static_cast<half>(v);  // row 0 of fractal k / 16
    for (int n = 0; n < 32; ++n)  // nZ: fractal (k / 16, n / 16), n-major inside
      b(((k / 16) * 2 + n / 16) * 256 + (n % 16) * 16 + k % 16) =
          static_cast<half>(k < 40 ? gemv_b(k, n) : 0.0f);
  }
  auto* o = reinterpret_cast<__gm__ float*>(out);
  AscendC::MmadParams p(1, 32, 40);
  AscendC::Mmad(c, av, b, p);
  for (int n = 0; n < 32; ++n) o[n] = c((n / 16) * 256 + n % 16);
  p.m = npusim::ascendc::zz_mmad_m(1);
  AscendC::Mmad(c, az, b, p);
  for (int n = 0; n < 32; ++n) o[32 + n] = c((n / 16) * 256 + n % 16);
}

TEST(MmadGemv, MEqualOneReadsAAsAVector) {
  std::vector<float> out(64);
  auto r = run_blocks(&mmad_gemv, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int n = 0; n < 32; ++n) {
    float want = 0.0f;
    for (int k = 0; k < 40; ++k) want += gemv_a(k) * gemv_b(k, n);
    EXPECT_EQ(out[n], want) << n;
    EXPECT_EQ(out[32 + n], want) << n;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].op, Op::kMmad);
  EXPECT_EQ(t.instrs[0].m, 1u);
  EXPECT_EQ(t.instrs[1].m, 16u);
  EXPECT_EQ(costs().cycles(t.instrs[0]), costs().cycles(t.instrs[1]));  // one fractal row both
}

extern "C" __global__ __cube__ void mmad_gemv_short() {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> a(AscendC::TPosition::A2, 0, 32);
  AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 3 * 256);
  AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
  AscendC::Mmad(c, a, b, AscendC::MmadParams(1, 16, 40));
}

TEST(MmadGemv, AVectorShorterThanKIsAKernelError) {
  auto r = run_blocks(&mmad_gemv_short, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("A (L0A) holds 32 elements, m=1 k=40 needs 40"),
            std::string::npos)
      << r.first_error();
}

// ---- int4b_t ----

int i4_a(int m, int k) { return (m * 3 + k * 5) % 16 - 8; }
int i4_b(int k, int n) { return (k * 7 + n * 3) % 15 - 7; }

void put_nibble(std::uint8_t* bytes, int i, int v) {
  std::uint8_t& x = bytes[i / 2];
  const auto nib = static_cast<std::uint8_t>(v & 0xf);
  x = static_cast<std::uint8_t>(i % 2 == 0 ? (x & 0xf0) | nib : (x & 0x0f) | (nib << 4));
}

// 16 x 128 by 128 x 16 int4 -> int32: A's two zZ fractals and B's two nZ fractals written in L1
// (tensors of 2048 elements = 1024 bytes), moved to L0A / L0B one fractal per LoadData at
// element offsets 0 and 1024 (= byte 512), multiplied; out: C (256 int32) then the L1 tensor's
// GetSize().
extern "C" __global__ __cube__ void mmad_int4(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<AscendC::int4b_t> a1(AscendC::TPosition::A1, 0, 2048);
  AscendC::LocalTensor<AscendC::int4b_t> b1(AscendC::TPosition::B1, 1024, 2048);
  AscendC::LocalTensor<AscendC::int4b_t> a2(AscendC::TPosition::A2, 0, 2048);
  AscendC::LocalTensor<AscendC::int4b_t> b2(AscendC::TPosition::B2, 0, 2048);
  AscendC::LocalTensor<std::int32_t> c(AscendC::TPosition::CO1, 0, 256);
  auto* ab = reinterpret_cast<std::uint8_t*>(&a1(0));
  auto* bb = reinterpret_cast<std::uint8_t*>(&b1(0));
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 128; ++k) {
      put_nibble(ab, (k / 64) * 1024 + m * 64 + k % 64, i4_a(m, k));
      put_nibble(bb, (k / 64) * 1024 + m * 64 + k % 64, i4_b(k, m));  // m as n here
    }
  const AscendC::LoadData2DParams one(0, 1, 1, 0, 0, false, 0);
  for (std::uint32_t f = 0; f < 2; ++f) {
    AscendC::LoadData(a2[f * 1024], a1[f * 1024], one);
    AscendC::LoadData(b2[f * 1024], b1[f * 1024], one);
  }
  AscendC::Mmad(c, a2, b2, AscendC::MmadParams(16, 16, 128));
  auto* o = reinterpret_cast<__gm__ std::int32_t*>(out);
  for (int i = 0; i < 256; ++i) o[i] = c(i);
  o[256] = static_cast<std::int32_t>(a1.GetSize());
}

TEST(Int4, LoadDataAndMmadOfPackedNibbles) {
  std::vector<std::int32_t> out(257);
  auto r = run_blocks(&mmad_int4, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 16; ++n) {
      std::int32_t want = 0;
      for (int k = 0; k < 128; ++k) want += i4_a(m, k) * i4_b(k, n);
      EXPECT_EQ(out[m * 16 + n], want) << m << "," << n;
    }
  }
  EXPECT_EQ(out[256], 1024);  // 2048 elements, two per byte
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 5u);
  const Instr& mm = t.instrs[4];
  EXPECT_EQ(mm.op, Op::kMmad);
  // The cube takes 4-bit k twice as fast as 8-bit: k 128 of int4 is recorded as k 64 of int8,
  // cheaper than k 128 of int8.
  EXPECT_EQ(mm.dtype, npusim::ascendc::DType::kInt8);
  EXPECT_EQ(mm.k, 64u);
  Instr full = mm;
  full.k = 128;
  EXPECT_LT(costs().cycles(mm), costs().cycles(full));
}

extern "C" __global__ __cube__ void int4_odd_offset() {
  AscendC::InitSocState();
  AscendC::LocalTensor<AscendC::int4b_t> a1(AscendC::TPosition::A1, 0, 64);
  (void)a1[3];
}

TEST(Int4, OddElementOffsetIsAKernelError) {
  auto r = run_blocks(&int4_odd_offset, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("int4b_t offset 3 is odd"), std::string::npos)
      << r.first_error();
}

}  // namespace
