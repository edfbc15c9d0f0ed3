// SPDX-License-Identifier: Apache-2.0
// BlockContext: local memories, buffer slots and the queue-event -> dependency bookkeeping.
#include "npusim/kernel/block_context.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "npusim/kernel/launch.h"

NPUSIM_KERNEL_API thread_local std::int64_t block_idx = 0;
NPUSIM_KERNEL_API thread_local std::int64_t block_num = 1;

namespace npusim::kernel {

namespace detail {
NPUSIM_KERNEL_API thread_local BlockContext* tls_block = nullptr;
}  // namespace detail

KernelError::KernelError(const char* what) : std::runtime_error(what) {}
KernelError::~KernelError() = default;
DeviceTrap::DeviceTrap() : KernelError("device trap: the kernel executed asm(\"trap\")") {}
DeviceTrap::~DeviceTrap() = default;

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

std::uint32_t flag_key(Pipe src, Pipe dst, int event_id) {
  return (static_cast<std::uint32_t>(src) << 24) | (static_cast<std::uint32_t>(dst) << 16) |
         (static_cast<std::uint32_t>(event_id) & 0xffffu);
}

}  // namespace

BlockContext::BlockContext(std::uint32_t block_idx, std::uint32_t block_num,
                           const CoreBuffers& caps)
    : block_idx_(block_idx), block_num_(block_num), caps_(caps) {
  last_on_pipe_.fill(kNoInstr);
}

void BlockContext::reset(std::uint32_t block_idx, std::uint32_t block_num) {
  block_idx_ = block_idx;
  block_num_ = block_num;
  printf_out.clear();
  trace.clear();
  scalar_bbs = 0;
  issue_bbs = 0;
  pause_depth = 0;
  for (Arena& a : arenas_) a.used = 0;
  slots_.clear();
  in_use_.fill(0);
  last_on_pipe_.fill(kNoInstr);
  for (auto& w : pipe_waits_) w.clear();
  flags_.clear();
  current_tpipe = nullptr;
}

std::uint32_t BlockContext::capacity(Mem mem) const {
  switch (mem) {
    case Mem::kUb:
      return caps_.ub;
    case Mem::kL1:
      return caps_.l1;
    case Mem::kL0a:
      return caps_.l0a;
    case Mem::kL0b:
      return caps_.l0b;
    case Mem::kL0c:
      return caps_.l0c;
    case Mem::kBiasTable:
      return caps_.bias_table;
    case Mem::kFixpipeBuf:
      return caps_.fixpipe_buf;
    default:
      return 0;
  }
}

std::uint8_t* BlockContext::base(Mem mem) {
  Arena& a = arenas_[index(mem)];
  if (a.data.size() < capacity(mem)) a.data.assign(capacity(mem), 0);
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
  std::memset(p + offset, 0, rounded);  // deterministic contents for every fresh buffer
  a.used = static_cast<std::uint32_t>(a.used + rounded);
  return offset;
}

void BlockContext::release_to(Mem mem, std::uint32_t used) {
  Arena& a = arenas_[index(mem)];
  if (used < a.used) a.used = used;
}

std::int32_t BlockContext::add_slot(Mem mem, std::uint32_t offset, std::uint32_t bytes) {
  BufferSlot s;
  s.mem = mem;
  s.offset = offset;
  s.bytes = bytes;
  slots_.push_back(std::move(s));
  return static_cast<std::int32_t>(slots_.size() - 1);
}

std::uint32_t BlockContext::emit(Instr ins, std::initializer_list<Access> accesses) {
  scratch_.clear();
  auto& pipe_waits = pipe_waits_[static_cast<std::size_t>(ins.pipe)];
  scratch_.insert(scratch_.end(), pipe_waits.begin(), pipe_waits.end());
  pipe_waits.clear();
  for (const Access& a : accesses) {
    if (a.slot < 0) continue;
    BufferSlot& s = slot(a.slot);
    scratch_.insert(scratch_.end(), s.waits.begin(), s.waits.end());
    s.waits.clear();
    if (ins.pipe == Pipe::kScalar && !a.write && s.last_writer != kNoInstr) {
      scratch_.push_back(s.last_writer);  // a scalar read stalls for its data
    }
  }
  std::sort(scratch_.begin(), scratch_.end());
  scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
  ins.dep_begin = static_cast<std::uint32_t>(trace.deps.size());
  for (std::uint32_t d : scratch_) {
    if (d != kNoInstr && trace.instrs[d].pipe != ins.pipe) trace.deps.push_back(d);
  }
  ins.dep_count = static_cast<std::uint32_t>(trace.deps.size()) - ins.dep_begin;
  ins.scalar_bbs = pause_depth > 0 ? issue_bbs : scalar_bbs;
  const auto idx = static_cast<std::uint32_t>(trace.instrs.size());
  trace.instrs.push_back(ins);
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

void BlockContext::dequeue(std::int32_t id) {
  BufferSlot& s = slot(id);
  if (s.enqueue_signal != kNoInstr) s.waits.push_back(s.enqueue_signal);
  s.enqueue_signal = kNoInstr;
}

void BlockContext::release(std::int32_t id) {
  BufferSlot& s = slot(id);
  s.release_signal = signal_of(s);
}

void BlockContext::reuse(std::int32_t id) {
  BufferSlot& s = slot(id);
  if (s.release_signal != kNoInstr) s.waits.push_back(s.release_signal);
  s.release_signal = kNoInstr;
}

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
  if (detail::tls_block == nullptr) {
    throw KernelError("Ascend C device API called outside a kernel launch (no current block)");
  }
  return *detail::tls_block;
}

ScopedBlock::ScopedBlock(BlockContext& ctx)
    : saved_(detail::tls_block), saved_idx_(::block_idx), saved_num_(::block_num) {
  detail::tls_block = &ctx;
  ::block_idx = ctx.block_idx();
  ::block_num = ctx.block_num();
}

ScopedBlock::~ScopedBlock() {
  detail::tls_block = saved_;
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

}  // namespace npusim::kernel

namespace npusim::kernel::detail {

void bad_args(std::size_t got, std::size_t need) {
  char msg[160];
  std::snprintf(msg, sizeof msg, "kernel argument block has %zu bytes, the kernel needs %zu", got,
                need);
  throw KernelError(msg);
}

}  // namespace npusim::kernel::detail
