// SPDX-License-Identifier: Apache-2.0
// Timeline output in Chrome Trace Event format (JSON array form), following msprof's conventions
// (docs/sources.md §3) so it opens in Perfetto, chrome://tracing and MindStudio Insight:
// process_name / process_labels / process_sort_index and thread_name / thread_sort_index metadata,
// "X" complete events with ts/dur in microseconds, "s"/"f" flow events (cat "HostToDevice",
// bp "e") linking a host API span to its device task, "C" counter events.
// Plain C++. Events are buffered in memory as compact structs; write() serialises them. A disabled
// writer records nothing (each call is one branch; callers that build args should test enabled()
// first). Processes and threads are remembered even while disabled, so pids stay stable and
// their metadata is written whenever the writer is enabled later. pids are 1, 2, ... in order of
// declaration. Times are written in microseconds with picosecond precision (ps / 1e6).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/quantity.h"

namespace npusim::sim {

/// One argument shown in the event's details pane.
struct TraceArg {
  std::string key;
  std::string text;      // used when is_number is false
  double number = 0;
  bool is_number = false;
  static TraceArg str(std::string k, std::string v) { return {std::move(k), std::move(v), 0, false}; }
  static TraceArg num(std::string k, double v) { return {std::move(k), {}, v, true}; }
};

class TraceWriter {
 public:
  explicit TraceWriter(bool enabled = false) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void set_enabled(bool on) { enabled_ = on; }

  /// Declare a process (a track group). `label` is msprof's process_labels ("CPU", "NPU 0").
  /// Returns the pid to use; the same (name, label) returns the same pid.
  int process(const std::string& name, const std::string& label, int sort_index);
  /// Declare a thread (one track) in a process; idempotent.
  void thread(int pid, int tid, const std::string& name, int sort_index);

  /// A span [start, end) on track (pid, tid).
  void complete(int pid, int tid, const std::string& name, SimTime start, SimTime end,
                std::vector<TraceArg> args = {});
  /// A zero-length marker.
  void instant(int pid, int tid, const std::string& name, SimTime at, std::vector<TraceArg> args = {});
  /// Flow arrow: begin on the host span's track, end on the device task's track (binds to the
  /// enclosing slice). `id` must be unique per flow; written as name "HostToDevice<id>",
  /// cat "HostToDevice", id "<id>" (a string, as msprof writes it).
  void flow_begin(int pid, int tid, std::uint64_t id, SimTime at);
  void flow_end(int pid, int tid, std::uint64_t id, SimTime at);
  /// A counter sample (e.g. link bandwidth in GB/s) on process pid.
  void counter(int pid, const std::string& name, SimTime at, double value);

  /// Recorded events, metadata not included.
  std::size_t event_count() const;
  /// Write the JSON array to `path`; throws std::runtime_error naming the path on I/O failure.
  void write(const std::string& path) const;
  /// Drops recorded events; declared processes and threads stay.
  void clear();

 private:
  /// One recorded event: a compact struct, serialised only by write().
  struct Event {
    char ph;            // 'X' complete, 'i' instant, 's'/'f' flow, 'C' counter
    int pid, tid;
    SimTime ts, dur;
    std::uint64_t id;   // flow id
    double value;       // counter sample
    std::string name;
    std::vector<TraceArg> args;
  };
  struct Process {
    std::string name, label;
    int sort_index;
  };
  struct Thread {
    std::string name;
    int sort_index;
  };
  void write_event(std::string& out, const Event& e) const;
  void write_metadata(std::string& out) const;

  bool enabled_;
  std::vector<Event> events_;
  std::map<std::pair<std::string, std::string>, int> pids_;
  std::vector<Process> processes_;  // index = pid - 1
  std::map<std::pair<int, int>, Thread> threads_;
};

}  // namespace npusim::sim
