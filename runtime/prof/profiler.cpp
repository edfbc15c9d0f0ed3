// SPDX-License-Identifier: Apache-2.0
#include "runtime/prof/profiler.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/log.h"

namespace npusim::rt {
namespace {

namespace fs = std::filesystem;

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

// Picoseconds as microseconds with 6 decimals (exact: 1 us = 10^6 ps).
std::string us(SimTime ps) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
  return buf;
}

bool write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    sim::log_error("npusim: cannot write " + p.string());
    return false;
  }
  return true;
}

}  // namespace

void Profiler::init(std::string path) {
  initialized_ = true;
  path_ = std::move(path);
}

void Profiler::start(const void* config, SimTime at) {
  started_config_ = config;
  session_start_ = at;
}

void Profiler::stop(Backend& backend) {
  started_config_ = nullptr;
  ++sessions_;
  char name[32];
  std::snprintf(name, sizeof name, "PROF_%06d_npusim", sessions_);
  const fs::path dir = fs::path(path_) / name / "mindstudio_profiler_output";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    sim::log_error("npusim: cannot create profiling directory " + dir.string() + ": " +
                   ec.message());
    return;
  }
  write_file(dir / "msprof_tx.csv", tx_csv(session_start_));
  const std::string out = backend.output_dir();
  if (out.empty()) return;  // no timeline was recorded (NPUSIM_OUT not set)
  backend.write_outputs();
  for (const auto& [from, to] : {std::pair<const char*, const char*>{"timeline.json", "msprof.json"},
                                 {"op_summary.csv", "op_summary.csv"}}) {
    fs::copy_file(fs::path(out) / from, dir / to, fs::copy_options::overwrite_existing, ec);
    if (ec) sim::log_error("npusim: cannot copy " + std::string(from) + ": " + ec.message());
  }
}

void Profiler::mark(Backend& backend, std::uint32_t thread, std::string domain,
                    std::string message, SimTime at) {
  backend.trace_host(thread, message.c_str(), at, at);
  records_.push_back({"marker", std::move(domain), std::move(message), thread, at, at, false});
}

std::size_t Profiler::open_range(std::string kind, std::uint32_t thread, std::string domain,
                                 std::string message, SimTime at) {
  records_.push_back({std::move(kind), std::move(domain), std::move(message), thread, at, at, true});
  return records_.size() - 1;
}

void Profiler::close_range(Backend& backend, std::size_t index, SimTime at) {
  TxRecord& r = records_.at(index);
  r.end = at;
  r.open = false;
  backend.trace_host(r.thread, r.message.c_str(), r.start, r.end);
}

std::string Profiler::tx_csv(SimTime from) const {
  std::string out = "event_type,domain,message,thread_id,start_time(us),end_time(us),duration(us)\n";
  for (const TxRecord& r : records_) {
    if (r.open || r.start < from) continue;
    out += r.kind + "," + csv_field(r.domain) + "," + csv_field(r.message) + "," +
           std::to_string(r.thread) + "," + us(r.start) + "," + us(r.end) + "," +
           us(r.end - r.start) + "\n";
  }
  return out;
}

void Profiler::write_outputs(Backend& backend) const {
  const std::string out = backend.output_dir();
  if (out.empty()) return;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (!ec) write_file(fs::path(out) / "msprof_tx.csv", tx_csv(0));
}

void Profiler::reset() {
  initialized_ = false;
  path_.clear();
  started_config_ = nullptr;
  session_start_ = 0;
  sessions_ = 0;
  settings_.clear();
  configs_.clear();
  stamps_.clear();
  steps_.clear();
  domains_.clear();
  subscribe_configs_.clear();
  model_devices_.clear();
  // aclFinalize ends the subscriptions still open as aclprofModelUnSubscribe would: their fds
  // are closed, so readers see end of file.
  for (const auto& [model, fd] : subscriptions_) ::close(fd);
  subscriptions_.clear();
  records_.clear();
  push_stacks_.clear();
  last_range_id_ = 0;
  ranges_.clear();
}

}  // namespace npusim::rt
