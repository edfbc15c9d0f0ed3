// SPDX-License-Identifier: Apache-2.0
#include "models/l2_cache.h"

#include <algorithm>

#include "models/aicore/pipe_costs.h"
#include "models/hbm.h"
#include "sim/engine.h"

namespace npusim::models {

L2Cache::L2Cache(const sc_core::sc_module_name& name, const L2Config& cfg, sim::StatGroup& stats)
    : sc_module(name),
      socket("socket"),
      mem("mem"),
      port_(cfg.bandwidth),
      hit_latency_(cfg.hit_latency.ps),
      hit_rate_(std::clamp(cfg.read_hit_rate, 0.0, 1.0)) {
  socket.register_b_transport(this, &L2Cache::b_transport);
  down_.set_data_ptr(nullptr);
  down_.set_byte_enable_ptr(nullptr);
  down_.set_dmi_allowed(false);
  register_stats(stats);
}

void L2Cache::bind_memory(Hbm& hbm) {
  mem.bind(hbm.socket);
  hbm_latency_ = hbm.latency();
}

void L2Cache::b_transport(int /*port*/, tlm::tlm_generic_payload& trans,
                          sc_core::sc_time& delay) {
  const sim::SimTime now = sim::sim_now();
  const std::uint64_t bytes = trans.get_data_length();
  const bool read = trans.is_read();
  sim::SimTime done = port_.reserve(now + delay.value(), bytes);
  const std::uint64_t hits = read ? PipeCosts::read_hit_bytes(bytes, hit_rate_) : 0;
  (read ? read_bytes_ : write_bytes_) += bytes;
  hit_bytes_ += hits;
  if (bytes > hits) {
    down_.set_command(trans.get_command());
    down_.set_address(trans.get_address());
    down_.set_data_length(static_cast<unsigned int>(bytes - hits));
    down_.set_streaming_width(static_cast<unsigned int>(bytes - hits));
    down_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time hbm_delay = delay;
    mem->b_transport(down_, hbm_delay);
    const sim::SimTime hbm_done = now + hbm_delay.value();
    done = std::max(done, read ? hbm_done : hbm_done - hbm_latency_);
    hbm_bytes_ += bytes - hits;
  }
  delay = sim::to_sc_time(done + hit_latency_ - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void L2Cache::register_stats(sim::StatGroup& stats) {
  stats.add("read_bytes", read_bytes_, "B", "bytes read by the cores");
  stats.add("write_bytes", write_bytes_, "B", "bytes written by the cores");
  stats.add("hit_bytes", hit_bytes_, "B", "read bytes served by L2 (read_hit_rate)");
  stats.add("hbm_bytes", hbm_bytes_, "B", "bytes passed on to HBM (read misses and all writes)");
  stats.add("transactions", port_.transfers(), "", "core accesses");
  sim::add_resource_stats(stats, port_, "L2", &sim::sim_now);
}

}  // namespace npusim::models
