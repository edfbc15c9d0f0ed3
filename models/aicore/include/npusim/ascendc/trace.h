// SPDX-License-Identifier: Apache-2.0
// The instruction trace of one AI Core block: what the Ascend C CPU twin (kernel_operator.h)
// records while it runs a block, and what the AI Core timing model (models/) turns into cycles.
// Plain C++ with no dependency on the twin, so models/ can include it alone.
//
// Contract (what a consumer may rely on):
//  * One Instr per twin call that does device work: DataCopy/DataCopyPad/LoadData/Fixpipe
//    (MTE1/MTE2/MTE3/FIXPIPE), vector ops (V), Mmad (M), scalar accesses through
//    GlobalTensor/LocalTensor GetValue/SetValue (S). Bookkeeping calls (InitBuffer, AllocTensor,
//    EnQue, DeQue, FreeTensor, SetFlag, WaitFlag, PipeBarrier) record no Instr: they only shape
//    the dependencies of later instructions.
//  * instrs[] is program order, which is the issue order of the scalar unit. Each pipe executes
//    its own instructions in order; that order is implicit and never listed in deps.
//  * An instruction's deps are earlier instructions ON OTHER PIPES that must complete before it
//    starts. They come only from the kernel's synchronisation, as the hardware sees it:
//      EnQue(t)      SetFlag on the pipe that last touched t's buffer: the signal is the last
//                    instruction issued on that pipe so far (all earlier work of that pipe);
//      DeQue()       WaitFlag: the next instruction touching the buffer waits for that signal;
//      FreeTensor(t) SetFlag on the pipe that last touched t's buffer (buffer released);
//      AllocTensor() WaitFlag: the next instruction touching the handed-out buffer waits for its
//                    release. With N buffers per queue a buffer comes back every N tiles, so the
//                    producer of tile i waits for the consumer of tile i-N: with N = 2 (double
//                    buffering) copy-in of tile i+1 can overlap compute of tile i, with N = 1 not;
//      SetFlag/WaitFlag<HardEvent>, PipeBarrier<PIPE_ALL>: as written;
//      a scalar (S) read of a local buffer waits for that buffer's last writer (data hazard).
//  * No timing numbers anywhere: only quantities (bytes, elements, bursts, m/n/k, dtypes).
//  * scalar_bbs: the block's basic-block counter (kernels built with
//    -fsanitize-coverage=trace-pc) when the instruction was issued; the scalar work between two
//    instructions is the difference. BlockTrace::scalar_bbs is the total at kernel end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npusim::ascendc {

/// The AI Core pipes (instruction queues). kScalar is the scalar unit itself.
enum class Pipe : std::uint8_t { kScalar, kVector, kCube, kMte1, kMte2, kMte3, kFixpipe };
constexpr int kPipeCount = 7;

/// Memories an instruction reads or writes.
enum class Mem : std::uint8_t { kNone, kGm, kUb, kL1, kL0a, kL0b, kL0c, kBiasTable, kFixpipeBuf };

/// Element types.
enum class DType : std::uint8_t {
  kUnknown,
  kBool,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFp16,
  kBf16,
  kFp32,
  kFp64
};

/// What the instruction does. Copies are told apart by (src, dst); vector ops by name.
enum class Op : std::uint8_t {
  kCopy,       // DataCopy / DataCopyPad contiguous or strided (bursts = contiguous runs)
  kCopyNd2Nz,  // DataCopy GM -> L1 with ND -> NZ conversion
  kLoad2d,     // LoadData L1/GM -> L0A/L0B, 512-byte fractals (count = fractals)
  kFixpipe,    // L0C -> GM with NZ -> ND (dtype = out, dtype2 = L0C type)
  kMmad,       // cube: m x k by k x n (dtype = A/B type, dtype2 = accumulator type)
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kAdds,
  kMuls,
  kExp,
  kLn,
  kAbs,
  kRelu,
  kSqrt,
  kDuplicate,
  kCast,
  kReduceSum,
  kReduceMax,
  kReduceMin,
  kScalarRead,
  kScalarWrite,
  kSyncSet,   // S: a signal to other blocks (SyncAll's arrival, IBSet...), after all earlier work
  kSyncWait   // S: waits for other blocks' kSyncSet (BlockTrace::block_deps)
};

/// One recorded instruction (64 bytes).
struct Instr {
  Pipe pipe = Pipe::kScalar;
  Op op = Op::kCopy;
  DType dtype = DType::kUnknown;   // element type (vector: computation type, Cast: dst type)
  DType dtype2 = DType::kUnknown;  // Cast: src type; Mmad: accumulator; Fixpipe: L0C type
  Mem src = Mem::kNone;
  Mem dst = Mem::kNone;
  std::uint16_t m = 0, n = 0, k = 0;  // Mmad only
  std::uint32_t count = 0;       // vector: elements; copies: contiguous bursts; LoadData: fractals
  std::uint64_t bytes = 0;       // copies: payload bytes moved; vector: count x element size (the
                                 // wider of src/dst for Cast); scalar: access size; Mmad: 0
  std::uint64_t scalar_bbs = 0;  // basic-block counter at issue
  // GM instructions: where the GM side lies, for the L2's tags (models/l2_tags.h). The GM bytes
  // are `count` bursts of bytes / count bytes, burst i at gm_addr + i * gm_pitch (gm_pitch 0:
  // one contiguous range of `bytes`). gm_addr 0: not known (hand-built traces); such accesses
  // use l2.read_hit_rate instead of the tags.
  std::uint64_t gm_addr = 0;
  std::uint64_t gm_pitch = 0;
  std::uint32_t dep_begin = 0;   // deps are BlockTrace::deps[dep_begin, dep_begin + dep_count)
  std::uint32_t dep_count = 0;

  bool touches_gm() const { return src == Mem::kGm || dst == Mem::kGm; }
};

/// A dependency across the blocks of one launch (cross-block synchronisation: SyncAll, IBSet /
/// IBWait, npusim/ascendc/block_group.h): instruction `instr` of this block starts only after
/// instruction `other` of block `block` has ended.
struct BlockDep {
  std::uint32_t instr = 0;
  std::uint32_t block = 0;
  std::uint32_t other = 0;
};

/// Return addresses kept per call site (op simulator: NPUSIM_OP_SIMULATOR_DIR), innermost first.
constexpr std::size_t kSiteDepth = 16;

/// Everything one block did.
struct BlockTrace {
  std::vector<Instr> instrs;
  std::vector<std::uint32_t> deps;  // indices into instrs, each < the dependent's index
  std::uint64_t scalar_bbs = 0;     // basic blocks executed by the whole block
  /// Peak bytes of the core's local buffers (UB, L1, L0A, L0B, L0C) the block held at once
  /// (TPipe::InitBuffer): the core state a checkpoint preemption saves.
  std::uint64_t local_bytes = 0;
  /// Waits on other blocks (kSyncWait instructions), in program order.
  std::vector<BlockDep> block_deps;
  /// Where the kernel issued each instruction, only while the op simulator's view is recorded
  /// (NPUSIM_OP_SIMULATOR_DIR set; otherwise both are empty): sites[i] is instruction i's call
  /// site, whose kSiteDepth return addresses (innermost first, 0 = none) are
  /// site_frames[sites[i] * kSiteDepth ...]. A site is stored once per block.
  std::vector<std::uint32_t> sites;
  std::vector<std::uintptr_t> site_frames;

  void clear() {
    instrs.clear();
    deps.clear();
    block_deps.clear();
    sites.clear();
    site_frames.clear();
    scalar_bbs = 0;
    local_bytes = 0;
  }
};

inline const char* pipe_name(Pipe p) {
  static const char* const kNames[kPipeCount] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIXP"};
  return kNames[static_cast<int>(p)];
}

inline const char* mem_name(Mem m) {
  static const char* const kNames[] = {"-", "GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return kNames[static_cast<int>(m)];
}

inline unsigned dtype_size(DType t) {
  static const unsigned kSizes[] = {0, 1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
  return kSizes[static_cast<int>(t)];
}

}  // namespace npusim::ascendc
