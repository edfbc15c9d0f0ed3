// SPDX-License-Identifier: Apache-2.0
// FakeBackend: a small deterministic discrete-event Backend in plain C++ for API-semantics tests.
//
// Timing model: every stream is a FIFO that runs one task at a time; streams never share an
// engine, so tasks of different streams always overlap. A task starts at max(submit_at, end of
// the previous task of its stream, the moment its ready() holds) and lasts a fixed time by type:
// copies (every direction, Direction::kPeer included) and fills `copy_fixed + bytes /
// copy_bytes_per_us`, scheduler tasks `sync_task`, kernels `kernel`, no-ops nothing. Completions
// at the same instant run in (device, stream) order.
// A kernel task with a KernelWork runs its blocks functionally (run_block 0, 1, 2... in order) when
// it starts; the first failing block stops it and becomes the task's error. An AI CPU task with an
// AiCpuWork runs the same way (its counts are recorded; its time is the fixed sync_task time).
// A completing task's follow() tasks are queued at its end time (models::Task::follow).
// It also records every task and API span so tests can check orders, times and flows.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/aicpu_work.h"
#include "models/kernel_work.h"
#include "runtime/core/backend.h"

namespace npusim::rt {

struct FakeTiming {
  SimTime copy_fixed = 1 * sim::kUs;
  double copy_bytes_per_us = 10000;  // 10 GB/s
  SimTime sync_task = 100 * sim::kNs;
  SimTime kernel = 10 * sim::kUs;
};

class FakeBackend : public Backend {
 public:
  struct TaskTrace {
    std::string name;
    TaskKind kind;
    std::uint32_t device, stream, task_id;
    std::uint64_t flow_id;
    TaskOutcome record;
    std::shared_ptr<const models::KernelWork> kernel;  // kernel tasks
    std::uint32_t blocks_run = 0;                       // blocks whose run_block was called
    std::uint64_t instrs = 0;                           // instructions their traces held
    std::uint64_t trace_digest = 0;  // FNV-1a over every field of their traces (trace_memo tests)
    models::AiCpuCount aicpu;        // AI CPU tasks: the work their runs counted
  };
  struct ApiTrace {
    std::uint32_t thread;
    std::string name;
    SimTime start, end;
    std::uint64_t flow_id;
  };

  explicit FakeBackend(models::ChipConfig config = {}, FakeTiming timing = {});

  const models::ChipConfig& config() const override { return config_; }
  void submit(Task task) override;
  WaitResult run_until(const std::function<bool()>& done, SimTime deadline) override;
  SimTime now() const override { return now_; }
  void discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) override;
  void trace_api(std::uint32_t thread, const char* function, SimTime start, SimTime end,
                 std::uint64_t flow_id) override;
  void trace_host(std::uint32_t thread, const char* name, SimTime start, SimTime end) override;
  void advance_to(SimTime t) override;
  void write_outputs() override { ++outputs_written_; }
  std::string output_dir() const override { return out_dir_; }
  /// Tests: the directory output_dir() reports (the fake backend writes nothing there itself).
  void set_output_dir(std::string dir) { out_dir_ = std::move(dir); }

  // Test introspection.
  const std::vector<TaskTrace>& tasks() const { return finished_; }
  const std::vector<ApiTrace>& api_calls() const { return api_calls_; }
  /// Host spans that are not API calls (host callbacks), flow id 0.
  const std::vector<ApiTrace>& host_spans() const { return host_spans_; }
  int outputs_written() const { return outputs_written_; }
  SimTime duration_of(const Task& task) const;

 private:
  using StreamKey = std::pair<std::uint32_t, std::uint32_t>;  // (device, stream)
  struct Queue {
    std::deque<Task> pending;
    bool busy = false;
    SimTime busy_until = 0;
    Task running;
    SimTime running_start = 0;
    int kernel_error = 0;
    std::uint32_t blocks_run = 0;
    std::uint64_t instrs = 0;
    std::uint64_t trace_digest = 0;
    models::AiCpuCount aicpu;
  };

  void start_ready_tasks();
  static void run_kernel(Queue& q);
  SimTime next_event_time() const;
  void complete_due_tasks();
  void finish(Queue& q, const StreamKey& key);

  models::ChipConfig config_;
  FakeTiming timing_;
  SimTime now_ = 0;
  std::map<StreamKey, Queue> queues_;
  std::vector<TaskTrace> finished_;
  std::vector<ApiTrace> api_calls_;
  std::vector<ApiTrace> host_spans_;
  int outputs_written_ = 0;
  std::string out_dir_;
};

}  // namespace npusim::rt
