// SPDX-License-Identifier: Apache-2.0
// What one block did on one core, kept per kernel launch for `msprof op` / `msopprof`
// (tools/opprof; the runtime writes it to op_profile.json when NPUSIM_OP_PROFILE_DIR is set):
// its span, its pipes' busy time, and counters derived from its instructions and its L2 accesses.
// Plain C++.
//
// Counters (per block and core; a MIX block on a split chip gives one profile for its AIC and one
// for its AIV: the vector lanes, V, MTE3 and MTE2 into UB, count on the AIV):
//   busy[pipe], instrs[pipe]     the replay's busy time (block_replay.h) and instruction count
//   l2[pipe]                     GM bytes of the pipe's accesses: reads that hit / missed in L2
//                                (l2_tags.h; an access without an address: l2.read_hit_rate),
//                                writes into a line L2 held / that L2 allocated
//   moved[src][dst]              copies (DataCopy, LoadData, Fixpipe): payload bytes per path
//   read[mem], written[mem]      bytes every instruction read from / wrote to each memory:
//                                copies their payload; Mmad m*k (L0A) and k*n (L0B) elements of
//                                its input type, m*n (L0C) of the accumulator type; vector ops
//                                their operands in UB (two sources for Add/Sub/Mul/Div/Max/Min,
//                                one for the other ops, none for Duplicate; Cast reads its source
//                                type and writes its destination type; reductions write one
//                                element); scalar GetValue/SetValue their element
//   cube_cycles/vec_cycles[dtype] PipeCosts::cycles of Mmad / vector instructions by element type
//                                (Mmad: its input type; Cast: its destination type)
//   cube_fops = 2*m*n*k per Mmad; vec_fops = elements computed (Duplicate and Cast: none)
//   vec_ub_* / scalar_ub_*       the UB part of read/written by vector and by scalar instructions
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "npusim/ascendc/trace.h"
#include "sim/quantity.h"

namespace npusim::models {

constexpr int kMemCount = 9;     // ascendc::Mem
constexpr int kDTypeCount = 14;  // ascendc::DType

/// L2 traffic of one pipe, bytes.
struct L2Traffic {
  std::uint64_t read_hit = 0, read_miss = 0, write_hit = 0, write_miss = 0;
};

struct BlockProfile {
  std::uint32_t block = 0;
  std::string core;     // the core's label: "AIC 0", "AIV 3", "AI Core 1"
  bool vector = false;  // an AIV core (or a MIX block's vector side)
  sim::SimTime start = 0, end = 0;  // ps: the block's first issue slot and its end on this core
  std::array<sim::SimTime, ascendc::kPipeCount> busy{};
  std::array<std::uint64_t, ascendc::kPipeCount> instrs{};
  std::array<L2Traffic, ascendc::kPipeCount> l2{};
  std::array<std::array<std::uint64_t, kMemCount>, kMemCount> moved{};
  std::array<std::uint64_t, kMemCount> read{}, written{};
  std::array<std::uint64_t, kDTypeCount> cube_cycles{}, vec_cycles{};
  std::array<std::uint64_t, kDTypeCount> cube_instrs{}, vec_instrs{};
  std::uint64_t cube_fops = 0, vec_fops = 0;
  std::uint64_t vec_ub_read = 0, vec_ub_write = 0, scalar_ub_read = 0, scalar_ub_write = 0;
};

/// Adds what `in` moved and computed (`cycles`: its PipeCosts::cycles) to `p` (not busy, not l2).
void add_instr(const ascendc::Instr& in, std::uint64_t cycles, BlockProfile& p);

/// Whether `in` runs on the vector side of a MIX block on a split chip (its AIV partner).
inline bool mix_vector_side(const ascendc::Instr& in) {
  using ascendc::Pipe;
  return in.pipe == Pipe::kVector || in.pipe == Pipe::kMte3 ||
         (in.pipe == Pipe::kMte2 && in.dst == ascendc::Mem::kUb);
}

}  // namespace npusim::models
