// SPDX-License-Identifier: Apache-2.0
// CANN 9's C API (c_api/asc_simd.h) on the twin: results of the copies and vector ops on
// compiler-placed UB arrays, the recorded pipes, quantities and dependencies (asc_sync, the
// _sync variants, asc_sync_notify/wait), the mask register the repeat forms read, and the
// errors for misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;
constexpr std::uint32_t kLen = 512;

std::vector<std::uint32_t> deps_of(const npusim::ascendc::BlockTrace& t, std::size_t i) {
  const auto& in = t.instrs[i];
  return {t.deps.begin() + in.dep_begin, t.deps.begin() + in.dep_begin + in.dep_count};
}

std::vector<Pipe> pipes_of(const npusim::ascendc::BlockTrace& t) {
  std::vector<Pipe> p;
  for (const auto& in : t.instrs) p.push_back(in.pipe);
  return p;
}

// z = x + y with the _sync variants (each call followed by a barrier on every pipe).
extern "C" __global__ __vector__ void capi_sync_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  asc_init();
  __ubuf__ float xl[kLen];
  __ubuf__ float yl[kLen];
  __ubuf__ float zl[kLen];
  const std::int64_t off = asc_get_block_idx() * kLen;
  asc_copy_gm2ub_sync(xl, reinterpret_cast<__gm__ float*>(x) + off, kLen * sizeof(float));
  asc_copy_gm2ub_sync(yl, reinterpret_cast<__gm__ float*>(y) + off, kLen * sizeof(float));
  asc_add_sync(zl, xl, yl, kLen);
  asc_copy_ub2gm_sync(reinterpret_cast<__gm__ float*>(z) + off, zl, kLen * sizeof(float));
}

TEST(CApi, SyncVariantsAddAndOrderEveryPipeAfterEachCall) {
  const int blocks = 2;
  std::vector<float> x(blocks * kLen), y(blocks * kLen), z(blocks * kLen, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = 0.25f * static_cast<float>(i);
    y[i] = static_cast<float>(i % 5);
  }
  auto r = run_blocks(&capi_sync_add, blocks, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(y.data()), reinterpret_cast<GM_ADDR>(z.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  const auto& t = r.blocks[1].trace;
  EXPECT_EQ(pipes_of(t), (std::vector<Pipe>{Pipe::kMte2, Pipe::kMte2, Pipe::kVector, Pipe::kMte3}));
  EXPECT_EQ(t.instrs[0].bytes, kLen * sizeof(float));
  EXPECT_EQ(t.instrs[0].gm_addr, reinterpret_cast<std::uintptr_t>(x.data() + kLen));
  EXPECT_EQ(t.instrs[2].op, npusim::ascendc::Op::kAdd);
  EXPECT_EQ(t.instrs[2].count, kLen);
  EXPECT_EQ(t.instrs[2].dtype, npusim::ascendc::DType::kFp32);
  EXPECT_EQ(deps_of(t, 1), std::vector<std::uint32_t>{});  // same pipe: in order anyway
  EXPECT_EQ(deps_of(t, 2), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(deps_of(t, 3), (std::vector<std::uint32_t>{0, 1, 2}));
}

// The delicacy example's pattern: tiles with the repeat form and explicit event flags.
constexpr std::uint32_t kTile = 128;
extern "C" __global__ __vector__ void capi_async_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  asc_init();
  __ubuf__ float xl[kTile];
  __ubuf__ float yl[kTile];
  __ubuf__ float zl[kTile];
  auto* xg = reinterpret_cast<__gm__ float*>(x);
  auto* yg = reinterpret_cast<__gm__ float*>(y);
  auto* zg = reinterpret_cast<__gm__ float*>(z);
  const std::uint16_t blocks32 = kTile * sizeof(float) / 32;
  for (std::uint32_t i = 0; i < 2; ++i) {
    if (i != 0) asc_sync_wait(PIPE_V, PIPE_MTE2, EVENT_ID0);
    asc_copy_gm2ub(xl, xg + i * kTile, 1, blocks32, 0, 0);
    asc_copy_gm2ub(yl, yg + i * kTile, 1, blocks32, 0, 0);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (i != 0) asc_sync_wait(PIPE_MTE3, PIPE_V, EVENT_ID0);
    asc_add(zl, xl, yl, kTile * sizeof(float) / 256, 1, 1, 1, 8, 8, 8);  // 64 floats a repeat
    if (i == 0) asc_sync_notify(PIPE_V, PIPE_MTE2, EVENT_ID0);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm(zg + i * kTile, zl, 1, blocks32, 0, 0);
    if (i == 0) asc_sync_notify(PIPE_MTE3, PIPE_V, EVENT_ID0);
  }
}

TEST(CApi, EventFlagsOrderTheTilesOfTheRepeatFormAdd) {
  std::vector<float> x(2 * kTile, 1.5f), y(2 * kTile), z(2 * kTile, 0.0f);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i);
  auto r = run_blocks(&capi_async_tiles, 1, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(y.data()), reinterpret_cast<GM_ADDR>(z.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  const auto& t = r.blocks[0].trace;
  // Per tile: MTE2 x, MTE2 y, V add, MTE3 z.
  ASSERT_EQ(t.instrs.size(), 8u);
  EXPECT_EQ(t.instrs[2].count, kTile);  // 2 repeats x the full mask's 64 elements
  EXPECT_EQ(t.instrs[1].count, 1u);     // one burst
  EXPECT_EQ(t.instrs[1].bytes, kTile * sizeof(float));
  EXPECT_EQ(deps_of(t, 2), std::vector<std::uint32_t>{1});     // add after both copies
  EXPECT_EQ(deps_of(t, 3), std::vector<std::uint32_t>{2});     // copy-out after the add
  EXPECT_EQ(deps_of(t, 4), std::vector<std::uint32_t>{2});     // tile 1's copy-in after add 0
  EXPECT_EQ(deps_of(t, 6), (std::vector<std::uint32_t>{3, 5}));  // add 1 after out 0, in 1
  EXPECT_EQ(deps_of(t, 7), std::vector<std::uint32_t>{6});
}

// A count-form op leaves {0, count} in the mask register: with count 3 (binary 11) a repeat-form
// op then computes the first 2 elements of each repeat; with count 5 (binary 101) the twin
// refuses; asc_init restores the full mask; asc_set_vector_mask sets it.
extern "C" __global__ __vector__ void capi_mask(GM_ADDR out, GM_ADDR mode) {
  asc_init();
  __ubuf__ std::int32_t a[128];
  __ubuf__ std::int32_t d[128];
  asc_duplicate(a, 7, 128);
  asc_duplicate(d, 0, 128);
  const std::int32_t m = *reinterpret_cast<__gm__ std::int32_t*>(mode);
  asc_add(d, d, d, m == 1 ? 3u : 5u);  // 0 + 0: changes nothing, sets the mask register
  if (m == 2) asc_init();
  if (m >= 3) {
    asc_set_mask_norm();
    asc_set_vector_mask(0, m == 3 ? 0xfu : 0xf0u);
  }
  asc_add(d, a, a, 2, 1, 1, 1, 8, 8, 8);
  asc_copy_ub2gm_sync(out, d, sizeof d);
}

TEST(CApi, RepeatFormReadsTheMaskRegisterACountFormLeft) {
  std::vector<std::int32_t> out(128, -1);
  std::int32_t mode = 1;
  auto r = run_blocks(&capi_mask, 1, reinterpret_cast<GM_ADDR>(out.data()),
                      reinterpret_cast<GM_ADDR>(&mode));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], i % 64 < 2 ? 14 : 0) << i;
  EXPECT_EQ(r.blocks[0].trace.instrs[3].count, 4u);  // 2 repeats x 2 elements

  mode = 2;  // asc_init in between: the full mask again
  r = run_blocks(&capi_mask, 1, reinterpret_cast<GM_ADDR>(out.data()),
                 reinterpret_cast<GM_ADDR>(&mode));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 14) << i;

  mode = 3;  // asc_set_vector_mask(0, 0xf): the first 4 elements of each repeat
  std::fill(out.begin(), out.end(), -1);
  r = run_blocks(&capi_mask, 1, reinterpret_cast<GM_ADDR>(out.data()),
                 reinterpret_cast<GM_ADDR>(&mode));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], i % 64 < 4 ? 14 : 0) << i;

  for (std::int32_t bad : {0, 4}) {  // {0, 5} from a count form; {0, 0xf0} set by the kernel
    mode = bad;
    r = run_blocks(&capi_mask, 1, reinterpret_cast<GM_ADDR>(out.data()),
                   reinterpret_cast<GM_ADDR>(&mode));
    EXPECT_NE(r.first_error().find(bad == 0 ? "asc_add: the vector mask {0x0, 0x5}"
                                            : "asc_add: the vector mask {0x0, 0xf0}"),
              std::string::npos)
        << r.first_error();
  }
}

// Byte-granular copies (the _align forms), scalar ops on half and relu on int32.
extern "C" __global__ __vector__ void capi_align(GM_ADDR in, GM_ADDR out, GM_ADDR hv) {
  __ubuf__ std::uint8_t u[128];
  asc_duplicate(reinterpret_cast<__ubuf__ std::uint16_t*>(u), 0xEEEE, 64);
  // Two GM rows of 20 bytes, 12 bytes apart, land in UB rows 32 bytes apart (2 elements of
  // left padding), then go back to GM as 2 rows of 22 bytes, 2 bytes apart.
  asc_copy_gm2ub_align(u, in, 2, 20, 2, 0, 12, 0);
  asc_sync_mte2(EVENT_ID1);
  asc_copy_ub2gm_align(out, u, 2, 22, 0, 0, 0, 2);
  __ubuf__ half h[16];
  __ubuf__ std::int32_t v[8];
  asc_copy_gm2ub_align_sync(h, reinterpret_cast<__gm__ half*>(hv), 16 * sizeof(half));
  asc_mul_scalar_sync(h, h, half(2.0f), 16);
  asc_max_scalar(h, h, half(3.0f), 16);
  asc_duplicate(v, -3, 8);
  asc_relu_sync(v, v, 8);
  asc_copy_ub2gm_align_sync(reinterpret_cast<__gm__ half*>(hv), h, 16 * sizeof(half));
  asc_copy_ub2gm_align_sync(reinterpret_cast<__gm__ std::int32_t*>(hv + 32), v, 32);
  __ubuf__ std::int32_t w[16];
  asc_duplicate(w, 9, 16);
  asc_copy_ub2ub(w + 8, v, 1, 1, 0, 0);  // one 32-byte block, on the V pipe
  asc_sync_vec();
  asc_copy_ub2gm(hv + 64, w, sizeof w);
}

TEST(CApi, AlignCopiesMoveByteRowsAndScalarOpsCompute) {
  std::vector<std::uint8_t> in(64), out(48, 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i + 1);
  std::vector<std::uint8_t> hv(128, 0xff);
  auto* h = reinterpret_cast<half*>(hv.data());
  for (int i = 0; i < 16; ++i) h[i] = half(static_cast<float>(i));
  auto r = run_blocks(&capi_align, 1, in.data(), out.data(), hv.data());
  ASSERT_TRUE(r.ok()) << r.first_error();
  // out row j (22 bytes at 24j) = 2 padding bytes (0xEE, left as they were) + in[32j, 32j+20).
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(out[24 * j], 0xEE);
    EXPECT_EQ(out[24 * j + 1], 0xEE);
    for (int e = 0; e < 20; ++e) ASSERT_EQ(out[24 * j + 2 + e], in[32 * j + e]) << j << " " << e;
  }
  EXPECT_EQ(out[22], 0);  // the 2-byte gap between the GM rows is untouched
  EXPECT_EQ(out[23], 0);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<float>(h[i]), i < 2 ? 3.0f : 2.0f * i) << i;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(reinterpret_cast<std::int32_t*>(hv.data() + 32)[i], 0);
  const auto& t = r.blocks[0].trace;
  EXPECT_EQ(t.instrs[1].pipe, Pipe::kMte2);
  EXPECT_EQ(t.instrs[1].bytes, 40u);
  EXPECT_EQ(t.instrs[1].count, 2u);
  EXPECT_EQ(t.instrs[1].gm_pitch, 32u);
  EXPECT_EQ(t.instrs[2].pipe, Pipe::kMte3);
  EXPECT_EQ(t.instrs[2].bytes, 44u);
  EXPECT_EQ(deps_of(t, 2), std::vector<std::uint32_t>{1});  // asc_sync_mte2
  EXPECT_EQ(t.instrs[5].op, npusim::ascendc::Op::kMax);
  EXPECT_EQ(t.instrs[5].dtype, npusim::ascendc::DType::kFp16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(reinterpret_cast<std::int32_t*>(hv.data() + 64)[i], i < 8 ? 9 : 0) << i;
  ASSERT_EQ(t.instrs.size(), 13u);
  EXPECT_EQ(t.instrs[11].pipe, Pipe::kVector);
  EXPECT_EQ(t.instrs[11].op, npusim::ascendc::Op::kCopy);
  EXPECT_EQ(t.instrs[11].src, npusim::ascendc::Mem::kUb);
  EXPECT_EQ(t.instrs[11].dst, npusim::ascendc::Mem::kUb);
  EXPECT_EQ(t.instrs[11].bytes, 32u);
  EXPECT_EQ(deps_of(t, 12), (std::vector<std::uint32_t>{3, 7, 11}));  // asc_sync_vec: all pipes
}

extern "C" __global__ __vector__ void capi_misuse(GM_ADDR x, GM_ADDR which) {
  __ubuf__ float a[64];
  switch (*reinterpret_cast<__gm__ std::int32_t*>(which)) {
    case 0: asc_sync_pipe(PIPE_S); break;
    case 1: asc_copy_gm2ub(a, x, 0, 2, 0, 0); break;
    case 2: asc_sync_wait(PIPE_MTE3, PIPE_V, EVENT_ID2); break;
    default: asc_sync_notify(PIPE_MTE4, PIPE_V, EVENT_ID0); break;
  }
}

TEST(CApi, MisuseIsAKernelErrorNamingTheCall) {
  std::vector<float> x(64, 1.0f);
  const char* expected[] = {"asc_sync_pipe: PIPE_S cannot be a barrier's pipe",
                            "asc_copy_gm2ub: n_burst 0 outside [1, 4095]",
                            "WaitFlag(MTE3 -> V, event 2) without a matching SetFlag",
                            "asc_sync_notify: pipe 7 is not a single pipe"};
  for (std::int32_t w = 0; w < 4; ++w) {
    auto r = run_blocks(&capi_misuse, 1, reinterpret_cast<GM_ADDR>(x.data()),
                        reinterpret_cast<GM_ADDR>(&w));
    EXPECT_NE(r.first_error().find(expected[w]), std::string::npos) << w << ": "
                                                                    << r.first_error();
  }
}

}  // namespace
