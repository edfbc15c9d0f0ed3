// SPDX-License-Identifier: Apache-2.0
// `npusim check` (judging, the table, JUnit XML; `npusim compare` is compare.cpp). Rule: a value within the tolerance passes; outside it, a change in the target's good
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
#include "tools/check/text.h"
#include "tools/check/units.h"

namespace npusim::check {
namespace {

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

/// " us" after a value in a sentence; nothing for counts (the unit column says "count").
std::string unit_suffix(const std::string& unit) {
  return unit.empty() || unit == "count" ? "" : " " + unit;
}

std::string tolerance_text(const Target& t, const std::string& unit) {
  return t.absolute ? "±" + num(t.tolerance) + unit_suffix(unit)
                    : "±" + num(t.tolerance * 100.0) + "%";
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

Result judge(const Target& t, double actual, const std::string& unit) {
  Result r;
  r.target = &t;
  r.actual = actual;
  r.unit = unit;
  r.error = actual - t.expected;
  r.relative = t.expected != 0 ? r.error / std::fabs(t.expected) : 0.0;
  const double allowed = t.absolute ? t.tolerance : t.tolerance * std::fabs(t.expected);
  // A rounding margin so that a value exactly at the tolerance passes.
  const double slack = 1e-12 * std::max(std::fabs(t.expected), std::fabs(actual));
  const std::string u = unit_suffix(unit);
  const std::string what = "expected " + num(t.expected) + u + " " + tolerance_text(t, unit) +
                           ", actual " + num(actual) + u + " (" +
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
      const double v = run.value(t.metric);
      out.push_back(judge(t, v, run.unit(t.metric)));
    } catch (const MetricError& e) {
      Result r;
      r.target = &t;
      r.unit = t.metric.unit;
      r.verdict = Verdict::kError;
      r.actual = std::numeric_limits<double>::quiet_NaN();
      r.message = std::string(e.what());
      out.push_back(r);
    }
  }
  return out;
}

void print_table(const std::vector<Result>& results, std::ostream& out) {
  Table table({"target", "unit", "expected", "tolerance", "actual", "error %", "result"}, {0, 1, 6});
  int counts[4] = {0, 0, 0, 0};
  for (const Result& r : results) {
    const Target& t = *r.target;
    ++counts[static_cast<int>(r.verdict)];
    const bool have = r.verdict != Verdict::kError;
    table.add({t.name, r.unit, num(t.expected), tolerance_text(t, r.unit), have ? num(r.actual) : "-",
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
    const std::string u = unit_suffix(r.unit);
    const std::string detail = "metric: " + t.metric.describe() + "\nexpected: " + num(t.expected) +
                               u + " " + tolerance_text(t, r.unit) + "\nactual: " +
                               (r.verdict == Verdict::kError ? "-" : num(r.actual) + u) + "\n";
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

}  // namespace npusim::check
