// SPDX-License-Identifier: Apache-2.0
// The chip's end of its chip-to-chip links: executes copies and reductions between this chip's
// memory and another chip's (Direction::kPeer; Task::peer and Task::from_peer say which chip and
// which way, models/task.h).
//
// Timing model: sdma.channels channels (the chip's DMA queues that drive the links) run transfers
// concurrently. A transfer of S bytes from chip s to chip d pays a fixed latency once, then moves
// S in sdma.burst bursts; the next burst issues when every resource it reserved is done with it,
// so concurrent transfers on a shared resource interleave burst by burst (fair sharing).
// - Over HCCS (the topology links s and d by HCCS): latency topology.hccs_latency; each burst
//   reserves the link's s->d direction (topology.hccs_bandwidth x links_per_pair,
//   models/interconnect.h) and, in parallel, reads s's memory and writes d's (a reduce also reads
//   d's). The d->s direction is another resource: opposite transfers do not interfere. A lone
//   transfer takes latency + S / link bandwidth while both memories are faster.
// - Through the host (no HCCS link between them): latency 2 x pcie.latency (up to the host and
//   down again); each burst reserves s's PCIe D2H link, the root complex in both directions and
//   d's PCIe H2D link (pcie.root_complex_bandwidth), with the same memory traffic; it contends
//   with the chips' own host copies.
// The link latency covers the memory access as pcie.latency does: memory only adds contention.
// Statistics: bytes per path; the links' own in "system.hccs"; each HCCS link direction shows a
// span per transfer and its bandwidth in use on the "HCCS" timeline process.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/channel_engine.h"
#include "models/unit.h"
#include "sim/bandwidth_resource.h"

namespace npusim::models {

struct LinkDirection;

/// Claims kCopy and kReduce going Direction::kPeer.
class HccsLink : public ChannelEngine, public Unit {
 public:
  HccsLink(const sc_core::sc_module_name& name, UnitContext& ctx);

  const char* task_type(const Task&) const override { return "SDMA_SQE"; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;
  sim::SimTime lead_time(const Task& task) const override;
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  struct Work {
    int step = 0;  // 0 = not started, 1 = bursts, 2 = waiting for the last burst
    sim::SimTime issue = 0;
    sim::SimTime started = 0;
    std::uint64_t left = 0;
    LinkDirection* link = nullptr;  // HCCS; nullptr = through the host
  };

  /// Which chip sends and which receives `task`'s bytes.
  std::uint32_t source(const Task& task) const { return task.from_peer ? task.peer : device_; }
  std::uint32_t destination(const Task& task) const { return task.from_peer ? device_ : task.peer; }
  /// Whether `task` names a peer this system has (else it completes at once, moving nothing).
  bool reachable(const Task& task) const;
  /// One access of `bytes` to `device`'s memory at `at`: returns its slot end.
  sim::SimTime memory(std::uint32_t device, bool write, sim::SimTime at, std::uint64_t bytes);
  void start_transfer(Work& w, const Task& task, sim::SimTime now);
  sim::SimTime reserve_burst(const Work& w, const Task& task, std::uint64_t n);
  void finish_transfer(Work& w, const Task& task, sim::SimTime now);

  std::uint32_t device_;
  Interconnect* fabric_;
  std::uint64_t burst_;
  std::vector<Work> work_;  // per channel
  std::uint64_t hccs_bytes_ = 0;
  std::uint64_t host_bytes_ = 0;
};

}  // namespace npusim::models
