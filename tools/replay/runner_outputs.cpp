// SPDX-License-Identifier: Apache-2.0
// The replay runner's results (tools/replay/runner_internal.h): the `expect:` checks of the
// tensors read back after the run, --dump files, replay_summary.json, and what is printed at
// the end (counts, simulated and captured times, wall time, kernel time per OP Type).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "tools/replay/elements.h"
#include "tools/replay/runner_internal.h"

namespace npusim::replay {
namespace {

namespace fs = std::filesystem;

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
  }
  return out + "\"";
}

/// `"type": count` members of a JSON object, after others when `first` is false.
void json_counts(std::ostringstream& j, const std::map<std::string, std::pair<int, std::string>>& m,
                 bool& first) {
  for (const auto& [type, c] : m) {
    j << (first ? "" : ", ") << json_string(type) << ": " << c.first;
    first = false;
  }
}

int total_count(const std::map<std::string, std::pair<int, std::string>>& m) {
  int n = 0;
  for (const auto& kv : m) n += kv.second.first;
  return n;
}

}  // namespace

// ---- checks and dumps ----

bool Runner::read_back(std::size_t i, std::vector<char>& host) const {
  if (host.empty()) return true;
  const aclError st =
      aclrtMemcpy(host.data(), host.size(), dev_[i], host.size(), ACL_MEMCPY_DEVICE_TO_HOST);
  if (st == ACL_SUCCESS) return true;
  std::cerr << "npusim replay: reading " << t_.tensors[i].where << " failed: " << st
            << recent_error() << "\n";
  return false;
}

/// --dump's directory exists (made now if need be) and takes files: checked before the run, so
/// that a run whose results cannot be kept does not start. False (reported) otherwise.
bool Runner::dump_dir_writable() const {
  if (o_.dump_dir.empty()) return true;
  std::error_code ec;
  fs::create_directories(o_.dump_dir, ec);
  const fs::path probe = fs::path(o_.dump_dir) / ".npusim_dump_probe";
  const bool ok = !ec && std::ofstream(probe, std::ios::binary).good();
  std::error_code ignored;
  fs::remove(probe, ignored);
  if (!ok) {
    std::cerr << "npusim replay: --dump " << o_.dump_dir << ": cannot write files there"
              << (ec ? " (" + ec.message() + ")" : std::string()) << "\n";
  }
  return ok;
}

/// Writes `t` as DIR/<name>.bin; false (reported) when the file cannot be written in full.
bool Runner::dump(const Tensor& t, const std::vector<char>& host) const {
  const fs::path file = fs::path(o_.dump_dir) / (t.name + ".bin");
  std::ofstream out(file, std::ios::binary);
  out.write(host.data(), static_cast<std::streamsize>(host.size()));
  out.close();
  if (out) return true;
  std::cerr << "npusim replay: --dump: writing " << file.string() << " failed\n";
  return false;
}

/// Compares a tensor read back with its `expect:` and prints the verdict; false when it differs.
bool Runner::check(const Tensor& t, const std::vector<char>& host) {
  const std::size_t es = dtype_size(t.dtype);
  const auto n = static_cast<std::size_t>(t.elements());
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < n; ++k) {
    const double got = load_element(t.dtype, host.data() + k * es);
    const double want = t.expect.single ? t.expect.values[0] : t.expect.values[k];
    const bool ok = std::fabs(got - want) <= t.expect.atol + t.expect.rtol * std::fabs(want);
    if (!ok && bad++ < 3) first << " [" << k << "] " << got << " (expected " << want << ")";
  }
  if (bad == 0) {
    ++checks_passed_;
    std::cout << "  check " << t.name << ": OK (" << n << " elements)\n";
    return true;
  }
  std::cout << "  check " << t.name << ": FAILED, " << bad << " of " << n
            << " elements differ:" << first.str() << "\n";
  return false;
}

int Runner::check_and_dump() {
  int failed = 0;
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    const Tensor& t = t_.tensors[i];
    const bool dump_it = !o_.dump_dir.empty() && t.role == Role::kOutput;
    if ((!t.expect.present && !dump_it) || dev_[i] == nullptr) continue;
    std::vector<char> host(static_cast<std::size_t>(t.elements()) * dtype_size(t.dtype));
    if (!read_back(i, host)) {
      ++failed;
      continue;
    }
    if (dump_it && !dump(t, host)) ++failed;
    if (!t.expect.present) continue;
    if (o_.timing_only) {  // the kernels computed nothing: there is no result to judge
      ++checks_skipped_;
      std::cout << "  check " << t.name << ": skipped (timing-only run: results are undefined)\n";
      continue;
    }
    if (!check(t, host)) ++failed;
  }
  return failed;
}

// ---- replay_summary.json and the printed summary ----

void Runner::report_rejected() const {
  for (const auto& [type, r] : rejected_) {
    std::cerr << "npusim replay: op type " << type << " (" << r.first
              << (r.first == 1 ? " op" : " ops")
              << "): refused by its operator, not run; first: " << r.second << "\n";
  }
}

void Runner::write_summary(int ops_run, double simulated_us, int checks_failed) {
  if (o_.out_dir.empty()) return;
  std::ostringstream j;
  j << "{\n  \"trace\": " << json_string(t_.name) << ",\n  \"ops_run\": " << ops_run
    << ",\n  \"iterations\": " << o_.repeat << ",\n  \"streams\": " << t_.streams
    << ",\n  \"sync_per_op\": " << (o_.sync_per_op ? "true" : "false")
    << ",\n  \"simulated_us\": " << fmt_us(simulated_us) << ",\n  \"skipped\": {";
  bool first = true;
  json_counts(j, missing_, first);
  json_counts(j, t_.unsupported, first);
  j << "},\n  \"rejected\": {";
  first = true;
  json_counts(j, rejected_, first);
  j << "},\n  \"checks_passed\": " << checks_passed_
    << ",\n  \"checks_skipped\": " << checks_skipped_
    << ",\n  \"checks_failed\": " << checks_failed << "\n}\n";
  std::ofstream out(fs::path(o_.out_dir) / "replay_summary.json");
  out << j.str();
}

void Runner::print_counts(int ops_run) const {
  const int skipped = total_count(missing_);
  std::cout << "  ops run: " << ops_run << " (" << t_.ops.size() - static_cast<std::size_t>(skipped)
            << " per iteration x " << o_.repeat << ")";
  if (skipped > 0) std::cout << ", " << skipped << " skipped per iteration";
  const int rejected = total_count(rejected_);
  if (rejected > 0) std::cout << ", " << rejected << " refused by their operator";
  if (!t_.unsupported.empty()) {
    std::cout << ", " << total_count(t_.unsupported) << " of " << t_.csv_rows
              << " CSV rows not replayable";
  }
  std::cout << "; streams: " << t_.streams << (o_.sync_per_op ? " (synchronous per op)" : "")
            << "\n";
}

void Runner::print_times(double simulated_us) const {
  std::cout << "  simulated end-to-end: " << fmt_us(simulated_us) << " us";
  if (o_.repeat > 1) std::cout << " (" << fmt_us(simulated_us / o_.repeat) << " us per iteration)";
  std::cout << "\n";
  double captured = 0;
  int with = 0;
  for (std::size_t i = 0; i < t_.ops.size(); ++i) {
    if (!skip_[i] && t_.ops[i].captured_us >= 0) captured += t_.ops[i].captured_us, ++with;
  }
  if (with > 0) {
    std::cout << "  captured (msprof, sum of Task Duration of the replayed rows): "
              << fmt_us(captured * o_.repeat) << " us\n";
  }
}

void Runner::print_results(const Outcome& outcome, double wall_s) const {
  std::cout << "npusim replay: " << t_.name
            << (t_.description.empty() ? "" : " (" + t_.description + ")") << "\n";
  print_counts(outcome.ops_run);
  if (outcome.ran) print_times(outcome.simulated_us);
  std::cout << "  wall time: " << std::fixed << std::setprecision(3) << outcome.run_wall_s
            << " s running the ops, " << wall_s << " s in all\n";
  if (outcome.ran && !o_.out_dir.empty()) print_op_types(o_.out_dir);
  if (!o_.out_dir.empty()) {
    std::cout << "  outputs in " << o_.out_dir
              << " (timeline.json, stats.json, op_summary.csv, config.yaml, replay_summary.json)\n";
  }
}

// ---- kernel time per OP Type ----

namespace {

using TypeTimes = std::map<std::string, std::pair<int, double>>;  // OP Type → kernels, us

/// op_summary.csv rows summed per OP Type (rows without a number are left out); false when the
/// file lacks the columns.
bool sum_by_type(const std::vector<std::vector<std::string>>& rows, TypeTimes& by_type,
                 double& total) {
  long type_col = -1, dur_col = -1;
  for (std::size_t i = 0; i < rows[0].size(); ++i) {
    if (rows[0][i] == "OP Type") type_col = static_cast<long>(i);
    if (rows[0][i] == "Task Duration(us)") dur_col = static_cast<long>(i);
  }
  if (type_col < 0 || dur_col < 0) return false;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() <= static_cast<std::size_t>(std::max(type_col, dur_col))) continue;
    double us = 0;
    try {
      us = std::stod(rows[r][static_cast<std::size_t>(dur_col)]);
    } catch (const std::exception&) {
      continue;
    }
    auto& slot = by_type[rows[r][static_cast<std::size_t>(type_col)]];
    ++slot.first;
    slot.second += us;
    total += us;
  }
  return true;
}

}  // namespace

void print_op_types(const std::string& out_dir) {
  std::ifstream in(fs::path(out_dir) / "op_summary.csv", std::ios::binary);
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  const auto rows = parse_csv(text.str());
  TypeTimes by_type;
  double total = 0;
  if (rows.size() < 2 || !sum_by_type(rows, by_type, total)) return;
  std::vector<std::pair<std::string, std::pair<int, double>>> sorted(by_type.begin(),
                                                                     by_type.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  std::cout << "  kernel time by OP Type (op_summary.csv, Task Duration):\n";
  for (const auto& [type, v] : sorted) {
    std::cout << "    " << std::left << std::setw(28) << type << std::right << std::setw(6)
              << v.first << std::setw(14) << fmt_us(v.second) << " us" << std::setw(8) << std::fixed
              << std::setprecision(1) << (total > 0 ? 100.0 * v.second / total : 0.0) << " %\n";
  }
}

}  // namespace npusim::replay
