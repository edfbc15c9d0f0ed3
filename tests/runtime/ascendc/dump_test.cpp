// SPDX-License-Identifier: Apache-2.0
// DumpTensor and the asc_dump family on the twin: the printed text (header line, values per
// type, block lines), the recorded instructions (pipe per memory, padded bytes, barriers before
// and after) and the errors (memory that cannot be dumped, range beyond the memory, size limit).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "utils/debug/asc_dump.h"

namespace {

using npusim::ascendc::Mem;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

// Copies 8 halves of GM to UB and dumps them three ways: the UB tensor, its address, the GM ints.
extern "C" __global__ __vector__ void dump_ub_and_gm(GM_ADDR x, GM_ADDR ints) {
  AscendC::GlobalTensor<half> gx;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + block_idx * 16, 16);
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  ub.Alloc<half>(32);  // the dumped tensor starts at UB address 64
  AscendC::LocalTensor<half> lx = ub.Alloc<half>(16);
  AscendC::DataCopy(lx, gx, 16);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DumpTensor(lx, 7, 4);
  asc_dump_ubuf<half>(reinterpret_cast<__ubuf__ half*>(lx.GetPhyAddr()) + 2, 8, 2);
  asc_dump_gm<std::int32_t>(reinterpret_cast<__gm__ std::int32_t*>(ints) + block_idx, 9, 3);
}

TEST(DumpTensor, PrintsHeaderAndValuesPerBlock) {
  std::vector<half> x(32);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = half(0.5f * static_cast<float>(i));
  std::vector<std::int32_t> ints = {-3, 40, 500, 6000};
  auto r = run_blocks(&dump_ub_and_gm, 2, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(ints.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int b = 0; b < 2; ++b) {
    const std::string v[4] = {b == 0 ? "0.000000" : "8.000000", b == 0 ? "0.500000" : "8.500000",
                              b == 0 ? "1.000000" : "9.000000", b == 0 ? "1.500000" : "9.500000"};
    char gm[64];
    std::snprintf(gm, sizeof gm, "0x%llx", static_cast<unsigned long long>(
                                               reinterpret_cast<std::uintptr_t>(&ints[b])));
    EXPECT_EQ(r.blocks[b].printf_out,
              "DumpTensor: desc=7, addr=0x40, data_type=float16, position=UB, dump_size=4\n[" +
                  v[0] + ", " + v[1] + ", " + v[2] + ", " + v[3] +
                  "]\nDumpTensor: desc=8, addr=0x44, data_type=float16, position=UB, "
                  "dump_size=2\n[" + v[2] + ", " + v[3] + "]\nDumpTensor: desc=9, addr=" + gm +
                  ", data_type=int32, position=GM, dump_size=3\n[" +
                  std::to_string(ints[b]) + ", " + std::to_string(ints[b + 1]) + ", " +
                  std::to_string(ints[b + 2]) + "]\n")
        << b;
  }
}

TEST(DumpTensor, RecordsOnePaddedCopyBetweenBarriers) {
  std::vector<half> x(32);
  std::vector<std::int32_t> ints(4);
  auto r = run_blocks(&dump_ub_and_gm, 1, reinterpret_cast<GM_ADDR>(x.data()),
                      reinterpret_cast<GM_ADDR>(ints.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 4u);  // DataCopy in, then the three dumps
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(t.instrs[i].pipe, Pipe::kMte3) << i;
    EXPECT_EQ(t.instrs[i].op, Op::kCopy) << i;
    EXPECT_EQ(t.instrs[i].dst, Mem::kGm) << i;
    EXPECT_EQ(t.instrs[i].bytes, 32u) << i;  // 8, 4 and 12 bytes, each padded to 32
  }
  EXPECT_EQ(t.instrs[1].src, Mem::kUb);
  EXPECT_EQ(t.instrs[3].src, Mem::kGm);
  EXPECT_EQ(t.instrs[3].dtype, npusim::ascendc::DType::kInt32);
  // The first dump waits for the copy in (MTE2) through the barrier it starts with.
  ASSERT_EQ(t.instrs[1].dep_count, 1u);
  EXPECT_EQ(t.deps[t.instrs[1].dep_begin], 0u);
}

// Dumps the zeroed L0C (float) and then reads past its end through asc_dump_cbuf.
extern "C" __global__ __cube__ void dump_l0c(GM_ADDR past_end) {
  AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0c;
  AscendC::LocalTensor<float> c = l0c.Alloc<AscendC::TPosition::CO1, float>(8);
  AscendC::DumpTensor(c, 1, 3);
  if (*reinterpret_cast<__gm__ std::uint32_t*>(past_end) != 0) {
    asc_dump_cbuf<float>(reinterpret_cast<__cc__ float*>(128 * 1024 - 8), 2, 4);
  }
}

TEST(DumpTensor, L0cGoesThroughFixpipeAndRangeIsChecked) {
  std::uint32_t past_end = 0;
  auto r = run_blocks(&dump_l0c, 1, reinterpret_cast<GM_ADDR>(&past_end));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(r.blocks[0].printf_out,
            "DumpTensor: desc=1, addr=0x0, data_type=float32, position=L0C, dump_size=3\n"
            "[0.000000, 0.000000, 0.000000]\n");
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 1u);
  EXPECT_EQ(r.blocks[0].trace.instrs[0].pipe, Pipe::kFixpipe);
  EXPECT_EQ(r.blocks[0].trace.instrs[0].src, Mem::kL0c);
  past_end = 1;
  r = run_blocks(&dump_l0c, 1, reinterpret_cast<GM_ADDR>(&past_end));
  EXPECT_NE(r.first_error().find("asc_dump_cbuf: 16 bytes at L0C address 131064 end beyond its "
                                 "131072 bytes"),
            std::string::npos)
      << r.first_error();
}

extern "C" __global__ __cube__ void dump_l0a() {
  AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0a;
  AscendC::DumpTensor(l0a.Alloc<AscendC::TPosition::A2, half>(16), 1, 16);
}

TEST(DumpTensor, L0aCannotBeDumped) {
  auto r = run_blocks(&dump_l0a, 1);
  EXPECT_NE(r.first_error().find("DumpTensor: a tensor in L0A cannot be dumped"), std::string::npos)
      << r.first_error();
}

// 7680 floats are exactly 30 KB (printed); 7681 are over the limit (nothing printed).
extern "C" __global__ __vector__ void dump_big(GM_ADDR count) {
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<float> t = ub.Alloc<float>(8192);
  AscendC::DumpTensor(t, 5, *reinterpret_cast<__gm__ std::uint32_t*>(count));
}

TEST(DumpTensor, OverThirtyKilobytesPrintsNothingAndWarns) {
  std::uint32_t count = 7680;
  auto r = run_blocks(&dump_big, 1, reinterpret_cast<GM_ADDR>(&count));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(r.blocks[0].printf_out.rfind("DumpTensor: desc=5, addr=0x0, data_type=float32, "
                                         "position=UB, dump_size=7680\n[0.000000, ",
                                         0),
            0u);
  count = 7681;
  testing::internal::CaptureStderr();
  r = run_blocks(&dump_big, 1, reinterpret_cast<GM_ADDR>(&count));
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(r.blocks[0].printf_out, "");
  EXPECT_NE(err.find("[WARNING] DumpTensor: desc=5: 30724 bytes exceed the 30720 bytes one dump "
                     "may print; nothing printed"),
            std::string::npos)
      << err;
}

// npusim-asc builds put "[<core> Block i/n] " before every line, as for printf.
extern "C" __global__ __vector__ void dump_block_lines(GM_ADDR v) {
  npusim::ascendc::kernel_core("AIV");
  npusim::ascendc::DumpRequest req;
  req.data = v;
  req.mem = Mem::kGm;
  req.dtype = npusim::ascendc::DType::kUInt8;
  req.addr = 0x100;
  req.desc = 4;
  req.count = 2;
  req.block_lines = true;
  npusim::ascendc::dump_tensor(req, "asc_dump_gm");
}

TEST(DumpTensor, BlockLinesInNpusimAscBuilds) {
  std::uint8_t v[2] = {200, 7};
  auto r = run_blocks(&dump_block_lines, 2, reinterpret_cast<GM_ADDR>(v));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(r.blocks[1].printf_out,
            "[AIV Block 1/2] DumpTensor: desc=4, addr=0x100, data_type=uint8, position=GM, "
            "dump_size=2\n[AIV Block 1/2] [200, 7]\n");
}

}  // namespace
