// SPDX-License-Identifier: Apache-2.0
// A shared bandwidth resource (a link, a memory port) as a busy-until reservation.
//
// Timing model: a request of `bytes` arriving at `now` starts when the resource is free
// (max(now, free_at)) and holds it for bytes / bandwidth; the resource is then free again.
// Requests are served in the order they reserve, so callers that want fair sharing split their
// transfers into bursts and reserve one burst at a time. Nothing is ticked: an idle resource
// costs nothing. Plain C++ (no SystemC): callers pass simulated time in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/quantity.h"
#include "sim/stats.h"

namespace npusim::sim {

class BandwidthResource {
 public:
  explicit BandwidthResource(Bandwidth bandwidth) : bandwidth_(bandwidth) {}

  /// Reserve the resource for `bytes` from `now` on; returns when the transfer ends.
  SimTime reserve(SimTime now, std::uint64_t bytes) {
    const SimTime start = std::max(now, free_at_);
    const SimTime duration = bandwidth_.transfer_time(bytes);
    free_at_ = start + duration;
    busy_time_ += duration;
    bytes_ += bytes;
    ++transfers_;
    return free_at_;
  }

  /// When the last reservation ends.
  SimTime free_at() const { return free_at_; }
  const Bandwidth& bandwidth() const { return bandwidth_; }

  // Counters (registered by the owning unit in its StatGroup).
  const std::uint64_t& busy_time() const { return busy_time_; }  // ps
  const std::uint64_t& bytes() const { return bytes_; }
  const std::uint64_t& transfers() const { return transfers_; }

  /// Achieved bandwidth while busy, in bytes per second (0 when never used).
  double achieved_bytes_per_sec() const {
    if (busy_time_ == 0) return 0.0;
    return static_cast<double>(bytes_) * 1e12 / static_cast<double>(busy_time_);
  }

 private:
  Bandwidth bandwidth_;
  SimTime free_at_ = 0;
  std::uint64_t busy_time_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t transfers_ = 0;
};

/// Registers what every shared resource reports: busy_time, and the derived bandwidth (GB/s while
/// busy) and utilization (busy_time / simulated time, read through `now`). `what` names the
/// resource in the descriptions ("the link", "L2").
inline void add_resource_stats(StatGroup& stats, const BandwidthResource& r, const std::string& what,
                               SimTime (*now)()) {
  stats.add("busy_time", r.busy_time(), "ps", ("time " + what + " was transferring data").c_str());
  stats.formula("bandwidth", [&r] { return r.achieved_bytes_per_sec() / 1e9; }, "GB/s",
                "achieved bandwidth while busy = bytes / busy_time");
  stats.formula("utilization", [&r, now] {
    const SimTime t = now();
    return t == 0 ? 0.0 : static_cast<double>(r.busy_time()) / static_cast<double>(t);
  }, "", "busy_time / simulated time");
}

}  // namespace npusim::sim
