// SPDX-License-Identifier: Apache-2.0
#include "models/host_cpu.h"

namespace npusim::models {

HostCpu::HostCpu(const char*, UnitContext& ctx)
    : memcpy_(ctx.cfg.host.memcpy_bandwidth), track_(ctx.tracks.add("Host CPU")) {
  ctx.routes.claim(TaskKind::kCopy, Direction::kH2H, *this, "host_cpu");
  ctx.routes.claim(TaskKind::kMemset, Direction::kH2H, *this, "host_cpu");
}

void HostCpu::record(const EngineJob& job) { draw(track_, job); }

}  // namespace npusim::models
