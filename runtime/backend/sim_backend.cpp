// SPDX-License-Identifier: Apache-2.0
// The SystemC backend: the simulated machine (models::System: soc.num_devices chips and their
// links) on one sim::Engine. The only runtime file that includes SystemC or model headers.
//
// Behaviour the runtime relies on:
//  - The simulated system is built and elaborated in the constructor. SystemC allows that once
//    per process: a second make_sim_backend() after the first backend ran throws
//    std::logic_error. Keep the backend for the process lifetime.
//  - submit() only queues (the kernel is paused); simulated time advances in run_until() and
//    discard_stream(). Every completion re-tests blocked waits on all devices and ends the current
//    run_until() slice so its predicate is re-tested.
//  - run_until(): kDone if done() holds (first, then after every completion); kTimeout when time
//    reaches a finite deadline; kStarved when nothing is left to simulate (time does not move),
//    whatever the deadline.
//  - Tracing is on only when NPUSIM_OUT is set (or during a profiling session); write_outputs()
//    (re)writes timeline.json, stats.json and stats.txt (sim/stats.h; NPUSIM_STATS=full writes
//    every statistic, else zeros are folded away), config.yaml and op_summary.csv (one row per
//    finished kernel, all devices) there, creating the directory; failures are logged, not thrown.
//  - NPUSIM_OP_PROFILE_DIR (set by `msprof op` / `msopprof`, tools/opprof): the AI Core engines
//    keep every kernel's per-block profiles and write_outputs() also (re)writes op_profile.json
//    there (models/aicore/op_profile.h), with or without NPUSIM_OUT.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/aicore/op_simulator.h"
#include "models/aicore/op_profile.h"
#include "models/system.h"
#include "models/chip_config_loader.h"
#include "runtime/core/backend.h"
#include "sim/engine.h"
#include "sim/log.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "sim/version.h"

// libsystemc.so references sc_main, so every executable linking libacl_rt.so needs one; this stub
// is exported (weak, so a program or test binary may define its own).
extern "C" __attribute__((weak, visibility("default"))) int sc_main(int, char**) { return 0; }

namespace npusim::rt {
namespace {

constexpr int kHostSortIndex = 7;

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("npusim: cannot write " + path.string());
}

class SimBackend final : public Backend {
 public:
  SimBackend(models::ChipConfig cfg, std::string origin, std::string out_dir,
             sim::StatsOutput stats_output, std::string op_profile_dir);

  const models::ChipConfig& config() const override { return cfg_; }
  void submit(Task task) override;
  WaitResult run_until(const std::function<bool()>& done, SimTime deadline) override;
  SimTime now() const override { return engine_.now(); }
  void discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) override;
  void trace_api(std::uint32_t thread, const char* function, SimTime start, SimTime end,
                 std::uint64_t flow_id) override;
  void trace_host(std::uint32_t thread, const char* name, SimTime start, SimTime end) override;
  void advance_to(SimTime t) override { engine_.advance_to(t); }
  void write_outputs() override;
  std::string output_dir() const override { return out_dir_; }
  void start_profiling() override;
  void stop_profiling() override;
  bool write_profile(const std::string& dir, const std::string& stamp, SimTime from) override;

 private:
  std::string op_summary() const;
  void write_op_profile();
  bool keeps_records() const { return !out_dir_.empty() || !op_dir_.empty(); }
  int host_track(std::uint32_t thread);

  models::ChipConfig cfg_;
  std::string origin_;
  // The effective config as written to config.yaml, rendered once up front: outputs may be
  // written from an atexit hook, after yaml-cpp's own static tables are gone.
  std::string config_yaml_;
  std::string out_dir_;
  std::string op_dir_;  // NPUSIM_OP_PROFILE_DIR
  sim::StatsOutput stats_output_;  // NPUSIM_STATS
  sim::Engine engine_;  // before every SystemC object
  sim::StatGroup stats_{"npusim"};
  sim::TraceWriter trace_;
  models::System system_;
  std::vector<bool> host_threads_;  // timeline thread declared
  std::string api_name_;            // trace_api's "AscendCL@<name>"
  int host_pid_ = 0;
  std::uint64_t sim_time_ = 0;  // refreshed for stats.json
  std::uint64_t functional_ = 1;  // aicore.functional, in stats.json
};

SimBackend::SimBackend(models::ChipConfig cfg, std::string origin, std::string out_dir,
                       sim::StatsOutput stats_output, std::string op_profile_dir)
    : cfg_(std::move(cfg)), origin_(std::move(origin)),
      config_yaml_(models::effective_config_yaml(cfg_, origin_)), out_dir_(std::move(out_dir)),
      op_dir_(std::move(op_profile_dir)), stats_output_(stats_output), trace_(!out_dir_.empty()),
      system_(cfg_, stats_, trace_) {
  stats_.add("sim_time", sim_time_, "ps", "simulated time at the last output");
  functional_ = cfg_.aicore.functional ? 1 : 0;
  stats_.add("functional", functional_, "bool",
             "aicore.functional: 1 = kernels computed their results; 0 = timing-only run, the "
             "results kernels wrote to device memory are undefined");
  if (!cfg_.aicore.functional) {
    sim::log_warn(
        "npusim: timing-only run (aicore.functional: false): kernels record their pipe "
        "instructions but compute nothing; results they write to device memory are undefined");
  }
  host_pid_ = trace_.process("CANN", "CPU", kHostSortIndex);
  system_.set_completion_hook([this] {
    system_.reevaluate_waits();
    engine_.wake();
  });
  system_.keep_kernel_records(keeps_records());  // for op_summary.csv and op_profile.json only
  system_.keep_block_profiles(!op_dir_.empty());
  engine_.elaborate();
}

std::string SimBackend::op_summary() const {
  return models::op_summary_csv(system_.kernel_records(),
                                {cfg_.aicore.frequency.hz, cfg_.aicore.cube_cores});
}

// A run with an output directory records everything anyway; one without records the session.
void SimBackend::start_profiling() {
  if (!out_dir_.empty()) return;
  trace_.clear();
  trace_.set_enabled(true);
  system_.keep_kernel_records(true);
}

void SimBackend::stop_profiling() {
  if (!out_dir_.empty()) return;
  trace_.set_enabled(false);
  system_.keep_kernel_records(keeps_records());
}

void SimBackend::write_op_profile() {
  if (op_dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(op_dir_, ec);
  if (ec) {
    sim::log_error("npusim: cannot create NPUSIM_OP_PROFILE_DIR " + op_dir_ + ": " + ec.message());
    return;
  }
  models::OpProfileParams params;
  params.soc = cfg_.soc.name;
  params.frequency_hz = cfg_.aicore.frequency.hz;
  params.cube_cores = cfg_.aicore.cube_cores;
  params.vector_cores = cfg_.aicore.vector_cores;
  params.coupled = !cfg_.generation().split_cores;
  try {
    write_text(std::filesystem::path(op_dir_) / "op_profile.json",
               models::op_profile_json(system_.kernel_records(), params));
  } catch (const std::exception& e) {
    sim::log_error(e.what());
  }
}

bool SimBackend::write_profile(const std::string& dir, const std::string& stamp, SimTime from) {
  if (!trace_.enabled()) return false;
  const std::filesystem::path d(dir);
  std::vector<models::KernelRecord> records = system_.kernel_records();
  records.erase(std::remove_if(records.begin(), records.end(),
                               [from](const models::KernelRecord& r) { return r.start < from; }),
                records.end());
  try {
    trace_.write((d / ("msprof_" + stamp + ".json")).string());
    write_text(d / ("op_summary_" + stamp + ".csv"),
               models::op_summary_csv(records, {cfg_.aicore.frequency.hz, cfg_.aicore.cube_cores}));
    write_text(d / ("op_statistic_" + stamp + ".csv"), models::op_statistic_csv(records));
  } catch (const std::exception& e) {
    sim::log_error(e.what());
    return false;
  }
  return true;
}

void SimBackend::submit(Task task) { system_.device(task.device).scheduler().submit(std::move(task)); }

WaitResult SimBackend::run_until(const std::function<bool()>& done, SimTime deadline) {
  system_.reevaluate_waits();  // host-side state may have released a wait since the last run
  return engine_.run_until(done, deadline);
}

void SimBackend::discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) {
  models::TaskScheduler& sched = system_.device(device).scheduler();
  engine_.advance_to(at);
  sched.discard(stream);
  system_.reevaluate_waits();
}

void SimBackend::trace_api(std::uint32_t thread, const char* function, SimTime start,
                           SimTime end, std::uint64_t flow_id) {
  if (!trace_.enabled()) return;
  const int tid = host_track(thread);
  api_name_.assign("AscendCL@").append(function);  // a reused buffer: no allocation per call
  trace_.complete(host_pid_, tid, api_name_, start, end,
                  {sim::TraceField::num("Thread Id", thread), sim::TraceField::str("level", "acl"),
                   sim::TraceField::num("connection_id", static_cast<double>(flow_id))});
  // Bind the arrow's tail inside the span (its ends may touch the neighbouring spans).
  if (flow_id != 0) trace_.flow_begin(host_pid_, tid, flow_id, start + (end - start) / 2);
}

int SimBackend::host_track(std::uint32_t thread) {
  const int tid = static_cast<int>(thread);
  if (thread >= host_threads_.size()) host_threads_.resize(thread + 1, false);
  if (!host_threads_[thread]) {
    host_threads_[thread] = true;
    trace_.thread(host_pid_, tid, "Thread " + std::to_string(thread), tid);
  }
  return tid;
}

void SimBackend::trace_host(std::uint32_t thread, const char* name, SimTime start, SimTime end) {
  if (!trace_.enabled()) return;
  const int tid = host_track(thread);
  trace_.complete(host_pid_, tid, name, start, end, {sim::TraceField::num("Thread Id", thread)});
}

// stats.json: the statistics tree after a first entry that names the simulator which made them,
// in the shape of a statistic (scripts that walk the file expect {value, unit, desc} leaves; its
// value is text, which tools reading numbers skip).
std::string versioned(const std::string& stats_json) {
  nlohmann::ordered_json out;
  out["npusim_version"] = {{"value", sim::version_string()},
                           {"unit", ""},
                           {"desc", "the npusim that wrote this file (npusim --version)"}};
  out.update(nlohmann::ordered_json::parse(stats_json));
  return out.dump(2);
}

// Output problems are reported on stderr, never thrown: this also runs from an atexit hook.
void SimBackend::write_outputs() {
  if (models::OpSimulator* op = models::OpSimulator::process()) op->write();
  write_op_profile();
  if (out_dir_.empty()) return;
  namespace fs = std::filesystem;
  const fs::path dir(out_dir_);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    sim::log_error("npusim: cannot create output directory " + out_dir_ + ": " + ec.message());
    return;
  }
  sim_time_ = engine_.now();
  try {
    trace_.write((dir / "timeline.json").string());
    write_text(dir / "stats.json", versioned(sim::stats_json(stats_, stats_output_)) + "\n");
    write_text(dir / "stats.txt", sim::stats_text(stats_, stats_output_));
    write_text(dir / "config.yaml", config_yaml_);
    write_text(dir / "op_summary.csv", op_summary());
  } catch (const std::exception& e) {
    sim::log_error(e.what());
  }
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// NPUSIM_OUT may hold "%p": the program's name and arguments, each path by its last component
// ("proc_b-1-1"), so processes of one session that share the variable write to directories of
// their own (a name that does not depend on pids or on the order they start in).
std::string output_dir_from_env() {
  std::string out = env_or_empty("NPUSIM_OUT");
  const std::size_t at = out.find("%p");
  if (at == std::string::npos) return out;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string name;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= cmdline.size(); ++i) {
    if (i < cmdline.size() && cmdline[i] != '\0') continue;
    std::string arg = cmdline.substr(start, i - start);
    start = i + 1;
    while (arg.size() > 1 && arg.back() == '/') arg.pop_back();
    const std::size_t slash = arg.rfind('/');  // a path stands for its last component
    if (slash != std::string::npos && slash + 1 < arg.size()) arg = arg.substr(slash + 1);
    if (arg.empty()) continue;
    if (!name.empty()) name += '-';
    for (char c : arg) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
      name += ok ? c : '_';
    }
  }
  return out.replace(at, 2, name.empty() ? "program" : name);
}

// NPUSIM_STATS: "full" writes every statistic, "changed" (the default) folds zeros away.
sim::StatsOutput stats_output_from_env() {
  const std::string v = env_or_empty("NPUSIM_STATS");
  if (v.empty() || v == "changed") return sim::StatsOutput{false};
  if (v == "full") return sim::StatsOutput{true};
  throw std::runtime_error("NPUSIM_STATS: '" + v + "' is not one of: changed, full");
}

}  // namespace

std::unique_ptr<Backend> make_sim_backend() {
  models::ChipConfig cfg = models::config_from_env();
  return std::make_unique<SimBackend>(std::move(cfg), models::config_origin_from_env(),
                                      output_dir_from_env(), stats_output_from_env(),
                                      env_or_empty("NPUSIM_OP_PROFILE_DIR"));
}

}  // namespace npusim::rt
