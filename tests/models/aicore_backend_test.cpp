// SPDX-License-Identifier: Apache-2.0
// A kernel task through the runtime's seam (rt::Task::kernel) and the outputs it produces:
// op_summary.csv, per-core tracks on the timeline, AI Core stats.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "runtime/core/backend.h"
#include "sim/config.h"
#include "tests/models/aicore_bench.h"
#include "tests/test_util.h"

namespace npusim::models::testing {
namespace {

namespace fs = std::filesystem;

using test_util::read_text;

TEST(AiCoreBackend, KernelTaskRunsAndIsReportedInOpSummary) {
  const fs::path dir = fs::temp_directory_path() / ("npusim_aicore_" + std::to_string(getpid()));
  fs::create_directories(dir);
  ChipConfig cfg = aicore_config();
  std::ofstream(dir / "chip.yaml") << sim::dump_yaml(cfg);
  setenv("NPUSIM_CONFIG", (dir / "chip.yaml").c_str(), 1);
  unsetenv("NPUSIM_SET");
  setenv("NPUSIM_OUT", (dir / "out").c_str(), 1);
  auto backend = rt::make_sim_backend();

  rt::Task t;
  t.kind = rt::TaskKind::kKernel;
  t.stream = 1;
  t.name = "vadd";
  t.payload = std::make_shared<const KernelWork>(
      work_of("vadd", 4, CoreType::kAiv, vector_add_trace(2, 1024, 2)));
  rt::TaskOutcome record;
  bool finished = false;
  t.done = [&](const rt::TaskOutcome& r) {
    record = r;
    finished = true;
  };
  backend->submit(std::move(t));
  ASSERT_EQ(backend->run_until([&] { return finished; }, sim::kForever), rt::WaitResult::kDone);
  EXPECT_EQ(record.error, 0);
  EXPECT_EQ(record.start, 700 * kNs);
  backend->write_outputs();

  const std::string csv = read_text(dir / "out" / "op_summary.csv");
  const std::size_t first_nl = csv.find('\n');
  ASSERT_NE(first_nl, std::string::npos);
  EXPECT_EQ(csv.substr(0, first_nl + 1), op_summary_header());
  // Same times as AiCore.SingleBlockVectorAddHasExactTimes: 4 blocks run side by side.
  EXPECT_EQ(csv.find("0,4294967295,0,1,vadd,vadd,N/A,AI_VECTOR_CORE,0.700,2.628,0.000,4,0,"),
            first_nl + 1)
      << csv;
  const std::string timeline = read_text(dir / "out" / "timeline.json");
  EXPECT_NE(timeline.find("\"AIV 0\""), std::string::npos);
  EXPECT_NE(timeline.find("\"AIV 3\""), std::string::npos);
  EXPECT_EQ(timeline.find("\"AIV 4\""), std::string::npos);  // idle cores get no track
  EXPECT_NE(timeline.find("\"block\""), std::string::npos);
  const std::string stats = read_text(dir / "out" / "stats.json");
  EXPECT_NE(stats.find("\"aiv3\""), std::string::npos);
  EXPECT_NE(stats.find("\"mte2_utilization\""), std::string::npos);
  backend.reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace npusim::models::testing
