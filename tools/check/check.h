// SPDX-License-Identifier: Apache-2.0
// `npusim check` and `npusim compare`: performance regression over a run's outputs (the files
// `npusim run --out` / `npusim replay --out` write: stats.json, op_summary.csv,
// replay_summary.json). Plain C++ (yaml-cpp, nlohmann-json), no simulator, tested in tests/tools.
//
//   check:   a targets file (YAML; format in docs/check.md) lists metrics with an expected value
//            and a tolerance; each is judged PASS / FAIL / IMPROVED (outside the tolerance in the
//            target's good direction). Metrics: stats.json paths, op_summary.csv aggregates,
//            replay_summary.json fields, timeline.json event durations. Exit 0 all pass, 1 any fails, 2 a malformed targets file
//            or a run output that is missing or lacks a target's metric.
//            `--update` writes the targets file from a good run (update.cpp).
//   compare: the keys of config.yaml whose values differ, per-metric deltas of two runs'
//            stats.json (numeric leaves present in both; per-core rows folded), per-op deltas
//            from op_summary.csv (by Op Name: count, total and mean Task Duration), and
//            replay_summary.json's simulated_us. Exit 0, or 2 when a run lacks stats.json.
//   Every value carries its unit (units.h).
#ifndef NPUSIM_TOOLS_CHECK_CHECK_H_
#define NPUSIM_TOOLS_CHECK_CHECK_H_

#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim::check {

/// A malformed targets file: the message names the file, line, target and key, and the reason.
class TargetsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A run output that is missing, unreadable, or lacks the metric asked for.
class MetricError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where a target's value comes from.
struct Metric {
  enum class Source { kStats, kOpSummary, kReplay, kTimeline };
  enum class Agg { kSum, kMean, kMax, kMin, kCount, kSpan };
  Source source = Source::kStats;
  std::string path;     // kStats: dotted path into stats.json; kReplay: a top-level field
  std::string op;       // kOpSummary: rows whose Op Name equals this ("" = every row)
  std::string op_type;  // kOpSummary: rows whose OP Type equals this ("" = every row)
  std::string column;   // kOpSummary: the aggregated column (unused for count)
  std::string event;    // kTimeline: complete events ("ph": "X") with this name; agg over "dur"
                        // (µs), count, or span (last end - first start)
  Agg agg = Agg::kSum;
  std::string unit;  // the unit asked for (`unit: us`; tools/check/units.h), "" = the source's
  std::string describe() const;  // e.g. "stats chip0.hbm.bytes", "op_summary sum(...) op=Add"
};

enum class Direction { kNone, kLowerIsBetter, kHigherIsBetter };

struct Target {
  std::string name;
  Metric metric;
  double expected = 0;
  double tolerance = 0.05;  // relative (fraction of |expected|) unless absolute
  bool absolute = false;
  Direction direction = Direction::kNone;
  int line = 0;  // 1-based line in the targets file
  // Where the values of `expected` and `tolerance` start in the file's text (byte offsets), for
  // `check --update`, which rewrites them in place.
  std::size_t expected_pos = std::string::npos, tolerance_pos = std::string::npos;
};

/// Parses a targets file; throws TargetsError.
std::vector<Target> load_targets(const std::string& path);
/// The same from text (`file` names it in messages).
std::vector<Target> parse_targets(const std::string& text, const std::string& file);

/// Sets t.tolerance / t.absolute from a tolerance as a targets file writes it ("5%", 0.05,
/// "abs:10", "{abs: 10}"); throws TargetsError naming `what`.
void parse_tolerance(const std::string& text, const std::string& what, Target& t);
/// The tolerance as a targets file writes it: "5%" or "{abs: 10}".
std::string tolerance_yaml(const Target& t);

/// A run directory's outputs, each read on first use. Throws MetricError.
class RunOutputs {
 public:
  explicit RunOutputs(std::string dir) : dir_(std::move(dir)) {}
  /// The metric's value, in m.unit when it names one (converted from the source's unit).
  double value(const Metric& m);
  /// The unit value(m) is in: m.unit, else the source's (units.h: stated, or from the name).
  std::string unit(const Metric& m);
  /// Every numeric leaf of stats.json by dotted path ("x.value" leaves are named "x").
  const std::map<std::string, double>& stats_leaves();
  /// The unit of a stats leaf: its `unit`, or (none stated) the one its name implies.
  std::string stats_unit(const std::string& path);
  /// stats.json left its zero statistics out ("zeros": "folded"): an absent one is 0.
  bool stats_zeros_folded();
  bool has_op_summary() const;
  bool has_replay_summary() const;
  const nlohmann::json& timeline_json();
  /// op_summary.csv: header and rows.
  const std::vector<std::vector<std::string>>& op_rows();
  const std::string& dir() const { return dir_; }

 private:
  const nlohmann::json& stats_json();
  const nlohmann::json& replay_json();
  double source_value(const Metric& m);
  std::string source_unit(const Metric& m);
  std::string dir_;
  std::shared_ptr<nlohmann::json> stats_, replay_, timeline_;
  std::optional<std::map<std::string, double>> leaves_;
  std::map<std::string, std::string> units_;
  std::optional<std::vector<std::vector<std::string>>> rows_;
};

enum class Verdict { kPass, kFail, kImproved, kError };
const char* verdict_name(Verdict v);

struct Result {
  const Target* target = nullptr;
  Verdict verdict = Verdict::kError;
  double actual = 0;
  std::string unit;          // of expected, actual and an absolute tolerance (units.h)
  double error = 0;          // actual - expected
  double relative = 0;       // (actual - expected) / |expected| (0 when expected is 0)
  std::string message;       // FAIL/IMPROVED/ERROR: why
};

/// Judges one value against its target (the pass/fail/improved rule, docs/check.md).
Result judge(const Target& t, double actual, const std::string& unit = "");
/// Evaluates every target against a run; a metric that cannot be read gives kError.
std::vector<Result> evaluate(const std::vector<Target>& targets, RunOutputs& run);
/// The readable table.
void print_table(const std::vector<Result>& results, std::ostream& out);
/// JUnit XML: one testsuite, one testcase per target (failure/error with expected and actual).
std::string junit_xml(const std::vector<Result>& results, const std::string& suite);

/// `npusim check`: returns the exit code (0, 1 or 2); errors go to `err`.
int run_check(const std::string& targets_file, const std::string& run_dir,
              const std::string& junit_file, std::ostream& out, std::ostream& err);
/// `npusim check --update`: writes the targets file from the run (docs/check.md). An existing
/// file keeps everything but its `expected` values (and, with `tolerance`, its tolerances),
/// rewritten in place; a new one gets the default targets (default_targets) with `tolerance`,
/// or kDefaultTolerance. Returns 0, or 2 (a target cannot be evaluated, a bad file or
/// tolerance; the file is then left as it was).
int run_update(const std::string& targets_file, const std::string& run_dir,
               const std::string& tolerance, std::ostream& out, std::ostream& err);
/// The tolerance of the targets `--update` creates: "1%".
constexpr const char* kDefaultTolerance = "1%";
/// The targets a new file gets from a run: its simulated time, end-to-end time, kernels and
/// each OP Type's count and time, host<->device bytes and each busy chip's tasks and HBM bytes
/// (those the run has). `expected` is unset (0).
std::vector<Target> default_targets(RunOutputs& run);
/// The YAML text of a targets file (names, metrics with units, expected, tolerance, direction).
std::string targets_yaml(const std::vector<Target>& targets, const std::string& description);

/// `npusim compare`: returns the exit code (0 or 2). `fold`: per-core rows in one line.
int run_compare(const std::string& run_a, const std::string& run_b, const std::string& csv_file,
                std::ostream& out, std::ostream& err, bool fold = true);

}  // namespace npusim::check

#endif  // NPUSIM_TOOLS_CHECK_CHECK_H_
