// SPDX-License-Identifier: Apache-2.0
// BlockGroup: the blocks of one launch as cooperating, deterministic coroutines, for the Ascend C
// calls that synchronise blocks with each other (SyncAll, IBSet/IBWait, polling GM through
// ReadGmByPassDCache / DataCacheCleanAndInvalid: npusim/ascendc/sync_ops.h).
//
// How blocks run. The launcher (the runtime, or block_runner.h in tests) runs block 0, 1, 2... one
// after another on its own thread, as it always has; a kernel that never synchronises across
// blocks runs exactly so. When a block waits for something that has not happened yet, the group
// lets other blocks run meanwhile: it starts a block the launcher has not run yet on a thread of
// its own (run_ahead), or resumes a parked block that may now get past its wait. Exactly one block
// runs at any moment (a baton), so the twin's thread-local state and device memory see one block
// at a time, and the order is fixed: the block that gives up the baton hands it to the next
// candidate after itself in cyclic block order (a block never started, a parked block that has not
// yet seen the latest signal, or a polling block), else back to the block the launcher waits for.
// Same program, same interleaving, same results, same traces.
//   * wait(): a wait that no block can ever satisfy (every other block has ended or is parked and
//     has seen every signal since, none is left to start) fails the waiting block with a
//     KernelError naming the call ("deadlock: ..."), never a hang.
//   * poll(): a GM polling loop lets the others run once per poll; a loop that spins with nobody
//     left to change what it reads runs into the watchdog (KernelTimeout), as on the device.
//   * A block that ran ahead keeps its outcome (trace, printf text, error) in the launcher until
//     the launcher's turn for it comes; a block parked in a wait is resumed then (finish_started).
//     Blocks still parked when the group is destroyed (the kernel failed) are unwound with
//     BlockAborted, which launchers must let through.
//
// Timing model: a synchronising call records a kSyncSet instruction (pipe S, after all earlier
// work of the block: its deps are the last instruction of every pipe) where it signals, and a
// kSyncWait instruction (pipe S) where it waits, whose BlockTrace::block_deps name the other
// blocks' kSyncSet instructions it waited for (trace.h). Each costs one scalar access. The core
// replay (models/aicore/block_replay.h) starts a kSyncWait no earlier than the end of every
// kSyncSet it names, on whichever core that block runs: the scalar unit stalls there, so nothing
// after the wait issues earlier, and the cores of one kernel wait for each other as the device's
// do. A block whose partner never runs at the same time (blockDim above the cores the kernel may
// use: later waves) waits until the core's watchdog stops it (aicore.timeout), as on the device;
// the functional run above completes regardless, since it does not depend on cores.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include <pthread.h>
#include <vector>

#include "npusim/ascendc/block_context.h"

namespace npusim::ascendc {

/// Unwinds a block parked in a wait when its group is destroyed (not a KernelError: launchers
/// must not report it as the block's failure).
struct BlockAborted {};

/// Where a block signalled: its index and the kSyncSet instruction.
struct SyncMark {
  std::uint32_t block = 0;
  std::uint32_t instr = 0;
};

class NPUSIM_KERNEL_API BlockGroup {
 public:
  /// `run_ahead(b)` runs block b's body to its end on the calling thread (one of the group's),
  /// with a BlockContext of its own installed and this group current (ScopedGroup), and keeps its
  /// outcome for the launcher. It must not throw (but let BlockAborted through).
  BlockGroup(std::uint32_t block_dim, std::function<void(std::uint32_t)> run_ahead);
  ~BlockGroup();
  BlockGroup(const BlockGroup&) = delete;
  BlockGroup& operator=(const BlockGroup&) = delete;

  std::uint32_t block_dim() const { return block_dim_; }
  /// Any synchronising call so far (the launcher must then not memoise block traces).
  bool used() const { return used_; }
  /// Block b was started by the group (its outcome is or will be the run_ahead one).
  bool started(std::uint32_t b) const { return state_[b] != kIdle && state_[b] != kInline; }
  /// The launcher's turn for a started block: resumes it if parked; returns when it has ended.
  void finish_started(std::uint32_t b);
  /// The launcher runs block b itself, on its thread (begin/end around the body).
  void begin_inline(std::uint32_t b);
  void end_inline(std::uint32_t b);

  // ---- for the synchronising calls (the current block `self`, holding the baton) ----
  /// Returns once ready() holds, letting other blocks run meanwhile; KernelError naming `what`
  /// when no block can ever make it hold.
  void wait(std::uint32_t self, const std::function<bool()>& ready, const char* what);
  /// Lets the other blocks run until each waits or ends (a GM poll).
  void poll(std::uint32_t self);
  /// Something a parked block may wait for has changed.
  void signal() {
    used_ = true;
    ++progress_;
  }
  /// The signals of one key (a SyncAll round, an IBSet flag...), in the order they happened.
  std::vector<SyncMark>& marks(std::uint64_t key) {
    used_ = true;
    return marks_[key];
  }
  /// Per block and key: how many signals of the key it has consumed (IBWait).
  std::uint32_t& consumed(std::uint32_t block, std::uint64_t key) {
    return consumed_[{block, key}];
  }

 private:
  enum State : std::uint8_t { kIdle, kInline, kRunning, kParked, kPolling, kDone };
  static constexpr std::uint32_t kDriver = ~std::uint32_t{0};
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  std::uint32_t pick(std::uint32_t from) const;
  void give(std::uint32_t to);
  void sleep_until_mine(std::uint32_t self);
  void park(std::uint32_t self, State how, std::uint32_t to);
  void thread_main(std::uint32_t b);
  void hand_on_after_end(std::uint32_t b);

  std::uint32_t block_dim_;
  std::function<void(std::uint32_t)> run_ahead_;
  std::vector<State> state_;
  std::vector<std::uint64_t> seen_;  // progress_ when the block last found its wait unmet
  std::vector<pthread_t> threads_;  // the C library's threads (see start_thread)
  std::vector<bool> joinable_;
  void start_thread(std::uint32_t b);
  std::uint64_t progress_ = 0;
  std::uint32_t target_ = kNone;  // the block the launcher is running or waiting for
  std::uint32_t holder_ = kDriver;
  bool aborting_ = false;
  bool used_ = false;
  std::map<std::uint64_t, std::vector<SyncMark>> marks_;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> consumed_;
  std::mutex mutex_;
  std::condition_variable cv_;
};

namespace detail {
extern NPUSIM_KERNEL_API thread_local BlockGroup* tls_group;
}  // namespace detail

/// The group of the block running on this thread, or nullptr (a launcher without one).
inline BlockGroup* current_group() { return detail::tls_group; }

/// Installs a group for the current thread (with the block's ScopedBlock).
class ScopedGroup {
 public:
  explicit ScopedGroup(BlockGroup* group) : saved_(detail::tls_group) {
    detail::tls_group = group;
  }
  ~ScopedGroup() { detail::tls_group = saved_; }
  ScopedGroup(const ScopedGroup&) = delete;
  ScopedGroup& operator=(const ScopedGroup&) = delete;

 private:
  BlockGroup* saved_;
};

}  // namespace npusim::ascendc
