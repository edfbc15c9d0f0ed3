// SPDX-License-Identifier: Apache-2.0
#include "runtime/prof/profiler.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "runtime/prof/msprof_summaries.h"
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

// device_<n>/info.json: what the session's device is.
std::string device_info(const models::ChipConfig& cfg, std::uint32_t device) {
  const bool split = cfg.generation().split_cores && cfg.aicore.vector_cores > 0;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\n  \"device_id\": %u,\n  \"soc\": \"%s\",\n  \"npu_arch\": %lld,\n"
                "  \"ai_core_frequency(MHz)\": %.0f,\n  \"cube_cores\": %lld,\n"
                "  \"vector_cores\": %lld\n}\n",
                device, cfg.soc.name.c_str(), static_cast<long long>(cfg.soc.npu_arch),
                cfg.aicore.frequency.hz / 1e6, static_cast<long long>(cfg.aicore.cube_cores),
                static_cast<long long>(split ? cfg.aicore.vector_cores : 0));
  return buf;
}

const char* const kReadme =
    "npusim profiling session (msprof's layout; runtime/prof/profiler.h)\n"
    "msprof_<s>.json        timeline (Chrome trace JSON: ui.perfetto.dev, MindStudio Insight)\n"
    "op_summary_<s>.csv     one row per kernel task started in the session\n"
    "op_statistic_<s>.csv   per OP Type and Core Type: count, total/min/avg/max time, ratio\n"
    "api_statistic_<s>.csv  per host API (AscendCL level): time, count, avg/min/max, variance\n"
    "task_time_<s>.csv      one row per device task: kernel name and type, stream, task, times\n"
    "msprof_tx_<s>.csv      markers and ranges (aclprofMark/Push/RangeStart, mstx)\n"
    "<s> is the session's number. Times in microseconds of simulated time.\n";

}  // namespace

void Profiler::init(std::string path) {
  initialized_ = true;
  path_ = std::move(path);
}

void Profiler::start(Backend& backend, const void* config, SimTime at) {
  started_config_ = config;
  session_start_ = at;
  backend.start_profiling();
}

void Profiler::stop(Backend& backend) {
  const ProfConfig* config = configs_.find(started_config_);
  const std::vector<std::uint32_t> devices = config != nullptr ? config->devices
                                                                : std::vector<std::uint32_t>{};
  started_config_ = nullptr;
  ++sessions_;
  char stamp[16];
  std::snprintf(stamp, sizeof stamp, "%06d", sessions_);
  const fs::path root = fs::path(path_) / ("PROF_" + std::string(stamp) + "_npusim");
  const fs::path dir = root / "mindstudio_profiler_output";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    sim::log_error("npusim: cannot create profiling directory " + dir.string() + ": " +
                   ec.message());
  } else {
    write_file(dir / ("msprof_tx_" + std::string(stamp) + ".csv"), tx_csv(session_start_));
    write_session(backend, root.string(), stamp, devices);
  }
  backend.stop_profiling();
}

void Profiler::write_session(Backend& backend, const std::string& root, const std::string& stamp,
                             const std::vector<std::uint32_t>& devices) const {
  const models::ChipConfig& cfg = backend.config();
  for (std::uint32_t d : devices) {
    const fs::path dev = fs::path(root) / ("device_" + std::to_string(d));
    std::error_code ec;
    fs::create_directories(dev, ec);
    if (!ec) write_file(dev / "info.json", device_info(cfg, d));
  }
  const fs::path dir = fs::path(root) / "mindstudio_profiler_output";
  write_file(dir / "README.txt", kReadme);
  if (!backend.write_profile(dir.string(), stamp, session_start_)) return;
  const fs::path timeline = dir / ("msprof_" + stamp + ".json");
  std::ifstream in(timeline, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    const TimelineSummaries s =
        summarize_timeline(text, static_cast<double>(session_start_) / 1e6);
    write_file(dir / ("api_statistic_" + stamp + ".csv"), s.api_statistic);
    write_file(dir / ("task_time_" + stamp + ".csv"), s.task_time);
  } catch (const std::exception& e) {
    sim::log_error("npusim: " + timeline.string() + ": " + e.what());
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
