// SPDX-License-Identifier: Apache-2.0
// Reading a run's outputs and extracting metrics (stats.json paths, op_summary.csv aggregates,
// replay_summary.json fields).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/check/check.h"
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

void flatten(const json& j, const std::string& prefix, std::map<std::string, double>& out,
             std::map<std::string, std::string>& units) {
  if (!j.is_object()) {
    if (const auto v = number_of(j); v && !prefix.empty()) out[prefix] = *v;
    return;
  }
  // A statistic {value, unit, desc} is one leaf named by its path.
  if (j.contains("value") && number_of(j["value"])) {
    out[prefix] = *number_of(j["value"]);
    if (j.contains("unit") && j["unit"].is_string()) units[prefix] = j["unit"].get<std::string>();
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out, units);
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
    flatten(stats_json(), "", *leaves_, units_);
  }
  return *leaves_;
}

std::string RunOutputs::stats_unit(const std::string& path) {
  stats_leaves();
  const auto it = units_.find(path);
  return it == units_.end() ? "" : it->second;
}

double RunOutputs::value(const Metric& m) {
  switch (m.source) {
    case Metric::Source::kStats: {
      const json* j = &stats_json();
      std::string walked;
      std::size_t pos = 0;
      while (pos <= m.path.size()) {
        const std::size_t dot = m.path.find('.', pos);
        const std::string key = m.path.substr(pos, dot == std::string::npos ? dot : dot - pos);
        if (!j->is_object() || !j->contains(key)) {
          std::string have;
          if (j->is_object()) {
            int n = 0;
            for (auto it = j->begin(); it != j->end() && n < 12; ++it, ++n) {
              have += (have.empty() ? "" : ", ") + it.key();
            }
          }
          throw MetricError(dir_ + "/stats.json: no key '" + key + "' under '" +
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
      throw MetricError(dir_ + "/stats.json: '" + m.path + "' is not a number");
    }
    case Metric::Source::kReplay: {
      const json& j = replay_json();
      if (!j.is_object() || !j.contains(m.path)) {
        throw MetricError(dir_ + "/replay_summary.json: no field '" + m.path + "'");
      }
      if (const auto v = number_of(j[m.path])) return *v;
      throw MetricError(dir_ + "/replay_summary.json: '" + m.path + "' is not a number");
    }
    case Metric::Source::kTimeline: {
      const json& t = timeline_json();
      const json& events = t.is_object() && t.contains("traceEvents") ? t["traceEvents"] : t;
      if (!events.is_array()) throw MetricError(dir_ + "/timeline.json: not a list of events");
      double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
      double first = lo, last = -lo;
      std::size_t n = 0;
      for (const json& e : events) {
        if (!e.is_object() || e.value("ph", "") != "X" || e.value("name", "") != m.event) continue;
        const double ts = e.value("ts", 0.0), dur = e.value("dur", 0.0);
        ++n;
        sum += dur;
        lo = std::min(lo, dur);
        hi = std::max(hi, dur);
        first = std::min(first, ts);
        last = std::max(last, ts + dur);
      }
      if (m.agg == Metric::Agg::kCount) return static_cast<double>(n);
      if (n == 0) {
        if (m.agg == Metric::Agg::kSum) return 0.0;
        throw MetricError(dir_ + "/timeline.json: " + m.describe() + ": no event named '" +
                          m.event + "'");
      }
      switch (m.agg) {
        case Metric::Agg::kMean: return sum / static_cast<double>(n);
        case Metric::Agg::kMax: return hi;
        case Metric::Agg::kMin: return lo;
        case Metric::Agg::kSpan: return last - first;
        default: return sum;
      }
    }
    case Metric::Source::kOpSummary: {
      const auto& rows = op_rows();
      const auto& header = rows[0];
      auto column_of = [&](const std::string& name) -> std::size_t {
        for (std::size_t c = 0; c < header.size(); ++c) {
          if (header[c] == name) return c;
        }
        throw MetricError(dir_ + "/op_summary.csv: no column '" + name + "'");
      };
      const std::size_t c_name = column_of("Op Name"), c_type = column_of("OP Type");
      const std::size_t c_val = m.agg == Metric::Agg::kCount ? 0 : column_of(m.column);
      double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
      std::size_t matched = 0, numeric = 0;
      for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        auto cell = [&](std::size_t c) { return c < row.size() ? row[c] : std::string(); };
        if (!m.op.empty() && cell(c_name) != m.op) continue;
        if (!m.op_type.empty() && cell(c_type) != m.op_type) continue;
        ++matched;
        if (m.agg == Metric::Agg::kCount) continue;
        double v = 0;
        if (!parse_number(cell(c_val), v)) continue;  // N/A cells
        ++numeric;
        sum += v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      if (m.agg == Metric::Agg::kCount) return static_cast<double>(matched);
      if (m.agg == Metric::Agg::kSum && matched == 0) return 0.0;
      if (numeric == 0) {
        throw MetricError(dir_ + "/op_summary.csv: " + m.describe() + ": " +
                          (matched == 0 ? "no row matches"
                                        : std::to_string(matched) + " rows match but none has a "
                                                                    "number in that column"));
      }
      switch (m.agg) {
        case Metric::Agg::kMean:
          return sum / static_cast<double>(numeric);
        case Metric::Agg::kMax:
          return hi;
        case Metric::Agg::kMin:
          return lo;
        default:
          return sum;
      }
    }
  }
  return 0;
}

}  // namespace npusim::check
