// SPDX-License-Identifier: Apache-2.0
#include "models/l2_cache.h"

#include <algorithm>

#include "models/aicore/pipe_costs.h"
#include "models/hbm.h"
#include "sim/engine.h"

namespace npusim::models {

namespace {
L2Tags::Geometry geometry(const L2Config& cfg) {
  L2Tags::Geometry g;
  g.size = cfg.size.value;
  g.line = cfg.line_size.value;
  g.sector = cfg.sector_size.value;
  g.ways = static_cast<std::uint64_t>(std::max<std::int64_t>(cfg.ways, 1));
  return g;
}
}  // namespace

L2Cache::L2Cache(const sc_core::sc_module_name& name, const L2Config& cfg, sim::StatGroup& stats)
    : sc_module(name),
      socket("socket"),
      mem("mem"),
      port_(cfg.bandwidth),
      hit_latency_(cfg.hit_latency.ps),
      hit_rate_(std::clamp(cfg.read_hit_rate, 0.0, 1.0)),
      tags_(geometry(cfg)) {
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

sim::SimTime L2Cache::to_hbm(tlm::tlm_command command, std::uint64_t address,
                             std::uint64_t bytes, sim::SimTime at) {
  const sim::SimTime now = sim::sim_now();
  down_.set_command(command);
  down_.set_address(address);
  down_.set_data_length(static_cast<unsigned int>(bytes));
  down_.set_streaming_width(static_cast<unsigned int>(bytes));
  down_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sim::to_sc_time(at - now);
  mem->b_transport(down_, delay);
  hbm_bytes_ += bytes;
  return now + delay.value();
}

void L2Cache::b_transport(int /*port*/, tlm::tlm_generic_payload& trans,
                          sc_core::sc_time& delay) {
  const sim::SimTime now = sim::sim_now();
  const sim::SimTime at = now + delay.value();
  const std::uint64_t bytes = trans.get_data_length();
  const std::uint64_t address = trans.get_address();
  const bool read = trans.is_read();
  GmAccessExtension* ext = trans.get_extension<GmAccessExtension>();
  sim::SimTime done = port_.reserve(at, bytes);
  (read ? read_bytes_ : write_bytes_) += bytes;
  std::uint64_t hits = 0;
  std::uint64_t write_hits = 0;
  if (address != 0) {
    const std::uint64_t bursts = ext != nullptr ? std::max<std::uint64_t>(ext->bursts, 1) : 1;
    const std::uint64_t pitch = ext != nullptr ? ext->pitch : 0;
    L2Tags::Result r;
    tags_.access(address, bytes / bursts, bursts, pitch, !read, r);
    hits = r.hit_bytes;
    write_hits = r.write_hit_bytes;
    fill_bytes_ += r.fill_bytes;
    writeback_bytes_ += r.writeback_bytes;
    evictions_ += r.evictions;
    if (r.fill_bytes > 0)
      done = std::max(done, to_hbm(tlm::TLM_READ_COMMAND, address, r.fill_bytes, at));
    if (r.writeback_bytes > 0) {
      done = std::max(done, to_hbm(tlm::TLM_WRITE_COMMAND, address, r.writeback_bytes, at) -
                                hbm_latency_);
    }
  } else {
    untagged_bytes_ += bytes;
    hits = read ? PipeCosts::read_hit_bytes(bytes, hit_rate_) : 0;
    if (bytes > hits) {
      const sim::SimTime hbm_done = to_hbm(trans.get_command(), address, bytes - hits, at);
      done = std::max(done, read ? hbm_done : hbm_done - hbm_latency_);
    }
  }
  hit_bytes_ += hits;
  if (ext != nullptr) {
    ext->hit_bytes = hits;
    ext->write_hit_bytes = write_hits;
  }
  delay = sim::to_sc_time(done + hit_latency_ - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void L2Cache::register_stats(sim::StatGroup& stats) {
  stats.add("read_bytes", read_bytes_, "B", "bytes read by the cores");
  stats.add("write_bytes", write_bytes_, "B", "bytes written by the cores");
  stats.add("hit_bytes", hit_bytes_, "B", "read bytes served by L2");
  stats.formula("read_hit_rate",
                [this] {
                  return read_bytes_ == 0 ? 0.0
                                          : static_cast<double>(hit_bytes_) /
                                                static_cast<double>(read_bytes_);
                },
                "", "hit_bytes / read_bytes");
  stats.add("fill_bytes", fill_bytes_, "B", "sector bytes read from HBM on read misses");
  stats.add("writeback_bytes", writeback_bytes_, "B", "dirty bytes written back on evictions");
  stats.add("evictions", evictions_, "", "lines evicted");
  stats.add("untagged_bytes", untagged_bytes_, "B",
            "bytes of accesses without an address (timed with l2.read_hit_rate, write-through)");
  stats.add("hbm_bytes", hbm_bytes_, "B", "bytes passed on to HBM (fills, write-backs, untagged misses and writes)");
  stats.add("transactions", port_.transfers(), "", "core accesses");
  sim::add_resource_stats(stats, port_, "L2", &sim::sim_now);
}

}  // namespace npusim::models
