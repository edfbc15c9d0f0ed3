// SPDX-License-Identifier: Apache-2.0
// The sweep's table: DIR/sweep.csv (one row per run: its values, status and metrics, each
// metric's header with its unit) and DIR/sweep_meta.json (which columns are parameters and which
// metrics, with their units and sources: what `npusim report` plots), and the closing summary.
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/check/text.h"
#include "tools/check/units.h"
#include "tools/sweep/sweep.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace npusim::sweep {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.10g", v);
  return buf;
}

/// A metric's unit: the one it asks for, else its source's in the first finished run that has
/// the file (else what its name implies).
std::string metric_unit(const Plan& plan, const std::string& out, const check::Metric& m) {
  if (!m.unit.empty()) return m.unit;
  for (const Run& run : plan.runs) {
    if (read_record(out, run.index).status != "ok") continue;
    try {
      check::RunOutputs outputs(run_dir(out, run.index));
      return outputs.unit(m);
    } catch (const std::exception&) {
      // this run lacks the file: try the next one
    }
  }
  return check::unit_from_name(m.source == check::Metric::Source::kOpSummary ? m.column : m.path);
}

/// A column named `sim_us` whose metric is in ps misleads: say so (with the fix).
void note_misnamed(const std::string& name, const std::string& unit, std::ostream& log) {
  const std::string implied = check::unit_from_name(name);
  if (implied == "count" || implied == "ratio" || implied == unit) return;
  if (!check::unit_factor(implied, unit)) return;  // another kind: the name means something else
  log << "note: metric " << name << " is in " << unit << " but its name says " << implied
      << "; add `unit: " << implied << "` to its spec to convert\n";
}

/// "50 ok, 0 failed" (+ " (1 failed, 1 timeout)" when a run ended otherwise than ok or failed).
std::string status_counts(const std::map<std::string, int>& counts, std::size_t runs) {
  const int ok = counts.count("ok") ? counts.at("ok") : 0;
  std::string detail;
  bool other = false;
  for (const auto& [status, n] : counts) {
    if (status == "ok") continue;
    detail += (detail.empty() ? "" : ", ") + std::to_string(n) + " " + status;
    other |= status != "failed";
  }
  return std::to_string(ok) + " ok, " + std::to_string(runs - static_cast<std::size_t>(ok)) +
         " failed" + (other ? " (" + detail + ")" : "");
}

json meta_json(const Plan& plan, const std::vector<std::string>& units) {
  json meta = {{"name", plan.name},         {"description", plan.description},
               {"params", plan.params},     {"metrics", json::array()},
               {"metric_units", json::object()}, {"metric_columns", json::object()},
               {"metric_sources", json::object()}};
  for (std::size_t i = 0; i < plan.metrics.size(); ++i) {
    const auto& [name, m] = plan.metrics[i];
    meta["metrics"].push_back(name);
    meta["metric_units"][name] = units[i];
    meta["metric_columns"][name] = metric_header(name, units[i]);
    meta["metric_sources"][name] = m.describe();
  }
  return meta;
}

}  // namespace

std::string metric_header(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : name + " (" + unit + ")";
}

std::string csv_field(const std::string& s) { return check::csv_cell(s); }

int collect(const Plan& plan, const std::string& out, std::ostream& log, const Ran& ran) {
  std::vector<std::string> units;
  std::ostringstream csv;
  csv << "run";
  for (const auto& p : plan.params) csv << "," << csv_field(p);
  csv << ",status,exit_code";
  for (const auto& [name, m] : plan.metrics) {
    units.push_back(metric_unit(plan, out, m));
    note_misnamed(name, units.back(), log);
    csv << "," << csv_field(metric_header(name, units.back()));
  }
  csv << "\n";
  std::map<std::string, int> counts;
  int unreadable = 0;
  for (const Run& run : plan.runs) {
    const RunRecord rec = read_record(out, run.index);
    ++counts[rec.status];
    csv << run.index;
    for (const auto& [k, v] : run.values) csv << "," << csv_field(v);
    csv << "," << rec.status << "," << (rec.status == "missing" ? "" : std::to_string(rec.exit_code));
    check::RunOutputs outputs(run_dir(out, run.index));
    for (const auto& [name, m] : plan.metrics) {
      csv << ",";
      if (rec.status != "ok") continue;
      try {
        csv << number(outputs.value(m));
      } catch (const std::exception& e) {
        if (unreadable++ < 5) log << "note: run " << run.index << ": metric " << name << ": " << e.what() << "\n";
      }
    }
    csv << "\n";
  }
  const fs::path table = fs::path(out) / "sweep.csv", meta = fs::path(out) / "sweep_meta.json";
  if (!check::write_file_atomically(table.string(), csv.str()) ||
      !check::write_file_atomically(meta.string(), meta_json(plan, units).dump(2) + "\n")) {
    log << "npusim sweep: cannot write " << table.string() << "\n";
    return 2;
  }
  log << "sweep " << plan.name << ": " << plan.runs.size() << " runs: "
      << status_counts(counts, plan.runs.size());
  if (ran.seconds >= 0) log << "; " << ran.runs << " ran in " << format_duration(ran.seconds);
  log << "; results: " << table.string() << ", " << meta.string() << ", "
      << (fs::path(out) / "runs" / "<i>").string() << "/\n";
  return counts["ok"] == static_cast<int>(plan.runs.size()) ? 0 : 1;
}

}  // namespace npusim::sweep
