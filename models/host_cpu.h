// SPDX-License-Identifier: Apache-2.0
// The host CPU as an engine: host-to-host copies and host memsets that sit in a stream's order.
//
// Timing model: closed form, bytes / host.memcpy_bandwidth, any number at once (each host thread
// copies for itself). Host-side: no doorbell, dispatch or completion time (the device is never
// involved); the task keeps its place in stream order. Spans on the "Host CPU" track.
#pragma once

#include "models/unit.h"

namespace npusim::models {

/// Claims kCopy H2H and kMemset H2H ("host_cpu").
class HostCpu : public FixedTimeEngine, public Unit {
 public:
  HostCpu(const char* name, UnitContext& ctx);

  const char* task_type(const Task&) const override { return "HOST_CPU_SQE"; }
  bool host_side() const override { return true; }
  std::optional<SimTime> fixed_time(const Task& task) const override {
    return memcpy_.transfer_time(task.bytes);
  }
  void record(const EngineJob& job) override;

 private:
  sim::Bandwidth memcpy_;
  sim::Track track_;
};

}  // namespace npusim::models
