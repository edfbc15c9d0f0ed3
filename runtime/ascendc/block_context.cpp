// SPDX-License-Identifier: Apache-2.0
// BlockContext: local memories, buffer slots and the queue-event -> dependency bookkeeping.
#include "npusim/ascendc/block_context.h"

#include "npusim/ascendc/atomic_ops.h"

#include <execinfo.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/mix_launch.h"
#include "sanitizer.h"

NPUSIM_KERNEL_API thread_local std::int64_t block_idx = 0;
NPUSIM_KERNEL_API thread_local std::int64_t block_num = 1;

namespace npusim::ascendc {

namespace detail {
NPUSIM_KERNEL_API thread_local BlockContext* tls_block = nullptr;
}  // namespace detail

namespace {

// The same pointer for this library's own reads: block() runs at every twin call, and the
// exported tls_block is general-dynamic TLS here (a __tls_get_addr call per read).
__attribute__((tls_model("initial-exec"))) thread_local BlockContext* tls_running = nullptr;

// The op simulator's per-instruction view (NPUSIM_OP_SIMULATOR_DIR, models/aicore/op_simulator.h)
// wants each instruction's call site: read once, so emit() pays one predictable branch when off.
const bool kRecordSites = [] {
  const char* dir = std::getenv("NPUSIM_OP_SIMULATOR_DIR");
  return dir != nullptr && *dir != '\0';
}();

using SiteFrames = std::array<std::uintptr_t, kSiteDepth>;

// The call stack of the kernel code that issued instruction `idx` of `trace` (return addresses,
// innermost first, this function's own frame dropped), stored once per distinct stack and block.
__attribute__((noinline)) void note_site(BlockTrace& trace, std::uint32_t idx) {
  // Sites already stored, per trace being recorded (a trace whose frames were taken away or
  // cleared starts again).
  thread_local std::map<const BlockTrace*, std::map<SiteFrames, std::uint32_t>> known;
  void* raw[kSiteDepth + 1];
  const int n = backtrace(raw, static_cast<int>(kSiteDepth + 1));
  SiteFrames frames{};
  for (int i = 1; i < n; ++i) {
    frames[static_cast<std::size_t>(i - 1)] = reinterpret_cast<std::uintptr_t>(raw[i]);
  }
  auto& ids = known[&trace];
  if (trace.site_frames.empty()) ids.clear();
  const auto id = static_cast<std::uint32_t>(trace.site_frames.size() / kSiteDepth);
  const auto [it, fresh] = ids.emplace(frames, id);
  if (fresh) trace.site_frames.insert(trace.site_frames.end(), frames.begin(), frames.end());
  trace.sites.resize(idx, 0);  // instructions recorded before sites were wanted: site 0
  trace.sites.push_back(it->second);
}

}  // namespace

KernelError::KernelError(const char* what) : std::runtime_error(what) {
  // mssanitizer: the error is a defect, reported where it is raised (the call's frames).
  if (sanitizer::g_checks != 0 && tls_running != nullptr) {
    sanitizer::on_kernel_error(what, tls_running->block_idx());
  }
}
KernelError::~KernelError() = default;
DeviceTrap::DeviceTrap() : KernelError("device trap: the kernel executed asm(\"trap\")") {}
DeviceTrap::~DeviceTrap() = default;
KernelTimeout::KernelTimeout()
    : KernelError("timeout: the block ran longer than the AI Core watchdog (aicore.timeout)") {}
KernelTimeout::~KernelTimeout() = default;

std::uint32_t BlockContext::alignment(Mem mem) {
  switch (mem) {
    case Mem::kL0a:
    case Mem::kL0b:
      return 512;
    case Mem::kL0c:
    case Mem::kBiasTable:
    case Mem::kFixpipeBuf:
      return 64;
    default:
      return 32;
  }
}

namespace {

// The buffer each local memory's capacity is configured by (memories not listed: 0).
std::uint32_t capacity_of(const CoreBuffers& caps, Mem mem) {
  static const std::pair<Mem, std::uint32_t CoreBuffers::*> kCapacity[] = {
      {Mem::kUb, &CoreBuffers::ub},          {Mem::kL1, &CoreBuffers::l1},
      {Mem::kL0a, &CoreBuffers::l0a},        {Mem::kL0b, &CoreBuffers::l0b},
      {Mem::kL0c, &CoreBuffers::l0c},        {Mem::kBiasTable, &CoreBuffers::bias_table},
      {Mem::kFixpipeBuf, &CoreBuffers::fixpipe_buf},
  };
  for (const auto& [m, field] : kCapacity) {
    if (m == mem) return caps.*field;
  }
  return 0;
}

std::uint32_t flag_key(Pipe src, Pipe dst, int event_id) {
  return (static_cast<std::uint32_t>(src) << 24) | (static_cast<std::uint32_t>(dst) << 16) |
         (static_cast<std::uint32_t>(event_id) & 0xffffu);
}

// Sorts and removes duplicates; the lists are a handful of signals (insertion sort).
void sort_unique(std::vector<std::uint32_t>& v) {
  if (v.size() > 32) {
    std::sort(v.begin(), v.end());
  } else {
    for (std::size_t i = 1; i < v.size(); ++i) {
      const std::uint32_t x = v[i];
      std::size_t j = i;
      for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
      v[j] = x;
    }
  }
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

BlockContext::BlockContext(std::uint32_t block_idx, std::uint32_t block_num,
                           const CoreBuffers& caps)
    : block_idx_(block_idx), block_num_(block_num), caps_(caps) {
  last_on_pipe_.fill(kNoInstr);
  for (std::size_t m = 0; m < capacity_.size(); ++m) {
    capacity_[m] = capacity_of(caps_, static_cast<Mem>(m));
  }
  atomic_reset(*this);
}

void BlockContext::reset(std::uint32_t block_idx, std::uint32_t block_num) {
  block_idx_ = block_idx;
  block_num_ = block_num;
  printf_out.clear();
  core_name = nullptr;
  trace.clear();
  scalar_bbs = 0;
  issue_bbs = 0;
  pause_depth = 0;
  for (Arena& a : arenas_) a.used = 0;
  live_slots_ = 0;  // the slots (and their wait lists' storage) are reused by add_slot
  in_use_.fill(0);
  last_on_pipe_.fill(kNoInstr);
  for (auto& w : pipe_waits_) w.clear();
  flags_.clear();
  current_tpipe = nullptr;
  regs = ControlRegs{};
  fixpipe_regs = FixpipeRegs{};
  sparse_index.clear();
  shape_infos.clear();
  overflow_mode = 1;
  atomic_reset(*this);
}

bool BlockContext::gm_accessible(const void* addr, std::uint64_t bytes, bool write) const {
  const bool ok = !gm_check || gm_check(addr, bytes, write);
  if (ok && write && functional) atomic_before_write(*this, addr, bytes);
  return ok;
}

std::uint32_t BlockContext::capacity(Mem mem) const { return capacity_[index(mem)]; }

std::uint8_t* BlockContext::base(Mem mem) {
  Arena& a = arenas_[index(mem)];
  const std::uint32_t cap = capacity_[index(mem)];
  if (a.data.size() < cap) a.data.assign(cap, 0);
  return a.data.data();
}

std::uint32_t BlockContext::allocate(Mem mem, std::uint64_t bytes, const char* what) {
  const std::uint64_t align = alignment(mem);
  const std::uint64_t rounded = (bytes + align - 1) / align * align;
  Arena& a = arenas_[index(mem)];
  const std::uint64_t cap = capacity(mem);
  if (a.used + rounded > cap) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "%s: %s overflow: needs %llu bytes, only %llu of %llu bytes are free "
                  "(block %u)",
                  what, mem_name(mem), static_cast<unsigned long long>(rounded),
                  static_cast<unsigned long long>(cap - a.used),
                  static_cast<unsigned long long>(cap), block_idx_);
    throw KernelError(msg);
  }
  const std::uint32_t offset = a.used;
  std::uint8_t* p = base(mem);
  // Deterministic contents for every fresh buffer (timing-only runs compute nothing from them).
  if (functional) std::memset(p + offset, 0, rounded);
  a.used = static_cast<std::uint32_t>(a.used + rounded);
  std::uint64_t held = 0;  // the core state a checkpoint would save (trace.h local_bytes)
  for (Mem m : {Mem::kUb, Mem::kL1, Mem::kL0a, Mem::kL0b, Mem::kL0c}) held += arenas_[index(m)].used;
  trace.local_bytes = std::max(trace.local_bytes, held);
  return offset;
}

void BlockContext::release_to(Mem mem, std::uint32_t used) {
  Arena& a = arenas_[index(mem)];
  if (used < a.used) a.used = used;
}

std::int32_t BlockContext::add_slot(Mem mem, std::uint32_t offset, std::uint32_t bytes) {
  if (live_slots_ == slots_.size()) slots_.emplace_back();
  BufferSlot& s = slots_[live_slots_];
  std::vector<std::uint32_t> waits = std::move(s.waits);
  waits.clear();
  s = BufferSlot{};
  s.mem = mem;
  s.offset = offset;
  s.bytes = bytes;
  s.waits = std::move(waits);
  return static_cast<std::int32_t>(live_slots_++);
}

std::uint32_t BlockContext::emit(Instr ins, std::initializer_list<Access> accesses) {
  scratch_.clear();
  auto& pipe_waits = pipe_waits_[static_cast<std::size_t>(ins.pipe)];
  for (std::uint32_t w : pipe_waits) scratch_.push_back(w);
  pipe_waits.clear();
  for (const Access& a : accesses) {
    if (a.slot < 0) continue;
    BufferSlot& s = slot(a.slot);
    for (std::uint32_t w : s.waits) scratch_.push_back(w);
    s.waits.clear();
    if (ins.pipe == Pipe::kScalar && !a.write && s.last_writer != kNoInstr) {
      scratch_.push_back(s.last_writer);  // a scalar read stalls for its data
    }
  }
  ins.dep_begin = static_cast<std::uint32_t>(trace.deps.size());
  if (!scratch_.empty()) {
    sort_unique(scratch_);
    for (std::uint32_t d : scratch_) {
      if (d != kNoInstr && trace.instrs[d].pipe != ins.pipe) trace.deps.push_back(d);
    }
  }
  ins.dep_count = static_cast<std::uint32_t>(trace.deps.size()) - ins.dep_begin;
  ins.scalar_bbs = pause_depth > 0 ? issue_bbs : scalar_bbs;
  const auto idx = static_cast<std::uint32_t>(trace.instrs.size());
  if (ins.dst == Mem::kGm && ins.pipe != Pipe::kScalar && functional) atomic_after_write(*this, ins);
  trace.instrs.push_back(ins);
  if (kRecordSites) note_site(trace, idx);
  if (detail::tls_emit_order.ctx == this) detail::tls_emit_order.note();
  if (sanitizer::g_checks != 0) {
    sanitizer::on_emit(*this, idx, last_on_pipe_[static_cast<std::size_t>(ins.pipe)], accesses);
  }
  last_on_pipe_[static_cast<std::size_t>(ins.pipe)] = idx;
  for (const Access& a : accesses) {
    if (a.slot < 0) continue;
    BufferSlot& s = slot(a.slot);
    s.touched = true;
    s.last_pipe = ins.pipe;
    if (a.write) s.last_writer = idx;
  }
  return idx;
}

std::uint32_t BlockContext::signal_of(const BufferSlot& s) const {
  return s.touched ? last_on_pipe_[static_cast<std::size_t>(s.last_pipe)] : kNoInstr;
}

void BlockContext::enqueue(std::int32_t id) {
  BufferSlot& s = slot(id);
  s.enqueue_signal = signal_of(s);
}

// DeQue / AllocTensor: the slot's next user waits for the signal its EnQue / FreeTensor left.
static void take_signal(BufferSlot& s, std::uint32_t BufferSlot::*signal) {
  if (s.*signal != kNoInstr) s.waits.push_back(s.*signal);
  s.*signal = kNoInstr;
}

void BlockContext::dequeue(std::int32_t id) { take_signal(slot(id), &BufferSlot::enqueue_signal); }

void BlockContext::release(std::int32_t id) {
  BufferSlot& s = slot(id);
  s.release_signal = signal_of(s);
}

void BlockContext::reuse(std::int32_t id) { take_signal(slot(id), &BufferSlot::release_signal); }

void BlockContext::set_flag(Pipe src, Pipe dst, int event_id) {
  flags_.push_back({flag_key(src, dst, event_id), last_on_pipe_[static_cast<std::size_t>(src)]});
}

void BlockContext::wait_flag(Pipe src, Pipe dst, int event_id) {
  const std::uint32_t key = flag_key(src, dst, event_id);
  auto it = std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) { return f.key == key; });
  if (it == flags_.end()) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "WaitFlag(%s -> %s, event %d) without a matching SetFlag: the device would "
                  "hang (block %u)",
                  pipe_name(src), pipe_name(dst), event_id, block_idx_);
    throw KernelError(msg);
  }
  if (it->signal != kNoInstr) pipe_waits_[static_cast<std::size_t>(dst)].push_back(it->signal);
  flags_.erase(it);
}

void BlockContext::barrier_all() {
  for (auto& waits : pipe_waits_) {
    for (std::uint32_t last : last_on_pipe_) {
      if (last != kNoInstr) waits.push_back(last);
    }
  }
}

BlockContext& block() {
  if (tls_running == nullptr) {
    throw KernelError("Ascend C device API called outside a kernel launch (no current block)");
  }
  return *tls_running;
}

ScopedBlock::ScopedBlock(BlockContext& ctx)
    : saved_(detail::tls_block), saved_idx_(::block_idx), saved_num_(::block_num) {
  detail::tls_block = &ctx;
  tls_running = &ctx;
  detail::set_scalar_counter(&ctx.scalar_bbs, ctx.scalar_bb_limit);
  ::block_idx = ctx.block_idx();
  ::block_num = ctx.block_num();
  ::g_coreType = kCoreAiv;  // a plain block until a mix launcher or kernel_core() says otherwise
}

ScopedBlock::~ScopedBlock() {
  detail::tls_block = saved_;
  tls_running = saved_;
  detail::set_scalar_counter(saved_ != nullptr ? &saved_->scalar_bbs : nullptr,
                             saved_ != nullptr ? saved_->scalar_bb_limit : ~std::uint64_t{0});
  ::block_idx = saved_idx_;
  ::block_num = saved_num_;
}

void device_trap() { throw DeviceTrap(); }

void device_asm(const char* text) {
  std::string s = text != nullptr ? text : "";
  const auto first = s.find_first_not_of(" \t\n;");
  const auto last = s.find_last_not_of(" \t\n;");
  s = first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  if (s == "trap") device_trap();
  throw KernelError(("unsupported inline asm in a kernel: \"" + s +
                     "\" (the simulator only understands asm(\"trap\"))")
                        .c_str());
}

}  // namespace npusim::ascendc

namespace npusim::ascendc::detail {

void bad_args(std::size_t got, std::size_t need) {
  char msg[160];
  std::snprintf(msg, sizeof msg, "kernel argument block has %zu bytes, the kernel needs %zu", got,
                need);
  throw KernelError(msg);
}

}  // namespace npusim::ascendc::detail
