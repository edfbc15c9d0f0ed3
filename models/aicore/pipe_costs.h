// SPDX-License-Identifier: Apache-2.0
// Closed-form costs of AI Core instructions (one recorded twin call each, npusim/ascendc/trace.h),
// in cycles of the AI Core clock, from per-core rates in AiCoreConfig (docs/sources.md §1):
//   scalar GetValue/SetValue   scalar_access_cycles
//   vector (V)                 vector_startup + ceil(bytes / vector_bytes_per_cycle)   (1 repeat
//                              of 256 B per cycle; Cast counts the wider side, as recorded)
//   Mmad (M)                   cube_startup + ceil(m/cube_m) * ceil(n/cube_n) * ceil(k/K0),
//                              K0 = cube_k for FP16/BF16, 2*cube_k for INT8, cube_k/2 for FP32
//   MTE1 L1->L0A / L0B / other mte_startup + ceil(bytes / mte1_l0a|l0b rate)
//   MTE2 GM->UB/L1/L0          mte_startup + ceil(bytes / mte2_l2 rate) for a read with a GM
//                              address: the core's fastest stream; when L2 (l2_tags.h) says
//                              which bytes miss, the data cannot complete before request +
//                              hit / mte2_l2 rate + miss / mte2 rate (+ latency): mte2_stream_ps,
//                              applied by the core (ai_core.h). Without an address (hand-built
//                              traces): mte_startup + ceil(hit / mte2_l2 + miss / mte2), where
//                              hit = floor(bytes * l2.read_hit_rate) (the same split L2 uses)
//   MTE3 UB->GM/L1             mte_startup + ceil(bytes / mte3 rate)
//   Fixpipe L0C->GM/L1         mte_startup + ceil(bytes / fixpipe rate)
// Copies with bytes = 0 count `count` 512-byte fractals. These are the core's own durations. A GM
// instruction (touches_gm) streams at that rate but its data is also shifted by the unloaded
// memory latency (gm_latency: l2.hit_latency, plus hbm.latency for a read with L2 misses, known
// at the access for an addressed read) and
// limited by L2/HBM bandwidth (models/l2_cache.h), whose request issues after the pipe's startup
// cycles: end = max(start + cycles + gm_latency, data complete from L2). Plain C++.
#pragma once

#include <cstdint>

#include "models/chip_config.h"
#include "npusim/ascendc/trace.h"
#include "sim/quantity.h"
#include "sim/trace.h"

namespace npusim::models {

class PipeCosts {
 public:
  explicit PipeCosts(const ChipConfig& cfg);

  /// Core-side cycles of `in` (see the header comment).
  std::uint64_t cycles(const ascendc::Instr& in) const;
  /// Cycles from an instruction's start to its first memory request.
  std::uint64_t startup_cycles(ascendc::Pipe pipe) const;
  /// Unloaded latency (ps) a GM instruction's data adds to its core-side end (an addressed read:
  /// its L2 hit latency; the core adds hbm_latency() when L2 says it misses).
  sim::SimTime gm_latency(const ascendc::Instr& in) const;
  sim::SimTime hbm_latency() const { return hbm_latency_; }
  /// Picoseconds the core's MTE2 needs to stream `hit` bytes from L2 and `miss` bytes from HBM.
  sim::SimTime mte2_stream_ps(std::uint64_t hit, std::uint64_t miss) const;

  double scalar_cycles_per_bb() const { return scalar_per_bb_; }
  std::uint64_t queue_depth() const { return queue_depth_; }
  /// Picoseconds of `cycles` cycles (rounded to nearest).
  sim::SimTime to_ps(double cycles) const;
  /// Cycles of `ps` picoseconds (fractional).
  double to_cycles(sim::SimTime ps) const { return static_cast<double>(ps) / period_ps_; }
  double frequency_hz() const { return freq_hz_; }

  /// Bytes of a GM read of `bytes` that L2 serves (the rest also reads HBM).
  static std::uint64_t read_hit_bytes(std::uint64_t bytes, double hit_rate);

 private:
  PipeCosts(const AiCoreConfig& core, const L2Config& l2, const HbmConfig& hbm);
  std::uint64_t copy_cycles(const ascendc::Instr& in) const;
  std::uint64_t cube_cycles(const ascendc::Instr& in) const;

  double freq_hz_, period_ps_;
  double scalar_per_bb_;
  std::uint64_t queue_depth_;
  std::uint64_t scalar_access_;
  std::uint64_t mte_startup_, vector_startup_, cube_startup_;
  double mte2_gm_, mte2_l2_, mte1_l0a_, mte1_l0b_, mte3_, fixpipe_, vector_;
  std::uint64_t cube_m_, cube_n_, cube_k_;
  double hit_rate_;
  sim::SimTime l2_latency_, hbm_latency_;
};

/// Short name of an instruction for pipe timeline spans ("Add", "MTE2 GM->UB", "Mmad").
const char* instr_label(const ascendc::Instr& in);

/// Most arguments instr_args() writes.
constexpr std::size_t kInstrArgs = 6;
/// The arguments of an instruction's pipe span (aicore.trace_pipes): "Task Id" (the kernel
/// task's), "block", "cycles" (its duration in AI Core cycles), then what it moved or computed:
/// Mmad "m", "n", "k"; copies "bytes" and "bursts"; LoadData "bytes" and "fractals"; vector ops
/// "bytes" and "elements"; scalar accesses "bytes". Returns how many it wrote into `out`.
std::size_t instr_args(const ascendc::Instr& in, std::uint32_t task_id, std::uint32_t block,
                       double cycles, sim::TraceField (&out)[kInstrArgs]);

}  // namespace npusim::models
