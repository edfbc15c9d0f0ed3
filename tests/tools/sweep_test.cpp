// SPDX-License-Identifier: Apache-2.0
// The sweep file's expansion into runs (tools/sweep/plan.cpp) and the table helpers; the runs
// themselves are tested end to end by sweep.sh.
#include "tools/sweep/sweep.h"

#include <gtest/gtest.h>

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
  // Default metrics for a replay: simulated_us, sim_time_us, tasks, task_time_us.
  ASSERT_EQ(p.metrics.size(), 4u);
  EXPECT_EQ(p.metrics[0].first, "simulated_us");
  EXPECT_EQ(p.metrics[1].first, "sim_time_us");  // stats.json's sim_time is in µs
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

}  // namespace
}  // namespace npusim::sweep
