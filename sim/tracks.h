// SPDX-License-Identifier: Apache-2.0
// A unit's place on the timeline. A TrackGroup is one process of the timeline ("NPU 0 Units");
// units declare their tracks in it by name, in construction order (ids are handed out, never
// picked by hand). A Track is a cheap handle to one track. Every method is a no-op while the
// writer is off, so units need no "is tracing on" checks of their own, except to skip building
// arguments (test on() first). Plain C++.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace.h"

namespace npusim::sim {

class Track {
 public:
  Track() = default;
  Track(TraceWriter* writer, int pid, int tid) : w_(writer), pid_(pid), tid_(tid) {}

  bool on() const { return w_ != nullptr && w_->enabled(); }
  int pid() const { return pid_; }
  int tid() const { return tid_; }

  /// Names a track reserved with TrackGroup::reserve() (until then it shows nowhere).
  void declare(const std::string& name) const {
    if (w_ != nullptr) w_->thread(pid_, tid_, name, tid_);
  }

  /// A span [start, end).
  void span(std::string_view name, SimTime start, SimTime end,
            const std::vector<TraceArg>& args = {}) const {
    if (on()) w_->complete(pid_, tid_, name, start, end, args);
  }
  void span(std::string_view name, SimTime start, SimTime end,
            std::initializer_list<TraceField> args) const {
    if (on()) w_->complete(pid_, tid_, name, start, end, args);
  }
  void span(std::string_view name, SimTime start, SimTime end, const TraceField* args,
            std::size_t count) const {
    if (on()) w_->complete(pid_, tid_, name, start, end, args, count);
  }
  /// The head / tail of a flow arrow (host API call -> device task, or device task -> device
  /// task with FlowKind::kDeviceToDevice).
  void flow_begin(std::uint64_t id, SimTime at,
                  FlowKind kind = FlowKind::kHostToDevice) const {
    if (on()) w_->flow_begin(pid_, tid_, id, at, kind);
  }
  void flow_end(std::uint64_t id, SimTime at, FlowKind kind = FlowKind::kHostToDevice) const {
    if (on()) w_->flow_end(pid_, tid_, id, at, kind);
  }

 private:
  TraceWriter* w_ = nullptr;
  int pid_ = 0;
  int tid_ = 0;
};

class TrackGroup {
 public:
  TrackGroup() = default;  // no timeline: every track is off
  TrackGroup(TraceWriter& writer, const std::string& name, const std::string& label,
             int sort_index)
      : w_(&writer), pid_(writer.process(name, label, sort_index)) {}

  bool on() const { return w_ != nullptr && w_->enabled(); }
  int pid() const { return pid_; }

  /// A new track named `name`, shown after the group's earlier tracks.
  Track add(const std::string& name) {
    const int tid = next_tid_++;
    if (w_ != nullptr) w_->thread(pid_, tid, name, tid);
    return Track(w_, pid_, tid);
  }
  /// The next track id, not yet shown: Track::declare() names it when it is first used (e.g. only
  /// cores that ran something get a track). The order of reservation is the display order.
  Track reserve() { return Track(w_, pid_, next_tid_++); }
  /// A track with a chosen id (msprof numbers stream tracks by stream id). A group uses either
  /// add() or at(), never both, so ids cannot collide.
  Track at(int tid, const std::string& name) {
    if (w_ != nullptr) w_->thread(pid_, tid, name, tid);
    return Track(w_, pid_, tid);
  }
  /// A counter sample on this group.
  void counter(const std::string& name, SimTime at, double value) const {
    if (on()) w_->counter(pid_, name, at, value);
  }

 private:
  TraceWriter* w_ = nullptr;
  int pid_ = 0;
  int next_tid_ = 1;
};

}  // namespace npusim::sim
