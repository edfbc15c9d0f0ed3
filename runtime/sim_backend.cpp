// SPDX-License-Identifier: Apache-2.0
// The SystemC backend: one models::Chip per device (soc.num_devices) on one sim::Engine.
// The only runtime file that includes SystemC or model headers.
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
//  - Tracing is on only when NPUSIM_OUT is set; write_outputs() (re)writes timeline.json,
//    stats.json, config.yaml and op_summary.csv (one row per finished kernel, all devices) there,
//    creating the directory; failures are logged, not thrown.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/chip.h"
#include "models/chip_config_loader.h"
#include "runtime/backend.h"
#include "sim/engine.h"
#include "sim/log.h"
#include "sim/stats.h"
#include "sim/trace.h"

// libsystemc.so references sc_main, so every executable linking libacl_rt.so needs one; this stub
// is exported (weak, so a program or test binary may define its own).
extern "C" __attribute__((weak, visibility("default"))) int sc_main(int, char**) { return 0; }

namespace npusim::rt {
namespace {

static_assert(kSyncStream == models::kSyncStreamBase, "sync stream ids must agree");

constexpr int kHostSortIndex = 7;

models::TaskKind to_kind(TaskType type) {
  switch (type) {
    case TaskType::kMemcpy: return models::TaskKind::kCopy;
    case TaskType::kMemset: return models::TaskKind::kMemset;
    case TaskType::kEventRecord: return models::TaskKind::kEventRecord;
    case TaskType::kEventWait: return models::TaskKind::kEventWait;
    case TaskType::kEventReset: return models::TaskKind::kEventReset;
    case TaskType::kValueWrite: return models::TaskKind::kValueWrite;
    case TaskType::kValueWait: return models::TaskKind::kValueWait;
    case TaskType::kKernel: return models::TaskKind::kKernel;
    case TaskType::kHostFunc: return models::TaskKind::kHostFunc;
    case TaskType::kNop: return models::TaskKind::kNop;
  }
  return models::TaskKind::kNop;
}

models::Direction to_direction(CopyPath path) {
  switch (path) {
    case CopyPath::kH2H: return models::Direction::kH2H;
    case CopyPath::kH2D: return models::Direction::kH2D;
    case CopyPath::kD2H: return models::Direction::kD2H;
    case CopyPath::kD2D: return models::Direction::kD2D;
  }
  return models::Direction::kD2D;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("npusim: cannot write " + path.string());
}

models::DeviceTask to_device_task(Task&& task) {
  models::DeviceTask t;
  t.kind = to_kind(task.type);
  t.direction = to_direction(task.path);
  t.pageable = task.pageable;
  t.stream = task.stream;
  t.task_id = task.task_id;
  t.priority = task.priority;
  t.submit_at = task.submit_at;
  t.bytes = task.bytes;
  t.flow_id = task.flow_id;
  t.name = std::move(task.name);
  t.kernel = std::move(task.kernel);
  t.ready = std::move(task.ready);
  t.effect = std::move(task.effect);
  if (task.done) {
    t.done = [done = std::move(task.done)](const models::TaskOutcome& o) {
      done(TaskRecord{o.submit, o.start, o.end, o.error, o.discarded});
    };
  }
  return t;
}

class SimBackend final : public Backend {
 public:
  SimBackend(models::ChipConfig cfg, std::string origin, std::string out_dir);

  const models::ChipConfig& config() const override { return cfg_; }
  void submit(Task task) override;
  WaitResult run_until(const std::function<bool()>& done, SimTime deadline) override;
  SimTime now() const override { return engine_.now(); }
  void discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) override;
  void trace_api(std::uint32_t thread, const std::string& name, SimTime start, SimTime end,
                 std::uint64_t flow_id) override;
  void write_outputs() override;

 private:
  void reevaluate_waits();
  models::TaskScheduler& scheduler(std::uint32_t device);
  std::string op_summary() const;

  models::ChipConfig cfg_;
  std::string origin_;
  // The effective config as written to config.yaml, rendered once up front: outputs may be
  // written from an atexit hook, after yaml-cpp's own static tables are gone.
  std::string config_yaml_;
  std::string out_dir_;
  sim::Engine engine_;  // before every SystemC object
  sim::StatGroup stats_{"npusim"};
  sim::TraceWriter trace_;
  std::vector<std::unique_ptr<models::Chip>> chips_;
  std::vector<bool> host_threads_;  // timeline thread declared
  std::string api_name_;            // trace_api's "AscendCL@<name>"
  int host_pid_ = 0;
  std::uint64_t sim_time_ = 0;  // refreshed for stats.json
};

SimBackend::SimBackend(models::ChipConfig cfg, std::string origin, std::string out_dir)
    : cfg_(std::move(cfg)), origin_(std::move(origin)),
      config_yaml_(models::effective_config_yaml(cfg_, origin_)), out_dir_(std::move(out_dir)),
      trace_(!out_dir_.empty()) {
  stats_.add("sim_time", sim_time_, "ps", "simulated time at the last output");
  host_pid_ = trace_.process("CANN", "CPU", kHostSortIndex);
  const std::int64_t devices = std::max<std::int64_t>(cfg_.soc.num_devices, 1);
  for (std::int64_t d = 0; d < devices; ++d) {
    const std::string name = "chip" + std::to_string(d);
    chips_.push_back(std::make_unique<models::Chip>(
        name.c_str(), static_cast<std::uint32_t>(d), cfg_, stats_.child(name), trace_));
    chips_.back()->aicore().keep_records(!out_dir_.empty());  // for op_summary.csv only
    chips_.back()->scheduler().set_completion_hook([this] {
      reevaluate_waits();
      engine_.wake();
    });
  }
  engine_.elaborate();
}

models::TaskScheduler& SimBackend::scheduler(std::uint32_t device) {
  if (device >= chips_.size()) {
    throw std::out_of_range("npusim: device " + std::to_string(device) + " does not exist (" +
                            std::to_string(chips_.size()) + " configured)");
  }
  return chips_[device]->scheduler();
}

std::string SimBackend::op_summary() const {
  std::vector<models::KernelRecord> records;
  for (const auto& chip : chips_) {
    const auto& r = chip->aicore().records();
    records.insert(records.end(), r.begin(), r.end());
  }
  return models::op_summary_csv(std::move(records),
                                {cfg_.aicore.frequency.hz, cfg_.aicore.cube_cores});
}

void SimBackend::submit(Task task) {
  scheduler(task.device).submit(to_device_task(std::move(task)));
}

void SimBackend::reevaluate_waits() {
  for (auto& chip : chips_) chip->scheduler().reevaluate_waits();
}

WaitResult SimBackend::run_until(const std::function<bool()>& done, SimTime deadline) {
  reevaluate_waits();  // host-side state may have released a wait since the last run
  switch (engine_.run_until(done, deadline)) {
    case sim::WaitResult::kDone: return WaitResult::kDone;
    case sim::WaitResult::kTimeout: return WaitResult::kTimeout;
    case sim::WaitResult::kStarved: return WaitResult::kStarved;
  }
  return WaitResult::kStarved;
}

void SimBackend::discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) {
  models::TaskScheduler& sched = scheduler(device);
  engine_.advance_to(at);
  sched.discard(stream);
  reevaluate_waits();
}

void SimBackend::trace_api(std::uint32_t thread, const std::string& name, SimTime start,
                           SimTime end, std::uint64_t flow_id) {
  if (!trace_.enabled()) return;
  const int tid = static_cast<int>(thread);
  if (thread >= host_threads_.size()) host_threads_.resize(thread + 1, false);
  if (!host_threads_[thread]) {
    host_threads_[thread] = true;
    trace_.thread(host_pid_, tid, "Thread " + std::to_string(thread), tid);
  }
  std::string_view shown = name;
  if (name.find('@') == std::string::npos) {  // (a reused buffer: no allocation per call)
    api_name_.assign("AscendCL@").append(name);
    shown = api_name_;
  }
  trace_.complete(host_pid_, tid, shown, start, end,
                  {sim::TraceField::num("Thread Id", thread), sim::TraceField::str("level", "acl"),
                   sim::TraceField::num("connection_id", static_cast<double>(flow_id))});
  // Bind the arrow's tail inside the span (its ends may touch the neighbouring spans).
  if (flow_id != 0) trace_.flow_begin(host_pid_, tid, flow_id, start + (end - start) / 2);
}

// Output problems are reported on stderr, never thrown: this also runs from an atexit hook.
void SimBackend::write_outputs() {
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
    write_text(dir / "stats.json", stats_.to_json() + "\n");
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

}  // namespace

std::unique_ptr<Backend> make_sim_backend() {
  models::ChipConfig cfg = models::config_from_env();
  return std::make_unique<SimBackend>(std::move(cfg), models::config_origin_from_env(),
                                      env_or_empty("NPUSIM_OUT"));
}

}  // namespace npusim::rt
