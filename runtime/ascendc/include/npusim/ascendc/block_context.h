// SPDX-License-Identifier: Apache-2.0
// BlockContext: the state of one AI Core block while the Ascend C twin runs it — identity, local
// memories (UB, L1, L0A/B/C...), the buffers handed out by TPipe, the synchronisation
// bookkeeping that turns queue events into trace dependencies (trace.h), the printf buffer and
// the scalar basic-block counter.
//
// The launcher (runtime, or block_runner.h in tests) owns one BlockContext per block, installs it
// with ScopedBlock around the kernel call and reads trace / printf_out / scalar_bbs afterwards.
// Members are ABI-neutral (no std::string), so kernels built with _GLIBCXX_USE_CXX11_ABI=0 and a
// runtime built without it share the type.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "npusim/ascendc/shape_info.h"
#include "npusim/ascendc/trace.h"

#define NPUSIM_KERNEL_API __attribute__((visibility("default")))

// NPUSIM_TWIN_FN marks twin code that kernel sources compile (these headers are inline code in
// the kernel's translation unit) but that is not the kernel's scalar work: with
// -fsanitize-coverage=trace-pc it gets no __sanitizer_cov_trace_pc call, so the element loops of
// vector ops and copies cost no callback per element. The compilers do not inline across the
// attribute (an instrumented inline function called from a marked one stays an out-of-line,
// instrumented call), so marked code calls only marked code, builtins or out-of-line functions of
// libacl_rt.so. Kernel-facing API functions (AscendC::Add, TQue::EnQue...) stay unmarked: the
// basic blocks they execute before and after their ScalarPause are part of what a kernel's
// scalar_bbs has always counted, and the marked bodies they call run inside the pause.
#if defined(__clang__)
#define NPUSIM_TWIN_FN __attribute__((no_sanitize("coverage")))
#elif defined(__GNUC__) && __GNUC__ >= 12
#define NPUSIM_TWIN_FN __attribute__((no_sanitize_coverage))
#else
#define NPUSIM_TWIN_FN
#endif

namespace npusim::ascendc {

/// A kernel misused the Ascend C API or the device (buffer overflow, empty queue, bad access).
class NPUSIM_KERNEL_API KernelError : public std::runtime_error {
 public:
  explicit KernelError(const char* what);
  ~KernelError() override;
};

/// The kernel executed a trap instruction (asm("trap")): the device raises an exception.
class NPUSIM_KERNEL_API DeviceTrap : public KernelError {
 public:
  DeviceTrap();
  ~DeviceTrap() override;
};

/// The block's scalar work passed the watchdog (aicore.timeout): the core stops it.
class NPUSIM_KERNEL_API KernelTimeout : public KernelError {
 public:
  KernelTimeout();
  ~KernelTimeout() override;
};

/// Per-core local memory capacities in bytes (defaults: Ascend 910B, NPU_ARCH 2201).
struct CoreBuffers {
  std::uint32_t ub = 192 * 1024;
  std::uint32_t l1 = 512 * 1024;
  std::uint32_t l0a = 64 * 1024;
  std::uint32_t l0b = 64 * 1024;
  std::uint32_t l0c = 128 * 1024;
  std::uint32_t bias_table = 1024;
  std::uint32_t fixpipe_buf = 7 * 1024;
  std::uint32_t max_queue_buffers_per_position = 8;  // hardware event ids per position
};

constexpr std::uint32_t kNoInstr = 0xffffffffu;

/// One buffer handed out by TPipe::InitBuffer (a queue buffer or a TBuf).
struct BufferSlot {
  Mem mem = Mem::kUb;
  std::uint32_t offset = 0;  // bytes from the start of mem
  std::uint32_t bytes = 0;
  std::uint32_t last_writer = kNoInstr;
  Pipe last_pipe = Pipe::kScalar;  // pipe of the last instruction that touched it
  bool touched = false;
  std::uint32_t enqueue_signal = kNoInstr;
  std::uint32_t release_signal = kNoInstr;
  std::vector<std::uint32_t> waits;  // signals the next instruction touching it must wait for
};

/// A buffer an instruction touches (slot < 0: not a TPipe buffer, nothing to track).
struct Access {
  std::int32_t slot;
  bool write;
};

class NPUSIM_KERNEL_API BlockContext {
 public:
  BlockContext(std::uint32_t block_idx, std::uint32_t block_num, const CoreBuffers& caps = {});
  BlockContext(const BlockContext&) = delete;
  BlockContext& operator=(const BlockContext&) = delete;

  /// Prepares for another block, keeping the allocated memories (cheap reuse).
  void reset(std::uint32_t block_idx, std::uint32_t block_num);

  std::uint32_t block_idx() const { return block_idx_; }
  std::uint32_t block_num() const { return block_num_; }
  const CoreBuffers& caps() const { return caps_; }

  // ---- set by the launcher ----
  /// Optional GM range check (the runtime's allocation registry); false = bad access.
  std::function<bool(const void* addr, std::uint64_t bytes, bool write)> gm_check;
  /// gm_check(addr, bytes, write), true without a check (out of line: twin bodies call it).
  bool gm_accessible(const void* addr, std::uint64_t bytes, bool write) const;

  // ---- outputs ----
  std::vector<char> printf_out;  // AscendC::printf text in call order
  BlockTrace trace;              // trace.scalar_bbs is filled by finish()
  std::uint64_t scalar_bbs = 0;  // incremented by __sanitizer_cov_trace_pc
  std::uint64_t issue_bbs = 0;   // scalar_bbs when the current twin call began (ScalarPause)
  int pause_depth = 0;           // nesting of ScalarPause
  void finish() { trace.scalar_bbs = scalar_bbs; }

  // ---- local memories ----
  std::uint32_t capacity(Mem mem) const;
  static std::uint32_t alignment(Mem mem);  // minimum address alignment in bytes
  std::uint32_t used(Mem mem) const { return arenas_[index(mem)].used; }
  std::uint8_t* base(Mem mem);
  /// Reserves `bytes` (rounded up to the memory's alignment) for `what`; KernelError naming the
  /// memory, the request and the space left when it does not fit.
  std::uint32_t allocate(Mem mem, std::uint64_t bytes, const char* what);
  void release_to(Mem mem, std::uint32_t used);  // stack-like release (TPipe destructor)

  std::int32_t add_slot(Mem mem, std::uint32_t offset, std::uint32_t bytes);
  BufferSlot& slot(std::int32_t id) { return slots_[static_cast<std::size_t>(id)]; }
  std::uint32_t slot_count() const { return live_slots_; }
  /// Queue buffers currently allocated (AllocTensor..FreeTensor) per TPosition value.
  std::uint32_t& queue_buffers_in_use(std::uint8_t position) { return in_use_[position & 31u]; }

  // ---- recording (see trace.h for the rules) ----
  std::uint32_t emit(Instr ins, std::initializer_list<Access> accesses);
  void enqueue(std::int32_t slot);  // EnQue: producer-done signal
  void dequeue(std::int32_t slot);  // DeQue: consumer waits
  void release(std::int32_t slot);  // FreeTensor: buffer-free signal
  void reuse(std::int32_t slot);    // AllocTensor: producer waits for the release
  void set_flag(Pipe src, Pipe dst, int event_id);
  void wait_flag(Pipe src, Pipe dst, int event_id);
  void barrier_all();

  void* current_tpipe = nullptr;  // GetTPipePtr()
  /// The core a CANN 9 kernel declares (__vector__ "AIV", __cube__ "AIC"; nullptr: not declared):
  /// set by kernel_core() at the kernel's start (the launch rewrite inserts the call).
  const char* core_name = nullptr;

 private:
  struct Arena {
    std::vector<std::uint8_t> data;
    std::uint32_t used = 0;
  };
  struct Flag {
    std::uint32_t key;
    std::uint32_t signal;
  };
  static std::size_t index(Mem mem) { return static_cast<std::size_t>(mem); }
  std::uint32_t signal_of(const BufferSlot& s) const;

  std::uint32_t block_idx_;
  std::uint32_t block_num_;
  CoreBuffers caps_;
  std::array<Arena, 9> arenas_;
  std::vector<BufferSlot> slots_;  // [0, live_slots_) in use; the rest kept for reuse
  std::array<std::uint32_t, 32> in_use_{};
  std::array<std::uint32_t, kPipeCount> last_on_pipe_{};
  std::array<std::vector<std::uint32_t>, kPipeCount> pipe_waits_;
  std::vector<Flag> flags_;
  std::vector<std::uint32_t> scratch_;
  // (Added last: kernels inline accessors of the members above, and the layout they see shapes
  // their code, so their basic-block counts.)
  std::array<std::uint32_t, 9> capacity_{};  // per memory, from caps_ (0: no arena)
  std::uint32_t live_slots_ = 0;

 public:
  /// The watchdog (set by the launcher): KernelTimeout is raised when scalar_bbs passes it.
  std::uint64_t scalar_bb_limit = ~std::uint64_t{0};
  /// false in timing-only mode (aicore.functional: false): twin ops check their arguments and
  /// record their instructions exactly as usual but skip element math (results are undefined).
  bool functional = true;

  /// Control registers kernels set and later instructions read, per block (reset() clears them):
  /// the vector mask and its mode (SetVectorMask, SetMaskCount/SetMaskNorm), the compare mask
  /// Compare writes without a destination (GetCmpMask, Select VSEL_CMPMASK_SPR), the sum the last
  /// ReduceSum left (GetReduceRepeatSumSpr), the MTE2 padding value (SetPadValue), and Load3Dv2's
  /// feature-map registers (SetFmatrix / a LoadData that sets them: [0] left, [1] right) and
  /// padding value (SetLoadDataPaddingValue).
  struct Fmatrix {
    std::uint16_t l1h = 0;
    std::uint16_t l1w = 0;
    std::uint8_t pad[4] = {0, 0, 0, 0};  // left, right, top, bottom
    bool set = false;
  };
  struct ControlRegs {
    std::uint64_t mask[2] = {~std::uint64_t{0}, ~std::uint64_t{0}};
    bool counter_mode = false;
    std::uint8_t cmp_mask[16] = {};
    double reduce_sum = 0;
    std::uint64_t pad_value = 0;  // the value's bytes (up to 8)
    bool pad_value_set = false;
    Fmatrix fmatrix[2];
    std::uint64_t load3d_pad = 0;  // the value's bytes (up to 8)
  };
  ControlRegs regs;
  /// Fixpipe's registers, set by SetFixpipeNz2ndFlag / SetFixpipePreQuantFlag / SetFixPipeConfig
  /// and read by DataCopy(L0C -> GM / L1, DataCopyCO12DstParams); reset for each block.
  struct FixpipeRegs {
    std::uint16_t nd_num = 1;
    std::uint16_t src_nd_stride = 0;  // fractals (16 x 16) between the ND matrices' sources
    std::uint16_t dst_nd_stride = 0;  // elements between the ND matrices' destinations
    std::uint64_t quant_pre = 0;      // scalar quant word
    const std::uint64_t* quant_table = nullptr;  // per-channel quant words (a local tensor)
    std::uint32_t quant_words = 0;
    std::int32_t quant_slot = -1;
  } fixpipe_regs;
  /// The cube's sparse-index buffer (LoadDataWithSparse -> MmadWithSparse): 2 bits per L0B
  /// byte, at L0B byte address / 4; empty until the block's first LoadDataWithSparse.
  std::vector<std::uint8_t> sparse_index;
  /// LocalTensor::SetShapeInfo's records (npusim/ascendc/shape_info.h), by the tensor's first
  /// element; cleared for each block.
  std::vector<std::pair<const void*, AscendC::ShapeInfo>> shape_infos;
  /// AscendCUtils::SetOverflow's CTRL[48] (1: inf/nan results kept), 1 again for each block.
  std::uint64_t overflow_mode = 1;
};

namespace detail {
extern NPUSIM_KERNEL_API thread_local BlockContext* tls_block;
/// Points __sanitizer_cov_trace_pc at this thread's counter (nullptr: count nothing) and its
/// watchdog limit; ScopedBlock.
void set_scalar_counter(std::uint64_t* counter, std::uint64_t limit = ~std::uint64_t{0});
/// Points the memory-access hooks of AI CPU kernel code (built with -fsanitize=thread's
/// instrumentation, runtime/ascendc/memory_counter.cpp) at this thread's byte counter: accesses to
/// addresses in [lo, hi) add their size (nullptr: count nothing).
void set_memory_counter(std::uint64_t* bytes, std::uintptr_t lo = 0, std::uintptr_t hi = 0);
}  // namespace detail

/// The block being run on this thread, or nullptr.
inline BlockContext* current_block() { return detail::tls_block; }

/// The block being run on this thread; KernelError outside a launch.
NPUSIM_KERNEL_API BlockContext& block();

/// Installs a BlockContext (and block_idx / block_num) for the current thread.
class NPUSIM_KERNEL_API ScopedBlock {
 public:
  explicit ScopedBlock(BlockContext& ctx);
  ~ScopedBlock();
  ScopedBlock(const ScopedBlock&) = delete;
  ScopedBlock& operator=(const ScopedBlock&) = delete;

 private:
  BlockContext* saved_;
  std::int64_t saved_idx_;
  std::int64_t saved_num_;
};

/// Keeps the basic-block counter unchanged across a twin call: the twin's own code is not the
/// kernel's scalar work, even when the kernel TU is built with -fsanitize-coverage=trace-pc.
/// Instructions recorded meanwhile carry the counter value at the call's entry. The bodies inside
/// are NPUSIM_TWIN_FN (not instrumented at all); the pause still discards the few basic blocks
/// of the API shell around them, and anything a body reaches that is instrumented (half
/// arithmetic, standard-library inline functions).
class ScalarPause {
 public:
  explicit ScalarPause(BlockContext& ctx) : ctx_(ctx) {
    if (ctx_.pause_depth++ == 0) ctx_.issue_bbs = ctx_.scalar_bbs;
  }
  ~ScalarPause() {
    if (--ctx_.pause_depth == 0) ctx_.scalar_bbs = ctx_.issue_bbs;
  }
  ScalarPause(const ScalarPause&) = delete;
  ScalarPause& operator=(const ScalarPause&) = delete;

 private:
  BlockContext& ctx_;
};

/// Raises DeviceTrap (what asm("trap") compiles to).
[[noreturn]] NPUSIM_KERNEL_API void device_trap();
/// asm("...") in kernel code: "trap" traps, anything else is a KernelError naming the string.
NPUSIM_KERNEL_API void device_asm(const char* text);

}  // namespace npusim::ascendc

/// Per-block identity, like the device's block_idx / block_num (set by ScopedBlock).
extern NPUSIM_KERNEL_API thread_local std::int64_t block_idx;
extern NPUSIM_KERNEL_API thread_local std::int64_t block_num;
