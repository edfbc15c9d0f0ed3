// SPDX-License-Identifier: Apache-2.0
// The sweep file's expansion into runs (tools/sweep/plan.cpp) and the table helpers; the runs
// themselves are tested end to end by sweep.sh.
#include "tools/sweep/sweep.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace npusim::sweep {
namespace {

const std::string kTrace = std::string(NPUSIM_SOURCE_DIR) + "/tests/tools/add_mul.yaml";

Plan parse(const std::string& body, const Validator& v = {}) {
  return parse_plan("replay: " + kTrace + "\n" + body, "s.yaml", "/tmp", v);
}

/// "0, 1, ..., n-1"
std::string values(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i == 0 ? "" : ", ") + std::to_string(i);
  return s;
}

TEST(Sweep, GridExpandsFirstKeySlowestThenExplicitRuns) {
  const Plan p = parse(
      "config: tiny\nset: {hbm.efficiency: 0.9}\n"
      "grid:\n  pcie.h2d_bandwidth: [1GB/s, 2GB/s]\n  config: [tiny, ascend310p]\n"
      "runs:\n  - {aicore.count: 2}\n");
  ASSERT_EQ(p.runs.size(), 5u);
  EXPECT_EQ(p.params, (std::vector<std::string>{"pcie.h2d_bandwidth", "config", "aicore.count"}));
  EXPECT_EQ(p.runs[1].values[0].second, "1GB/s");
  EXPECT_EQ(p.runs[1].values[1].second, "ascend310p");
  EXPECT_EQ(p.runs[2].values[0].second, "2GB/s");
  EXPECT_EQ(p.runs[2].values[1].second, "tiny");
  EXPECT_EQ(p.runs[4].values[0].second, "");  // not swept by the explicit run: the base value
  EXPECT_EQ(p.runs[4].values[2].second, "2");
  // A swept preset replaces the base one; the fixed overrides come before the swept ones.
  EXPECT_EQ(p.runs[1].args, (std::vector<std::string>{
                                "replay", kTrace, "--config", "ascend310p", "--set",
                                "hbm.efficiency=0.9", "--set", "pcie.h2d_bandwidth=1GB/s", "--out",
                                "{out}"}));
  EXPECT_EQ(p.runs[4].args[3], "tiny");
  EXPECT_EQ(p.runs[4].args[7], "aicore.count=2");
  // Default metrics for a replay: simulated, sim_time (converted to us), tasks, task_time.
  ASSERT_EQ(p.metrics.size(), 4u);
  EXPECT_EQ(p.metrics[0].first, "simulated");
  EXPECT_EQ(p.metrics[1].first, "sim_time");
  EXPECT_EQ(p.metrics[1].second.path, "sim_time");
  EXPECT_EQ(p.metrics[1].second.unit, "us");
  EXPECT_EQ(p.metrics[3].first, "task_time");
}

TEST(Sweep, ProgramRunsKeepTheProgramAfterTheSeparator) {
  const Plan p = parse_plan("run: [./demo, -n, '3']\nruns:\n  - {config: tiny}\n", "s.yaml",
                            "/work/x", {});
  EXPECT_FALSE(p.replay);
  EXPECT_EQ(p.runs[0].args, (std::vector<std::string>{"run", "--config", "tiny", "--out", "{out}",
                                                      "--", "/work/x/demo", "-n", "3"}));
  ASSERT_EQ(p.metrics.size(), 3u);  // no replay_summary.json for a program
}

TEST(Sweep, TraceParametersBecomeParamArguments) {
  const Plan p = parse("grid:\n  param.layers: [1, 2]\n");
  EXPECT_EQ(p.runs[1].args, (std::vector<std::string>{"replay", kTrace, "--param", "layers=2",
                                                      "--out", "{out}"}));
}

TEST(Sweep, ValidatorSeesEachRunsConfigAndItsRejectionNamesTheRun) {
  std::vector<std::string> seen;
  const Validator v = [&](const std::string& config, const std::vector<std::string>& sets) {
    seen.push_back(config + "|" + (sets.empty() ? "" : sets.back()));
    return sets.back() == "pcie.latency=bad" ? std::string("pcie.latency: not a time") : "";
  };
  try {
    parse("config: tiny\ngrid:\n  pcie.latency: [1us, bad]\n", v);
    FAIL() << "expected a SweepError";
  } catch (const SweepError& e) {
    EXPECT_STREQ(e.what(), "s.yaml:4: run 1 (pcie.latency=bad): pcie.latency: not a time");
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"tiny|pcie.latency=1us", "tiny|pcie.latency=bad"}));
}

TEST(Sweep, MalformedFilesNameLineAndKey) {
  const auto error = [](const std::string& text) {
    try {
      parse_plan(text, "s.yaml", "/tmp", {});
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("replay: " + kTrace + "\nrun: [x]\nruns: [{config: tiny}]\n"),
            "s.yaml:2: give either 'replay' or 'run', not both");
  EXPECT_EQ(error("runs: [{config: tiny}]\n"),
            "s.yaml:1: missing the workload: 'replay: TRACE' (a trace file) or 'run: [PROGRAM, "
            "args...]'");
  EXPECT_EQ(error("replay: " + kTrace + "\ngrid:\n  config: []\n"),
            "s.yaml:3: grid.config: expected a non-empty list of values");
  EXPECT_EQ(error("replay: " + kTrace + "\nruns: [{status: 1}]\n"),
            "s.yaml:2: runs[0].status: 'status' names a column of the table, not a parameter");
  EXPECT_EQ(error("replay: " + kTrace + "\ngrid: {config: [tiny]}\nmetrics: {config: {replay: x}}\n"),
            "s.yaml:3: metrics.config: the column name is taken");
  EXPECT_EQ(error("replay: " + kTrace + "\nruns: [{config: tiny}]\ntimeout: soon\n"),
            "s.yaml:3: timeout: expected a number");
}

// Issue 23: a grid of 10^10 runs grew to 5.5 GB while expanding and was killed without a word.
// It is counted first and refused with its count, at once.
TEST(Sweep, AGridOfTooManyRunsIsRefusedWithItsCountBeforeExpanding) {
  std::string grid = "replay: " + kTrace + "\ngrid:\n";
  for (int k = 0; k < 10; ++k) {
    grid += "  param.p" + std::to_string(k) + ": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
  }
  try {
    parse_plan(grid, "s.yaml", "/tmp", {});
    FAIL() << "expected a SweepError";
  } catch (const SweepError& e) {
    EXPECT_STREQ(e.what(),
                 "s.yaml:3: grid: 10000000000 runs (10 x 10 x 10 x 10 x 10 x 10 x 10 x 10 x 10 x "
                 "10 values) is more than the 100000 runs a sweep may have; split it into several "
                 "sweeps");
  }
  // At the limit itself the grid expands.
  const Plan ok = parse_plan("replay: " + kTrace + "\ngrid:\n  param.a: [" + values(1000) +
                                 "]\n  param.b: [" + values(100) + "]\n",
                             "s.yaml", "/tmp", {});
  EXPECT_EQ(ok.runs.size(), kMaxRuns);
}

TEST(Sweep, ArraySpecCompressesRuns) {
  EXPECT_EQ(array_spec({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(array_spec({3, 40}), "3,40");
  EXPECT_EQ(array_spec({0, 2, 3, 4, 9, 11, 12}), "0,2-4,9,11-12");
  EXPECT_EQ(array_spec({}), "");
}

TEST(Sweep, CsvFieldsQuoteOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("16GB/s"), "16GB/s");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(Sweep, ProgressShowsElapsedAndAnEtaFromTheMeanRunTime) {
  EXPECT_EQ(format_duration(0), "0.0 s");
  EXPECT_EQ(format_duration(4.24), "4.2 s");
  EXPECT_EQ(format_duration(65.4), "1:05");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  // 3 of 12 runs in 6 s: 2 s a run, 9 runs left.
  EXPECT_EQ(eta_text(3, 12, 6.0), "elapsed 6.0 s, ETA 18.0 s");
  EXPECT_EQ(eta_text(10, 50, 100.0), "elapsed 1:40, ETA 6:40");
  EXPECT_EQ(eta_text(5, 5, 2.5), "elapsed 2.5 s, ETA 0.0 s");
  EXPECT_EQ(eta_text(0, 5, 1.0), "elapsed 1.0 s");
}

/// A sweep directory whose runs have finished (records and outputs written here).
class Collect : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = std::filesystem::temp_directory_path() /
           ("npusim_sweep_collect_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(out_);
  }
  void TearDown() override { std::filesystem::remove_all(out_); }
  void finished(int index, const std::string& status, double sim_ps) {
    const std::filesystem::path d = run_dir(out_.string(), index);
    std::filesystem::create_directories(d);
    std::ofstream(d / "run.json") << "{\"status\": \"" << status << "\", \"exit_code\": "
                                  << (status == "ok" ? 0 : 3) << "}";
    std::ofstream(d / "stats.json") << "{\"sim_time\": {\"value\": " << sim_ps
                                    << ", \"unit\": \"ps\"}}";
    std::ofstream(d / "replay_summary.json") << "{\"simulated_us\": " << sim_ps / 1e6 << "}";
  }
  std::string read(const std::string& name) const {
    std::ifstream in(out_ / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::filesystem::path out_;
};

TEST_F(Collect, HeadersAndSweepMetaCarryEachMetricsUnit) {
  const Plan p = parse(
      "grid:\n  aicore.frequency: [1GHz, 2GHz]\n"
      "metrics:\n  sim_us: {stats: sim_time}\n  sim: {stats: sim_time, unit: us}\n"
      "  e2e: {replay: simulated_us, unit: ms}\n");
  finished(0, "ok", 2878000000);
  finished(1, "failed", 1);
  std::ostringstream log;
  EXPECT_EQ(collect(p, out_.string(), log, Ran{2, 75.0}), 1);
  EXPECT_EQ(read("sweep.csv"),
            "run,aicore.frequency,status,exit_code,sim_us (ps),sim (us),e2e (ms)\n"
            "0,1GHz,ok,0,2878000000,2878,2.878\n"
            "1,2GHz,failed,3,,,\n");
  const auto meta = nlohmann::json::parse(read("sweep_meta.json"));
  EXPECT_EQ(meta["metrics"], nlohmann::json({"sim_us", "sim", "e2e"}));
  EXPECT_EQ(meta["metric_units"], nlohmann::json({{"sim_us", "ps"}, {"sim", "us"}, {"e2e", "ms"}}));
  EXPECT_EQ(meta["metric_columns"]["sim"], "sim (us)");
  EXPECT_EQ(meta["metric_sources"]["sim"], "stats.json sim_time in us");
  const std::string s = log.str();
  // The column named "_us" whose values are picoseconds is pointed out, with the fix.
  EXPECT_NE(s.find("note: metric sim_us is in ps but its name says us; add `unit: us` to its "
                   "spec to convert\n"),
            std::string::npos)
      << s;
  // The closing summary: runs ok and failed, the time, where the results are.
  const std::string dir = out_.string();
  EXPECT_NE(s.find("sweep s: 2 runs: 1 ok, 1 failed; 2 ran in 1:15; results: " + dir +
                   "/sweep.csv, " + dir + "/sweep_meta.json, " + dir + "/runs/<i>/\n"),
            std::string::npos)
      << s;
}

TEST_F(Collect, TheSummaryNamesStatusesOtherThanFailedAndOmitsTheTimeWhenNothingRan) {
  const Plan p = parse("runs:\n  - {config: tiny}\n  - {config: tiny, aicore.count: 2}\n"
                       "  - {config: tiny, aicore.count: 3}\n");
  finished(0, "ok", 1);
  finished(1, "timeout", 1);
  std::ostringstream log;
  EXPECT_EQ(collect(p, out_.string(), log), 1);
  EXPECT_NE(log.str().find("sweep s: 3 runs: 1 ok, 2 failed (1 missing, 1 timeout); results: "),
            std::string::npos)
      << log.str();
  // The default metrics: the simulated times in us.
  EXPECT_EQ(read("sweep.csv").substr(0, read("sweep.csv").find('\n')),
            "run,config,aicore.count,status,exit_code,simulated (us),sim_time (us),tasks (count),"
            "task_time (us)");
}

}  // namespace
}  // namespace npusim::sweep
