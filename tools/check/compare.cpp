// SPDX-License-Identifier: Apache-2.0
// `npusim compare`: what differs between two runs, in the order one reads it: the configuration
// (config.yaml's effective values), the statistics (stats.json; per-core and per-channel rows
// folded into one line per unit with their range), the operators (op_summary.csv) and the
// end-to-end time (replay_summary.json). Every number carries its unit (units.h).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tools/check/check.h"
#include "tools/check/units.h"
#include "tools/check/text.h"

namespace npusim::check {
namespace {

namespace fs = std::filesystem;
using CsvRows = std::vector<std::vector<std::string>>;

/// A run's config.yaml: its "# source:" line and every scalar by dotted key.
struct ConfigFile {
  bool present = false;
  std::string source;
  std::map<std::string, std::string> values;
};

void flatten_yaml(const YAML::Node& n, const std::string& key,
                  std::map<std::string, std::string>& out) {
  if (n.IsMap()) {
    for (const auto& kv : n) {
      flatten_yaml(kv.second, (key.empty() ? "" : key + ".") + kv.first.as<std::string>(), out);
    }
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) {
      flatten_yaml(n[i], key + "[" + std::to_string(i) + "]", out);
    }
  } else if (!key.empty()) {
    out[key] = n.IsScalar() ? n.Scalar() : "";
  }
}

/// Throws MetricError for a config.yaml that is not YAML.
ConfigFile read_config(const std::string& dir) {
  ConfigFile c;
  const fs::path p = fs::path(dir) / "config.yaml";
  std::ifstream in(p);
  if (!in) return c;
  std::stringstream text;
  text << in.rdbuf();
  c.present = true;
  const std::string s = text.str();
  const std::string tag = "# source: ";
  if (const std::size_t at = s.find(tag); at != std::string::npos) {
    c.source = s.substr(at + tag.size(), s.find('\n', at) - at - tag.size());
  }
  try {
    flatten_yaml(YAML::Load(s), "", c.values);
  } catch (const YAML::Exception& e) {
    throw MetricError(p.string() + ": not valid YAML: " + e.msg);
  }
  return c;
}

/// config.yaml: the keys whose effective values differ ("-" where a run has no such key).
void compare_config(const std::string& da, const std::string& db, std::ostream& out,
                    CsvRows& csv) {
  const ConfigFile a = read_config(da), b = read_config(db);
  if (!a.present || !b.present) {
    out << "config.yaml: " << (a.present || b.present ? a.present ? "only in A" : "only in B"
                                                      : "in neither run")
        << ", not compared\n";
    return;
  }
  std::set<std::string> keys;
  for (const auto& kv : a.values) keys.insert(kv.first);
  for (const auto& kv : b.values) keys.insert(kv.first);
  Table t({"key", "A", "B"}, {0, 1, 2});
  std::size_t differ = 0;
  for (const std::string& k : keys) {
    const auto ia = a.values.find(k), ib = b.values.find(k);
    const std::string va = ia == a.values.end() ? "-" : ia->second;
    const std::string vb = ib == b.values.end() ? "-" : ib->second;
    if (va == vb) continue;
    ++differ;
    t.add({k, va, vb});
    csv.push_back({"config", k, "value", "", va, vb, "", ""});
  }
  if (differ == 0) {
    out << "config.yaml: the same effective configuration (" << keys.size() << " keys)\n";
    return;
  }
  out << "config.yaml: " << differ << (differ == 1 ? " key differs" : " keys differ") << "\n";
  if (!a.source.empty() || !b.source.empty()) {
    out << "  A: " << a.source << "\n  B: " << b.source << "\n";
  }
  out << "\n";
  t.print(out);
}

struct Change {
  std::string key;
  double a, b, rel;
};

/// Rows that differ only in an index below the top level (cores aiv0..aiv15, SDMA channels,
/// streams) fold into one: the index becomes '*'. The top level (chip0, chip1) stays apart.
std::string fold_key(const std::string& key) {
  std::string out;
  std::size_t pos = 0;
  for (int level = 0; pos <= key.size(); ++level) {
    const std::size_t dot = std::min(key.find('.', pos), key.size());
    std::string part = key.substr(pos, dot - pos);
    std::size_t digits = part.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(part[digits - 1]))) --digits;
    if (level > 0 && digits > 0 && digits < part.size()) part = part.substr(0, digits) + "*";
    out += (out.empty() ? "" : ".") + part;
    pos = dot + 1;
  }
  return out;
}

/// Changed rows that fold into one line, and how many rows of that shape both runs have.
struct Group {
  std::string key;
  std::vector<const Change*> rows;
  std::size_t total = 0;
  double max_rel = 0;
};

/// "lo..hi" over the group's rows (one value when they agree).
template <typename F>
std::string range(const Group& g, F value, std::string (*show)(double)) {
  double lo = value(*g.rows[0]), hi = lo;
  for (const Change* c : g.rows) {
    lo = std::min(lo, value(*c));
    hi = std::max(hi, value(*c));
  }
  return show(lo) == show(hi) ? show(lo) : show(lo) + ".." + show(hi);
}

std::vector<Group> group_changes(const std::vector<Change>& changed,
                                 const std::map<std::string, double>& common, bool fold) {
  std::map<std::string, Group> groups;
  for (const Change& c : changed) {
    Group& g = groups[fold ? fold_key(c.key) : c.key];
    g.rows.push_back(&c);
    g.max_rel = std::max(g.max_rel, std::fabs(c.rel));
  }
  for (const auto& kv : common) {
    const auto it = groups.find(fold ? fold_key(kv.first) : kv.first);
    if (it != groups.end()) ++it->second.total;
  }
  std::vector<Group> out;
  for (auto& [key, g] : groups) {
    g.key = g.rows.size() == 1 ? g.rows[0]->key : key;
    out.push_back(std::move(g));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Group& x, const Group& y) { return x.max_rel > y.max_rel; });
  return out;
}

/// The changed statistics, a line a group (folded rows) and a CSV row each.
void print_stats(RunOutputs& a, RunOutputs& b, const std::vector<Group>& groups, std::ostream& out,
                 CsvRows& csv) {
  Table t({"metric", "unit", "n", "A", "B", "delta", "change"}, {0, 1});
  for (const Group& g : groups) {
    std::string unit = a.stats_unit(g.rows[0]->key);
    if (unit.empty()) unit = b.stats_unit(g.rows[0]->key);  // a statistic folded away in A
    const std::string n = g.rows.size() == g.total ? std::to_string(g.total)
                                                   : std::to_string(g.rows.size()) + "/" +
                                                         std::to_string(g.total);
    t.add({g.key, unit, n, range(g, [](const Change& c) { return c.a; }, num),
           range(g, [](const Change& c) { return c.b; }, num),
           range(g, [](const Change& c) { return c.b - c.a; }, num),
           range(g, [](const Change& c) { return c.rel; }, percent)});
    for (const Change* c : g.rows) {
      csv.push_back({"stats", c->key, "value", unit, num(c->a), num(c->b), num(c->b - c->a),
                     csv_percent(c->rel)});
    }
  }
  out << "\n";
  t.print(out);
}

/// stats.json: the numeric leaves in both runs that differ, largest relative change first;
/// every changed leaf is a CSV row, folded or not.
void compare_stats(RunOutputs& a, RunOutputs& b, bool fold, std::ostream& out, CsvRows& csv) {
  const auto& la = a.stats_leaves();
  const auto& lb = b.stats_leaves();
  std::vector<Change> changed;
  std::map<std::string, double> common;
  std::size_t only_a = 0, only_b = 0;
  // A statistic absent from a run whose stats.json folds zeros (sim/stats.h) is 0 there.
  const bool a0 = a.stats_zeros_folded(), b0 = b.stats_zeros_folded();
  const auto note = [&](const std::string& key, double va, double vb) {
    // A run written before stats.json said µs (ps then): B's value in A's unit.
    const std::string ua = a.stats_unit(key), ub = b.stats_unit(key);
    if (ua != ub && !ua.empty() && !ub.empty()) vb *= unit_factor(ub, ua).value_or(1.0);
    common[key] = va;
    if (va != vb) changed.push_back({key, va, vb, rel_change(va, vb)});
  };
  for (const auto& [key, va] : la) {
    const auto it = lb.find(key);
    if (it != lb.end() || b0) {
      note(key, va, it == lb.end() ? 0.0 : it->second);
    } else {
      ++only_a;
    }
  }
  for (const auto& [key, vb] : lb) {
    if (la.count(key)) continue;
    if (a0) {
      note(key, 0.0, vb);
    } else {
      ++only_b;
    }
  }
  const std::vector<Group> groups = group_changes(changed, common, fold);
  out << "\nstats.json: " << common.size() << " numeric metrics in both, " << changed.size()
      << " changed";
  if (only_a || only_b) out << " (" << only_a << " only in A, " << only_b << " only in B)";
  out << "\n";
  if (groups.size() < changed.size()) {
    out << "(rows that differ only in a core, channel or stream index are one line, `*`: n = "
           "rows changed/rows; --unfold lists each)\n";
  }
  if (!changed.empty()) print_stats(a, b, groups, out, csv);
}

struct OpTimes {
  double count = 0, total = 0;
};

/// op_summary.csv per Op Name: kernels and total Task Duration. Throws MetricError.
std::map<std::string, OpTimes> per_op(RunOutputs& r) {
  std::map<std::string, OpTimes> m;
  const auto& rows = r.op_rows();
  std::size_t c_name = rows[0].size(), c_dur = rows[0].size();
  for (std::size_t c = 0; c < rows[0].size(); ++c) {
    if (rows[0][c] == "Op Name") c_name = c;
    if (rows[0][c] == "Task Duration(us)") c_dur = c;
  }
  if (c_name == rows[0].size() || c_dur == rows[0].size()) {
    throw MetricError(r.dir() + "/op_summary.csv: no 'Op Name' or 'Task Duration(us)' column");
  }
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].size() <= std::max(c_name, c_dur)) continue;
    OpTimes& g = m[rows[i][c_name]];
    g.count += 1;
    g.total += std::strtod(rows[i][c_dur].c_str(), nullptr);
  }
  return m;
}

/// Per operator (Op Name): count, total and mean Task Duration. Throws MetricError.
void compare_ops(RunOutputs& a, RunOutputs& b, std::ostream& out, CsvRows& csv) {
  const auto pa = per_op(a), pb = per_op(b);
  std::set<std::string> names;
  for (const auto& kv : pa) names.insert(kv.first);
  for (const auto& kv : pb) names.insert(kv.first);
  Table t({"op", "quantity", "unit", "A", "B", "delta", "change"}, {0, 1, 2});
  for (const std::string& n : names) {
    const OpTimes ga = pa.count(n) ? pa.at(n) : OpTimes{}, gb = pb.count(n) ? pb.at(n) : OpTimes{};
    const double ma = ga.count ? ga.total / ga.count : 0, mb = gb.count ? gb.total / gb.count : 0;
    const std::tuple<const char*, const char*, double, double> qs[] = {
        {"count", "count", ga.count, gb.count},
        {"total", "us", ga.total, gb.total},
        {"mean", "us", ma, mb}};
    for (const auto& [q, unit, va, vb] : qs) {
      const double rel = rel_change(va, vb);
      t.add({n, q, unit, num(va), num(vb), num(vb - va), percent(rel)});
      csv.push_back({"op", n, q, unit, num(va), num(vb), num(vb - va), csv_percent(rel)});
    }
  }
  out << "\nop_summary.csv: per Op Name (Task Duration)\n\n";
  t.print(out);
}

/// replay_summary.json's simulated_us, when both runs have one.
void compare_replay(RunOutputs& a, RunOutputs& b, std::ostream& out, CsvRows& csv) {
  Metric m;
  m.source = Metric::Source::kReplay;
  m.path = "simulated_us";
  try {
    const double va = a.value(m), vb = b.value(m);
    const std::string u = " " + a.unit(m);
    out << "\nreplay_summary.json simulated_us: A " << num(va) << u << ", B " << num(vb) << u
        << ", delta " << num(vb - va) << u << " (" << percent(rel_change(va, vb)) << ")\n";
    csv.push_back({"replay", "simulated_us", "value", a.unit(m), num(va), num(vb), num(vb - va),
                   csv_percent(rel_change(va, vb))});
  } catch (const MetricError& e) {
    out << "\nreplay_summary.json: " << e.what() << "\n";
  }
}

std::string csv_text(const CsvRows& csv) {
  std::string s;
  for (const auto& row : csv) {
    for (std::size_t c = 0; c < row.size(); ++c) s += (c ? "," : "") + csv_cell(row[c]);
    s += "\n";
  }
  return s;
}

}  // namespace

int run_compare(const std::string& run_a, const std::string& run_b, const std::string& csv_file,
                std::ostream& out, std::ostream& err, bool fold) {
  RunOutputs a(run_a), b(run_b);
  CsvRows csv = {{"section", "name", "quantity", "unit", "a", "b", "delta", "percent"}};
  try {
    a.stats_leaves();  // a run without stats.json is refused before anything is printed
    b.stats_leaves();
    out << "npusim compare: A = " << a.dir() << ", B = " << b.dir() << "\n\n";
    compare_config(run_a, run_b, out, csv);
    compare_stats(a, b, fold, out, csv);
    if (a.has_op_summary() && b.has_op_summary()) {
      compare_ops(a, b, out, csv);
    } else if (a.has_op_summary() != b.has_op_summary()) {
      out << "\nop_summary.csv: only in " << (a.has_op_summary() ? "A" : "B") << ", not compared\n";
    }
  } catch (const MetricError& e) {
    err << "npusim compare: " << e.what() << "\n";
    return 2;
  }
  if (a.has_replay_summary() && b.has_replay_summary()) compare_replay(a, b, out, csv);
  if (!csv_file.empty() && !write_file_atomically(csv_file, csv_text(csv))) {
    err << "npusim compare: cannot write " << csv_file << "\n";
    return 2;
  }
  return 0;
}

}  // namespace npusim::check
