// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/kernel_launch.h"

#include <array>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <vector>
#include <string>
#include <utility>

#include "acl/acl_rt.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/block_group.h"
#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/mix_launch.h"
#include "runtime/ascendc/sanitizer.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/fault_guard.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/library.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

using ascendc::Mem;
using ascendc::Pipe;
using models::CoreType;

// Split chips have separate AIC and AIV cores; the others have coupled AI Cores with every pipe.
bool split_chip(const models::ChipConfig& cfg) {
  return cfg.generation().split_cores && cfg.aicore.vector_cores > 0;
}

ascendc::CoreBuffers core_buffers(const models::ChipConfig& cfg) {
  ascendc::CoreBuffers caps;
  caps.ub = static_cast<std::uint32_t>(cfg.aicore.ub.value);
  caps.l1 = static_cast<std::uint32_t>(cfg.aicore.l1.value);
  caps.l0a = static_cast<std::uint32_t>(cfg.aicore.l0a.value);
  caps.l0b = static_cast<std::uint32_t>(cfg.aicore.l0b.value);
  caps.l0c = static_cast<std::uint32_t>(cfg.aicore.l0c.value);
  return caps;
}

using models::PipeUse;

// The GM check of a launch's blocks: MemoryRegistry::device_accessible, remembering the last few
// device allocations that passed (a block's copies keep hitting the same few buffers). Forgotten
// before every block: allocations change only between blocks (no API call runs while a block
// does), so within one it answers exactly as the registry would.
class GmCheck {
 public:
  void reset(const MemoryRegistry& memory) {
    memory_ = &memory;
    known_ = {};
    next_ = 0;
  }

  bool operator()(const void* p, std::uint64_t bytes, bool write) {
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    if (sanitizer::g_checks != 0) return checked(p, bytes, write);
    for (const Range& r : known_) {
      if (bytes != 0 && addr >= r.base && bytes <= r.size && addr - r.base <= r.size - bytes) {
        return true;
      }
    }
    if (!memory_->device_accessible(p, bytes, write)) return false;
    const Allocation* a = memory_->find(p);
    if (a != nullptr && a->kind != MemKind::kHostPinned && a->contains(addr, bytes)) {
      known_[next_] = Range{a->base, a->size};
      next_ = (next_ + 1) % known_.size();
    }
    return true;
  }

 private:
  // Under mssanitizer: the registry's answer, and the access goes to the sanitizer's shadow.
  bool checked(const void* p, std::uint64_t bytes, bool write) {
    if (!memory_->device_accessible(p, bytes, write)) return false;
    sanitizer::on_kernel_gm(p, bytes, write);
    return true;
  }

  struct Range {
    std::uintptr_t base = 0;
    std::uint64_t size = 0;
  };
  const MemoryRegistry* memory_ = nullptr;
  std::array<Range, 4> known_{};
  std::size_t next_ = 0;
};

// What the blocks of one launch share, and what its retirement needs.
struct LaunchState {
  std::string name;
  std::uint32_t block_dim = 0;
  std::function<void()> body;
  ascendc::CoreBuffers caps;
  Runtime* runtime = nullptr;
  std::shared_ptr<ContextFault> fault;
  int exception_code = ACL_ERROR_RT_AICORE_EXCEPTION;
  int timeout_code = ACL_ERROR_RT_AICORE_TIMEOUT;
  std::uint64_t bb_limit = ~std::uint64_t{0};  // the watchdog, in basic blocks of scalar work
  bool functional = true;                        // aicore.functional (false: timing-only)
  std::string printf_text;
  PipeUse pipes;
  GmCheck gm_check;
  bool ran = false;
  /// The launch's full memo key (empty: not memoised): kernel identity, name, argument bytes,
  /// blockDim, core type, local memory sizes and watchdog (the block index is the memo's slot).
  std::string memo_key;
  /// Blocks the group ran ahead of their turn (their own contexts, kept until the turn comes),
  /// declared before the group: a parked block unwinding in ~BlockGroup still uses its context.
  struct Ahead {
    std::unique_ptr<ascendc::BlockContext> ctx;
    int code = 0;
  };
  std::vector<Ahead> ahead;
  std::unique_ptr<ascendc::BlockGroup> group;  // the blocks as a group (block_group.h)
  /// Blocks whose turn came in this execution: a block's second turn means a model replays the
  /// launch, which starts the group afresh (start_group).
  std::vector<bool> taken;
  /// A __mix__ kernel's launch (npusim/ascendc/mix_launch.h), once its first block said so: the
  /// group's members are then the blocks' AIC and AIV sub-blocks.
  std::unique_ptr<ascendc::MixLaunch> mix;
  models::KernelWork* work = nullptr;  // the task's, to tell the engine the declared cores
};

void append_bytes(std::string& key, const void* p, std::size_t n) {
  key.append(static_cast<const char*>(p), n);
}

// The full memo key of a launch (see LaunchState::memo_key).
std::string launch_memo_key(const KernelSpec& spec, CoreType type, const ascendc::CoreBuffers& caps,
                            std::uint64_t bb_limit) {
  std::string key;
  key.reserve(64 + spec.name.size() + spec.memo_key.size());
  const auto identity = reinterpret_cast<std::uintptr_t>(spec.identity);
  const auto core = static_cast<std::uint32_t>(type);
  const std::uint32_t sizes[] = {spec.block_dim, core, caps.ub, caps.l1, caps.l0a, caps.l0b,
                                 caps.l0c, static_cast<std::uint32_t>(spec.name.size())};
  append_bytes(key, &identity, sizeof identity);
  append_bytes(key, &bb_limit, sizeof bb_limit);
  append_bytes(key, sizes, sizeof sizes);
  key += spec.name;
  key += spec.memo_key;
  return key;
}

int block_failed(const LaunchState& st, std::uint32_t block, const char* what) {
  std::string text = "kernel " + st.name + " block " + std::to_string(block) + " of " +
                     std::to_string(st.block_dim) + " failed: " + what;
  sim::log_error(text);
  st.runtime->set_device_error(std::move(text));
  // A kernel declared __cube__ runs on the cube cores even when it fails before its first
  // instruction could tell the launch so: its exception is then the AI Core's.
  const ascendc::BlockContext* ctx = ascendc::current_block();
  if (ctx != nullptr && ctx->core_name != nullptr && std::strcmp(ctx->core_name, "AIC") == 0) {
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }
  return st.exception_code;
}

// What the memory-fault message says of the granularity of raw-access checks (README,
// "memcheck"): page protection catches a raw access only where no live allocation's page is.
constexpr const char* kRawAccessGranularity =
    "raw __gm__ accesses are checked per page: one into a freed allocation of up to 2 KiB, into a "
    "freed packed allocation, just past a buffer inside its last page, or into host memory is not "
    "caught";

// Runs the body for the installed block; the error code of the block (0 = fine). A memory fault
// in it (a raw __gm__ load or store outside device memory) ends the block like a trap.
int run_body(const LaunchState& st, std::uint32_t block) {
  try {
    const MemoryFault fault = run_guarded([&st] { st.body(); });
    if (fault.hit && fault.signal == SIGFPE) {
      const char* text = "arithmetic exception (SIGFPE) in the kernel's host code";
      if (sanitizer::g_checks != 0) sanitizer::on_kernel_error(text, block);
      return block_failed(st, block, text);
    }
    if (fault.hit) {
      char address[32];
      std::snprintf(address, sizeof address, "0x%llx",
                    static_cast<unsigned long long>(fault.address));
      const std::string text =
          std::string("illegal global memory access at address ") + address + " (" +
          (fault.signal == SIGBUS ? "bus error" : "segmentation fault") +
          "): outside every live device allocation (" + kRawAccessGranularity + ")";
      if (sanitizer::g_checks != 0) sanitizer::on_kernel_error(text.c_str(), block);
      return block_failed(st, block, text.c_str());
    }
    return 0;
  } catch (const ascendc::BlockAborted&) {
    throw;  // the group unwinds a parked block: not the block's failure
  } catch (const ascendc::MixKernel&) {
    throw;  // a __mix__ kernel run as a plain block: run_block runs it as a mix launch
  } catch (const ascendc::KernelTimeout& e) {
    block_failed(st, block, e.what());
    return st.timeout_code;
  } catch (const ascendc::DeviceTrap& e) {
    return block_failed(st, block, e.what());
  } catch (const ascendc::KernelError& e) {
    return block_failed(st, block, e.what());
  } catch (const std::exception& e) {
    return block_failed(st, block, (std::string("exception: ") + e.what()).c_str());
  } catch (...) {
    return block_failed(st, block, "unknown exception");
  }
}

bool same_caps(const ascendc::CoreBuffers& a, const ascendc::CoreBuffers& b) {
  return a.ub == b.ub && a.l1 == b.l1 && a.l0a == b.l0a && a.l0b == b.l0b && a.l0c == b.l0c;
}

// The runtime's one BlockContext, prepared for `block` (its memories are allocated once and reused
// by every block of every kernel: blocks never run concurrently).
ascendc::BlockContext& block_context(LaunchState& st, std::uint32_t block) {
  std::unique_ptr<ascendc::BlockContext>& ctx = st.runtime->block_context();
  if (!ctx || !same_caps(ctx->caps(), st.caps)) {
    ctx = std::make_unique<ascendc::BlockContext>(block, st.block_dim, st.caps);
  } else {
    ctx->reset(block, st.block_dim);
  }
  ctx->scalar_bb_limit = st.bb_limit;
  ctx->functional = st.functional;
  st.gm_check.reset(st.runtime->memory());
  ctx->gm_check = std::ref(st.gm_check);  // stored in place: no allocation
  return *ctx;
}

// The block's trace, printf text and pipe use go to the launch (the block has ended).
void take_outputs(LaunchState& st, ascendc::BlockContext& ctx, ascendc::BlockTrace& trace,
                  PipeUse& use) {
  ctx.finish();
  std::swap(trace, ctx.trace);  // the block's trace out, the (cleared) buffer back for reuse
  st.printf_text.append(ctx.printf_out.begin(), ctx.printf_out.end());
  use.note(trace);
  st.pipes.cube = st.pipes.cube || use.cube;
  st.pipes.vector = st.pipes.vector || use.vector;
  st.ran = true;
}

void run_ahead(LaunchState& st, std::uint32_t member);

// A fresh group for an execution of the launch (the first, or a model's replay). The old group
// goes first: it unwinds any block still parked in it, which uses its Ahead context. A mix
// launch's group has a member per sub-block.
void start_group(LaunchState& st) {
  st.group.reset();
  const std::uint32_t members = st.mix ? st.mix->members() : st.block_dim;
  if (st.mix) st.mix->reset();
  st.ahead.clear();
  st.ahead.resize(members);
  st.taken.assign(st.block_dim, false);
  st.group = std::make_unique<ascendc::BlockGroup>(
      members, [raw = &st](std::uint32_t m) { run_ahead(*raw, m); });
}

// BlockGroup's run_ahead: member `member` (a block, or a mix launch's sub-block) on a thread of
// the group, with a context of its own.
void run_ahead(LaunchState& st, std::uint32_t member) {
  const std::uint32_t idx = st.mix ? st.mix->logical_idx(member) : member;
  auto ctx = std::make_unique<ascendc::BlockContext>(idx, st.block_dim, st.caps);
  ctx->scalar_bb_limit = st.bb_limit;
  ctx->functional = st.functional;
  ctx->gm_check = std::ref(st.gm_check);
  LaunchState::Ahead& a = st.ahead[member];
  a.ctx = std::move(ctx);
  if (st.mix) st.mix->attach(*a.ctx, member);
  ascendc::ScopedBlock scope(*a.ctx);
  ascendc::ScopedGroup in_group(st.group.get());
  if (!st.mix) {
    a.code = run_body(st, member);
    return;
  }
  ascendc::ScopedSubBlock sub(*st.mix, member);
  a.code = run_body(st, member / st.mix->shape().per_block());
}

// The engine's core type of a __mix__(c, v) kernel.
CoreType mix_core_type(const ascendc::MixShape& shape) {
  if (shape.cube > 0 && shape.vector > 0) return CoreType::kMix;
  return shape.cube > 0 ? CoreType::kAic : CoreType::kAiv;
}

// Member m of a mix launch has ended: its trace into `trace`, its printf text to the launch.
// Returns its error, or the error of a sub-block that used the other core's pipes.
int take_member(LaunchState& st, ascendc::BlockContext& ctx, std::uint32_t m, int code,
                ascendc::BlockTrace& trace) {
  ctx.finish();
  std::swap(trace, ctx.trace);
  st.printf_text.append(ctx.printf_out.begin(), ctx.printf_out.end());
  if (code != 0) return code;
  const std::string why = st.mix->check(trace, m);
  return why.empty() ? 0 : block_failed(st, m / st.mix->shape().per_block(), why.c_str());
}

// Block `block` of a mix launch: its sub-blocks, each run (or finished, if the group started
// it) in turn, and their traces merged into the block's (MixLaunch::merge).
int run_mix_block(LaunchState& st, std::uint32_t block, ascendc::BlockTrace& trace) {
  ascendc::MixLaunch& mix = *st.mix;
  const std::uint32_t per = mix.shape().per_block();
  std::vector<ascendc::BlockTrace> subs(per);
  int code = 0;
  for (std::uint32_t s = 0; s < per; ++s) {
    const std::uint32_t m = block * per + s;
    int c;
    if (st.group->started(m)) {
      st.group->finish_started(m);
      LaunchState::Ahead& a = st.ahead[m];
      c = take_member(st, *a.ctx, m, a.code, subs[s]);
      a.ctx.reset();
    } else {
      ascendc::BlockContext& ctx = block_context(st, mix.logical_idx(m));
      mix.attach(ctx, m);
      st.group->begin_inline(m);
      {
        ascendc::ScopedBlock scope(ctx);
        ascendc::ScopedGroup in_group(st.group.get());
        ascendc::ScopedSubBlock sub(mix, m);
        c = run_body(st, block);
      }
      st.group->end_inline(m);
      c = take_member(st, ctx, m, c, subs[s]);
    }
    if (code == 0) code = c;
  }
  std::vector<const ascendc::BlockTrace*> parts;
  for (const ascendc::BlockTrace& t : subs) parts.push_back(&t);
  mix.merge(block, parts, trace);
  PipeUse use;
  use.note(trace);
  st.pipes.cube = st.pipes.cube || use.cube;
  st.pipes.vector = st.pipes.vector || use.vector;
  st.ran = true;
  return code;
}

// The first block of a __mix__ kernel ran as a plain one and said so (MixKernel): the launch
// becomes a mix launch, told to the engine, and the block runs again as its sub-blocks.
int become_mix(LaunchState& st, const ascendc::MixShape& shape, std::uint32_t block,
               ascendc::BlockTrace& trace) {
  try {
    st.mix = std::make_unique<ascendc::MixLaunch>(shape, st.block_dim);
  } catch (const ascendc::KernelError& e) {
    return block_failed(st, block, e.what());
  }
  st.exception_code = ACL_ERROR_RT_AICORE_EXCEPTION;
  st.timeout_code = ACL_ERROR_RT_AICORE_TIMEOUT;
  if (st.work != nullptr) {
    st.work->declared = true;
    st.work->declared_type = mix_core_type(shape);
  }
  start_group(st);
  st.taken[block] = true;
  return run_mix_block(st, block, trace);
}

// The turn of a block the group started: it runs to its end (if it has not), its outputs go out.
int finish_ahead(LaunchState& st, std::uint32_t block, ascendc::BlockTrace& trace) {
  st.group->finish_started(block);
  LaunchState::Ahead& a = st.ahead[block];
  PipeUse use;
  take_outputs(st, *a.ctx, trace, use);
  a.ctx.reset();
  return a.code;
}

// KernelWork::run_block.
int run_block(LaunchState& st, std::uint32_t block, ascendc::BlockTrace& trace) {
  if (st.fault->stopped) return 0;  // the context stopped (stop-on-failure): nothing runs
  if (st.taken[block]) start_group(st);
  st.taken[block] = true;
  if (st.mix) return run_mix_block(st, block, trace);
  if (st.group->started(block)) return finish_ahead(st, block, trace);
  TraceMemo& memo = st.runtime->trace_memo();
  const bool memoise = !st.functional && !st.memo_key.empty() && memo.enabled();
  const std::uint64_t generation = memoise ? st.runtime->memory().generation() : 0;
  if (memoise) {
    if (const TraceMemo::Block* m = memo.find(st.memo_key, st.block_dim, block, generation)) {
      trace = m->trace;
      st.printf_text += m->printf_text;
      st.pipes.cube = st.pipes.cube || m->cube;
      st.pipes.vector = st.pipes.vector || m->vector;
      st.ran = true;
      if (block == 0 && sim::log_enabled(sim::LogLevel::kDebug)) {
        sim::log_debug("kernel " + st.name + ": block traces reused from an earlier launch with "
                       "the same arguments (timing-only trace memo)");
      }
      return 0;
    }
  }
  ascendc::BlockContext& ctx = block_context(st, block);
  int code;
  st.group->begin_inline(block);
  try {
    ascendc::ScopedBlock scope(ctx);
    ascendc::ScopedGroup in_group(st.group.get());
    code = run_body(st, block);
  } catch (const ascendc::MixKernel& m) {
    st.group->end_inline(block);
    return become_mix(st, m.shape, block, trace);
  }
  st.group->end_inline(block);
  PipeUse use;
  take_outputs(st, ctx, trace, use);
  // Only successful blocks, and only while memory is as it was when the block started (the body
  // runs no API call, so it is); never blocks that synchronised with others.
  if (memoise && code == 0 && st.runtime->memory().generation() == generation &&
      !st.group->used()) {
    TraceMemo::Block b;
    b.trace = trace;
    b.printf_text.assign(ctx.printf_out.begin(), ctx.printf_out.end());
    b.cube = use.cube;
    b.vector = use.vector;
    memo.store(st.memo_key, st.block_dim, block, generation, std::move(b));
  }
  return code;
}

// The core cap of `type` for a launch on `s` by this thread: the stream's limit, the thread's
// stream limit (aclrtUseStreamResInCurrentThread), the process's, else 0 (every core).
std::uint32_t core_cap(Call& call, const Stream& s, int type) {
  if (s.limits.set[type]) return s.limits.value[type];
  const Stream* thread_stream = call.runtime().streams().find(call.thread().res_stream);
  if (thread_stream != nullptr && thread_stream->limits.set[type]) {
    return thread_stream->limits.value[type];
  }
  const Device& dev = call.device(s.device);
  return dev.limits.set[type] ? dev.limits.value[type] : 0;
}

// The launch's core type; `known` false when neither the launch nor an earlier run of the kernel
// says (the AI Core engine then decides from block 0's trace; kAiv until then).
CoreType choose_core_type(Call& call, const KernelSpec& spec, bool& known) {
  known = true;
  if (spec.engine == ACL_RT_ENGINE_TYPE_AIC) return CoreType::kAic;
  if (spec.engine == ACL_RT_ENGINE_TYPE_AIV) return CoreType::kAiv;
  if (spec.engine == kEngineMix) return CoreType::kMix;
  auto& learned = call.runtime().learned_core_types();
  auto it = spec.identity != nullptr ? learned.find(spec.identity) : learned.end();
  known = it != learned.end();
  return known ? it->second : CoreType::kAiv;
}

Task kernel_task(Call& call, Stream& s, KernelSpec& spec, std::shared_ptr<LaunchState> st) {
  const models::ChipConfig& cfg = call.config();
  bool split = split_chip(cfg);
  auto work = std::make_shared<models::KernelWork>();
  work->name = spec.name;
  work->info = op_info_for(call, std::move(spec.info), spec.name, spec.name, "AiCore");
  work->block_dim = spec.block_dim;
  work->core_type = choose_core_type(call, spec, work->core_type_known);
  bool vector = split && work->core_type == CoreType::kAiv;
  work->max_cores =
      core_cap(call, s, vector ? ACL_RT_DEV_RES_VECTOR_CORE : ACL_RT_DEV_RES_CUBE_CORE);
  work->batch_mode = spec.batch_mode;
  st->exception_code = vector ? ACL_ERROR_RT_VECTOR_CORE_EXCEPTION : ACL_ERROR_RT_AICORE_EXCEPTION;
  st->timeout_code = vector ? ACL_ERROR_RT_VECTOR_CORE_TIMEOUT : ACL_ERROR_RT_AICORE_TIMEOUT;
  st->functional = cfg.aicore.functional;
  // The watchdog on the functional run: aicore.timeout of scalar work alone (pipe time comes on
  // top in the replay, which the AI Core engine holds to the same timeout).
  const double cycles = static_cast<double>(cfg.aicore.timeout.ps) * cfg.aicore.frequency.hz * 1e-12;
  if (cfg.aicore.scalar_cycles_per_bb > 0) {
    const double bbs = cycles / cfg.aicore.scalar_cycles_per_bb;
    if (bbs < 1.8e19) st->bb_limit = static_cast<std::uint64_t>(bbs);
  }
  if (!spec.memo_key.empty() && !st->functional) {
    st->memo_key = launch_memo_key(spec, work->core_type, st->caps, st->bb_limit);
  }
  st->work = work.get();
  work->run_block = [st](std::uint32_t block, ascendc::BlockTrace& trace) {
    return run_block(*st, block, trace);
  };
  Task task;
  task.kind = TaskKind::kKernel;
  task.name = spec.name;
  task.payload = std::move(work);
  return task;
}

}  // namespace

models::OpInfo op_info_for(const Call& call, models::OpInfo info, const std::string& kernel,
                           const std::string& op_type, const char* engine) {
  if (info.op_name.empty()) {
    info.op_name = std::string(call.name()) + "_" + kernel + engine + "_" + op_type;
  }
  return info;
}

// The exception report of a failed launch, if anyone listens.
void report_launch_failure(Runtime& rt, const TaskOutcome& r, rtExceptionInfo info,
                           const KernelOrigin& origin) {
  if (r.error == 0 || r.discarded) return;
  if (rt.exception_callback() == nullptr && origin.binary_callback == nullptr) return;
  info.error_code = static_cast<std::uint32_t>(r.error);
  rt.queue_exception(PendingException{info, rt.exception_callback(), origin.binary_callback,
                                      origin.binary_user_data});
}

// What the exception callbacks will see if the launch (the next task of `s`) fails.
rtExceptionInfo launch_exception_info(Call& call, const Stream& s, const KernelOrigin& origin) {
  rtExceptionInfo info;
  info.task_id = s.next_task_id & 0xFFFFu;  // the id submit_to_stream gives the task
  info.stream_id = s.id;
  info.device_id = s.device;
  info.thread_id = call.thread().index;
  info.args = origin.args;
  info.args_size = origin.args_size;
  info.func_handle = origin.func_handle;
  return info;
}

void check_launch(const Call& call, const Stream& s, std::uint32_t block_dim,
                  const std::string& what, bool has_body) {
  require(s.context == call.context_handle(), ACL_ERROR_RT_STREAM_CONTEXT,
          "the stream does not belong to the current context");
  require(block_dim >= 1 && block_dim <= kMaxBlockDim, ACL_ERROR_RT_PARAM_INVALID,
          "blockDim " + std::to_string(block_dim) + " of " + what + " is outside [1, " +
              std::to_string(kMaxBlockDim) + "]");
  require(has_body, ACL_ERROR_INVALID_PARAM, "the kernel has no body");
}

void submit_kernel(Call& call, void* stream, KernelSpec spec) {
  Stream& s = call.stream(stream);
  check_launch(call, s, spec.block_dim, "kernel " + spec.name, static_cast<bool>(spec.body));
  Runtime& rt = call.runtime();
  auto st = std::make_shared<LaunchState>();
  st->name = spec.name;
  st->block_dim = spec.block_dim;
  st->body = std::move(spec.body);
  st->caps = core_buffers(call.config());
  st->runtime = &rt;
  st->fault = s.context_fault;
  start_group(*st);
  Task task = kernel_task(call, s, spec, st);
  task.done = [st, &rt, info = launch_exception_info(call, s, spec.origin), origin = spec.origin,
               identity = spec.identity,
               on_retire = std::move(spec.on_retire),
               keep = std::move(spec.keep_alive)](const TaskOutcome& r) {
    if (!st->printf_text.empty()) {
      std::fwrite(st->printf_text.data(), 1, st->printf_text.size(), stdout);
      std::fflush(stdout);
      st->printf_text.clear();  // a model replays the launch: each run prints its own output
    }
    if (st->ran && identity != nullptr) {
      rt.learned_core_types()[identity] =
          st->mix ? mix_core_type(st->mix->shape()) : st->pipes.type();
    }
    if (r.error != 0 && !r.discarded) {  // exception dump (dump_scene), when on
      libraries_kernel_failed(
          {st->name, info.device_id, info.stream_id, info.task_id, r, info.args, info.args_size});
    }
    report_launch_failure(rt, r, info, origin);
    if (on_retire) on_retire();
  };
  submit_to_stream(call, s, std::move(task));
}

}  // namespace npusim::rt

// The `<<<>>>` seam (npusim/ascendc/launch.h): the rewritten launch expression's value.
std::int32_t npusim::ascendc::launch_kernel(KernelLaunch&& launch) {
  return rt::api("KernelLaunch", [&](rt::Call& c) {
    rt::KernelSpec spec;
    spec.name = launch.name != nullptr ? launch.name : "kernel";
    spec.identity = launch.kernel;
    spec.block_dim = launch.block_dim;
    spec.body = std::move(launch.run_block);
    if (launch.memo_key && !c.config().aicore.functional &&
        c.runtime().trace_memo().enabled()) {
      spec.memo_key = launch.memo_key();
    }
    rt::submit_kernel(c, launch.stream, std::move(spec));
  });
}
