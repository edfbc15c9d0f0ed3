// SPDX-License-Identifier: Apache-2.0
// What one finished kernel looked like, and its row in op_summary.csv with msprof's column names
// (docs/sources.md §3). Plain C++.
//
// Column formulas (per side: "aic" = cube side, "aiv" = vector side; on coupled chips both sides
// show the one AI Core):
//   Task Start Time(us)  the engine received the task (scheduler dispatch done)
//   Task Duration(us)    to the completion report (execution + completion response)
//   Task Wait Time(us)   start - end of the previous row of the device (0 for the first)
//   Block Num            block_dim; Mix Block Num = AIV cores used by a MIX kernel's blocks
//   <side>_total_cycles  sum over the side's blocks of block execution cycles
//   aicore_time(us), aiv_time(us) = total_cycles / (frequency * blocks of the side)
//   <side>_<pipe>_ratio  = sum of the pipe's busy cycles / total_cycles; _time(us) = ratio * time
//   cube_utilization(%)  = aic_total_cycles / (frequency * cube cores * Task Duration) * 100
//   Op Name, Input/Output Shapes, Data Types, Formats   from the record's OpInfo (op_info.h)
// Unknown values (shapes, types, formats; a side the kernel does not use) are "N/A".
//
// op_statistic.csv (msprof's op_statistic): one row per (device, OP Type, Core Type = the Task
// Type) with Count, Total/Min/Avg/Max Time(us) over the rows' Task Duration and Ratio(%) = the
// type's total / the device's total * 100; rows by device, then total time, largest first.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/aicore/block_profile.h"
#include "models/op_info.h"
#include "npusim/ascendc/trace.h"
#include "sim/quantity.h"

namespace npusim::models {

/// Time one side (cube or vector cores) of a kernel spent, summed over its blocks.
struct KernelSide {
  bool used = false;
  std::uint32_t blocks = 0;
  sim::SimTime total = 0;                                // ps of block execution
  std::array<sim::SimTime, ascendc::kPipeCount> busy{};   // ps per pipe
};

struct KernelRecord {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
  std::uint32_t task_id = 0;
  std::string name;
  std::string op_type;
  OpInfo info;                  // Op Name (empty: name) and the tensors (empty: N/A)
  std::string task_type;        // AI_CORE, AI_VECTOR_CORE, MIX_AIC
  std::uint32_t block_dim = 0;
  std::uint32_t mix_block_num = 0;
  sim::SimTime start = 0;       // the engine received the task
  sim::SimTime end = 0;         // completion reported
  sim::SimTime first_block = 0; // first block dispatched to a core
  sim::SimTime last_block_end = 0;
  std::uint32_t blocks_run = 0;
  std::uint64_t instrs = 0;
  int error = 0;
  bool coupled = false;         // ran on coupled AI Cores: `aic` holds every pipe
  KernelSide aic, aiv;
  /// Per block and core (block_profile.h), in completion order; only while the engine keeps
  /// block profiles (AiCoreEngine::keep_block_profiles: msprof op). A preempted block's segments
  /// before its last are not in it.
  std::vector<BlockProfile> blocks;
};

struct OpSummaryParams {
  double frequency_hz = 1e9;
  std::int64_t cube_cores = 1;
};

/// The CSV header line (with '\n').
std::string op_summary_header();
/// Header plus one row per record, sorted by (device, start, stream, task id).
std::string op_summary_csv(std::vector<KernelRecord> records, const OpSummaryParams& params);
/// op_statistic.csv of the same records (see the file comment).
std::string op_statistic_csv(const std::vector<KernelRecord>& records);

}  // namespace npusim::models
