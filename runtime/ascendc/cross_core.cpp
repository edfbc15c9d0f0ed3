// SPDX-License-Identifier: Apache-2.0
// CrossCoreSetFlag / CrossCoreWaitFlag (npusim/ascendc/mix_ops.h): the flag counters of a mix
// launch's members and the instructions the calls record.
#include <string>
#include <vector>

#include "npusim/ascendc/mix_launch.h"
#include "npusim/ascendc/mix_ops.h"
#include "npusim/ascendc/tensor.h"

namespace npusim::ascendc {

namespace {

constexpr std::uint32_t kFlagLimit = 15;  // a flag counter counts 0..15

// A set key: mode, the setter's core, the scope's block (modes 1 and 2) and the flag.
std::uint64_t set_key(std::uint32_t mode, std::int32_t core, std::uint32_t block,
                      std::uint32_t flag) {
  return (std::uint64_t{mode} << 56) | (static_cast<std::uint64_t>(core) << 48) |
         (std::uint64_t{block} << 8) | flag;
}

const SubBlock& mix_member(const char* what) {
  const SubBlock& sb = current_sub_block();
  if (sb.launch == nullptr) {
    fail(what, "needs a __mix__(cube, vector) kernel: kernels declared __vector__, __cube__ or "
               "neither have no cross-core flags");
  }
  return sb;
}

}  // namespace

void MixLaunch::grant(std::uint32_t member, std::uint32_t flag, const std::vector<SyncMark>& from) {
  auto& counter = grants_[{member, flag}];
  if (counter.size() >= kFlagLimit) {
    fail("CrossCoreSetFlag", "flag %u of %s %u would count past %u (sets that no "
         "CrossCoreWaitFlag took)", flag, core_name(member), logical_idx(member), kFlagLimit);
  }
  counter.push_back(from);
}

void MixLaunch::set_flag(std::uint32_t self, std::uint32_t mode, std::uint32_t flag,
                         std::uint32_t instr) {
  const SubBlock me = member(self);
  const std::uint32_t per = shape_.per_block();
  const std::uint32_t base = me.block * per;
  const SyncMark mark{self, instr};
  if (mode == 2 && me.core_type == kCoreAic) {  // the AIC reaches each AIV of its AI Core
    for (std::uint32_t s = shape_.cube; s < per; ++s) grant(base + s, flag, {mark});
    return;
  }
  // The scope that must all set: every member of the core type (mode 0) or the block's AIVs.
  std::vector<std::uint32_t> scope;
  for (std::uint32_t m = 0; m < members(); ++m) {
    const bool same_core = (m % per < shape_.cube) == (me.core_type == kCoreAic);
    if (same_core && (mode == 0 || m / per == me.block)) scope.push_back(m);
  }
  const std::uint64_t key = set_key(mode, me.core_type, mode == 0 ? 0 : me.block, flag);
  const std::uint32_t round = rounds_[{key, self}]++;
  std::vector<SyncMark>& sets = arrivals_[{key, round}];
  sets.push_back(mark);
  if (sets.size() < scope.size()) return;
  const std::vector<SyncMark> from = std::move(sets);
  arrivals_.erase({key, round});
  if (mode == 2) {  // the AIVs together reach their AIC
    for (std::uint32_t s = 0; s < shape_.cube; ++s) grant(base + s, flag, from);
  } else {
    for (std::uint32_t m : scope) grant(m, flag, from);
  }
}

bool MixLaunch::take_grant(std::uint32_t self, std::uint32_t flag, std::vector<SyncMark>& from) {
  auto it = grants_.find({self, flag});
  if (it == grants_.end() || it->second.empty()) return false;
  from = std::move(it->second.front());
  it->second.pop_front();
  return true;
}

void cross_core_set(std::uint32_t mode, Pipe pipe, std::uint32_t flag) {
  const char* what = "CrossCoreSetFlag";
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const SubBlock& sb = mix_member(what);
  const MixShape shape = sb.launch->shape();
  if (mode == 1 && sb.core_type != kCoreAiv) {
    fail(what, "mode 1 synchronises the AIVs of one AI Core; called on AIC %u", sb.block);
  }
  if (mode == 2 && (shape.cube == 0 || shape.vector == 0)) {
    fail(what, "mode 2 synchronises an AI Core's AIC with its AIVs: the kernel is __mix__(%u, %u)",
         shape.cube, shape.vector);
  }
  Instr ins;
  ins.pipe = pipe;
  ins.op = Op::kSyncSet;
  const std::uint32_t i = ctx.emit(ins, {});
  sb.launch->set_flag(sb.member, mode, flag & kFlagLimit, i);
  if (BlockGroup* g = current_group()) g->signal();
}

void cross_core_wait(std::uint32_t flag) {
  const char* what = "CrossCoreWaitFlag";
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const SubBlock& sb = mix_member(what);
  BlockGroup* g = current_group();
  if (g == nullptr) fail(what, "needs the sub-blocks of the launch to run as a group");
  flag &= kFlagLimit;
  MixLaunch& launch = *sb.launch;
  const std::string text = std::string(what) + "(" + std::to_string(flag) + ") on " +
                           launch.core_name(sb.member) + " " +
                           std::to_string(launch.logical_idx(sb.member)) + " (block " +
                           std::to_string(sb.block) + ")";
  std::vector<SyncMark> from;
  g->wait(sb.member, [&] { return launch.take_grant(sb.member, flag, from); }, text.c_str());
  Instr ins;
  ins.pipe = Pipe::kScalar;
  ins.op = Op::kSyncWait;
  const std::uint32_t i = ctx.emit(ins, {});
  // Members' ids in BlockDep::block: MixLaunch::merge turns them into deps and block_deps.
  for (const SyncMark& m : from) ctx.trace.block_deps.push_back({i, m.block, m.instr});
}

}  // namespace npusim::ascendc
