// SPDX-License-Identifier: Apache-2.0
// Units end to end in npusim check / compare (tools/check/units.h): the unit table and the names
// that imply a unit, a metric spec's `unit:` (parsed, converted, refused), `check --update`
// (a new targets file that passes on its run and fails on a drifted one; an existing file edited
// in place), and compare's configuration difference and folded per-core rows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/check/check.h"
#include "tools/check/units.h"

namespace npusim::check {
namespace {

namespace fs = std::filesystem;

void expect_has(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in:\n" << text;
}

TEST(Units, TableConvertsWithinAKindOnly) {
  EXPECT_DOUBLE_EQ(*unit_factor("ps", "us"), 1e-6);
  EXPECT_DOUBLE_EQ(*unit_factor("ms", "ns"), 1e6);
  EXPECT_DOUBLE_EQ(*unit_factor("µs", "ps"), 1e6);
  EXPECT_DOUBLE_EQ(*unit_factor("GiB", "B"), 1073741824.0);
  EXPECT_DOUBLE_EQ(*unit_factor("GB/s", "MB/s"), 1000.0);
  EXPECT_DOUBLE_EQ(*unit_factor("ratio", "%"), 100.0);
  EXPECT_FALSE(unit_factor("ps", "B"));
  EXPECT_FALSE(unit_factor("count", "us"));
  EXPECT_FALSE(unit_factor("furlongs", "us"));
  EXPECT_EQ(canonical_unit("μs"), "us");
  EXPECT_EQ(canonical_unit("parsecs"), "");
}

TEST(Units, NamesImplyUnitsWhereTheSourceStatesNone) {
  EXPECT_EQ(unit_from_name("simulated_us"), "us");
  EXPECT_EQ(unit_from_name("Task Duration(us)"), "us");
  EXPECT_EQ(unit_from_name("aicore_time(us)"), "us");
  EXPECT_EQ(unit_from_name("system.root_complex.h2d.bytes"), "B");
  EXPECT_EQ(unit_from_name("chip0.l2.read_hit_rate"), "ratio");
  EXPECT_EQ(unit_from_name("chip0.aicore.cores.aiv0.utilization"), "ratio");
  EXPECT_EQ(unit_from_name("chip0.aicore.pipes.mte2_busy_cycles"), "cycles");
  EXPECT_EQ(unit_from_name("fidelity.h2d_gbps_256MiB"), "count");  // a size suffix: no rule
  EXPECT_EQ(unit_from_name("fidelity.launch_sync_us"), "us");
  EXPECT_EQ(unit_from_name("chip0.scheduler.stp"), "ratio");
  EXPECT_EQ(unit_from_name("ops_run"), "count");
}

class RunDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("npusim_units_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    make_run("a", 50226400, 2.0, 1000, "1GHz");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  /// A run: sim_time (ps), 16 AI cores with busy_time = base + index, two Add kernels of
  /// `add_us` each, an aicore clock in config.yaml.
  std::string make_run(const std::string& name, double sim_ps, double add_us, double busy_ps,
                       const std::string& clock) {
    std::string cores;
    for (int i = 0; i < 16; ++i) {
      cores += std::string(i ? "," : "") + "\"aic" + std::to_string(i) + "\": {\"busy_time\": " +
               "{\"value\": " + std::to_string(busy_ps + i) + ", \"unit\": \"ps\"}, \"blocks\": " +
               "{\"value\": 3, \"unit\": \"\"}}";
    }
    write(name + "/stats.json",
          "{\"sim_time\": {\"value\": " + std::to_string(sim_ps) + ", \"unit\": \"ps\"},"
          " \"system\": {\"root_complex\": {\"h2d\": {\"bytes\": {\"value\": 72, \"unit\": \"B\"}}}},"
          " \"chip0\": {\"scheduler\": {\"completed\": {\"value\": 7, \"unit\": \"\"}},"
          " \"aicore\": {\"cores\": {" + cores + "}}}}");
    const std::string d = std::to_string(add_us);
    write(name + "/op_summary.csv", "Op Name,OP Type,Task Duration(us)\nAdd,Add," + d +
                                        "\nAdd,Add," + d + "\n");
    write(name + "/replay_summary.json", "{\"simulated_us\": " + std::to_string(sim_ps / 1e6) + "}");
    write(name + "/config.yaml", "# npusim effective chip configuration\n# source: preset tiny\n\n"
                                 "aicore:\n  # clock\n  frequency: " + clock + "\n  count: 16\n"
                                 "hbm:\n  bandwidth: 1TB/s\n");
    return (dir_ / name).string();
  }
  std::string run(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(RunDir, AMetricSpecsUnitConvertsTheValue) {
  const auto t = parse_targets(
      "- {name: us, metric: {stats: sim_time, unit: us}, expected: 50.2264, tolerance: 0}\n"
      "- {name: ms, metric: {replay: simulated_us, unit: ms}, expected: 0.0502264, tolerance: 0}\n"
      "- {name: ps, metric: {stats: sim_time}, expected: 50226400, tolerance: 0}\n"
      "- {name: bad, metric: {stats: sim_time, unit: B}, expected: 1, tolerance: 0}\n",
      "t.yaml");
  EXPECT_EQ(t[0].metric.unit, "us");
  EXPECT_EQ(t[0].metric.describe(), "stats.json sim_time in us");
  RunOutputs r(run("a"));
  EXPECT_DOUBLE_EQ(r.value(t[0].metric), 50.2264);
  EXPECT_EQ(r.unit(t[0].metric), "us");
  EXPECT_DOUBLE_EQ(r.value(t[1].metric), 0.0502264);
  EXPECT_EQ(r.unit(t[2].metric), "ps");  // as stats.json states it
  const auto results = evaluate(t, r);
  EXPECT_EQ(results[0].verdict, Verdict::kPass);
  EXPECT_EQ(results[1].verdict, Verdict::kPass);
  EXPECT_EQ(results[2].verdict, Verdict::kPass);
  ASSERT_EQ(results[3].verdict, Verdict::kError);
  expect_has(results[3].message, "the value is in ps, which cannot be converted to B");
}

TEST(TargetsUnits, AnUnknownUnitOrASecondSourceIsAnError) {
  auto error = [](const std::string& text) {
    try {
      parse_targets(text, "t.yaml");
    } catch (const TargetsError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  expect_has(error("- {name: a, metric: {stats: x, unit: parsecs}, expected: 1, tolerance: 0}\n"),
             "t.yaml:1: target 0 ('a'): key 'metric'.unit: 'parsecs' is not a unit (ps, ns, us");
  expect_has(error("- {name: a, metric: {stats: x, replay: y}, expected: 1, tolerance: 0}\n"),
             "key 'metric': expected a map with exactly one source");
  expect_has(error("- {name: a, metric: {unit: us}, expected: 1, tolerance: 0}\n"),
             "key 'metric': expected a map with exactly one source");
}

TEST_F(RunDir, AbsoluteTolerancesAndMessagesCarryTheUnit) {
  const auto t = parse_targets(
      "- {name: e2e, metric: {stats: sim_time, unit: us}, expected: 40, tolerance: {abs: 5}}\n",
      "t.yaml");
  RunOutputs r(run("a"));
  std::ostringstream out;
  print_table(evaluate(t, r), out);
  expect_has(out.str(), "target  unit  expected  tolerance   actual  error %  result\n");
  expect_has(out.str(), "e2e     us          40      ±5 us  50.2264  +25.57%  FAIL\n");
  expect_has(out.str(), "expected 40 us ±5 us, actual 50.2264 us (+25.57%)");
}

TEST_F(RunDir, UpdateWritesTargetsThatPassOnTheRunAndFailOnADrift) {
  const std::string file = (dir_ / "targets.yaml").string();
  std::ostringstream out, err;
  ASSERT_EQ(run_update(file, run("a"), "", out, err), 0) << err.str();
  expect_has(out.str(), "wrote " + file + ": 7 targets from " + run("a") + ", tolerance 1%");
  const std::string text = read("targets.yaml");
  expect_has(text, "  - name: simulated time\n    metric: {stats: sim_time, unit: us}\n"
                   "    expected: 50.2264\n    tolerance: 1%\n    direction: lower_is_better\n");
  expect_has(text, "  - name: Add time\n");
  expect_has(text, "  - name: host to device bytes\n    metric: {stats: "
                   "system.root_complex.h2d.bytes}\n    expected: 72\n");
  expect_has(text, "  - name: chip0 tasks\n");
  std::ostringstream o1, e1;
  EXPECT_EQ(run_check(file, run("a"), "", o1, e1), 0) << o1.str() << e1.str();
  expect_has(o1.str(), "7 targets: 7 passed, 0 improved, 0 failed");
  // Within 1 %: passes; the kernels 10 % slower: fails.
  make_run("near", 50226400 * 1.005, 2.0, 1000, "1GHz");
  std::ostringstream o2, e2;
  EXPECT_EQ(run_check(file, run("near"), "", o2, e2), 0) << o2.str();
  make_run("drift", 50226400, 2.2, 1000, "900MHz");
  std::ostringstream o3, e3;
  EXPECT_EQ(run_check(file, run("drift"), "", o3, e3), 1) << o3.str();
  expect_has(o3.str(), "Add time              us            4        ±1%      4.4  +10.00%  FAIL\n");
  // --tolerance sets the tolerance of a new file.
  const std::string wide = (dir_ / "wide.yaml").string();
  std::ostringstream o4, e4;
  ASSERT_EQ(run_update(wide, run("a"), "abs:0.5", o4, e4), 0) << e4.str();
  expect_has(read("wide.yaml"), "    expected: 4\n    tolerance: {abs: 0.5}\n");
}

TEST_F(RunDir, UpdateEditsAnExistingFileInPlace) {
  const std::string before =
      "# hand made: comments, order and layout stay (µs ±)\n"
      "targets:\n"
      "  - name: end to end   # the headline\n"
      "    metric: {replay: simulated_us}\n"
      "    expected: 30.6     # from last week\n"
      "    tolerance: 5%\n"
      "    direction: lower_is_better\n"
      "  - {name: kernels, metric: {op_summary: {agg: count}}, expected: 7, tolerance: {abs: 0}}\n"
      "  - name: sim\n"
      "    metric: {stats: sim_time, unit: ms}\n"
      "    expected: \"1\"\n"
      "    tolerance:\n"
      "      abs: 0.5\n";
  const std::string file = write("t.yaml", before);
  std::ostringstream out, err;
  ASSERT_EQ(run_update(file, run("a"), "", out, err), 0) << err.str();
  std::string after = before;
  after.replace(after.find("30.6"), 4, "50.2264");
  after.replace(after.find("expected: 7"), 11, "expected: 2");
  after.replace(after.find("\"1\""), 3, "0.0502264");
  EXPECT_EQ(read("t.yaml"), after);
  expect_has(out.str(), "end to end  us             30.6       50.2264  +64.14%\n");
  // --tolerance rewrites every tolerance too, whatever its form.
  std::ostringstream o2, e2;
  ASSERT_EQ(run_update(file, run("a"), "2%", o2, e2), 0) << e2.str();
  const std::string text = read("t.yaml");
  expect_has(text, "    expected: 50.2264     # from last week\n    tolerance: 2%\n");
  expect_has(text, "expected: 2, tolerance: 2%}\n");
  expect_has(text, "    tolerance:\n      2%\n");
  std::ostringstream o3, e3;
  EXPECT_EQ(run_check(file, run("a"), "", o3, e3), 0) << o3.str();
  // A target the run cannot give: nothing is written.
  const std::string gone = write("gone.yaml", "- {name: x, metric: {stats: nope}, expected: 1, "
                                              "tolerance: 0}\n");
  std::ostringstream o4, e4;
  EXPECT_EQ(run_update(gone, run("a"), "", o4, e4), 2);
  expect_has(e4.str(), "target 'x' (" + gone + ":1): ");
  expect_has(e4.str(), "(" + gone + " not changed)");
  EXPECT_EQ(read("gone.yaml"), "- {name: x, metric: {stats: nope}, expected: 1, tolerance: 0}\n");
  std::ostringstream o5, e5;
  EXPECT_EQ(run_update(file, run("a"), "lots", o5, e5), 2);
  expect_has(e5.str(), "'lots' is not a tolerance");
}

TEST_F(RunDir, CompareShowsTheConfigDifferenceFirstAndFoldsPerCoreRows) {
  make_run("b", 50226400 * 1.02, 2.5, 2000, "500MHz");
  std::ostringstream out, err;
  const std::string csv = (dir_ / "d.csv").string();
  ASSERT_EQ(run_compare(run("a"), run("b"), csv, out, err), 0) << err.str();
  const std::string s = out.str();
  expect_has(s, "config.yaml: 1 key differs\n  A: preset tiny\n  B: preset tiny\n\n"
                "key               A     B\n"
                "------------------------------\n"
                "aicore.frequency  1GHz  500MHz\n");
  EXPECT_LT(s.find("config.yaml"), s.find("stats.json"));
  // 16 cores' busy_time in one line: the range of A, B, the delta and the change.
  expect_has(s, "chip0.aicore.cores.aic*.busy_time  ps    16  1000..1015  2000..2015     1000  "
                "+98.52%..+100.00%\n");
  EXPECT_EQ(s.find("aic3.busy_time"), std::string::npos);
  expect_has(s, "sim_time                           ps     1    50226400    51230928  1004528");
  std::ifstream in(csv);
  std::stringstream text;
  text << in.rdbuf();
  expect_has(text.str(), "config,aicore.frequency,value,,1GHz,500MHz,,\n");
  expect_has(text.str(), "stats,chip0.aicore.cores.aic15.busy_time,value,ps,1015,2015,1000,");
  // --unfold: one line per core.
  std::ostringstream out2, err2;
  ASSERT_EQ(run_compare(run("a"), run("b"), "", out2, err2, false), 0);
  expect_has(out2.str(), "chip0.aicore.cores.aic15.busy_time");
  EXPECT_EQ(out2.str().find("aic*"), std::string::npos);
  // A range whose ends print the same is one value: +99.9985 % .. +100 % is "+100.00%".
  make_run("big", 50226400, 2.0, 1e6, "1GHz");
  make_run("big2", 50226400, 2.0, 2e6, "1GHz");
  std::ostringstream out4, err4;
  ASSERT_EQ(run_compare(run("big"), run("big2"), "", out4, err4), 0);
  expect_has(out4.str(), "  1000000  +100.00%\n");
  // The same configuration: said in one line.
  make_run("c", 1, 1, 1, "1GHz");
  std::ostringstream out3, err3;
  ASSERT_EQ(run_compare(run("a"), run("c"), "", out3, err3), 0);
  expect_has(out3.str(), "config.yaml: the same effective configuration (3 keys)\n");
}

}  // namespace
}  // namespace npusim::check
