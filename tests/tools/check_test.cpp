// SPDX-License-Identifier: Apache-2.0
// `npusim check` / `npusim compare` (tools/check/check.h) as plain C++: the targets parser's
// errors (file, line, target, key, reason), metric extraction from a run directory written here
// (stats.json, op_summary.csv, replay_summary.json), the PASS/FAIL/IMPROVED rule, the exit codes,
// the JUnit XML, and compare's deltas.
#include "tools/check/check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_util.h"

namespace npusim::check {
namespace {

namespace fs = std::filesystem;

void expect_has(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
}

std::string error_of(const std::string& text) {
  try {
    parse_targets(text, "t.yaml");
  } catch (const TargetsError& e) {
    return e.what();
  }
  return "";
}

const char* kStats = R"({
  "chip0": {
    "hbm": {"bytes": {"value": 456, "unit": "B", "desc": "bytes"},
            "bandwidth": {"value": 100.0, "unit": "GB/s", "desc": "bw"}},
    "name": "not a number",
    "cores": {"aiv0": {"blocks": {"value": 5, "unit": "", "desc": "b"}}}
  },
  "sim_time": {"value": 50226400, "unit": "ps", "desc": "t"},
  "functional": {"value": 1, "unit": "bool", "desc": "f"}
})";

const char* kOps =
    "Device_id,Op Name,OP Type,Task Duration(us),aiv_time(us)\n"
    "0,Add,Add,2.0,0.5\n"
    "0,Mul,Mul,3.0,N/A\n"
    "0,Add,Add,4.0,0.7\n"
    "0,add_big,Add,10.0,\"1.5\"\n";

class CheckTest : public test_util::ScratchDirTest {
 protected:
  CheckTest() : ScratchDirTest("npusim_check_test_") {}
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "run");
    write("run/stats.json", kStats);
    write("run/op_summary.csv", kOps);
    write("run/replay_summary.json", R"({"trace": "t", "simulated_us": 15.3, "ops_run": 4})");
    write("run/timeline.json", R"([
      {"name": "process_name", "ph": "M", "pid": 1},
      {"name": "AscendCL@aclrtSynchronizeStream", "ph": "X", "ts": 10, "dur": 4.5},
      {"name": "AscendCL@aclrtSynchronizeStream", "ph": "X", "ts": 30, "dur": 1.5},
      {"name": "AscendCL@aclrtSynchronizeStream", "ph": "s", "ts": 31},
      {"name": "Add", "ph": "X", "ts": 12, "dur": 2}
    ])");
  }
  std::string run() const { return (dir_ / "run").string(); }
};

// ---- the parser -------------------------------------------------------------------------------

TEST(TargetsParser, ParsesEveryForm) {
  const auto t = parse_targets(
      "description: x\n"
      "targets:\n"
      "  - {name: a, metric: {stats: chip0.hbm.bytes}, expected: 456, tolerance: 0.05}\n"
      "  - name: b\n"
      "    metric: {op_summary: {op: Add, column: \"Task Duration(us)\", agg: mean}}\n"
      "    expected: 3\n"
      "    tolerance: 5%\n"
      "    direction: lower_is_better\n"
      "  - {name: c, metric: {replay: simulated_us}, expected: 15, tolerance: {abs: 0.5},\n"
      "     direction: higher_is_better}\n"
      "  - {name: d, metric: {op_summary: {op_type: Add, agg: count}}, expected: 3,\n"
      "     tolerance: \"abs:1\"}\n",
      "t.yaml");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].name, "a");
  EXPECT_EQ(t[0].metric.source, Metric::Source::kStats);
  EXPECT_EQ(t[0].metric.path, "chip0.hbm.bytes");
  EXPECT_EQ(t[0].expected, 456);
  EXPECT_DOUBLE_EQ(t[0].tolerance, 0.05);
  EXPECT_FALSE(t[0].absolute);
  EXPECT_EQ(t[0].direction, Direction::kNone);
  EXPECT_EQ(t[0].line, 3);
  EXPECT_EQ(t[1].metric.source, Metric::Source::kOpSummary);
  EXPECT_EQ(t[1].metric.op, "Add");
  EXPECT_EQ(t[1].metric.column, "Task Duration(us)");
  EXPECT_EQ(t[1].metric.agg, Metric::Agg::kMean);
  EXPECT_DOUBLE_EQ(t[1].tolerance, 0.05);
  EXPECT_EQ(t[1].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(t[2].metric.source, Metric::Source::kReplay);
  EXPECT_TRUE(t[2].absolute);
  EXPECT_DOUBLE_EQ(t[2].tolerance, 0.5);
  EXPECT_EQ(t[2].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(t[3].metric.op_type, "Add");
  EXPECT_EQ(t[3].metric.agg, Metric::Agg::kCount);
  EXPECT_TRUE(t[3].absolute);
  EXPECT_DOUBLE_EQ(t[3].tolerance, 1);
  const auto tl = parse_targets(
      "- {name: s, metric: {timeline: {event: AscendCL@aclrtSynchronizeStream, agg: span}}, "
      "expected: 1, tolerance: 0}\n"
      "- {name: d, metric: {timeline: {event: Add}}, expected: 1, tolerance: 0}\n",
      "t.yaml");
  EXPECT_EQ(tl[0].metric.source, Metric::Source::kTimeline);
  EXPECT_EQ(tl[0].metric.event, "AscendCL@aclrtSynchronizeStream");
  EXPECT_EQ(tl[0].metric.agg, Metric::Agg::kSpan);
  EXPECT_EQ(tl[1].metric.agg, Metric::Agg::kSum);
  // A bare list is a targets file too.
  EXPECT_EQ(parse_targets("- {name: a, metric: {replay: x}, expected: 1, tolerance: 0}\n", "t").size(),
            1u);
}

TEST(TargetsParser, UnknownKeyNamesFileLineTargetAndKey) {
  const std::string e = error_of(
      "targets:\n"
      "  - {name: a, metric: {replay: x}, expected: 1, tolerance: 0}\n"
      "  - name: hbm\n"
      "    metric: {stats: chip0.hbm.bytes}\n"
      "    expected: 1\n"
      "    tolerence: 0.1\n");
  EXPECT_EQ(e, "t.yaml:6: target 1 ('hbm'): unknown key 'tolerence' (allowed: direction, expected, "
               "metric, name, tolerance)");
  expect_has(error_of("targets: []\nthresholds: 1\n"), "t.yaml:2: top level: unknown key 'thresholds'");
  expect_has(error_of("- {name: a, metric: {stat: x}, expected: 1, tolerance: 0}\n"),
             "t.yaml:1: target 0 ('a'): key 'metric': unknown key 'stat' (allowed: op_summary, "
             "replay, stats, timeline, unit)");
  expect_has(error_of("- {name: a, metric: {op_summary: {op: Add, colum: x}}, expected: 1, "
                      "tolerance: 0}\n"),
             "target 0 ('a'): key 'metric'.op_summary: unknown key 'colum'");
}

TEST(TargetsParser, MissingKeys) {
  EXPECT_EQ(error_of("targets:\n  - {name: a, metric: {replay: x}, tolerance: 0}\n"),
            "t.yaml:2: target 0 ('a'): missing key 'expected'");
  EXPECT_EQ(error_of("targets:\n  - {metric: {replay: x}, expected: 1, tolerance: 0}\n"),
            "t.yaml:2: target 0: missing key 'name'");
  expect_has(error_of("targets:\n  - {name: a, metric: {replay: x}, expected: 1}\n"),
             "t.yaml:2: target 0 ('a'): missing key 'tolerance'");
  expect_has(error_of("targets:\n  - {name: a, expected: 1, tolerance: 0}\n"),
             "target 0 ('a'): missing key 'metric'");
  expect_has(error_of("- {name: a, metric: {op_summary: {op: Add, agg: sum}}, expected: 1, "
                      "tolerance: 0}\n"),
             "target 0 ('a'): key 'metric'.op_summary: missing key 'column'");
  expect_has(error_of("description: x\n"), "t.yaml:1: top level: missing key 'targets'");
  expect_has(error_of(""), "t.yaml: empty targets file");
  expect_has(error_of("targets: []\n"), "'targets' is empty");
}

TEST(TargetsParser, BadValues) {
  const std::string pre = "targets:\n  - {name: a, metric: {replay: x}, ";
  EXPECT_EQ(error_of(pre + "expected: 1, tolerance: lots}\n"),
            "t.yaml:2: target 0 ('a'): key 'tolerance': 'lots' is not a tolerance (a relative "
            "fraction like 0.05, a percentage like \"5%\", or an absolute amount {abs: 10} / "
            "\"abs:10\")");
  EXPECT_EQ(error_of(pre + "expected: 1, tolerance: -0.1}\n"),
            "t.yaml:2: target 0 ('a'): key 'tolerance': a tolerance cannot be negative");
  expect_has(error_of(pre + "expected: 1, tolerance: {pct: 3}}\n"),
             "target 0 ('a'): key 'tolerance': unknown key 'pct'");
  expect_has(error_of(pre + "expected: 1, tolerance: \"abs:x\"}\n"), "'abs:x' is not a tolerance");
  EXPECT_EQ(error_of(pre + "expected: fast, tolerance: 0}\n"),
            "t.yaml:2: target 0 ('a'): key 'expected': 'fast' is not a number");
  expect_has(error_of(pre + "expected: 1, tolerance: 0, direction: up}\n"),
             "target 0 ('a'): key 'direction': 'up' is not a direction (lower_is_better or "
             "higher_is_better)");
  expect_has(error_of("- {name: a, metric: {op_summary: {agg: median}}, expected: 1, tolerance: 0}\n"),
             "key 'metric'.op_summary.agg: 'median' is not an aggregate (sum, mean, max, min, count)");
  expect_has(error_of("- {name: a, metric: {op_summary: {agg: span}}, expected: 1, tolerance: 0}\n"),
             "key 'metric'.op_summary.agg: 'span' is not an aggregate (sum, mean, max, min, count)");
  expect_has(error_of("- {name: a, metric: {timeline: {agg: span}}, expected: 1, tolerance: 0}\n"),
             "target 0 ('a'): key 'metric'.timeline: missing key 'event'");
  expect_has(error_of("- {name: a, metric: {timeline: {event: x, field: ts}}, expected: 1, "
                      "tolerance: 0}\n"),
             "key 'metric'.timeline: unknown key 'field' (allowed: agg, event)");
  expect_has(error_of("- {name: a, metric: {stats: chip0..x}, expected: 1, tolerance: 0}\n"),
             "key 'metric'.stats: 'chip0..x' is not a dotted path");
  expect_has(error_of("- {name: a, metric: {stats: x, replay: y}, expected: 1, tolerance: 0}\n"),
             "key 'metric': expected a map with exactly one source");
  expect_has(error_of("- {name: a, metric: {replay: x}, expected: 1, tolerance: 0}\n"
                      "- {name: a, metric: {replay: y}, expected: 1, tolerance: 0}\n"),
             "t.yaml:2: target 1 ('a'): key 'name': duplicate target name");
  expect_has(error_of("- just a string\n"), "t.yaml:1: target 0: expected a map");
}

TEST(TargetsParser, BadYaml) {
  const std::string e = error_of("targets:\n  - {name: a, metric: [\n");
  expect_has(e, "t.yaml:");
  expect_has(e, "not valid YAML");
  EXPECT_EQ(error_of("targets: {name: a}\n"),
            "t.yaml:1: 'targets' must be a list of targets (each a map with name, metric, "
            "expected, tolerance)");
}

TEST(TargetsParser, UnreadableFile) {
  try {
    load_targets("/nonexistent/targets.yaml");
    FAIL() << "no error";
  } catch (const TargetsError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/targets.yaml: cannot read the targets file");
  }
}

// ---- metric extraction ------------------------------------------------------------------------

Metric stats(const std::string& path) {
  Metric m;
  m.source = Metric::Source::kStats;
  m.path = path;
  return m;
}
Metric ops(const std::string& op, const std::string& column, Metric::Agg agg,
           const std::string& op_type = "") {
  Metric m;
  m.source = Metric::Source::kOpSummary;
  m.op = op;
  m.op_type = op_type;
  m.column = column;
  m.agg = agg;
  return m;
}

TEST_F(CheckTest, StatsPaths) {
  RunOutputs r(run());
  EXPECT_EQ(r.value(stats("chip0.hbm.bytes")), 456);        // a {value, unit, desc} statistic
  EXPECT_EQ(r.value(stats("chip0.hbm.bytes.value")), 456);  // or its value
  EXPECT_EQ(r.value(stats("chip0.cores.aiv0.blocks")), 5);
  EXPECT_EQ(r.value(stats("sim_time")), 50226400);
  try {
    r.value(stats("chip0.hbm.byts"));
    FAIL();
  } catch (const MetricError& e) {
    EXPECT_EQ(std::string(e.what()),
              run() + "/stats.json: no key 'byts' under 'chip0.hbm' (it has: bandwidth, bytes)");
  }
  try {
    r.value(stats("chip0.name"));
    FAIL();
  } catch (const MetricError& e) {
    EXPECT_EQ(std::string(e.what()), run() + "/stats.json: 'chip0.name' is not a number");
  }
  const auto& leaves = r.stats_leaves();
  EXPECT_EQ(leaves.size(), 5u);  // "name" is a string
  EXPECT_EQ(leaves.at("chip0.hbm.bandwidth"), 100.0);
  EXPECT_EQ(r.stats_unit("chip0.hbm.bandwidth"), "GB/s");
}

// Issue 23: `npusim compare` was quadratic in the nesting depth of stats.json (each level copied
// its whole prefix) and recursed once per level. A chain 100,000 objects deep (the leaf's path
// is 200,001 characters) now reads in linear time.
TEST_F(CheckTest, StatsLeavesOfADeeplyNestedFileInLinearTime) {
  const int depth = 100000;
  std::string text;
  for (int i = 0; i < depth; ++i) text += "{\"a\":";
  text += "{\"x\": {\"value\": 3, \"unit\": \"B\"}, \"y\": 4}";
  text += std::string(depth, '}');
  write("run/stats.json", text);
  RunOutputs r(run());
  const auto t0 = std::chrono::steady_clock::now();
  const auto& leaves = r.stats_leaves();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(leaves.size(), 2u);
  std::string prefix;
  for (int i = 0; i < depth; ++i) prefix += "a.";
  EXPECT_EQ(leaves.at(prefix + "x"), 3.0);
  EXPECT_EQ(leaves.at(prefix + "y"), 4.0);
  EXPECT_EQ(r.stats_unit(prefix + "x"), "B");
  EXPECT_LT(s, 2.0);  // linear: milliseconds; quadratic: 10^10 bytes copied
}

TEST_F(CheckTest, OpSummaryAggregates) {
  RunOutputs r(run());
  const std::string dur = "Task Duration(us)";
  EXPECT_DOUBLE_EQ(r.value(ops("Add", dur, Metric::Agg::kSum)), 6.0);
  EXPECT_DOUBLE_EQ(r.value(ops("Add", dur, Metric::Agg::kMean)), 3.0);
  EXPECT_DOUBLE_EQ(r.value(ops("Add", dur, Metric::Agg::kMax)), 4.0);
  EXPECT_DOUBLE_EQ(r.value(ops("Add", dur, Metric::Agg::kMin)), 2.0);
  EXPECT_DOUBLE_EQ(r.value(ops("Add", "", Metric::Agg::kCount)), 2.0);
  EXPECT_DOUBLE_EQ(r.value(ops("", "", Metric::Agg::kCount, "Add")), 3.0);  // by OP Type
  EXPECT_DOUBLE_EQ(r.value(ops("", dur, Metric::Agg::kSum)), 19.0);        // every row
  EXPECT_DOUBLE_EQ(r.value(ops("", "aiv_time(us)", Metric::Agg::kSum)), 2.7);  // N/A skipped
  EXPECT_DOUBLE_EQ(r.value(ops("Nope", dur, Metric::Agg::kSum)), 0.0);
  EXPECT_DOUBLE_EQ(r.value(ops("Nope", "", Metric::Agg::kCount)), 0.0);
  try {
    r.value(ops("Nope", dur, Metric::Agg::kMean));
    FAIL();
  } catch (const MetricError& e) {
    expect_has(e.what(), "op_summary.csv: op_summary.csv mean(Task Duration(us)) op=Nope: no row "
                         "matches");
  }
  try {
    r.value(ops("Mul", "aiv_time(us)", Metric::Agg::kMax));
    FAIL();
  } catch (const MetricError& e) {
    expect_has(e.what(), "1 rows match but none has a number in that column");
  }
  try {
    r.value(ops("Add", "Duration", Metric::Agg::kSum));
    FAIL();
  } catch (const MetricError& e) {
    EXPECT_EQ(std::string(e.what()), run() + "/op_summary.csv: no column 'Duration'");
  }
}

TEST_F(CheckTest, ReplayFieldsAndMissingOutputs) {
  RunOutputs r(run());
  Metric m;
  m.source = Metric::Source::kReplay;
  m.path = "simulated_us";
  EXPECT_DOUBLE_EQ(r.value(m), 15.3);
  m.path = "trace";
  EXPECT_THROW(r.value(m), MetricError);
  fs::remove(dir_ / "run/replay_summary.json");
  RunOutputs r2(run());
  m.path = "simulated_us";
  try {
    r2.value(m);
    FAIL();
  } catch (const MetricError& e) {
    EXPECT_EQ(std::string(e.what()),
              run() + "/replay_summary.json: missing (written by npusim replay --out)");
  }
  write("run/stats.json", "{not json");
  RunOutputs r3(run());
  try {
    r3.value(stats("x"));
    FAIL();
  } catch (const MetricError& e) {
    expect_has(e.what(), "/stats.json: not valid JSON");
  }
}

TEST_F(CheckTest, TimelineEvents) {
  RunOutputs r(run());
  Metric m;
  m.source = Metric::Source::kTimeline;
  m.event = "AscendCL@aclrtSynchronizeStream";  // only complete ("X") events count
  m.agg = Metric::Agg::kCount;
  EXPECT_EQ(r.value(m), 2);
  m.agg = Metric::Agg::kSum;
  EXPECT_DOUBLE_EQ(r.value(m), 6.0);
  m.agg = Metric::Agg::kMean;
  EXPECT_DOUBLE_EQ(r.value(m), 3.0);
  m.agg = Metric::Agg::kMax;
  EXPECT_DOUBLE_EQ(r.value(m), 4.5);
  m.agg = Metric::Agg::kMin;
  EXPECT_DOUBLE_EQ(r.value(m), 1.5);
  m.agg = Metric::Agg::kSpan;
  EXPECT_DOUBLE_EQ(r.value(m), 21.5);  // 10 .. 31.5
  m.event = "Nope";
  try {
    r.value(m);
    FAIL();
  } catch (const MetricError& e) {
    EXPECT_EQ(std::string(e.what()),
              run() + "/timeline.json: timeline.json span(Nope): no event named 'Nope'");
  }
}

// ---- the rule ---------------------------------------------------------------------------------

Target target(double expected, double tol, bool absolute = false, Direction d = Direction::kNone) {
  Target t;
  t.name = "t";
  t.expected = expected;
  t.tolerance = tol;
  t.absolute = absolute;
  t.direction = d;
  return t;
}

TEST(Judge, RelativeTolerance) {
  const Target t = target(100, 0.05);
  EXPECT_EQ(judge(t, 100).verdict, Verdict::kPass);
  EXPECT_EQ(judge(t, 105).verdict, Verdict::kPass);  // at the edge
  EXPECT_EQ(judge(t, 95).verdict, Verdict::kPass);
  const Result r = judge(t, 105.5);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_DOUBLE_EQ(r.error, 5.5);
  EXPECT_DOUBLE_EQ(r.relative, 0.055);
  EXPECT_EQ(r.message, "expected 100 ±5%, actual 105.5 (+5.50%)");
  EXPECT_EQ(judge(t, 94).verdict, Verdict::kFail);  // no direction: both sides fail
  EXPECT_EQ(judge(target(-10, 0.1), -10.9).verdict, Verdict::kPass);
  EXPECT_EQ(judge(target(0, 0.1), 0).verdict, Verdict::kPass);
  EXPECT_EQ(judge(target(0, 0.1), 1e-9).verdict, Verdict::kFail);  // relative to 0: exact only
}

TEST(Judge, AbsoluteTolerance) {
  const Target t = target(10, 0.5, true);
  EXPECT_EQ(judge(t, 10.5).verdict, Verdict::kPass);
  EXPECT_EQ(judge(t, 9.5).verdict, Verdict::kPass);
  EXPECT_EQ(judge(t, 10.6).verdict, Verdict::kFail);
  EXPECT_EQ(judge(t, 10.6).message, "expected 10 ±0.5, actual 10.6 (+6.00%)");
  EXPECT_EQ(judge(target(0, 1, true), 0.9).verdict, Verdict::kPass);
  EXPECT_EQ(judge(target(0, 1, true), 2).message, "expected 0 ±1, actual 2 (error 2)");
}

TEST(Judge, Direction) {
  const Target lower = target(100, 0.05, false, Direction::kLowerIsBetter);
  EXPECT_EQ(judge(lower, 80).verdict, Verdict::kImproved);
  EXPECT_EQ(judge(lower, 80).message,
            "expected 100 ±5%, actual 80 (-20.00%); lower is better; consider updating the target");
  EXPECT_EQ(judge(lower, 120).verdict, Verdict::kFail);
  EXPECT_EQ(judge(lower, 96).verdict, Verdict::kPass);  // within tolerance: PASS, not IMPROVED
  const Target higher = target(100, 2, true, Direction::kHigherIsBetter);
  EXPECT_EQ(judge(higher, 103).verdict, Verdict::kImproved);
  EXPECT_EQ(judge(higher, 97).verdict, Verdict::kFail);
  EXPECT_EQ(judge(higher, 98).verdict, Verdict::kPass);
}

// ---- the command ------------------------------------------------------------------------------

TEST_F(CheckTest, ExitCodesAndTable) {
  const std::string pass = write(
      "pass.yaml",
      "targets:\n"
      "  - {name: hbm bytes, metric: {stats: chip0.hbm.bytes}, expected: 456, tolerance: 0}\n"
      "  - {name: add mean, metric: {op_summary: {op: Add, column: \"Task Duration(us)\", agg: "
      "mean}}, expected: 3.1, tolerance: 5%}\n"
      "  - {name: e2e, metric: {replay: simulated_us}, expected: 20, tolerance: 0.05, direction: "
      "lower_is_better}\n");
  std::ostringstream out, err;
  EXPECT_EQ(run_check(pass, run(), "", out, err), 0) << out.str() << err.str();
  EXPECT_EQ(err.str(), "");
  expect_has(out.str(), "target     unit  expected  tolerance  actual  error %  result\n"
                        "---------------------------------------------------------------\n"
                        "hbm bytes  B          456        ±0%     456   +0.00%  PASS\n"
                        "add mean   us         3.1        ±5%       3   -3.23%  PASS\n"
                        "e2e        us          20        ±5%    15.3  -23.50%  IMPROVED\n");
  expect_has(out.str(), "3 targets: 2 passed, 1 improved, 0 failed\n");

  const std::string fail = write(
      "fail.yaml",
      "- {name: hbm bytes, metric: {stats: chip0.hbm.bytes}, expected: 400, tolerance: 0.1}\n"
      "- {name: sim, metric: {stats: sim_time}, expected: 50226400, tolerance: 0}\n");
  std::ostringstream out2, err2;
  EXPECT_EQ(run_check(fail, run(), "", out2, err2), 1);
  expect_has(out2.str(), "FAIL hbm bytes [stats.json chip0.hbm.bytes]: expected 400 B ±10%, "
                         "actual 456 B (+14.00%)");
  expect_has(out2.str(), "2 targets: 1 passed, 0 improved, 1 failed\n");

  const std::string missing = write(
      "missing.yaml", "- {name: x, metric: {stats: chip0.nothing}, expected: 1, tolerance: 0}\n");
  std::ostringstream out3, err3;
  EXPECT_EQ(run_check(missing, run(), "", out3, err3), 2);
  expect_has(err3.str(), "npusim check: target 'x' (" + missing + ":1): " + run() +
                             "/stats.json: no key 'nothing' under 'chip0'");

  const std::string bad = write("bad.yaml", "- {name: x, metric: {stats: a}, expected: 1}\n");
  std::ostringstream out4, err4;
  EXPECT_EQ(run_check(bad, run(), "", out4, err4), 2);
  EXPECT_EQ(err4.str(), "npusim check: bad targets file: " + bad +
                            ":1: target 0 ('x'): missing key 'tolerance' (e.g. 0.05, \"5%\" or "
                            "{abs: 10})\n");
  EXPECT_EQ(out4.str(), "");

  std::ostringstream out5, err5;
  EXPECT_EQ(run_check(pass, (dir_ / "norun").string(), "", out5, err5), 2);
  expect_has(err5.str(), "norun: not a directory");
}

TEST_F(CheckTest, JUnitXml) {
  const auto targets = parse_targets(
      "- {name: ok, metric: {stats: chip0.hbm.bytes}, expected: 456, tolerance: 0}\n"
      "- {name: \"a<b & 'c'\", metric: {stats: chip0.hbm.bytes}, expected: 400, tolerance: 0.1}\n"
      "- {name: gone, metric: {stats: chip0.x}, expected: 1, tolerance: 0}\n",
      "t.yaml");
  RunOutputs r(run());
  const auto results = evaluate(targets, r);
  const std::string x = junit_xml(results, "suite\"1");
  EXPECT_EQ(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  expect_has(x, "<testsuites name=\"npusim check\" tests=\"3\" failures=\"1\" errors=\"1\">");
  expect_has(x, "<testsuite name=\"suite&quot;1\" tests=\"3\" failures=\"1\" errors=\"1\" "
                "skipped=\"0\">");
  expect_has(x, "<testcase classname=\"npusim.check\" name=\"ok\">\n      <system-out>");
  expect_has(x, "<testcase classname=\"npusim.check\" name=\"a&lt;b &amp; &apos;c&apos;\">\n"
                "      <failure type=\"FAIL\" message=\"expected 400 B ±10%, actual 456 B (+14.00%)\">"
                "metric: stats.json chip0.hbm.bytes\nexpected: 400 B ±10%\nactual: 456 B\n</failure>");
  expect_has(x, "<error type=\"ERROR\" message=\"" + run() + "/stats.json: no key &apos;x&apos;");
  // Well formed: every element opened is closed, in order (no XML parser in the test deps; the
  // end-to-end test parses it with Python's).
  std::vector<std::string> stack;
  for (std::size_t p = x.find('<'); p != std::string::npos; p = x.find('<', p + 1)) {
    const std::size_t e = x.find('>', p);
    ASSERT_NE(e, std::string::npos);
    const std::string tag = x.substr(p + 1, e - p - 1);
    if (tag[0] == '?') continue;
    if (tag[0] == '/') {
      ASSERT_FALSE(stack.empty()) << tag;
      EXPECT_EQ(stack.back(), tag.substr(1));
      stack.pop_back();
    } else if (tag.back() != '/') {
      stack.push_back(tag.substr(0, tag.find(' ')));
    }
    const std::string inside = x.substr(p + 1, e - p - 1);
    EXPECT_EQ(inside.find('<'), std::string::npos);
  }
  EXPECT_TRUE(stack.empty());
  // Every '&' starts an entity.
  for (std::size_t p = x.find('&'); p != std::string::npos; p = x.find('&', p + 1)) {
    const std::string rest = x.substr(p, 6);
    EXPECT_TRUE(rest.rfind("&amp;", 0) == 0 || rest.rfind("&lt;", 0) == 0 ||
                rest.rfind("&gt;", 0) == 0 || rest.rfind("&quot;", 0) == 0 ||
                rest.rfind("&apos;", 0) == 0)
        << rest;
  }
}

TEST_F(CheckTest, CompareDeltas) {
  fs::create_directories(dir_ / "b");
  write("b/stats.json", R"({
    "chip0": {"hbm": {"bytes": {"value": 456, "unit": "B", "desc": "bytes"},
                      "bandwidth": {"value": 50.0, "unit": "GB/s", "desc": "bw"}},
              "cores": {"aiv0": {"blocks": {"value": 10, "unit": "", "desc": "b"}}},
              "extra": 3},
    "sim_time": {"value": 50226400, "unit": "ps", "desc": "t"}
  })");
  write("b/op_summary.csv",
        "Device_id,Op Name,OP Type,Task Duration(us)\n0,Add,Add,3.0\n0,Add,Add,5.0\n0,Cast,Cast,1\n");
  write("b/replay_summary.json", R"({"simulated_us": 30.6})");
  std::ostringstream out, err;
  const std::string csv = (dir_ / "d.csv").string();
  ASSERT_EQ(run_compare(run(), (dir_ / "b").string(), csv, out, err), 0) << err.str();
  const std::string s = out.str();
  expect_has(s, "stats.json: 4 numeric metrics in both, 2 changed (1 only in A, 1 only in B)\n");
  // Sorted by the size of the relative change: +100 % before -50 %.
  const auto blocks = s.find("chip0.cores.aiv0.blocks"), bw = s.find("chip0.hbm.bandwidth");
  ASSERT_NE(blocks, std::string::npos);
  ASSERT_NE(bw, std::string::npos);
  EXPECT_LT(blocks, bw);
  EXPECT_EQ(s.find("chip0.hbm.bytes"), std::string::npos);  // unchanged: not listed
  // Every row has its unit: stated by stats.json, or (blocks) from its name.
  expect_has(s, "metric                   unit   n    A   B  delta    change\n"
                "-----------------------------------------------------------\n"
                "chip0.cores.aiv0.blocks  count  1    5  10      5  +100.00%\n"
                "chip0.hbm.bandwidth      GB/s   1  100  50    -50   -50.00%\n");
  expect_has(s, "Add      total     us      6  8      2   +33.33%\n");
  expect_has(s, "Cast     count     count   0  1      1     +inf%\n");
  expect_has(s, "replay_summary.json simulated_us: A 15.3 us, B 30.6 us, delta 15.3 us (+100.00%)");
  expect_has(s, "config.yaml: in neither run, not compared\n");
  std::ifstream in(csv);
  std::stringstream text;
  text << in.rdbuf();
  expect_has(text.str(), "section,name,quantity,unit,a,b,delta,percent\n"
                         "stats,chip0.cores.aiv0.blocks,value,count,5,10,5,100.0000\n"
                         "stats,chip0.hbm.bandwidth,value,GB/s,100,50,-50,-50.0000\n");
  expect_has(text.str(), "op,Mul,mean,us,3,0,-3,-100.0000\n");
  expect_has(text.str(), "op,Cast,count,count,0,1,1,inf\n");
  expect_has(text.str(), "replay,simulated_us,value,us,15.3,30.6,15.3,100.0000\n");

  std::ostringstream out2, err2;
  EXPECT_EQ(run_compare(run(), (dir_ / "none").string(), "", out2, err2), 2);
  expect_has(err2.str(), "none/stats.json: missing");
}

// A stats.json that folds zeros (sim/stats.h: "zeros": "folded"): an absent statistic is 0, for a
// target and for compare (a statistic that went from 0 to something is a change, not "only in").
TEST_F(CheckTest, FoldedZerosReadAsZero) {
  fs::create_directories(dir_ / "f");
  write("f/stats.json", R"({"time_unit": "us", "zeros": "folded",
    "chip0": {"hbm": {"bytes": {"value": 456, "unit": "B", "desc": "bytes"}},
              "aicore": {"preemptions": {"value": 2, "unit": "", "desc": "p"}}},
    "sim_time": {"value": 50.2264, "unit": "us", "desc": "t"}})");
  RunOutputs f((dir_ / "f").string());
  EXPECT_EQ(f.value(stats("chip0.hbm.bandwidth")), 0);
  EXPECT_EQ(f.value(stats("chip7.sdma.bytes")), 0);
  EXPECT_EQ(f.value(stats("sim_time")), 50.2264);
  RunOutputs full(run());  // no "zeros": an absent path stays an error
  EXPECT_THROW(full.value(stats("chip7.sdma.bytes")), MetricError);
  std::ostringstream out, err;
  ASSERT_EQ(run_compare(run(), (dir_ / "f").string(), "", out, err), 0) << err.str();
  // A's bandwidth, blocks and functional are 0 in B (folded there); B's preemptions are only in
  // B (A folds nothing, so its absence there is not a zero).
  expect_has(out.str(),
             "stats.json: 5 numeric metrics in both, 3 changed (0 only in A, 1 only in B)");
  expect_has(out.str(), "chip0.hbm.bandwidth      GB/s   1  100  0   -100  -100.00%\n");
  // A's sim_time is in ps (a file written before stats.json said µs), B's in µs: compared in A's
  // unit, the same time is no change.
  EXPECT_EQ(out.str().find("\nsim_time "), std::string::npos) << out.str();
}

}  // namespace
}  // namespace npusim::check
