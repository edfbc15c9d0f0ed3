// SPDX-License-Identifier: Apache-2.0
// A minimal launcher for tests: runs a kernel for blocks 0..block_dim-1 one after another (as a
// BlockGroup: a block waiting for another lets it run first), each with a fresh BlockContext, and collects per-block printf text, traces and errors (traps and
// KernelErrors are caught and reported with the block index). The real launch path is the
// runtime's launch_kernel().
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/block_group.h"
#include "npusim/ascendc/mix_launch.h"
#include "npusim/ascendc/trace.h"

namespace npusim::ascendc {

struct BlockResult {
  std::uint32_t block = 0;
  std::string printf_out;
  BlockTrace trace;
  bool trapped = false;
  std::string error;  // empty on success, else "block <n>: <what>"
};

struct RunResult {
  std::vector<BlockResult> blocks;

  bool ok() const {
    for (const auto& b : blocks) {
      if (!b.error.empty()) return false;
    }
    return true;
  }
  std::string first_error() const {
    for (const auto& b : blocks) {
      if (!b.error.empty()) return b.error;
    }
    return {};
  }
  std::string printf_all() const {  // block order, as the runtime flushes it
    std::string s;
    for (const auto& b : blocks) s += b.printf_out;
    return s;
  }
};

/// Runs block `b` on the calling thread with a fresh BlockContext and `group` current.
template <class Kernel>
void run_one_block(BlockResult& r, std::uint32_t b, std::uint32_t block_dim, bool functional,
                   const CoreBuffers& caps, BlockGroup* group, const Kernel& body) {
  BlockContext ctx(b, block_dim, caps);
  ctx.functional = functional;
  r.block = b;
  {
    ScopedBlock scope(ctx);
    ScopedGroup in_group(group);
    try {
      body();
    } catch (const DeviceTrap& e) {
      r.trapped = true;
      r.error = "block " + std::to_string(b) + ": " + e.what();
    } catch (const KernelError& e) {
      r.error = "block " + std::to_string(b) + ": " + e.what();
    }
  }
  ctx.finish();
  r.printf_out.assign(ctx.printf_out.begin(), ctx.printf_out.end());
  r.trace = std::move(ctx.trace);
}

/// Runs blocks 0..block_dim-1 with the given local memory capacities; `functional` false:
/// timing-only (BlockContext::functional), the twin ops record but compute nothing. The blocks
/// form a BlockGroup, as in the runtime: a block that waits for another lets it run.
template <class... P, class... A>
RunResult run_blocks_mode(bool functional, const CoreBuffers& caps, void (*kernel)(P...),
                          std::uint32_t block_dim, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "run_blocks: wrong number of kernel arguments");
  RunResult result;
  result.blocks.resize(block_dim);
  auto body = [&] { kernel(args...); };
  BlockGroup group(block_dim, [&](std::uint32_t b) {
    run_one_block(result.blocks[b], b, block_dim, functional, caps, &group, body);
  });
  for (std::uint32_t b = 0; b < block_dim; ++b) {
    if (group.started(b)) {
      group.finish_started(b);
      continue;
    }
    group.begin_inline(b);
    run_one_block(result.blocks[b], b, block_dim, functional, caps, &group, body);
    group.end_inline(b);
  }
  return result;
}

/// Runs blocks 0..block_dim-1 with the given local memory capacities.
template <class... P, class... A>
RunResult run_blocks_with(const CoreBuffers& caps, void (*kernel)(P...), std::uint32_t block_dim,
                          A&&... args) {
  return run_blocks_mode(true, caps, kernel, block_dim, std::forward<A>(args)...);
}

/// Runs with the default (910B) capacities.
template <class... P, class... A>
RunResult run_blocks(void (*kernel)(P...), std::uint32_t block_dim, A&&... args) {
  return run_blocks_with(CoreBuffers{}, kernel, block_dim, std::forward<A>(args)...);
}

/// A __mix__ kernel's launch (mix_launch.h): every member's result (member b * per + s: sub-block
/// s of block b, the AIC first) and each block's merged trace, as the runtime builds them.
struct MixRunResult {
  RunResult members;
  std::vector<BlockTrace> blocks;  // merged traces (empty when a member failed)
};

/// Runs blocks 0..block_dim-1 of a __mix__(shape.cube, shape.vector) kernel as their sub-blocks,
/// in the runtime's order (block by block, each block's members in turn; waits let others run).
template <class... P, class... A>
MixRunResult run_mix_blocks(MixShape shape, void (*kernel)(P...), std::uint32_t block_dim,
                            A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "run_mix_blocks: wrong number of kernel arguments");
  MixLaunch mix(shape, block_dim);
  MixRunResult result;
  const std::uint32_t per = shape.per_block();
  result.members.blocks.resize(mix.members());
  auto body = [&] { kernel(args...); };
  auto run = [&](std::uint32_t m, BlockGroup* group) {
    BlockResult& r = result.members.blocks[m];
    BlockContext ctx(mix.logical_idx(m), block_dim, CoreBuffers{});
    mix.attach(ctx, m);
    r.block = m;
    {
      ScopedBlock scope(ctx);
      ScopedGroup in_group(group);
      ScopedSubBlock sub(mix, m);
      try {
        body();
      } catch (const KernelError& e) {
        r.trapped = dynamic_cast<const DeviceTrap*>(&e) != nullptr;
        r.error = std::string(mix.core_name(m)) + " " + std::to_string(mix.logical_idx(m)) + ": " +
                  e.what();
      }
    }
    ctx.finish();
    r.printf_out.assign(ctx.printf_out.begin(), ctx.printf_out.end());
    r.trace = std::move(ctx.trace);
    if (r.error.empty()) r.error = mix.check(r.trace, m);
  };
  BlockGroup group(mix.members(), [&](std::uint32_t m) { run(m, &group); });
  for (std::uint32_t m = 0; m < mix.members(); ++m) {
    if (group.started(m)) {
      group.finish_started(m);
      continue;
    }
    group.begin_inline(m);
    run(m, &group);
    group.end_inline(m);
  }
  if (!result.members.ok()) return result;
  result.blocks.resize(block_dim);
  for (std::uint32_t b = 0; b < block_dim; ++b) {
    std::vector<const BlockTrace*> parts;
    for (std::uint32_t s = 0; s < per; ++s) parts.push_back(&result.members.blocks[b * per + s].trace);
    mix.merge(b, parts, result.blocks[b]);
  }
  return result;
}

}  // namespace npusim::ascendc
