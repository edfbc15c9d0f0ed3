// SPDX-License-Identifier: Apache-2.0
// The unit table: every unit a metric may be in, its kind and its factor to the kind's base
// unit; and the names that imply a unit (docs/check.md, "Units").
#include "tools/check/units.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace npusim::check {
namespace {

struct UnitDef {
  const char* name;
  const char* kind;
  double factor;  // to the kind's base unit
};

// Decimal prefixes for sizes and bandwidths, as the config's values (16GB/s = 16e9 B/s).
const UnitDef kUnits[] = {
    {"ps", "time", 1e-12},   {"ns", "time", 1e-9},       {"us", "time", 1e-6},
    {"ms", "time", 1e-3},    {"s", "time", 1},           {"B", "size", 1},
    {"KB", "size", 1e3},     {"MB", "size", 1e6},        {"GB", "size", 1e9},
    {"TB", "size", 1e12},    {"KiB", "size", 1024.0},    {"MiB", "size", 1048576.0},
    {"GiB", "size", 1073741824.0},                       {"B/s", "bandwidth", 1},
    {"KB/s", "bandwidth", 1e3},                          {"MB/s", "bandwidth", 1e6},
    {"GB/s", "bandwidth", 1e9},                          {"TB/s", "bandwidth", 1e12},
    {"Hz", "frequency", 1},  {"kHz", "frequency", 1e3},  {"MHz", "frequency", 1e6},
    {"GHz", "frequency", 1e9},                           {"ratio", "ratio", 1},
    {"%", "ratio", 0.01},    {"FLOPS", "flops", 1},      {"GFLOPS", "flops", 1e9},
    {"TFLOPS", "flops", 1e12},                           {"count", "count", 1},
    {"cycles", "cycles", 1}, {"bool", "bool", 1},
};

const UnitDef* find_unit(const std::string& name) {
  const std::string c = canonical_unit(name);
  for (const UnitDef& u : kUnits) {
    if (c == u.name) return &u;
  }
  return nullptr;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// "Task Duration(us)" -> "us": a known unit in parentheses at the end of a column name.
std::string parenthesised_unit(const std::string& name) {
  const std::size_t open = name.rfind('(');
  if (open == std::string::npos || name.back() != ')') return "";
  return canonical_unit(name.substr(open + 1, name.size() - open - 2));
}

}  // namespace

std::string canonical_unit(const std::string& unit) {
  if (unit == "µs" || unit == "μs") return "us";
  for (const UnitDef& u : kUnits) {
    if (unit == u.name) return unit;
  }
  return "";
}

std::string known_units() {
  std::string out;
  for (const UnitDef& u : kUnits) out += (out.empty() ? "" : ", ") + std::string(u.name);
  return out;
}

std::optional<double> unit_factor(const std::string& from, const std::string& to) {
  const UnitDef* f = find_unit(from);
  const UnitDef* t = find_unit(to);
  if (f == nullptr || t == nullptr || std::string(f->kind) != t->kind) return std::nullopt;
  return f->factor / t->factor;
}

std::string unit_from_name(const std::string& name) {
  if (const std::string u = parenthesised_unit(name); !u.empty()) return u;
  std::string n = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  // Suffix -> unit, the longer suffixes first (`_gbps` before `_s`).
  static const std::vector<std::pair<std::string, std::string>> kSuffixes = {
      {"utilization", "ratio"}, {"efficiency", "ratio"}, {"rate", "ratio"},
      {"ratio", "ratio"},       {"_gbps", "GB/s"},       {"_tflops", "TFLOPS"},
      {"bytes", "B"},           {"cycles", "cycles"},
      {"_ps", "ps"},            {"_ns", "ns"},           {"_us", "us"},
      {"_ms", "ms"},            {"_s", "s"}};
  for (const auto& [tail, unit] : kSuffixes) {
    if (ends_with(n, tail)) return unit;
  }
  // The scheduler's throughput and turnaround figures are ratios of times.
  if (n == "stp" || n == "antt" || n == "normalized_turnaround") return "ratio";
  return "count";
}

}  // namespace npusim::check
