// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/trace_memo.h"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace npusim::rt {

void TraceMemo::set_enabled(bool on) {
  enabled_ = on;
  clear();
}

void TraceMemo::configure_from_env() {
  const char* v = std::getenv("NPUSIM_TRACE_MEMO");
  set_enabled(v == nullptr || std::strcmp(v, "0") != 0);
}

void TraceMemo::clear() {
  launches_.clear();
  bytes_ = 0;
}

void TraceMemo::sync(std::uint64_t generation) {
  if (generation == generation_) return;
  clear();
  generation_ = generation;
}

const TraceMemo::Block* TraceMemo::find(const std::string& key, std::uint32_t block_dim,
                                        std::uint32_t block, std::uint64_t generation) {
  if (!enabled_ || key.empty()) return nullptr;
  sync(generation);
  auto it = launches_.find(key);
  if (it == launches_.end() || block >= block_dim || block >= it->second.size()) return nullptr;
  const Block* b = it->second[block].get();
  if (b != nullptr) ++hits_;
  return b;
}

void TraceMemo::store(const std::string& key, std::uint32_t block_dim, std::uint32_t block,
                      std::uint64_t generation, Block b) {
  if (!enabled_ || key.empty() || block >= block_dim) return;
  sync(generation);
  const std::uint64_t size = sizeof(Block) + b.trace.instrs.size() * sizeof(ascendc::Instr) +
                             b.trace.deps.size() * sizeof(std::uint32_t) + b.printf_text.size() +
                             key.size();
  auto it = launches_.find(key);
  const std::uint64_t table = it == launches_.end() ? block_dim * sizeof(void*) : 0;
  if (bytes_ + size + table > kMaxBytes) return;  // full: this block keeps running its body
  std::vector<std::unique_ptr<Block>>& slots = launches_[key];
  if (slots.size() < block_dim) slots.resize(block_dim);
  if (slots[block] != nullptr) return;
  bytes_ += size + table;
  b.trace.instrs.shrink_to_fit();
  b.trace.deps.shrink_to_fit();
  slots[block] = std::make_unique<Block>(std::move(b));
}

}  // namespace npusim::rt
