// SPDX-License-Identifier: Apache-2.0
// TraceMemo: memoised block traces of timing-only launches (aicore.functional: false).
//
// In timing-only mode the twin skips element math, so a kernel's results are undefined and its
// control flow (hence its instruction trace) can only depend on its arguments, blockDim, its block
// index and the core it runs on. A launch whose arguments are memoisable (KernelSpec::memo_key) and
// whose block ran successfully (no trap, KernelError, memory fault or watchdog) leaves that block's
// BlockTrace, printf text and pipe use here; the next launch of the same kernel with the same key
// reuses them instead of running the kernel body again. The trace is the same, so simulated times
// are identical with and without the memo.
//
// Invalidation: the memo is valid for one MemoryRegistry::generation() (allocations, frees, host
// registrations, and host writes into device memory by copies and memsets bump it): any change
// forgets everything, so a freed buffer is still reported by the GM checks of a re-run. It is also
// cleared at aclFinalize and when a device is reset.
// Not seen: memory changed without an API call (raw __gm__ stores of other kernels, the host
// writing registered host memory directly); a kernel branching on such memory needs the memo off.
// Bound: at most kMaxBytes of traces; once full, further blocks are simply not memoised (they run
// the kernel body as before) until the memo is cleared.
// Off switch: NPUSIM_TRACE_MEMO=0 in the environment at aclInit, or set_enabled(false).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "npusim/ascendc/trace.h"

namespace npusim::rt {

class TraceMemo {
 public:
  /// 256 MiB of memoised traces at most (a 2048^3 matmul launch holds ~1 MiB).
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{256} << 20;

  struct Block {
    ascendc::BlockTrace trace;
    std::string printf_text;
    bool cube = false;    // the block used cube-side pipes or memories
    bool vector = false;  // the block used vector-side pipes or UB
  };

  bool enabled() const { return enabled_; }
  /// Turns the memo on or off (off also forgets everything).
  void set_enabled(bool on);
  /// Reads NPUSIM_TRACE_MEMO (0 = off; anything else or unset = on).
  void configure_from_env();

  /// The memoised block `block` of the launch `key`, or nullptr. `generation` is the memory
  /// registry's current generation: a different one than the memo's forgets everything first.
  const Block* find(const std::string& key, std::uint32_t block_dim, std::uint32_t block,
                    std::uint64_t generation);
  /// Remembers a successful block (ignored when off or when the memo is full).
  void store(const std::string& key, std::uint32_t block_dim, std::uint32_t block,
             std::uint64_t generation, Block b);
  void clear();

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t hits() const { return hits_; }
  std::size_t launches() const { return launches_.size(); }

 private:
  void sync(std::uint64_t generation);

  bool enabled_ = true;
  std::uint64_t generation_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t hits_ = 0;
  // By launch key: one slot per block index (blockDim is part of the key).
  std::unordered_map<std::string, std::vector<std::unique_ptr<Block>>> launches_;
};

}  // namespace npusim::rt
