// SPDX-License-Identifier: Apache-2.0
#include "models/hbm.h"

#include "sim/engine.h"

namespace npusim::models {

Hbm::Hbm(const sc_core::sc_module_name& name, const HbmConfig& cfg, sim::StatGroup& stats)
    : sc_module(name),
      socket("socket"),
      port_(sim::Bandwidth{cfg.bandwidth.bytes_per_sec * cfg.efficiency}),
      latency_(cfg.latency.ps) {
  socket.register_b_transport(this, &Hbm::b_transport);
  register_stats(stats);
}

void Hbm::b_transport(int /*port*/, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const sim::SimTime now = sim::sim_now();
  const std::uint64_t bytes = trans.get_data_length();
  const sim::SimTime slot_end = port_.reserve(now + delay.value(), bytes);
  (trans.is_read() ? read_bytes_ : write_bytes_) += bytes;
  delay = sim::to_sc_time(slot_end + latency_ - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

sim::SimTime Hbm::remote_access(bool write, sim::SimTime at, std::uint64_t bytes,
                                sim::SimTime& slot_end) {
  slot_end = port_.reserve(at, bytes);
  (write ? write_bytes_ : read_bytes_) += bytes;
  return slot_end + latency_;
}

void Hbm::register_stats(sim::StatGroup& stats) {
  stats.add("bytes", port_.bytes(), "B", "bytes read and written (D2D copies count twice)");
  stats.add("read_bytes", read_bytes_, "B", "bytes read");
  stats.add("write_bytes", write_bytes_, "B", "bytes written");
  stats.add("transactions", port_.transfers(), "", "memory transactions (bursts)");
  sim::add_resource_stats(stats, port_, "the memory", &sim::sim_now);
}

}  // namespace npusim::models
