// SPDX-License-Identifier: Apache-2.0
// The L2 cache between the AI Cores and device memory, as a TLM-2.0 loosely-timed target (cores'
// GM traffic) and initiator (towards Hbm). No data is stored: only tags and time.
//
// Timing model: one BandwidthResource at l2.bandwidth for every access (reads and writes). A
// transaction of n bytes issued at t = now + delay occupies L2 for n / bandwidth from
// max(t, free) ("slot"). Which bytes hit is decided by address (the transaction's address, with a
// GmAccessExtension giving its bursts): L2Tags (l2_tags.h: sectored, set-associative, LRU,
// write-allocate, write-back) says how many read bytes hit, how many sector bytes must be filled
// from HBM and how many dirty bytes an eviction writes back. Fills are one HBM read issued at t,
// write-backs one HBM write issued at t. Completion = max(L2 slot end, fill data complete,
// write-back slot end (the victim must leave before its line is reused; HBM latency hidden)) +
// l2.hit_latency; a write that evicts nothing dirty completes with its L2 slot. A transaction
// with address 0 (a hand-built trace: no address known) uses the fixed fraction l2.read_hit_rate
// instead: floor(n * rate) read bytes hit, the rest and every written byte also go to HBM (write
// through). b_transport never waits: it returns the annotated delay to completion, and the
// extension's hit_bytes (the initiator's own rates differ for hits and misses: ai_core.h).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/chip_config.h"
#include "models/l2_tags.h"
#include "sim/bandwidth_resource.h"
#include "sim/stats.h"

namespace npusim::models {

class Hbm;

/// What a core says about its GM access beyond address and length, and what L2 answers.
struct GmAccessExtension : tlm::tlm_extension<GmAccessExtension> {
  std::uint64_t bursts = 1;     // in: the access is `bursts` bursts of length / bursts bytes,
  std::uint64_t pitch = 0;      //     `pitch` apart (0: contiguous)
  std::uint64_t hit_bytes = 0;  // out: read bytes L2 served
  std::uint64_t write_hit_bytes = 0;  // out: written bytes whose line L2 held (l2_tags.h)

  tlm::tlm_extension_base* clone() const override { return new GmAccessExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const GmAccessExtension&>(other);
  }
};

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

  /// One HBM transaction of `bytes` issued at `at`; returns its data completion.
  sim::SimTime to_hbm(tlm::tlm_command command, std::uint64_t address, std::uint64_t bytes,
                      sim::SimTime at);

  sim::BandwidthResource port_;
  sim::SimTime hit_latency_;
  double hit_rate_;
  sim::SimTime hbm_latency_ = 0;
  L2Tags tags_;
  tlm::tlm_generic_payload down_;
  std::uint64_t read_bytes_ = 0;
  std::uint64_t write_bytes_ = 0;
  std::uint64_t hit_bytes_ = 0;
  std::uint64_t hbm_bytes_ = 0;
  std::uint64_t fill_bytes_ = 0;
  std::uint64_t writeback_bytes_ = 0;
  std::uint64_t evictions_ = 0;
  std::uint64_t untagged_bytes_ = 0;
};

}  // namespace npusim::models
