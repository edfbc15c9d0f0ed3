// SPDX-License-Identifier: Apache-2.0
// Per-block profiles (models/aicore/block_profile.h) of kernels on the AI Core model, and their
// op_profile.json (op_profile.h): exact values for small known kernels, and agreement with the
// timeline (pipe busy time within the block's span, bytes equal to the copies' bytes).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "models/aicore/op_profile.h"
#include "runtime/core/backend.h"
#include "sim/config.h"
#include "tests/models/aicore_bench.h"
#include "tests/test_util.h"

namespace npusim::models::testing {
namespace {

namespace fs = std::filesystem;

int pipe(Pipe p) { return static_cast<int>(p); }
int mem(Mem m) { return static_cast<int>(m); }

// The block of AiCore.SingleBlockVectorAddHasExactTimes (aicore_test.cpp): 2 tiles of 1 KiB per
// operand; its span is 328 cycles, MTE2 busy 168, vector 28, MTE3 52, scalar 8 (1 GHz: 1 ns each).
TEST(OpProfile, VectorAddBlockHasExactCounters) {
  KernelBench bench;
  bench.aicore().keep_block_profiles(true);
  bench.launch(1, work_of("add", 1, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& r = bench.record(0);
  ASSERT_EQ(r.blocks.size(), 1u);
  const BlockProfile& b = r.blocks[0];
  EXPECT_EQ(b.block, 0u);
  EXPECT_EQ(b.core, "AIV 0");
  EXPECT_TRUE(b.vector);
  EXPECT_EQ(b.start, 2700 * kNs);
  EXPECT_EQ(b.end, (2700 + 328) * kNs);
  EXPECT_EQ(b.busy[pipe(Pipe::kMte2)], 168 * kNs);
  EXPECT_EQ(b.busy[pipe(Pipe::kVector)], 28 * kNs);
  EXPECT_EQ(b.busy[pipe(Pipe::kMte3)], 52 * kNs);
  EXPECT_EQ(b.busy[pipe(Pipe::kScalar)], 8 * kNs);
  EXPECT_EQ(b.instrs[pipe(Pipe::kMte2)], 4u);
  EXPECT_EQ(b.instrs[pipe(Pipe::kVector)], 2u);
  EXPECT_EQ(b.instrs[pipe(Pipe::kMte3)], 2u);
  EXPECT_EQ(b.moved[mem(Mem::kGm)][mem(Mem::kUb)], 4096u);
  EXPECT_EQ(b.moved[mem(Mem::kUb)][mem(Mem::kGm)], 2048u);
  EXPECT_EQ(b.read[mem(Mem::kGm)], 4096u);
  EXPECT_EQ(b.written[mem(Mem::kGm)], 2048u);
  // UB: copies in write 4096 and the Adds read 2 x 2 x 1024; the Adds write 2048, copy-out reads it.
  EXPECT_EQ(b.vec_ub_read, 4096u);
  EXPECT_EQ(b.vec_ub_write, 2048u);
  EXPECT_EQ(b.read[mem(Mem::kUb)], 4096u + 2048u);
  EXPECT_EQ(b.written[mem(Mem::kUb)], 4096u + 2048u);
  EXPECT_EQ(b.vec_cycles[static_cast<int>(DType::kFp16)], 28u);  // 2 x (10 + 1024/256)
  EXPECT_EQ(b.vec_instrs[static_cast<int>(DType::kFp16)], 2u);
  EXPECT_EQ(b.vec_fops, 1024u);  // 2 x 512 FP16 elements
  // No addresses: L2 times them with read_hit_rate 0 (every byte misses), writes go through.
  EXPECT_EQ(b.l2[pipe(Pipe::kMte2)].read_hit, 0u);
  EXPECT_EQ(b.l2[pipe(Pipe::kMte2)].read_miss, 4096u);
  EXPECT_EQ(b.l2[pipe(Pipe::kMte3)].write_hit, 0u);
  EXPECT_EQ(b.l2[pipe(Pipe::kMte3)].write_miss, 2048u);
}

// Every block of a multi-block kernel agrees with the timeline: it lies within the kernel's span,
// no pipe is busy longer than the block, and its bytes are its copies' bytes.
TEST(OpProfile, BlocksAgreeWithTheKernelSpanAndTheCopies) {
  KernelBench bench;
  bench.aicore().keep_block_profiles(true);
  const BlockTrace trace = vector_add_trace(8, 4096, 2);
  bench.launch(1, work_of("add", 6, CoreType::kAiv, trace));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& r = bench.record(0);
  ASSERT_EQ(r.blocks.size(), 6u);
  SimTime busy_mte2 = 0;
  for (const BlockProfile& b : r.blocks) {
    EXPECT_GE(b.start, r.start);
    EXPECT_LE(b.end, r.end);
    for (int p = 0; p < ascendc::kPipeCount; ++p) EXPECT_LE(b.busy[p], b.end - b.start);
    EXPECT_EQ(b.moved[mem(Mem::kGm)][mem(Mem::kUb)], 2u * 8 * 4096);
    EXPECT_EQ(b.moved[mem(Mem::kUb)][mem(Mem::kGm)], 8u * 4096);
    EXPECT_EQ(b.l2[pipe(Pipe::kMte2)].read_hit + b.l2[pipe(Pipe::kMte2)].read_miss, 2u * 8 * 4096);
    busy_mte2 += b.busy[pipe(Pipe::kMte2)];
  }
  EXPECT_EQ(busy_mte2, r.aiv.busy[pipe(Pipe::kMte2)]);  // the same time op_summary.csv shows
}

// A cube block: L0A/L0B/L0C bytes and cycles by type from the Mmads, L1 and GM from the copies.
TEST(OpProfile, MatmulBlockCountsCubeWorkByType) {
  KernelBench bench;
  bench.aicore().keep_block_profiles(true);
  bench.launch(1, work_of("mm", 1, CoreType::kAic, matmul_trace(64, 64, 128, 32, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const KernelRecord& r = bench.record(0);
  ASSERT_EQ(r.blocks.size(), 1u);
  const BlockProfile& b = r.blocks[0];
  EXPECT_EQ(b.core, "AIC 0");
  EXPECT_FALSE(b.vector);
  // 4 steps of kc = 32: A 64x32 and B 32x64 FP16 (4 KiB each) into L1, then into L0A / L0B.
  EXPECT_EQ(b.moved[mem(Mem::kGm)][mem(Mem::kL1)], 4u * 2 * 4096);
  EXPECT_EQ(b.moved[mem(Mem::kL1)][mem(Mem::kL0a)], 4u * 4096);
  EXPECT_EQ(b.moved[mem(Mem::kL1)][mem(Mem::kL0b)], 4u * 4096);
  EXPECT_EQ(b.read[mem(Mem::kL0a)], 4u * 64 * 32 * 2);
  EXPECT_EQ(b.read[mem(Mem::kL0b)], 4u * 32 * 64 * 2);
  EXPECT_EQ(b.written[mem(Mem::kL0c)], 4u * 64 * 64 * 4);  // FP32 accumulator
  EXPECT_EQ(b.moved[mem(Mem::kL0c)][mem(Mem::kGm)], 64u * 64 * 2);
  // Mmad 64x64x32: 10 + 4 * 4 * 2 = 42 cycles each.
  EXPECT_EQ(b.cube_cycles[static_cast<int>(DType::kFp16)], 4u * 42);
  EXPECT_EQ(b.cube_instrs[static_cast<int>(DType::kFp16)], 4u);
  EXPECT_EQ(b.cube_fops, 4u * 2 * 64 * 64 * 32);
  EXPECT_EQ(b.busy[pipe(Pipe::kCube)], 4 * 42 * kNs);
}

// Without keep_block_profiles the records carry no blocks (op_summary.csv runs pay nothing).
TEST(OpProfile, OffByDefault) {
  KernelBench bench;
  bench.launch(1, work_of("add", 2, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_TRUE(bench.record(0).blocks.empty());
}

// NPUSIM_OP_PROFILE_DIR: the backend writes op_profile.json with the launch and its blocks.
TEST(OpProfile, BackendWritesOpProfileJson) {
  const fs::path dir = fs::temp_directory_path() / ("npusim_opprof_" + std::to_string(getpid()));
  fs::create_directories(dir);
  ChipConfig cfg = aicore_config();
  std::ofstream(dir / "chip.yaml") << sim::dump_yaml(cfg);
  setenv("NPUSIM_CONFIG", (dir / "chip.yaml").c_str(), 1);
  unsetenv("NPUSIM_SET");
  unsetenv("NPUSIM_OUT");
  setenv("NPUSIM_OP_PROFILE_DIR", (dir / "dump").c_str(), 1);
  auto backend = rt::make_sim_backend();
  unsetenv("NPUSIM_OP_PROFILE_DIR");
  rt::Task t;
  t.kind = rt::TaskKind::kKernel;
  t.stream = 1;
  t.name = "vadd";
  t.payload = std::make_shared<const KernelWork>(
      work_of("vadd", 2, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  bool finished = false;
  t.done = [&](const rt::TaskOutcome&) { finished = true; };
  backend->submit(std::move(t));
  ASSERT_EQ(backend->run_until([&] { return finished; }, sim::kForever), rt::WaitResult::kDone);
  backend->write_outputs();
  const std::string json = test_util::read_text(dir / "dump" / "op_profile.json");
  EXPECT_EQ(json.rfind("{\"format\": \"npusim-op-profile\", \"version\": 1,", 0), 0u) << json;
  EXPECT_NE(json.find("\"name\": \"vadd\""), std::string::npos);
  EXPECT_NE(json.find("\"task_type\": \"AI_VECTOR_CORE\""), std::string::npos);
  EXPECT_NE(json.find("\"core\": \"AIV 1\""), std::string::npos);
  EXPECT_NE(json.find("\"moved\": {\"GM->UB\": 4096, \"UB->GM\": 2048}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"busy_ps\": {\"S\": 8000, \"V\": 28000, \"MTE2\": 168000, \"MTE3\": 52000}"),
            std::string::npos)
      << json;
  EXPECT_FALSE(fs::exists(dir / "out"));
  backend.reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace npusim::models::testing
