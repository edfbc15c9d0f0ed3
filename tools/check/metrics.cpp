// SPDX-License-Identifier: Apache-2.0
// Reading a run's outputs and extracting metrics (stats.json paths, op_summary.csv aggregates,
// replay_summary.json fields).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tools/check/check.h"
#include "tools/check/units.h"
#include "tools/replay/trace.h"  // parse_csv

namespace npusim::check {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_file(const fs::path& p, const std::string& what) {
  std::ifstream in(p);
  if (!in) throw MetricError(p.string() + ": missing (" + what + ")");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::shared_ptr<json> read_json(const fs::path& p, const std::string& what) {
  const std::string text = read_file(p, what);
  try {
    return std::make_shared<json>(json::parse(text));
  } catch (const json::exception& e) {
    throw MetricError(p.string() + ": not valid JSON: " + e.what());
  }
}

/// A JSON number (or boolean) as a double; nullopt otherwise.
std::optional<double> number_of(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_boolean()) return j.get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

/// One leaf: a number (or boolean), or a statistic {value, unit, desc} (one leaf named by its
/// path). False when `j` is neither (an object to descend into, or something else).
bool add_leaf(const json& j, const std::string& path, std::map<std::string, double>& out,
              std::map<std::string, std::string>& units) {
  if (!j.is_object()) {
    if (const auto v = number_of(j); v && !path.empty()) out[path] = *v;
    return true;
  }
  const auto value = j.find("value");
  if (value == j.end() || !number_of(*value)) return false;
  out[path] = *number_of(*value);
  const auto unit = j.find("unit");
  if (unit != j.end() && unit->is_string()) units[path] = unit->get<std::string>();
  return true;
}

/// The numeric leaves of `root` by dotted path. Linear in the size of the document whatever its
/// nesting depth: one path buffer grows and shrinks as the walk goes down and up (no copy of
/// the prefix per level), and the walk keeps its own stack (no recursion to overflow).
void flatten(const json& root, std::map<std::string, double>& out,
             std::map<std::string, std::string>& units) {
  struct Level {
    json::const_iterator it, end;
    std::size_t path_size;  // the path's length above this level's keys
  };
  std::string path;
  std::vector<Level> stack;
  if (add_leaf(root, path, out, units)) return;
  stack.push_back({root.cbegin(), root.cend(), 0});
  while (!stack.empty()) {
    Level& top = stack.back();
    if (top.it == top.end) {
      stack.pop_back();
      continue;
    }
    const json& child = top.it.value();
    path.resize(top.path_size);
    if (!path.empty()) path += '.';
    path += top.it.key();
    ++top.it;
    if (!add_leaf(child, path, out, units)) {
      stack.push_back({child.cbegin(), child.cend(), path.size()});
    }
  }
}

bool parse_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && std::isfinite(v);
}

}  // namespace

const json& RunOutputs::stats_json() {
  if (!stats_) stats_ = read_json(fs::path(dir_) / "stats.json", "the run's statistics; was the run made with --out?");
  return *stats_;
}

const json& RunOutputs::replay_json() {
  if (!replay_) {
    replay_ = read_json(fs::path(dir_) / "replay_summary.json", "written by npusim replay --out");
  }
  return *replay_;
}

const json& RunOutputs::timeline_json() {
  if (!timeline_) timeline_ = read_json(fs::path(dir_) / "timeline.json", "written with --out");
  return *timeline_;
}

bool RunOutputs::has_op_summary() const { return fs::exists(fs::path(dir_) / "op_summary.csv"); }
bool RunOutputs::has_replay_summary() const {
  return fs::exists(fs::path(dir_) / "replay_summary.json");
}

const std::vector<std::vector<std::string>>& RunOutputs::op_rows() {
  if (!rows_) {
    const fs::path p = fs::path(dir_) / "op_summary.csv";
    rows_ = replay::parse_csv(read_file(p, "one row per kernel, written with --out"));
    if (rows_->empty()) throw MetricError(p.string() + ": empty (no header)");
  }
  return *rows_;
}

const std::map<std::string, double>& RunOutputs::stats_leaves() {
  if (!leaves_) {
    leaves_.emplace();
    flatten(stats_json(), *leaves_, units_);
  }
  return *leaves_;
}

bool RunOutputs::stats_zeros_folded() {
  return stats_json().is_object() && stats_json().value("zeros", std::string()) == "folded";
}

std::string RunOutputs::stats_unit(const std::string& path) {
  stats_leaves();
  const std::string leaf = path.size() > 6 && path.compare(path.size() - 6, 6, ".value") == 0
                               ? path.substr(0, path.size() - 6)
                               : path;
  const auto it = units_.find(leaf);
  if (it == units_.end() || it->second.empty()) return unit_from_name(leaf);
  const std::string known = canonical_unit(it->second);  // "µs" -> "us"
  return known.empty() ? it->second : known;
}

namespace {

/// Sum, minimum and maximum of the values seen.
struct Accumulator {
  double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
  std::size_t n = 0;
  void add(double v) {
    ++n;
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  /// kMean, kMax, kMin or (anything else) the sum.
  double aggregate(Metric::Agg agg) const {
    switch (agg) {
      case Metric::Agg::kMean: return sum / static_cast<double>(n);
      case Metric::Agg::kMax: return hi;
      case Metric::Agg::kMin: return lo;
      default: return sum;
    }
  }
};

/// The keys of a JSON object, at most 12, for "no key" messages.
std::string some_keys(const json& j) {
  std::string have;
  if (!j.is_object()) return have;
  int n = 0;
  for (auto it = j.begin(); it != j.end() && n < 12; ++it, ++n) {
    have += (have.empty() ? "" : ", ") + it.key();
  }
  return have;
}

/// A dotted path into stats.json; a {value, unit, desc} statistic gives its value; a path absent
/// from a file that folds zeros is 0.
double stats_value(const json& root, const std::string& dir, const std::string& path,
                   bool zeros_folded) {
  const json* j = &root;
  std::string walked;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const std::size_t dot = path.find('.', pos);
    const std::string key = path.substr(pos, dot == std::string::npos ? dot : dot - pos);
    if (!j->is_object() || !j->contains(key)) {
      if (zeros_folded) return 0.0;
      const std::string have = some_keys(*j);
      throw MetricError(dir + "/stats.json: no key '" + key + "' under '" +
                        (walked.empty() ? "(top)" : walked) + "'" +
                        (have.empty() ? "" : " (it has: " + have + ")"));
    }
    j = &(*j)[key];
    walked += (walked.empty() ? "" : ".") + key;
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  if (j->is_object() && j->contains("value")) j = &(*j)["value"];  // a {value, unit, desc}
  if (const auto v = number_of(*j)) return *v;
  throw MetricError(dir + "/stats.json: '" + path + "' is not a number");
}

double replay_value(const json& j, const std::string& dir, const std::string& field) {
  if (!j.is_object() || !j.contains(field)) {
    throw MetricError(dir + "/replay_summary.json: no field '" + field + "'");
  }
  if (const auto v = number_of(j[field])) return *v;
  throw MetricError(dir + "/replay_summary.json: '" + field + "' is not a number");
}

/// Complete events named m.event: count, span, or an aggregate of their durations.
double timeline_value(const json& t, const std::string& dir, const Metric& m) {
  const json& events = t.is_object() && t.contains("traceEvents") ? t["traceEvents"] : t;
  if (!events.is_array()) throw MetricError(dir + "/timeline.json: not a list of events");
  Accumulator durations;
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (const json& e : events) {
    if (!e.is_object() || e.value("ph", "") != "X" || e.value("name", "") != m.event) continue;
    const double ts = e.value("ts", 0.0), dur = e.value("dur", 0.0);
    durations.add(dur);
    first = std::min(first, ts);
    last = std::max(last, ts + dur);
  }
  if (m.agg == Metric::Agg::kCount) return static_cast<double>(durations.n);
  if (durations.n == 0) {
    if (m.agg == Metric::Agg::kSum) return 0.0;
    throw MetricError(dir + "/timeline.json: " + m.describe() + ": no event named '" + m.event +
                      "'");
  }
  return m.agg == Metric::Agg::kSpan ? last - first : durations.aggregate(m.agg);
}

std::size_t column_of(const std::vector<std::string>& header, const std::string& name,
                      const std::string& dir) {
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c] == name) return c;
  }
  throw MetricError(dir + "/op_summary.csv: no column '" + name + "'");
}

/// The rows matching m.op / m.op_type: their count, or an aggregate of m.column's numbers.
double op_summary_value(const std::vector<std::vector<std::string>>& rows,
                        const std::string& dir, const Metric& m) {
  const std::size_t c_name = column_of(rows[0], "Op Name", dir);
  const std::size_t c_type = column_of(rows[0], "OP Type", dir);
  const std::size_t c_val = m.agg == Metric::Agg::kCount ? 0 : column_of(rows[0], m.column, dir);
  Accumulator values;
  std::size_t matched = 0;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    auto cell = [&](std::size_t c) { return c < row.size() ? row[c] : std::string(); };
    if (!m.op.empty() && cell(c_name) != m.op) continue;
    if (!m.op_type.empty() && cell(c_type) != m.op_type) continue;
    ++matched;
    if (m.agg == Metric::Agg::kCount) continue;
    double v = 0;
    if (parse_number(cell(c_val), v)) values.add(v);  // not N/A cells
  }
  if (m.agg == Metric::Agg::kCount) return static_cast<double>(matched);
  if (m.agg == Metric::Agg::kSum && matched == 0) return 0.0;
  if (values.n == 0) {
    throw MetricError(dir + "/op_summary.csv: " + m.describe() + ": " +
                      (matched == 0 ? "no row matches"
                                    : std::to_string(matched) + " rows match but none has a "
                                                                "number in that column"));
  }
  return values.aggregate(m.agg);
}

}  // namespace

double RunOutputs::source_value(const Metric& m) {
  switch (m.source) {
    case Metric::Source::kStats:
      return stats_value(stats_json(), dir_, m.path, stats_zeros_folded());
    case Metric::Source::kReplay: return replay_value(replay_json(), dir_, m.path);
    case Metric::Source::kTimeline: return timeline_value(timeline_json(), dir_, m);
    case Metric::Source::kOpSummary: return op_summary_value(op_rows(), dir_, m);
  }
  return 0;
}

std::string RunOutputs::source_unit(const Metric& m) {
  const bool count = m.agg == Metric::Agg::kCount;
  switch (m.source) {
    case Metric::Source::kStats: return stats_unit(m.path);
    case Metric::Source::kReplay: return unit_from_name(m.path);
    case Metric::Source::kTimeline: return count ? "count" : "us";  // the trace's µs
    case Metric::Source::kOpSummary: return count ? "count" : unit_from_name(m.column);
  }
  return "";
}

std::string RunOutputs::unit(const Metric& m) {
  return m.unit.empty() ? source_unit(m) : m.unit;
}

double RunOutputs::value(const Metric& m) {
  const double v = source_value(m);
  if (m.unit.empty()) return v;
  const std::string from = source_unit(m);
  const auto factor = unit_factor(from, m.unit);
  if (!factor) {
    throw MetricError(dir_ + ": " + m.describe() + ": the value is in " + from +
                      ", which cannot be converted to " + m.unit);
  }
  return v * *factor;
}

}  // namespace npusim::check
