// SPDX-License-Identifier: Apache-2.0
// The L2 cache between the AI Cores and device memory, as a TLM-2.0 loosely-timed target (cores'
// GM traffic) and initiator (towards Hbm). No data is stored: only time.
//
// Timing model: one BandwidthResource at l2.bandwidth for every access (reads and writes). A
// transaction of n bytes issued at t = now + delay occupies L2 for n / bandwidth from
// max(t, free) ("slot"). Hits: a fixed fraction of every read, floor(n * l2.read_hit_rate)
// bytes, is served by L2; the other bytes of a read also read HBM (issued at t too, so the two
// transfers overlap). Writes are write-back but every written byte reaches HBM, so a write also
// occupies HBM for n bytes. Completion: read = max(L2 slot end, HBM data complete);
// write = max(L2 slot end, HBM slot end) (the write buffer drains at HBM rate, HBM latency hidden);
// both + l2.hit_latency. b_transport never waits: it returns the annotated delay to completion.
// The hit rate is a knob because the block trace carries no GM addresses (so reuse between
// blocks cannot be observed); capacity (l2.size) is reported, not modelled.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/chip_config.h"
#include "sim/bandwidth_resource.h"
#include "sim/stats.h"

namespace npusim::models {

class Hbm;

class L2Cache : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<L2Cache> socket;
  tlm_utils::simple_initiator_socket<L2Cache> mem;

  L2Cache(const sc_core::sc_module_name& name, const L2Config& cfg, sim::StatGroup& stats);

  /// Bind the memory side to `hbm`.
  void bind_memory(Hbm& hbm);

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void register_stats(sim::StatGroup& stats);

  sim::BandwidthResource port_;
  sim::SimTime hit_latency_;
  double hit_rate_;
  sim::SimTime hbm_latency_ = 0;
  tlm::tlm_generic_payload down_;
  std::uint64_t read_bytes_ = 0;
  std::uint64_t write_bytes_ = 0;
  std::uint64_t hit_bytes_ = 0;
  std::uint64_t hbm_bytes_ = 0;
};

}  // namespace npusim::models
