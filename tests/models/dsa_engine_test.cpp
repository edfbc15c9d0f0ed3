// SPDX-License-Identifier: Apache-2.0
// DSA (random numbers): setup, generation at numbers_per_cycle per clock cycle, result bursts
// written to HBM as they are generated; one generator, so tasks of two streams take turns.
#include <gtest/gtest.h>

#include "models/dsa_config.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

ChipConfig dsa_config() {
  ChipConfig c = test_config();
  c.unit<DsaConfig>().setup = sim::Duration{1 * kUs};
  c.unit<DsaConfig>().clock = sim::Frequency{1e9};
  c.unit<DsaConfig>().numbers_per_cycle = 4;
  c.unit<DsaConfig>().burst = sim::Bytes{64 * kKiB};
  return c;
}

Task random_task(std::uint32_t stream, std::uint64_t numbers, std::uint64_t bytes) {
  Task t;
  t.kind = TaskKind::kRandom;
  t.direction = Direction::kD2D;
  t.stream = stream;
  t.elements = numbers;
  t.bytes = bytes;
  t.name = "RANDOM_UNIFORM";
  return t;
}

TEST(Dsa, GeneratesThenWritesTheLastBurst) {
  Bench bench(dsa_config(), /*trace=*/true);
  // 2^20 fp32 numbers: 262144 cycles = 262.144 us at 1 GHz; 4 MiB written in 64 KiB bursts as
  // they are generated (one every 4.096 us, far slower than HBM): only the last burst (65.536 ns
  // at 1 TB/s) and the HBM latency (100 ns) follow the generation.
  Seen& r = bench.submit(random_task(1, 1 << 20, 4 * kMiB));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime engine = 1 * kUs + 262144 * kNs + 65536 + 100 * kNs;
  EXPECT_EQ(r.out.start, 700 * kNs);
  EXPECT_EQ(r.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 4.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 0.0);
  EXPECT_EQ(bench.stat("chip0.dsa.bytes"), 4.0 * kMiB);
  EXPECT_EQ(bench.stat("chip0.dsa.tasks"), 1.0);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"DSA ch 0\""), std::string::npos);
  EXPECT_NE(json.find("\"Task Type\":\"DSA_SQE\""), std::string::npos);
}

TEST(Dsa, DropoutBitmaskCostsOneNumberPerBit) {
  Bench bench(dsa_config());
  // 1000 mask bits: 250 cycles; 125 bytes written (125 ps at 1 TB/s).
  Seen& r = bench.submit(random_task(1, 1000, 125));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.end, 700 * kNs + (1 * kUs + 250 * kNs + 125 + 100 * kNs) + 300 * kNs);
}

TEST(Dsa, OneGeneratorServesStreamsInTurn) {
  Bench bench(dsa_config());
  Seen& a = bench.submit(random_task(1, 4000, 16000));  // 1000 cycles, one 16000-byte burst
  Seen& b = bench.submit(random_task(2, 4000, 16000));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const SimTime engine = 1 * kUs + 1000 * kNs + 16 * kNs + 100 * kNs;
  EXPECT_EQ(a.out.start, 700 * kNs);
  EXPECT_EQ(a.out.end, 700 * kNs + engine + 300 * kNs);
  EXPECT_EQ(b.out.start, 700 * kNs + engine + 200 * kNs);  // dispatched when the DSA frees
  EXPECT_EQ(b.out.end, b.out.start + engine + 300 * kNs);
}

TEST(Dsa, FasterClockShortensGeneration) {
  ChipConfig c = dsa_config();
  c.unit<DsaConfig>().clock = sim::Frequency{2e9};
  c.unit<DsaConfig>().numbers_per_cycle = 8;
  Bench bench(c);
  Seen& r = bench.submit(random_task(1, 8000, 32000));  // 1000 cycles = 500 ns
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.end, 700 * kNs + (1 * kUs + 500 * kNs + 32 * kNs + 100 * kNs) + 300 * kNs);
}

}  // namespace
}  // namespace npusim::models::testing
