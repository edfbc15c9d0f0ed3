// SPDX-License-Identifier: Apache-2.0
// MixLaunch: the members of a __mix__ kernel's launch and the merging of a block's sub-block
// traces (see mix_launch.h for the rules).
#include "npusim/ascendc/mix_launch.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>

#include "npusim/ascendc/core_pass.h"

NPUSIM_KERNEL_API thread_local std::int32_t g_coreType = npusim::ascendc::kCoreAiv;

namespace npusim::ascendc {

namespace detail {
thread_local SubBlock tls_sub;
thread_local EmitOrder tls_emit_order;
}  // namespace detail

namespace {

// The per-core builds of kernels (core_pass.h): (core, key) -> the build's function. Filled while
// the program's objects are loaded (static initialisation), read by launches.
std::map<std::pair<std::int32_t, std::string>, ErasedKernel>& core_passes() {
  static std::map<std::pair<std::int32_t, std::string>, ErasedKernel> passes;
  return passes;
}
std::mutex& core_passes_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void core_pass_register(std::int32_t core, const char* key, ErasedKernel fn) {
  std::lock_guard<std::mutex> lock(core_passes_mutex());
  core_passes().emplace(std::make_pair(core, std::string(key)), fn);
}

ErasedKernel core_pass_find(std::int32_t core, const char* key, const char* name) {
  {
    std::lock_guard<std::mutex> lock(core_passes_mutex());
    const auto it = core_passes().find(std::make_pair(core, std::string(key)));
    if (it != core_passes().end()) return it->second;
  }
  char msg[200];
  std::snprintf(msg, sizeof msg,
                "kernel %s has no %s build in the program (npusim-asc compiles a source once per "
                "core type; was the source built by npusim-asc?)",
                name, core == kCoreAic ? "AIC" : "AIV");
  throw KernelError(msg);
}

void kernel_mix(std::uint32_t cube, std::uint32_t vector) {
  if (detail::tls_sub.launch != nullptr || current_block() == nullptr) return;
  throw MixKernel{MixShape{cube, vector}};
}

MixLaunch::MixLaunch(MixShape shape, std::uint32_t block_num)
    : shape_(shape), block_num_(block_num) {
  if (shape.cube > 1 || shape.vector > 2 || shape.per_block() == 0) {
    char msg[160];
    std::snprintf(msg, sizeof msg,
                  "__mix__(%u, %u): an Atlas A2/A3 AI Core has 1 AIC and 2 AIVs (__mix__(1, 2), "
                  "(1, 1), (1, 0) or (0, 1))",
                  shape.cube, shape.vector);
    throw KernelError(msg);
  }
  order_.resize(members());
}

SubBlock MixLaunch::member(std::uint32_t m) {
  SubBlock sb;
  const std::uint32_t s = m % shape_.per_block();
  sb.member = m;
  sb.block = m / shape_.per_block();
  sb.launch = this;
  if (s < shape_.cube) {
    sb.core_type = kCoreAic;
    sb.sub_idx = s;
    sb.sub_num = shape_.cube;
  } else {
    sb.core_type = kCoreAiv;
    sb.sub_idx = s - shape_.cube;
    sb.sub_num = shape_.vector;
    sb.ratio = shape_.vector;
  }
  return sb;
}

std::uint32_t MixLaunch::logical_idx(std::uint32_t m) const {
  const std::uint32_t b = m / shape_.per_block();
  const std::uint32_t s = m % shape_.per_block();
  return s < shape_.cube ? b * shape_.cube + s : b * shape_.vector + (s - shape_.cube);
}

const char* MixLaunch::core_name(std::uint32_t m) const {
  return m % shape_.per_block() < shape_.cube ? "AIC" : "AIV";
}

void MixLaunch::attach(BlockContext& ctx, std::uint32_t m) { ctx.core_name = core_name(m); }

void MixLaunch::reset() {
  clock_ = 0;
  for (auto& o : order_) o.clear();
  arrivals_.clear();
  rounds_.clear();
  grants_.clear();
}

namespace {

bool cube_side(Mem m) {
  return m == Mem::kL1 || m == Mem::kL0a || m == Mem::kL0b || m == Mem::kL0c ||
         m == Mem::kBiasTable || m == Mem::kFixpipeBuf;
}

}  // namespace

std::string MixLaunch::check(const BlockTrace& trace, std::uint32_t m) const {
  const bool aic = m % shape_.per_block() < shape_.cube;
  for (std::size_t i = 0; i < trace.instrs.size(); ++i) {
    const Instr& in = trace.instrs[i];
    const bool cube = in.pipe == Pipe::kCube || in.pipe == Pipe::kMte1 ||
                      in.pipe == Pipe::kFixpipe || cube_side(in.src) || cube_side(in.dst);
    const bool vector = in.pipe == Pipe::kVector || in.src == Mem::kUb || in.dst == Mem::kUb;
    if ((aic && vector) || (!aic && cube)) {
      char msg[240];
      std::snprintf(msg, sizeof msg,
                    "%s %u (a sub-block of a __mix__ kernel) recorded instruction %zu on pipe %s "
                    "(%s -> %s): the %s has no %s; guard the code with ASCEND_IS_AIC / "
                    "ASCEND_IS_AIV",
                    core_name(m), logical_idx(m), i, pipe_name(in.pipe), mem_name(in.src),
                    mem_name(in.dst), core_name(m),
                    aic ? "vector unit or UB" : "cube unit, L1, L0 or FIXPIPE");
      return msg;
    }
  }
  return {};
}

// The position of member m's instruction in its block's merged trace: the instructions of the
// block's sub-blocks recorded before it.
std::uint32_t MixLaunch::merged_index(std::uint32_t m, std::uint32_t instr) const {
  const std::uint32_t per = shape_.per_block();
  const std::uint32_t base = m / per * per;
  const std::uint64_t at = order_[m][instr];
  std::uint32_t n = 0;
  for (std::uint32_t s = 0; s < per; ++s) {
    const auto& o = order_[base + s];
    n += static_cast<std::uint32_t>(std::lower_bound(o.begin(), o.end(), at) - o.begin());
  }
  return n;
}

void MixLaunch::merge(std::uint32_t b, const std::vector<const BlockTrace*>& subs,
                      BlockTrace& out) const {
  const std::uint32_t per = shape_.per_block();
  const std::uint32_t base = b * per;
  out.clear();
  std::vector<std::size_t> pos(per, 0);
  std::vector<std::uint64_t> last_bbs(per, 0);
  std::vector<std::vector<std::uint32_t>> where(per);  // sub-block index -> merged index
  std::size_t total = 0;
  for (std::uint32_t s = 0; s < per; ++s) {
    if (order_[base + s].size() != subs[s]->instrs.size()) {
      throw KernelError("mix launch: a sub-block's trace and its recording order disagree");
    }
    total += subs[s]->instrs.size();
  }
  // Call sites (op simulator): each sub-block's own, one after another.
  std::vector<std::uint32_t> site_base(per, 0);
  for (std::uint32_t s = 0; s < per; ++s) {
    site_base[s] = static_cast<std::uint32_t>(out.site_frames.size() / kSiteDepth);
    out.site_frames.insert(out.site_frames.end(), subs[s]->site_frames.begin(),
                           subs[s]->site_frames.end());
  }
  std::uint64_t bbs = 0;
  for (std::size_t n = 0; n < total; ++n) {
    std::uint32_t s = per;
    for (std::uint32_t c = 0; c < per; ++c) {
      if (pos[c] == subs[c]->instrs.size()) continue;
      if (s == per || order_[base + c][pos[c]] < order_[base + s][pos[s]]) s = c;
    }
    const BlockTrace& t = *subs[s];
    const auto i = static_cast<std::uint32_t>(pos[s]++);
    Instr in = t.instrs[i];
    bbs += in.scalar_bbs - last_bbs[s];
    last_bbs[s] = in.scalar_bbs;
    in.scalar_bbs = bbs;
    in.dep_begin = static_cast<std::uint32_t>(out.deps.size());
    for (std::uint32_t d = 0; d < t.instrs[i].dep_count; ++d) {
      out.deps.push_back(where[s][t.deps[t.instrs[i].dep_begin + d]]);
    }
    const auto me = static_cast<std::uint32_t>(n);
    for (const BlockDep& d : t.block_deps) {  // cross-core waits (member ids in d.block)
      if (d.instr != i) continue;
      if (d.block / per == b) {
        out.deps.push_back(where[d.block - base][d.other]);
      } else {
        out.block_deps.push_back({me, d.block / per, merged_index(d.block, d.other)});
      }
    }
    auto first = out.deps.begin() + in.dep_begin;
    std::sort(first, out.deps.end());
    out.deps.erase(std::unique(first, out.deps.end()), out.deps.end());
    in.dep_count = static_cast<std::uint32_t>(out.deps.size()) - in.dep_begin;
    out.instrs.push_back(in);
    if (i < t.sites.size()) {
      out.sites.resize(me, 0);
      out.sites.push_back(site_base[s] + t.sites[i]);
    }
    where[s].push_back(me);
  }
  for (std::uint32_t s = 0; s < per; ++s) {
    bbs += subs[s]->scalar_bbs - last_bbs[s];
    out.local_bytes += subs[s]->local_bytes;
  }
  out.scalar_bbs = bbs;
}

ScopedSubBlock::ScopedSubBlock(MixLaunch& launch, std::uint32_t m)
    : saved_(detail::tls_sub), saved_core_(::g_coreType), saved_order_(detail::tls_emit_order) {
  detail::tls_sub = launch.member(m);
  ::g_coreType = detail::tls_sub.core_type;
  detail::tls_emit_order = {current_block(), &launch.order(m), &launch.clock()};
}

ScopedSubBlock::~ScopedSubBlock() {
  detail::tls_sub = saved_;
  ::g_coreType = saved_core_;
  detail::tls_emit_order = saved_order_;
}

}  // namespace npusim::ascendc
