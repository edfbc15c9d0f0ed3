// SPDX-License-Identifier: Apache-2.0
// `npusim check` (judging, the table, JUnit XML) and `npusim compare` (per-metric and per-op
// deltas). Rule: a value within the tolerance passes; outside it, a change in the target's good
// direction (direction: lower_is_better / higher_is_better) is IMPROVED (it passes, with a note to
// update the target), anything else FAILS.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>

#include "tools/check/check.h"

namespace npusim::check {
namespace {

std::string num(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);  // counts, bytes, picoseconds: every digit
  } else {
    std::snprintf(buf, sizeof(buf), "%.6g", v);
  }
  return buf;
}

std::string percent(double rel) {
  if (std::isnan(rel)) return "n/a";
  if (std::isinf(rel)) return rel > 0 ? "+inf%" : "-inf%";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%+.2f%%", rel * 100.0);
  return buf;
}

/// A percentage as a plain number for CSV: "14.43", "inf", "-inf".
std::string csv_percent(double rel) {
  if (std::isinf(rel)) return rel > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4f", rel * 100.0);
  return buf;
}

/// Relative change of b against a: (b - a) / |a|; ±inf when a is 0 and b is not, 0 when equal.
double rel_change(double a, double b) {
  if (a == b) return 0.0;
  if (a == 0) return b > 0 ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
  return (b - a) / std::fabs(a);
}

/// A plain text table: left-aligned first column, the others right-aligned.
/// Display width of UTF-8 text (continuation bytes take no column).
std::size_t width(const std::string& s) {
  std::size_t n = 0;
  for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

class Table {
 public:
  /// `left`: the columns aligned left (the others right).
  Table(std::vector<std::string> header, std::set<std::size_t> left) : left_(std::move(left)) {
    rows_.push_back(std::move(header));
  }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const {
    std::vector<std::size_t> w;
    for (const auto& r : rows_) {
      if (w.size() < r.size()) w.resize(r.size(), 0);
      for (std::size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], width(r[c]));
    }
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      std::string line;
      for (std::size_t c = 0; c < rows_[i].size(); ++c) {
        const std::string& s = rows_[i][c];
        const std::string pad(w[c] - width(s), ' ');
        line += (c == 0 ? "" : "  ") + (left_.count(c) ? s + pad : pad + s);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
      if (i == 0) {
        std::size_t total = 0;
        for (std::size_t c = 0; c < w.size(); ++c) total += w[c] + (c ? 2 : 0);
        out << std::string(total, '-') << "\n";
      }
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
  std::set<std::size_t> left_;
};

std::string xml_escape(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters other than tab/newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
          out += ' ';
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string tolerance_text(const Target& t) {
  return t.absolute ? "±" + num(t.tolerance) : "±" + num(t.tolerance * 100.0) + "%";
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "PASS";
    case Verdict::kFail: return "FAIL";
    case Verdict::kImproved: return "IMPROVED";
    case Verdict::kError: return "ERROR";
  }
  return "?";
}

Result judge(const Target& t, double actual) {
  Result r;
  r.target = &t;
  r.actual = actual;
  r.error = actual - t.expected;
  r.relative = t.expected != 0 ? r.error / std::fabs(t.expected) : 0.0;
  const double allowed = t.absolute ? t.tolerance : t.tolerance * std::fabs(t.expected);
  // A rounding margin so that a value exactly at the tolerance passes.
  const double slack = 1e-12 * std::max(std::fabs(t.expected), std::fabs(actual));
  const std::string what = "expected " + num(t.expected) + " " + tolerance_text(t) + ", actual " +
                           num(actual) + " (" +
                           (t.expected != 0 ? percent(r.relative) : "error " + num(r.error)) + ")";
  if (std::fabs(r.error) <= allowed + slack) {
    r.verdict = Verdict::kPass;
    return r;
  }
  const bool better = (t.direction == Direction::kLowerIsBetter && r.error < 0) ||
                      (t.direction == Direction::kHigherIsBetter && r.error > 0);
  if (better) {
    r.verdict = Verdict::kImproved;
    r.message = what + "; " +
                (t.direction == Direction::kLowerIsBetter ? "lower" : "higher") +
                " is better; consider updating the target";
  } else {
    r.verdict = Verdict::kFail;
    r.message = what;
  }
  return r;
}

std::vector<Result> evaluate(const std::vector<Target>& targets, RunOutputs& run) {
  std::vector<Result> out;
  for (const Target& t : targets) {
    try {
      out.push_back(judge(t, run.value(t.metric)));
    } catch (const MetricError& e) {
      Result r;
      r.target = &t;
      r.verdict = Verdict::kError;
      r.actual = std::numeric_limits<double>::quiet_NaN();
      r.message = std::string(e.what());
      out.push_back(r);
    }
  }
  return out;
}

void print_table(const std::vector<Result>& results, std::ostream& out) {
  Table table({"target", "expected", "tolerance", "actual", "error %", "result"}, {0, 5});
  int counts[4] = {0, 0, 0, 0};
  for (const Result& r : results) {
    const Target& t = *r.target;
    ++counts[static_cast<int>(r.verdict)];
    const bool have = r.verdict != Verdict::kError;
    table.add({t.name, num(t.expected), tolerance_text(t), have ? num(r.actual) : "-",
               !have ? "-" : t.expected != 0 ? percent(r.relative) : "n/a",
               verdict_name(r.verdict)});
  }
  table.print(out);
  bool header = false;
  for (const Result& r : results) {
    if (r.message.empty()) continue;
    if (!header) out << "\n";
    header = true;
    out << verdict_name(r.verdict) << " " << r.target->name << " [" << r.target->metric.describe()
        << "]: " << r.message << "\n";
  }
  out << "\n" << results.size() << " targets: " << counts[0] << " passed, " << counts[2]
      << " improved, " << counts[1] << " failed";
  if (counts[3]) out << ", " << counts[3] << " could not be evaluated";
  out << "\n";
}

std::string junit_xml(const std::vector<Result>& results, const std::string& suite) {
  int failures = 0, errors = 0;
  for (const Result& r : results) {
    failures += r.verdict == Verdict::kFail;
    errors += r.verdict == Verdict::kError;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\"";
  x += "<testsuites name=\"npusim check\"" + counts + ">\n";
  x += "  <testsuite name=\"" + xml_escape(suite) + "\"" + counts + " skipped=\"0\">\n";
  for (const Result& r : results) {
    const Target& t = *r.target;
    x += "    <testcase classname=\"npusim.check\" name=\"" + xml_escape(t.name) + "\">\n";
    const std::string detail = "metric: " + t.metric.describe() + "\nexpected: " + num(t.expected) +
                               " " + tolerance_text(t) + "\nactual: " +
                               (r.verdict == Verdict::kError ? "-" : num(r.actual)) + "\n";
    if (r.verdict == Verdict::kFail) {
      x += "      <failure type=\"FAIL\" message=\"" + xml_escape(r.message) + "\">" +
           xml_escape(detail) + "</failure>\n";
    } else if (r.verdict == Verdict::kError) {
      x += "      <error type=\"ERROR\" message=\"" + xml_escape(r.message) + "\">" +
           xml_escape(detail) + "</error>\n";
    } else {
      x += "      <system-out>" +
           xml_escape(detail + (r.message.empty() ? "" : "IMPROVED: " + r.message + "\n")) +
           "</system-out>\n";
    }
    x += "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

namespace {

/// 0 every target passed (or improved), 1 one failed, 2 one could not be evaluated (each named).
int exit_code(const std::vector<Result>& results, const std::string& targets_file,
              std::ostream& err) {
  bool failed = false, errored = false;
  for (const Result& r : results) {
    failed |= r.verdict == Verdict::kFail;
    errored |= r.verdict == Verdict::kError;
  }
  if (!errored) return failed ? 1 : 0;
  for (const Result& r : results) {
    if (r.verdict == Verdict::kError) {
      err << "npusim check: target '" << r.target->name << "' (" << targets_file << ":"
          << r.target->line << "): " << r.message << "\n";
    }
  }
  return 2;
}

}  // namespace

int run_check(const std::string& targets_file, const std::string& run_dir,
              const std::string& junit_file, std::ostream& out, std::ostream& err) {
  std::vector<Target> targets;
  try {
    targets = load_targets(targets_file);
  } catch (const TargetsError& e) {
    err << "npusim check: bad targets file: " << e.what() << "\n";
    return 2;
  }
  if (!std::filesystem::is_directory(run_dir)) {
    err << "npusim check: " << run_dir << ": not a directory (the --out directory of a run)\n";
    return 2;
  }
  RunOutputs run(run_dir);
  const std::vector<Result> results = evaluate(targets, run);
  out << "npusim check: " << targets_file << " against " << run_dir << "\n\n";
  print_table(results, out);
  if (!junit_file.empty()) {
    std::ofstream f(junit_file);
    f << junit_xml(results, std::filesystem::path(targets_file).stem().string());
    if (!f) {
      err << "npusim check: cannot write " << junit_file << "\n";
      return 2;
    }
  }
  return exit_code(results, targets_file, err);
}

namespace {

using CsvRows = std::vector<std::vector<std::string>>;

/// stats.json: the numeric leaves in both runs that differ, largest relative change first.
void compare_stats(RunOutputs& a, RunOutputs& b, std::ostream& out, CsvRows& csv) {
  const auto& la = a.stats_leaves();
  const auto& lb = b.stats_leaves();
  struct Change {
    std::string key;
    double a, b, rel;
  };
  std::vector<Change> changed;
  std::size_t common = 0, only_a = 0, only_b = 0;
  // A statistic absent from a run whose stats.json folds zeros (sim/stats.h) is 0 there.
  const bool a0 = a.stats_zeros_folded(), b0 = b.stats_zeros_folded();
  for (const auto& [key, va] : la) {
    const auto it = lb.find(key);
    if (it == lb.end() && !b0) {
      ++only_a;
      continue;
    }
    ++common;
    const double vb = it == lb.end() ? 0.0 : it->second;
    if (va != vb) changed.push_back({key, va, vb, rel_change(va, vb)});
  }
  for (const auto& kv : lb) {
    if (la.count(kv.first)) continue;
    if (!a0) {
      ++only_b;
      continue;
    }
    ++common;
    if (kv.second != 0) changed.push_back({kv.first, 0.0, kv.second, rel_change(0.0, kv.second)});
  }
  std::stable_sort(changed.begin(), changed.end(), [](const Change& x, const Change& y) {
    return std::fabs(x.rel) > std::fabs(y.rel);
  });
  out << "npusim compare: A = " << a.dir() << ", B = " << b.dir() << "\n\nstats.json: " << common
      << " numeric metrics in both, " << changed.size() << " changed";
  if (only_a || only_b) out << " (" << only_a << " only in A, " << only_b << " only in B)";
  out << "\n";
  if (changed.empty()) return;
  Table t({"metric", "unit", "A", "B", "delta", "change"}, {0, 1});
  for (const Change& c : changed) {
    std::string unit = a.stats_unit(c.key);
    if (unit.empty()) unit = b.stats_unit(c.key);  // a statistic folded away in A
    t.add({c.key, unit, num(c.a), num(c.b), num(c.b - c.a), percent(c.rel)});
    csv.push_back({"stats", c.key, "value", unit, num(c.a), num(c.b), num(c.b - c.a),
                   csv_percent(c.rel)});
  }
  out << "\n";
  t.print(out);
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
  Table t({"op", "quantity", "A", "B", "delta", "change"}, {0, 1});
  for (const std::string& n : names) {
    const OpTimes ga = pa.count(n) ? pa.at(n) : OpTimes{}, gb = pb.count(n) ? pb.at(n) : OpTimes{};
    const double ma = ga.count ? ga.total / ga.count : 0, mb = gb.count ? gb.total / gb.count : 0;
    const std::pair<const char*, std::pair<double, double>> qs[] = {
        {"count", {ga.count, gb.count}},
        {"total_us", {ga.total, gb.total}},
        {"mean_us", {ma, mb}}};
    for (const auto& [q, v] : qs) {
      const double rel = rel_change(v.first, v.second);
      t.add({n, q, num(v.first), num(v.second), num(v.second - v.first), percent(rel)});
      csv.push_back({"op", n, q, std::string(q) == "count" ? "" : "us", num(v.first),
                     num(v.second), num(v.second - v.first), csv_percent(rel)});
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
    out << "\nreplay_summary.json simulated_us: A " << num(va) << ", B " << num(vb) << ", delta "
        << num(vb - va) << " (" << percent(rel_change(va, vb)) << ")\n";
    csv.push_back({"replay", "simulated_us", "value", "us", num(va), num(vb), num(vb - va),
                   csv_percent(rel_change(va, vb))});
  } catch (const MetricError& e) {
    out << "\nreplay_summary.json: " << e.what() << "\n";
  }
}

bool write_csv(const std::string& file, const CsvRows& csv) {
  std::ofstream f(file);
  for (const auto& row : csv) {
    for (std::size_t c = 0; c < row.size(); ++c) f << (c ? "," : "") << csv_cell(row[c]);
    f << "\n";
  }
  return static_cast<bool>(f);
}

}  // namespace

int run_compare(const std::string& run_a, const std::string& run_b, const std::string& csv_file,
                std::ostream& out, std::ostream& err) {
  RunOutputs a(run_a), b(run_b);
  CsvRows csv = {{"section", "name", "quantity", "unit", "a", "b", "delta", "percent"}};
  try {
    compare_stats(a, b, out, csv);
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
  if (!csv_file.empty() && !write_csv(csv_file, csv)) {
    err << "npusim compare: cannot write " << csv_file << "\n";
    return 2;
  }
  return 0;
}

}  // namespace npusim::check
