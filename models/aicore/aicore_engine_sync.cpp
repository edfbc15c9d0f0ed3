// SPDX-License-Identifier: Apache-2.0
// The AI Core engine's part in cross-block synchronisation (BlockReplay's cross-block waits):
// the kSyncSet ends each running block reports, looked up by the other blocks of its kernel, and
// the pokes that make a waiting core look again. Simulated-time order is SystemC's: a core's
// replay computes a kSyncSet's end (possibly ahead of simulated time) and reports it at once.
#include "models/aicore/aicore_engine.h"

namespace npusim::models {

SimTime AiCoreEngine::sync_end(const AiCore& core, std::uint32_t block, std::uint32_t instr) {
  const Kernel* k = slots_[static_cast<std::size_t>(core.index())].kernel;
  const auto it = sync_ends_.find({k, block, instr});
  return it == sync_ends_.end() ? ReplayHost::kNever : it->second;
}

// Records the end and pokes every other core running a block of the same kernel.
void AiCoreEngine::sync_set(AiCore& core, std::uint32_t instr, SimTime end) {
  const Kernel* k = slots_[static_cast<std::size_t>(core.index())].kernel;
  sync_ends_[{k, core.job().block, instr}] = end;
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    if (busy_[c] && slots_[c].kernel == k && cores_[c].get() != &core) cores_[c]->poke();
  }
}

void AiCoreEngine::forget_syncs(const Kernel& k) {
  sync_ends_.erase(sync_ends_.lower_bound({&k, 0, 0}),
                   sync_ends_.upper_bound({&k, ~std::uint32_t{0}, ~std::uint32_t{0}}));
}

}  // namespace npusim::models
