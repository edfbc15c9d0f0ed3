// SPDX-License-Identifier: Apache-2.0
// Device memory (HBM) as a TLM-2.0 loosely-timed target shared by every initiator.
//
// Timing model: one BandwidthResource at the sustained bandwidth, hbm.bandwidth x hbm.efficiency
// (the efficiency folds refresh, read/write turnaround and bank conflicts into one factor,
// calibrated against a measured stream: configs/ say which). A transaction of n bytes issued at
// t = now + delay occupies the memory for n / bandwidth from max(t, free) (its "slot"); its data
// is complete hbm.latency after the slot ends. b_transport never waits: it returns the annotated
// delay to completion, (slot end + latency) - now. DMA initiators keep bursts in flight: they
// issue the next burst at the previous slot end (completion - latency()), so the latency is paid
// once per transfer, not once per burst. Reads and writes cost the same. No data moves here (the
// runtime performs the functional copy in the task's effect).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/chip_config.h"
#include "sim/bandwidth_resource.h"
#include "sim/stats.h"

namespace npusim::models {

class Hbm : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Hbm> socket;

  Hbm(const sc_core::sc_module_name& name, const HbmConfig& cfg, sim::StatGroup& stats);

  /// Fixed access latency added after each transaction's slot.
  sim::SimTime latency() const { return latency_; }

  /// An access of `bytes` issued at `at` by another chip's engine over a chip-to-chip link (no
  /// TLM socket crosses chips): the same timing as b_transport. Returns when its data is
  /// complete; `slot_end` receives when the next pipelined access may issue.
  sim::SimTime remote_access(bool write, sim::SimTime at, std::uint64_t bytes,
                             sim::SimTime& slot_end);

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void register_stats(sim::StatGroup& stats);

  sim::BandwidthResource port_;
  sim::SimTime latency_;
  std::uint64_t read_bytes_ = 0;
  std::uint64_t write_bytes_ = 0;
};

}  // namespace npusim::models
