// SPDX-License-Identifier: Apache-2.0
// The bodies of the cross-block synchronisation calls (npusim/ascendc/sync_ops.h).
#include "npusim/ascendc/sync_ops.h"

#include <string>
#include <vector>

#include "npusim/ascendc/block_group.h"
#include "npusim/ascendc/mix_launch.h"

namespace npusim::ascendc {
namespace {

// Keys of BlockGroup::marks: the kind in the top byte.
constexpr std::uint64_t kSyncAllKey = 1ull << 56;
constexpr std::uint64_t kIbKey = 2ull << 56;
constexpr std::uint64_t kGroupArriveKey = 3ull << 56;  // + the workspace's address bits
constexpr std::uint64_t kGroupWaitKey = 4ull << 56;
constexpr std::uint64_t kTicketKey = 5ull << 56;

// A key of `kind` for the GM workspace at `gm` (its low 40 address bits) and a round.
std::uint64_t gm_key(std::uint64_t kind, const void* gm, std::uint64_t round = 0) {
  const auto addr = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(gm));
  return kind | ((addr & 0xffffffffffull) << 16) | (round & 0xffffull);
}

BlockGroup& group_for(const char* what) {
  if (current_sub_block().launch != nullptr) {
    fail(what, "is not modelled in __mix__ kernels yet (their blocks' AIC and AIVs synchronise "
               "with CrossCoreSetFlag / CrossCoreWaitFlag)");
  }
  BlockGroup* g = current_group();
  if (g == nullptr) {
    fail(what, "needs the blocks of the launch to run as a group (the runtime's launch, or "
               "block_runner.h)");
  }
  return *g;
}

// kSyncSet: the block's signal, after every earlier instruction of every pipe.
std::uint32_t emit_set(BlockContext& ctx) {
  ctx.barrier_all();
  Instr ins;
  ins.pipe = Pipe::kScalar;
  ins.op = Op::kSyncSet;
  return ctx.emit(ins, {});
}

// kSyncWait with a BlockDep on each of `marks` set by another block.
void emit_wait(BlockContext& ctx, const std::vector<SyncMark>& marks) {
  Instr ins;
  ins.pipe = Pipe::kScalar;
  ins.op = Op::kSyncWait;
  const std::uint32_t i = ctx.emit(ins, {});
  for (const SyncMark& m : marks) {
    if (m.block != ctx.block_idx()) ctx.trace.block_deps.push_back({i, m.block, m.instr});
  }
}

std::uint64_t ib_key(BlockContext& ctx, const void* gm, std::int32_t block, std::int32_t event,
                     const char* what) {
  check_gm(ctx, gm, 32, true, what);
  if (block < 0 || static_cast<std::uint32_t>(block) >= ctx.block_num()) {
    fail(what, "blockIdx %d outside the launch's %u blocks", block, ctx.block_num());
  }
  if (event < 0 || event > 0xffff) fail(what, "eventID %d outside 0..65535", event);
  return kIbKey | (static_cast<std::uint64_t>(block) << 16) | static_cast<std::uint64_t>(event);
}

}  // namespace

void require_block(const char* /*what*/) { (void)block(); }

void sync_all(std::int32_t used_cores) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  BlockGroup& g = group_for("SyncAll");
  const std::uint32_t n = used_cores > 0 ? static_cast<std::uint32_t>(used_cores) : ctx.block_num();
  const std::uint32_t self = ctx.block_idx();
  if (n > ctx.block_num() || self >= n) {
    fail("SyncAll", "block %u is not one of the %d cores it synchronises (blockDim %u)", self,
         used_cores, ctx.block_num());
  }
  std::uint32_t& round = g.consumed(self, kSyncAllKey);
  const std::uint64_t key = kSyncAllKey | round++;
  g.marks(key).push_back({self, emit_set(ctx)});
  g.signal();
  g.wait(self, [&g, key, n] { return g.marks(key).size() >= n; }, "SyncAll");
  emit_wait(ctx, g.marks(key));
}

void ib_set(const void* gm, std::int32_t block_idx, std::int32_t event) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  BlockGroup& g = group_for("IBSet");
  const std::uint64_t key = ib_key(ctx, gm, block_idx, event, "IBSet");
  g.marks(key).push_back({ctx.block_idx(), emit_set(ctx)});
  g.signal();
}

void ib_wait(const void* gm, std::int32_t block_idx, std::int32_t event) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  BlockGroup& g = group_for("IBWait");
  const std::uint64_t key = ib_key(ctx, gm, block_idx, event, "IBWait");
  std::uint32_t& used = g.consumed(ctx.block_idx(), key);
  const std::string what = "IBWait(blockIdx " + std::to_string(block_idx) + ", eventID " +
                           std::to_string(event) + ")";
  g.wait(ctx.block_idx(), [&g, key, &used] { return g.marks(key).size() > used; }, what.c_str());
  emit_wait(ctx, {g.marks(key)[used++]});
}

void group_barrier(const void* ws, std::uint32_t arrive, std::uint32_t wait,
                   std::uint32_t index, bool arriving) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const char* what = arriving ? "GroupBarrier::Arrive" : "GroupBarrier::Wait";
  BlockGroup& g = group_for(what);
  if ((reinterpret_cast<std::uintptr_t>(ws) & 511u) != 0) fail(what, "workspace %p is not 512-byte aligned", ws);
  check_gm(ctx, ws, std::uint64_t{wait} * 512, true, what);
  if (index >= (arriving ? arrive : wait)) {
    fail(what, "index %u outside the group's %u blocks", index, arriving ? arrive : wait);
  }
  const std::uint32_t self = ctx.block_idx();
  std::uint32_t& round = g.consumed(self, gm_key(arriving ? kGroupArriveKey : kGroupWaitKey, ws));
  const std::uint64_t key = gm_key(kGroupArriveKey, ws, round++);
  if (arriving) {
    g.marks(key).push_back({self, emit_set(ctx)});
    g.signal();
    return;
  }
  g.wait(self, [&g, key, arrive] { return g.marks(key).size() >= arrive; }, what);
  emit_wait(ctx, g.marks(key));
}

void determine_init(const void* gm, std::uint32_t ub_bytes) {
  BlockContext& ctx = block();
  const char* what = "InitDetermineComputeWorkspace";
  check_gm(ctx, gm, std::uint64_t{ctx.block_num()} * 32, true, what);
  if (ub_bytes < ctx.block_num() * 32 + 32) {
    fail(what, "the UB workspace has %u bytes, blockNum * 32 + 32 = %u needed", ub_bytes,
         ctx.block_num() * 32 + 32);
  }
}

// Ticket r * blockNum + blockIdx: WaitPreBlock waits for the NotifyNextBlock of the ticket
// before its own, NotifyNextBlock gives its ticket.
void determine_turn(const void* gm, bool notify) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const char* what = notify ? "NotifyNextBlock" : "WaitPreBlock";
  BlockGroup& g = group_for(what);
  const std::uint32_t self = ctx.block_idx();
  const std::uint64_t key = gm_key(kTicketKey, gm);
  std::uint32_t& round = g.consumed(self, key);
  const std::uint64_t ticket = std::uint64_t{round} * ctx.block_num() + self;
  if (notify) {
    if (g.marks(key).size() != ticket) fail(what, "without its WaitPreBlock first");
    g.marks(key).push_back({self, emit_set(ctx)});
    g.signal();
    ++round;
    return;
  }
  g.wait(self, [&g, key, ticket] { return g.marks(key).size() >= ticket; }, what);
  if (ticket > 0) emit_wait(ctx, {g.marks(key)[ticket - 1]});
}

void poll_blocks() {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const SubBlock& sub = current_sub_block();  // a mix kernel's members are sub-blocks
  if (BlockGroup* g = current_group()) g->poll(sub.launch != nullptr ? sub.member : ctx.block_idx());
}

}  // namespace npusim::ascendc
