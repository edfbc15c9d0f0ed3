// SPDX-License-Identifier: Apache-2.0
// Device-level behaviour of the twin: block identity, printf buffering and formats, traps,
// buffer overflow and queue misuse errors, GM access checks, scalar GM access, asm handling.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::run_blocks;

extern "C" __global__ __aicore__ void write_identity(GM_ADDR out) {
  auto* p = reinterpret_cast<__gm__ std::int64_t*>(out);
  const std::int32_t idx = block_idx;
  p[2 * idx] = AscendC::GetBlockIdx();
  p[2 * idx + 1] = AscendC::GetBlockNum() * 100 + block_num;
}

TEST(Device, BlockIdentity) {
  std::vector<std::int64_t> out(2 * 5, -1);
  auto r = run_blocks(&write_identity, 5, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok());
  for (std::int64_t b = 0; b < 5; ++b) {
    EXPECT_EQ(out[2 * b], b);
    EXPECT_EQ(out[2 * b + 1], 505);
  }
  EXPECT_EQ(block_idx, 0);  // restored after the launch
}

extern "C" __global__ __aicore__ void print_formats(GM_ADDR p) {
  AscendC::printf("block %d of %d\n", AscendC::GetBlockIdx(), AscendC::GetBlockNum());
  AscendC::printf("u=%u x=%x X=%#X ld=%ld i=%i c=%c s=%s pct=%% f=%.3f h=%f e=%e w=[%5d|%-4d]\n",
                  7u, 255, 0xabcu, -5L, -1, 'Z', "str", 3.14159f, half(1.5f), 1e-3, 42, 7);
  AscendC::printf("neg32 as hex: %x; int64 with %%d: %d\n", -1, std::int64_t{1} << 40);
  AscendC::printf("ptr %p\n", p);
}

TEST(Device, PrintfFormatsAndBlockOrder) {
  auto r = run_blocks(&print_formats, 3, reinterpret_cast<GM_ADDR>(0x1000));
  ASSERT_TRUE(r.ok());
  std::string expect;
  for (int b = 0; b < 3; ++b) {
    expect += "block " + std::to_string(b) + " of 3\n";
    expect +=
        "u=7 x=ff X=0XABC ld=-5 i=-1 c=Z s=str pct=% f=3.142 h=1.500000 e=1.000000e-03 w=[   42|7  "
        " ]\n";
    expect += "neg32 as hex: ffffffff; int64 with %d: 1099511627776\n";
    expect += "ptr 0x1000\n";
    EXPECT_EQ(r.blocks[b].printf_out.substr(0, 13), "block " + std::to_string(b) + " of 3\n");
  }
  EXPECT_EQ(r.printf_all(), expect);
}

extern "C" __global__ __aicore__ void hello(GM_ADDR) { AscendC::printf("Hello World\n"); }

TEST(Device, PrintfOncePerBlock) {
  auto r = run_blocks(&hello, 8, nullptr);
  ASSERT_TRUE(r.ok());
  std::string expect;
  for (int b = 0; b < 8; ++b) expect += "Hello World\n";
  EXPECT_EQ(r.printf_all(), expect);
}

extern "C" __global__ __aicore__ void trap_on_three(GM_ADDR out) {
  reinterpret_cast<__gm__ std::int32_t*>(out)[block_idx] = 1;
  if (block_idx == 3) asm("trap");
  reinterpret_cast<__gm__ std::int32_t*>(out)[block_idx] = 2;
}

TEST(Device, TrapRaisesDeviceTrapWithBlockIndex) {
  std::vector<std::int32_t> out(8, 0);
  auto r = run_blocks(&trap_on_three, 8, reinterpret_cast<GM_ADDR>(out.data()));
  EXPECT_FALSE(r.ok());
  for (int b = 0; b < 8; ++b) {
    EXPECT_EQ(r.blocks[b].trapped, b == 3);
    EXPECT_EQ(out[b], b == 3 ? 1 : 2);
  }
  EXPECT_NE(r.blocks[3].error.find("block 3"), std::string::npos) << r.blocks[3].error;
  EXPECT_NE(r.blocks[3].error.find("trap"), std::string::npos) << r.blocks[3].error;
}

TEST(Device, TrapThrowsDeviceTrap) {
  npusim::ascendc::BlockContext ctx(0, 1);
  npusim::ascendc::ScopedBlock scope(ctx);
  EXPECT_THROW(asm("trap"), npusim::ascendc::DeviceTrap);
  EXPECT_THROW(AscendC::Trap(), npusim::ascendc::DeviceTrap);
  try {
    asm("nop");
    FAIL() << "asm(\"nop\") did not throw";
  } catch (const npusim::ascendc::DeviceTrap&) {
    FAIL() << "asm(\"nop\") is not a trap";
  } catch (const npusim::ascendc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported inline asm"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nop"), std::string::npos);
  }
}

template <AscendC::TPosition kPos>
__global__ __aicore__ void init_buffer(GM_ADDR, std::uint32_t num, std::uint32_t len) {
  AscendC::TPipe pipe;
  AscendC::TQue<kPos, 2> q;
  pipe.InitBuffer(q, static_cast<std::uint8_t>(num), len);
}

TEST(Device, UbOverflowInInitBufferIsAClearError) {
  auto r = run_blocks(&init_buffer<AscendC::TPosition::VECIN>, 2, nullptr, 2u, 100u * 1024u);
  ASSERT_FALSE(r.ok());
  const std::string e = r.blocks[0].error;
  EXPECT_NE(e.find("block 0"), std::string::npos) << e;
  EXPECT_NE(e.find("TPipe::InitBuffer(queue VECIN, num 2, len 102400)"), std::string::npos) << e;
  EXPECT_NE(e.find("UB overflow"), std::string::npos) << e;
  EXPECT_NE(e.find("needs 204800 bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("only 196608 of 196608 bytes are free"), std::string::npos) << e;
  EXPECT_FALSE(r.blocks[0].trapped);
}

TEST(Device, BufferCapacitiesComeFromTheLauncher) {
  EXPECT_TRUE(
      run_blocks(&init_buffer<AscendC::TPosition::VECIN>, 1, nullptr, 2u, 96u * 1024u).ok());
  npusim::ascendc::CoreBuffers big;
  big.ub = 256 * 1024;
  EXPECT_TRUE(npusim::ascendc::run_blocks_with(big, &init_buffer<AscendC::TPosition::VECIN>, 1,
                                              nullptr, 2u, 100u * 1024u)
                  .ok());
  auto l1 = run_blocks(&init_buffer<AscendC::TPosition::A1>, 1, nullptr, 2u, 300u * 1024u);
  EXPECT_NE(l1.first_error().find("L1 overflow"), std::string::npos) << l1.first_error();
  auto l0a = run_blocks(&init_buffer<AscendC::TPosition::A2>, 1, nullptr, 1u, 65u * 1024u);
  EXPECT_NE(l0a.first_error().find("L0A overflow"), std::string::npos) << l0a.first_error();
}

extern "C" __global__ __aicore__ void queue_misuse(GM_ADDR, std::uint32_t which) {
  using namespace AscendC;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  if (which == 0) (void)q.DeQue<float>();        // nothing queued
  if (which == 1) (void)q.AllocTensor<float>();  // the only buffer is in use
  if (which == 2) {
    EXPECT_TRUE(q.EnQue(t));
    EXPECT_FALSE(q.EnQue(t));  // depth 1: full
  }
  if (which == 3) SetFlag<HardEvent::V_MTE3>(0), WaitFlag<HardEvent::MTE2_V>(1);
}

TEST(Device, QueueMisuseThatWouldHangIsAnError) {
  EXPECT_NE(run_blocks(&queue_misuse, 1, nullptr, 0u).first_error().find("queue is empty"),
            std::string::npos);
  EXPECT_NE(run_blocks(&queue_misuse, 1, nullptr, 1u).first_error().find("are in use"),
            std::string::npos);
  EXPECT_TRUE(run_blocks(&queue_misuse, 1, nullptr, 2u).ok());
  EXPECT_NE(
      run_blocks(&queue_misuse, 1, nullptr, 3u).first_error().find("without a matching SetFlag"),
      std::string::npos);
}

extern "C" __global__ __aicore__ void scalar_gm(GM_ADDR in, GM_ADDR out) {
  AscendC::GlobalTensor<std::int32_t> gi, go;
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(in), 4);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(out), 4);
  go.SetValue(block_idx, gi.GetValue(block_idx) * 10);
  go[0](0) += 0;  // operator() reference access
}

TEST(Device, GlobalTensorScalarAccess) {
  std::vector<std::int32_t> in = {1, 2, 3, 4}, out(4, 0);
  auto r = run_blocks(&scalar_gm, 4, reinterpret_cast<GM_ADDR>(in.data()),
                      reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out, (std::vector<std::int32_t>{10, 20, 30, 40}));
  const auto& t = r.blocks[2].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].op, npusim::ascendc::Op::kScalarRead);
  EXPECT_EQ(t.instrs[0].src, npusim::ascendc::Mem::kGm);
  EXPECT_EQ(t.instrs[1].op, npusim::ascendc::Op::kScalarWrite);
  EXPECT_TRUE(t.instrs[1].touches_gm());
  EXPECT_EQ(t.instrs[1].pipe, npusim::ascendc::Pipe::kScalar);
}

extern "C" __global__ __aicore__ void copy_in(GM_ADDR src) {
  using namespace AscendC;
  TPipe pipe;
  TBuf<> b;
  pipe.InitBuffer(b, 1024);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), 256);
  LocalTensor<float> t = b.Get<float>();
  DataCopy(t, g, 256);
  DataCopy(t[4], g, 8);  // 16-byte offset in UB: not 32-byte aligned
}

TEST(Device, GmCheckHookAndAlignment) {
  std::vector<float> src(256, 1.0f);
  {
    npusim::ascendc::BlockContext ctx(0, 1);
    ctx.gm_check = [](const void*, std::uint64_t, bool) { return false; };
    npusim::ascendc::ScopedBlock scope(ctx);
    try {
      copy_in(reinterpret_cast<GM_ADDR>(src.data()));
      FAIL() << "no error";
    } catch (const npusim::ascendc::KernelError& e) {
      EXPECT_NE(std::string(e.what()).find("outside any device allocation"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("reads 1024 bytes"), std::string::npos) << e.what();
    }
  }
  auto r = run_blocks(&copy_in, 1, reinterpret_cast<GM_ADDR>(src.data()));
  EXPECT_NE(r.first_error().find("not 32-byte aligned"), std::string::npos) << r.first_error();
}

TEST(Device, ApiOutsideALaunchIsAnError) {
  EXPECT_THROW(AscendC::TPipe pipe, npusim::ascendc::KernelError);
}

extern "C" __global__ __aicore__ void count_rounding(GM_ADDR src, GM_ADDR dst) {
  test_kernels::StagedCopy<half> k(src, dst, 256);
  AscendC::DataCopy(k.ub, k.gs, 40);  // 80 bytes: the device moves 64
  AscendC::DataCopy(k.gd, k.ub, 40);
}

TEST(Device, ContiguousDataCopyRoundsDownTo32Bytes) {
  std::vector<half> src(40, half(1.0f)), dst(40, half(0.0f));
  auto r = run_blocks(&count_rounding, 1, reinterpret_cast<GM_ADDR>(src.data()),
                      reinterpret_cast<GM_ADDR>(dst.data()));
  ASSERT_TRUE(r.ok());
  for (int i = 0; i < 40; ++i) EXPECT_EQ(static_cast<float>(dst[i]), i < 32 ? 1.0f : 0.0f) << i;
  EXPECT_EQ(r.blocks[0].trace.instrs[0].bytes, 64u);
}

extern "C" __global__ __aicore__ void pad_copy(GM_ADDR src, GM_ADDR dst) {
  using namespace AscendC;
  test_kernels::StagedCopy<float> k(src, dst, 256);
  // 3 rows of 5 floats (20 bytes), GM rows 7 floats apart; UB rows padded to 32 bytes with -1.
  DataCopyPad(k.ub, k.gs, DataCopyExtParams(3, 20, 8, 0),
              DataCopyPadExtParams<float>(true, 0, 0, -1.0f));
  DataCopyPad(k.gd, k.ub, DataCopyExtParams(3, 32, 0, 0));
}

TEST(Device, DataCopyPad) {
  std::vector<float> src(21), dst(24, 0.0f);
  for (int i = 0; i < 21; ++i) src[i] = static_cast<float>(i);
  auto r = run_blocks(&pad_copy, 1, reinterpret_cast<GM_ADDR>(src.data()),
                      reinterpret_cast<GM_ADDR>(dst.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  const std::vector<float> expect = {0,  1,  2,  3,  4,  -1, -1, -1, 7,  8,  9,  10,
                                     11, -1, -1, -1, 14, 15, 16, 17, 18, -1, -1, -1};
  EXPECT_EQ(dst, expect);
}

}  // namespace
