// SPDX-License-Identifier: Apache-2.0
// CANN 9's static-tensor programming on the twin: InitSocState, LocalMemAllocator allocations
// (addresses, positions, capacity), results, the recorded trace with PipeBarrier ordering, and
// the errors for mixing with TPipe and for overflowing a memory; tensors placed by address; the
// compile-time helpers (block sizes, IsSameType, Conditional).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::run_blocks;
constexpr std::uint32_t kLen = 256;

// out[i] = x[i] + y[i] per block, written the CANN 9 way (no TPipe, no queues).
extern "C" __global__ __vector__ void static_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR addrs) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + block_idx * kLen, kLen);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + block_idx * kLen, kLen);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + block_idx * kLen, kLen);
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  auto* a = reinterpret_cast<__gm__ std::uint32_t*>(addrs) + 4 * block_idx;
  a[0] = ub.GetCurAddr();
  AscendC::LocalTensor<float> lx = ub.Alloc<float, kLen>();
  a[1] = ub.GetCurAddr();
  AscendC::LocalTensor<float> ly = ub.Alloc<AscendC::TPosition::VECIN, float>(kLen);
  AscendC::LocalTensor<float> lz = ub.Alloc<float>(kLen);
  a[2] = ub.GetCurAddr();
  a[3] = static_cast<std::uint32_t>(lx.GetPosition()) * 100 +
         static_cast<std::uint32_t>(ly.GetPosition());
  AscendC::DataCopy(lx, gx, kLen);
  AscendC::DataCopy(ly, gy, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Add(lz, lx, ly, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(gz, lz, kLen);
}

TEST(StaticTensor, AllocatorAddsAndRecordsBarrierOrderedTrace) {
  const int blocks = 3;
  std::vector<float> x(blocks * kLen), y(blocks * kLen), z(blocks * kLen, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i % 7);
  }
  std::vector<std::uint32_t> addrs(4 * blocks, 0xffffffffu);
  auto r = run_blocks(&static_add, blocks, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(y.data()), reinterpret_cast<GM_ADDR>(z.data()),
                      reinterpret_cast<GM_ADDR>(addrs.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  for (int b = 0; b < blocks; ++b) {  // each block's allocator starts at address 0 again
    EXPECT_EQ(addrs[4 * b + 0], 0u);
    EXPECT_EQ(addrs[4 * b + 1], kLen * sizeof(float));
    EXPECT_EQ(addrs[4 * b + 2], 3 * kLen * sizeof(float));
    EXPECT_EQ(addrs[4 * b + 3], static_cast<std::uint32_t>(AscendC::TPosition::VECCALC) * 100 +
                                    static_cast<std::uint32_t>(AscendC::TPosition::VECIN));
  }
  // Two copies in (MTE2), the add (V), the copy out (MTE3); each barrier makes the next
  // instruction wait for the last one issued on every other pipe (a pipe runs in order, so the
  // add waiting for the second copy waits for both).
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 4u);
  EXPECT_EQ(t.instrs[0].pipe, npusim::ascendc::Pipe::kMte2);
  EXPECT_EQ(t.instrs[1].pipe, npusim::ascendc::Pipe::kMte2);
  EXPECT_EQ(t.instrs[2].pipe, npusim::ascendc::Pipe::kVector);
  EXPECT_EQ(t.instrs[3].pipe, npusim::ascendc::Pipe::kMte3);
  auto deps_of = [&t](std::size_t i) {
    return std::vector<std::uint32_t>(t.deps.begin() + t.instrs[i].dep_begin,
                                      t.deps.begin() + t.instrs[i].dep_begin + t.instrs[i].dep_count);
  };
  EXPECT_EQ(deps_of(1), std::vector<std::uint32_t>{});
  EXPECT_EQ(deps_of(2), std::vector<std::uint32_t>{1});
  EXPECT_EQ(deps_of(3), (std::vector<std::uint32_t>{1, 2}));
}

extern "C" __global__ __aicore__ void allocator_after_tpipe(GM_ADDR) {
  AscendC::TPipe pipe;
  AscendC::LocalMemAllocator<> ub;
  ub.Alloc<float, 64>();
}

extern "C" __global__ __aicore__ void allocator_overflow(GM_ADDR) {
  AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0a;
  l0a.Alloc<half>(1u << 20);  // 2 MiB: L0A holds 64 KiB
}

extern "C" __global__ __aicore__ void allocator_wrong_position(GM_ADDR) {
  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
  l1.Alloc<AscendC::TPosition::VECIN, float>(16);
}

TEST(StaticTensor, MisuseIsAKernelErrorNamingTheCall) {
  auto r = run_blocks(&allocator_after_tpipe, 1, nullptr);
  EXPECT_NE(r.first_error().find("LocalMemAllocator<UB>::Alloc(64 elements of 4 bytes): a kernel "
                                 "using a TPipe cannot also use a LocalMemAllocator"),
            std::string::npos)
      << r.first_error();
  r = run_blocks(&allocator_overflow, 1, nullptr);
  EXPECT_NE(r.first_error().find("LocalMemAllocator<L0A>::Alloc(1048576 elements of 2 bytes)"),
            std::string::npos)
      << r.first_error();
  r = run_blocks(&allocator_wrong_position, 1, nullptr);
  EXPECT_NE(r.first_error().find("position VECIN is not in L1"), std::string::npos)
      << r.first_error();
}

// Two tensors placed by address in UB; the result is read back through a third view of the
// first one's bytes.
extern "C" __global__ __vector__ void placed_scale(GM_ADDR x, GM_ADDR z) {
  constexpr std::uint32_t kN = 64;
  AscendC::GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kN);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kN);
  AscendC::LocalTensor<float> in(AscendC::TPosition::VECIN, 0, kN);
  AscendC::LocalTensor<float> out(AscendC::TPosition::VECOUT, kN * sizeof(float), kN);
  AscendC::DataCopy(in, gx, kN);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Muls(out, in, 3.0f, kN);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::LocalTensor<float> again(AscendC::TPosition::VECCALC, kN * sizeof(float), kN);
  AscendC::DataCopy(gz, again, kN);
}

extern "C" __global__ __vector__ void placed_beyond_ub(GM_ADDR) {
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 192 * 1024 - 64, 32);
}

TEST(StaticTensor, TensorsPlacedByAddressShareTheMemory) {
  std::vector<float> x(64), z(64, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 7.0f;
  auto r = run_blocks(&placed_scale, 1, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(z.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], 3.0f * x[i]) << i;
  r = run_blocks(&placed_beyond_ub, 1, nullptr);
  EXPECT_NE(r.first_error().find("32 elements of 4 bytes at address 196544 of VECIN end at "
                                 "196672, beyond its 196608 bytes"),
            std::string::npos)
      << r.first_error();
}

TEST(StaticTensor, CompileTimeHelpers) {
  static_assert(AscendC::ONE_BLK_SIZE == 32 && AscendC::ONE_REPEAT_BYTE_SIZE == 256);
  static_assert(AscendC::ONE_REPEAT_BYTE_SIZE == AscendC::DEFAULT_BLK_NUM * AscendC::ONE_BLK_SIZE);
  EXPECT_TRUE((AscendC::IsSameType<half, half>::value));
  EXPECT_FALSE((AscendC::IsSameType<half, float>::value));
  EXPECT_EQ(sizeof(AscendC::Conditional<true, float, half>::type), 4u);
  EXPECT_EQ(sizeof(AscendC::Conditional<false, float, half>::type), 2u);
}

}  // namespace
