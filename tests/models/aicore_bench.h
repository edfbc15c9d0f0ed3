// SPDX-License-Identifier: Apache-2.0
// Test bench for the AI Core model: a chip with an explicit round-number AI Core configuration
// (1 GHz, so 1 cycle = 1 ns), synthetic block traces with the dependencies the Ascend C twin
// records (npusim/ascendc/trace.h), and helpers to launch kernels and read their records.
// Each TEST that builds a KernelBench elaborates SystemC: it must run alone in its process.
#pragma once

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "models/aicore/aicore_engine.h"
#include "models/chip.h"
#include "models/kernel_work.h"
#include "npusim/ascendc/trace.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {

using ascendc::BlockTrace;
using ascendc::DType;
using ascendc::Instr;
using ascendc::Mem;
using ascendc::Op;
using ascendc::Pipe;

constexpr std::uint32_t kNoDep = 0xffffffffu;

/// test_config() (doorbell 500 ns, dispatch 200 ns, completion 300 ns, HBM 1 TB/s + 100 ns) plus:
/// a 910B-shaped split chip (24 AIC, 48 AIV) at 1 GHz; kernel_launch = block_launch = 1 us;
/// MTE2 32 B/cycle (L2 hits 64), MTE1 512/256, MTE3 64, Fixpipe 64, vector 256 B/cycle;
/// startup 10 cycles on every pipe; scalar 1 cycle per basic block, accesses 2 cycles; pipe
/// queues unbounded; L2 4 TB/s, 10 ns, no hits. A GM read thus has latency 110 ns, a write 10 ns.
inline ChipConfig aicore_config() {
  ChipConfig c = test_config();
  c.soc.npu_arch = 2201;
  c.l2.bandwidth = sim::Bandwidth{4e12};
  c.l2.hit_latency = sim::Duration{10 * kNs};
  c.l2.read_hit_rate = 0.0;
  AiCoreConfig& a = c.aicore;
  a.cube_cores = 24;
  a.vector_cores = 48;
  a.frequency = sim::Frequency{1e9};
  a.kernel_launch = sim::Duration{1 * kUs};
  a.block_launch = sim::Duration{1 * kUs};
  a.max_concurrent_kernels = 8;
  a.scalar_cycles_per_bb = 1;
  a.scalar_access_cycles = 2;
  a.pipe_queue_depth = 0;
  a.mte2_bytes_per_cycle = 32;
  a.mte2_l2_bytes_per_cycle = 64;
  a.mte1_l0a_bytes_per_cycle = 512;
  a.mte1_l0b_bytes_per_cycle = 256;
  a.mte3_bytes_per_cycle = 64;
  a.fixpipe_bytes_per_cycle = 64;
  a.vector_bytes_per_cycle = 256;
  a.cube_m = a.cube_n = a.cube_k = 16;
  a.mte_startup_cycles = a.vector_startup_cycles = a.cube_startup_cycles = 10;
  a.trace_pipes = false;
  return c;
}

/// Appends instructions with explicit deps (kNoDep entries are skipped).
class TraceBuilder {
 public:
  std::uint32_t add(Instr in, std::initializer_list<std::uint32_t> deps = {}) {
    in.dep_begin = static_cast<std::uint32_t>(trace_.deps.size());
    for (std::uint32_t d : deps) {
      if (d != kNoDep) trace_.deps.push_back(d);
    }
    in.dep_count = static_cast<std::uint32_t>(trace_.deps.size()) - in.dep_begin;
    trace_.instrs.push_back(in);
    return static_cast<std::uint32_t>(trace_.instrs.size() - 1);
  }
  BlockTrace& trace() { return trace_; }

 private:
  BlockTrace trace_;
};

inline Instr copy(Pipe pipe, Mem src, Mem dst, std::uint64_t bytes) {
  Instr in;
  in.pipe = pipe;
  in.op = Op::kCopy;
  in.src = src;
  in.dst = dst;
  in.count = 1;
  in.bytes = bytes;
  return in;
}

inline Instr vec(Op op, std::uint64_t bytes, DType t = DType::kFp16) {
  Instr in;
  in.pipe = Pipe::kVector;
  in.op = op;
  in.dtype = t;
  in.src = in.dst = Mem::kUb;
  in.bytes = bytes;
  in.count = static_cast<std::uint32_t>(bytes / ascendc::dtype_size(t));
  return in;
}

inline Instr mmad(std::uint16_t m, std::uint16_t n, std::uint16_t k, DType t = DType::kFp16) {
  Instr in;
  in.pipe = Pipe::kCube;
  in.op = Op::kMmad;
  in.dtype = t;
  in.dtype2 = DType::kFp32;
  in.src = Mem::kL0a;
  in.dst = Mem::kL0c;
  in.m = m;
  in.n = n;
  in.k = k;
  return in;
}

/// z = x + y over `tiles` tiles of `tile` bytes per operand, with VECIN/VECOUT queues of `depth`
/// buffers, deps as the twin records them: tile i's copy-ins wait for the release of their buffers
/// by tile i-depth's Add (FreeTensor), the Add waits for both copy-ins (EnQue/DeQue) and for the
/// release of its output buffer by tile i-depth's copy-out, the copy-out waits for the Add.
inline BlockTrace vector_add_trace(int tiles, std::uint64_t tile, int depth) {
  TraceBuilder b;
  std::vector<std::uint32_t> add(tiles), out(tiles);
  for (int i = 0; i < tiles; ++i) {
    const std::uint32_t in_free = i >= depth ? add[i - depth] : kNoDep;
    const std::uint32_t out_free = i >= depth ? out[i - depth] : kNoDep;
    const std::uint32_t x = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, tile), {in_free});
    const std::uint32_t y = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kUb, tile), {in_free});
    add[i] = b.add(vec(Op::kAdd, tile), {x, y, out_free});
    out[i] = b.add(copy(Pipe::kMte3, Mem::kUb, Mem::kGm, tile), {add[i]});
  }
  return std::move(b.trace());
}

/// One block of a tiled FP16 matmul: C (m x n, FP32 in L0C) = A (m x k) * B (k x n), k in steps
/// of kc. Per step: MTE2 A and B into L1 (queues of `depth`), MTE1 into L0A / L0B (queues of
/// `depth`), Mmad; then Fixpipe of C (FP16) to GM.
inline BlockTrace matmul_trace(int m, int n, int k, int kc, int depth) {
  TraceBuilder b;
  const int steps = k / kc;
  std::vector<std::uint32_t> load(steps), mm(steps);
  for (int s = 0; s < steps; ++s) {
    const std::uint32_t l1_free = s >= depth ? load[s - depth] : kNoDep;
    const std::uint32_t l0_free = s >= depth ? mm[s - depth] : kNoDep;
    const std::uint64_t a_bytes = 2ull * m * kc, b_bytes = 2ull * kc * n;
    const std::uint32_t a1 = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kL1, a_bytes), {l1_free});
    const std::uint32_t b1 = b.add(copy(Pipe::kMte2, Mem::kGm, Mem::kL1, b_bytes), {l1_free});
    const std::uint32_t a0 = b.add(copy(Pipe::kMte1, Mem::kL1, Mem::kL0a, a_bytes), {a1, l0_free});
    load[s] = b.add(copy(Pipe::kMte1, Mem::kL1, Mem::kL0b, b_bytes), {b1, l0_free});
    mm[s] = b.add(mmad(static_cast<std::uint16_t>(m), static_cast<std::uint16_t>(n),
                       static_cast<std::uint16_t>(kc)),
                  {a0, load[s]});
  }
  Instr fix = copy(Pipe::kFixpipe, Mem::kL0c, Mem::kGm, 2ull * m * n);
  fix.op = Op::kFixpipe;
  b.add(fix, {mm[steps - 1]});
  return std::move(b.trace());
}

/// A kernel whose every block replays `trace` (shared, copied into the core's buffer).
inline KernelWork work_of(const std::string& name, std::uint32_t blocks, CoreType type,
                          BlockTrace trace) {
  KernelWork w;
  w.name = name;
  w.block_dim = blocks;
  w.core_type = type;
  auto shared = std::make_shared<const BlockTrace>(std::move(trace));
  w.run_block = [shared](std::uint32_t, BlockTrace& out) {
    out = *shared;
    return 0;
  };
  return w;
}

class KernelBench : public BenchBase {
 public:
  explicit KernelBench(const ChipConfig& cfg = aicore_config(), bool trace = true)
      : BenchBase(trace), chip_("chip0", 0, cfg, stats_.child("chip0"), trace_) {
    chip_.unit<AiCoreEngine>()->keep_records(true);  // the tests read the kernels' records
    wake_on_completion(chip_.scheduler());
    engine_.elaborate();
  }

  /// Launch `work` on `stream` at host time `at`; the record is filled when it completes.
  Seen& launch(std::uint32_t stream, KernelWork work, SimTime at = 0, std::uint32_t priority = 0) {
    Task t;
    t.kind = TaskKind::kKernel;
    t.stream = stream;
    t.task_id = next_task_++;
    t.submit_at = at;
    t.priority = priority;
    t.name = work.name;
    t.payload = std::make_shared<const KernelWork>(std::move(work));
    return submit(std::move(t));
  }

  /// A kKernel task without KernelWork (a placeholder).
  Seen& placeholder(std::uint32_t stream) {
    Task t;
    t.kind = TaskKind::kKernel;
    t.stream = stream;
    t.task_id = next_task_++;
    return submit(std::move(t));
  }

  Seen& submit(Task t) {
    Seen& seen = track(t);
    chip_.scheduler().submit(std::move(t));
    return seen;
  }

  SimTime now() const { return engine_.now(); }

  /// The record of the kernel with task id `task` (launch order from 0).
  const KernelRecord& record(std::uint32_t task) {
    for (const KernelRecord& r : chip_.unit<AiCoreEngine>()->records()) {
      if (r.task_id == task) return r;
    }
    static const KernelRecord kNone;
    return kNone;
  }
  AiCoreEngine& aicore() { return *chip_.unit<AiCoreEngine>(); }
  sim::TraceWriter& trace() { return trace_; }

 private:
  Chip chip_;
  std::uint32_t next_task_ = 0;
};

}  // namespace npusim::models::testing
