// SPDX-License-Identifier: Apache-2.0
// Timeline output in Chrome Trace Event format (JSON array form), following msprof's conventions
// (docs/sources.md §3) so it opens in Perfetto, chrome://tracing and MindStudio Insight:
// process_name / process_labels / process_sort_index and thread_name / thread_sort_index metadata,
// "X" complete events with ts/dur in microseconds, "s"/"f" flow events (cat "HostToDevice",
// bp "e") linking a host API span to its device task, "C" counter events.
// Plain C++. A disabled writer records nothing (each call is one branch; callers that build args
// should test enabled() first). Processes and threads are remembered even while disabled, so pids
// stay stable. pids are 1, 2, ... in order of declaration. Only processes that received an event
// are written (with their metadata and every track declared in them): a chip that ran nothing
// shows no tracks, and its pids stay unused. Times are written in microseconds with picosecond precision
// (ps / 1e6).
//
// Memory: an event is recorded as a compact byte record in an append-only arena of fixed-size
// chunks, and write() serialises the records in order. Names, argument keys and string argument
// values are interned (each distinct string is stored once; a record holds its id). Integers are
// varints, a timestamp is the zigzag difference from the previous event's, a number argument that
// is a non-negative integer (below 2^53) is a varint and any other number its 8 raw bytes, so
// write() prints exactly the double that was recorded. A traced async copy (host API span, flow
// begin and end, stream span with 6 args, engine channel span) takes about 100 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
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

/// An argument that refers to its key and text without owning them: they need only live through
/// the recording call, so building one costs no allocation (the writer interns what it keeps).
struct TraceField {
  std::string_view key;
  std::string_view text;  // used when is_number is false
  double number = 0;
  bool is_number = false;
  static constexpr TraceField str(std::string_view k, std::string_view v) {
    return {k, v, 0, false};
  }
  static constexpr TraceField num(std::string_view k, double v) { return {k, {}, v, true}; }
};

/// What a flow arrow links (its category on the timeline).
enum class FlowKind : std::uint8_t { kHostToDevice, kDeviceToDevice };

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
  void complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                const std::vector<TraceArg>& args = {});
  /// The same, with non-owning args: `complete(pid, tid, name, a, b, {TraceField::num(...), ...})`.
  void complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                std::initializer_list<TraceField> args);
  void complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                const TraceField* args, std::size_t count);
  /// A zero-length marker.
  void instant(int pid, int tid, std::string_view name, SimTime at,
               const std::vector<TraceArg>& args = {});
  void instant(int pid, int tid, std::string_view name, SimTime at,
               std::initializer_list<TraceField> args);
  /// Flow arrow: begin on the host span's track, end on the device task's track (binds to the
  /// enclosing slice). `id` must be unique per flow and kind; written as name "HostToDevice<id>",
  /// cat "HostToDevice", id "<id>" (a string, as msprof writes it). kDeviceToDevice arrows link
  /// device tasks (a notify record to the wait it releases, across streams or chips): name
  /// "DeviceToDevice<id>", cat "DeviceToDevice".
  void flow_begin(int pid, int tid, std::uint64_t id, SimTime at,
                  FlowKind kind = FlowKind::kHostToDevice);
  void flow_end(int pid, int tid, std::uint64_t id, SimTime at,
                FlowKind kind = FlowKind::kHostToDevice);
  /// A counter sample (e.g. link bandwidth in GB/s) on process pid.
  void counter(int pid, std::string_view name, SimTime at, double value);

  /// Recorded events, metadata not included.
  std::size_t event_count() const { return events_; }
  /// Heap bytes the writer holds for recorded events: the record arena (allocated chunks) and the
  /// interned strings with their lookup tables. Declarations (processes, threads) not included.
  std::size_t memory_bytes() const;
  /// Write the JSON array to `path`; throws std::runtime_error naming the path on I/O failure.
  void write(const std::string& path) const;
  /// Drops recorded events; declared processes and threads stay.
  void clear();

 private:
  /// Bytes of one arena chunk (records never straddle chunks; a larger record gets its own).
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
  struct Chunk {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t size = 0, used = 0;
  };
  struct Process {
    std::string name, label;
    int sort_index;
  };
  struct Thread {
    std::string name;
    int sort_index;
  };
  /// Recently interned strings by address, checked against the stored text: a hit costs no hash.
  struct CacheSlot {
    const char* data = nullptr;  // the caller's
    const char* kept = nullptr;  // the interned copy's
    std::size_t size = 0;
    std::uint32_t id = 0;
  };
  static constexpr std::size_t kCacheSlots = 256;

  std::uint32_t intern(std::string_view s);
  /// Room for a record of at most `bytes`; returns where to write it.
  std::uint8_t* reserve(std::size_t bytes);
  void commit(std::uint8_t* end);
  std::uint8_t* begin_record(std::uint8_t* p, char ph, int pid, int tid, SimTime ts);
  template <class Arg>
  void record(char ph, int pid, int tid, std::string_view name, SimTime ts, SimTime dur,
              const Arg* args, std::size_t count);
  void write_metadata(std::string& out) const;

  bool enabled_;
  std::vector<Chunk> chunks_;
  std::size_t events_ = 0;
  SimTime last_ts_ = 0;  // of the last record, for the timestamp differences
  std::deque<std::string> strings_;  // interned, by id (a deque: the views below stay valid)
  std::unordered_map<std::string_view, std::uint32_t> string_ids_;
  std::size_t string_bytes_ = 0;
  std::unique_ptr<CacheSlot[]> cache_;
  std::map<std::pair<std::string, std::string>, int> pids_;
  std::vector<Process> processes_;  // index = pid - 1
  std::vector<bool> used_;          // index = pid: the process received an event
  std::map<std::pair<int, int>, Thread> threads_;
};

}  // namespace npusim::sim
