// SPDX-License-Identifier: Apache-2.0
// The op simulator's per-instruction view (`msopprof simulator`'s files, docs/outputs.md): every
// pipe instruction the AI Cores replay in the kernels it records, with the kernel source line
// that issued it.
//
// On when NPUSIM_OP_SIMULATOR_DIR=<dir> is set (the front end `msopprof simulator` sets it);
// NPUSIM_OP_KERNEL_NAME (substring of the kernel name: only matching kernels),
// NPUSIM_OP_LAUNCH_COUNT (most launches recorded, 0 = all) and NPUSIM_OP_INSTR_BUDGET (most
// instructions recorded per run, default 2,000,000) narrow it. Off, nothing is recorded and the
// replay is unchanged; on, the simulated times are the same as off (only outputs are added).
//
// What is recorded: the twin stores each instruction's call stack (return addresses,
// BlockTrace::sites) while it runs a block; the core reports each instruction's [start, end) on
// its lane (ReplayHost::instr_done, the hook aicore.trace_pipes uses). At write(), each distinct
// return address is resolved once (dladdr, then `addr2line -i` per module for the inline chain)
// and the site's source line is the first frame, innermost first, outside the Ascend C twin and
// the system headers: the kernel line; the Ascend C call is the function that frame called.
// Kernels need line tables for that (npusim-asc compiles kernels with -g1).
//
// Files (write()): <dir>/trace.json, a Chrome trace / Perfetto file: one process per core unit
// (core<N>.cubecore0 for AIC N, core<N/r>.veccore<N%r> for AIV N with r AIV per AIC on split
// chips, core<N>.aicore0 for a coupled AI Core), one thread per pipe (SCALAR, VECTOR, CUBE, MTE1,
// MTE2, MTE3, FIXP), one complete slice per instruction (ts/dur in simulated us, args: kernel,
// block, instr index, cycles, bytes or repeat count or m/n/k, dtype, the Ascend C call and
// "code" file:line) and flow arrows from each dependency's slice to its dependent's (the
// kernel's SetFlag/WaitFlag, EnQue/DeQue...: "flag"; across cores, CrossCoreSetFlag/WaitFlag
// and SyncAll: "cross_core"); per unit <dir>/<unit>/trace.json (its slices alone),
// <unit>_code_exe.csv (code, call_count, cycles, running_time(us): per source line) and
// <unit>_instr_exe.csv (instr, addr, pipe, call_count, cycles, running_time(us), detail: per
// instruction kind, dtype and call site). When the budget cuts the trace, stderr says so once
// and trace.json carries the message (otherData and an instant event at the cut).
// Deterministic: two runs of a program write identical files.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "npusim/ascendc/trace.h"
#include "sim/quantity.h"

namespace npusim::models {

struct OpSimulatorOptions {
  std::string dir;            // empty: off
  std::string kernel_filter;  // substring of the kernel name (empty: every kernel)
  std::uint64_t launch_count = 0;  // most launches recorded (0: all)
  std::uint64_t budget = 2000000;  // most instructions recorded in the run
  /// From NPUSIM_OP_SIMULATOR_DIR, NPUSIM_OP_KERNEL_NAME, NPUSIM_OP_LAUNCH_COUNT and
  /// NPUSIM_OP_INSTR_BUDGET (a malformed number: the default, with a warning).
  static OpSimulatorOptions from_env();
};

class OpSimulator {
 public:
  explicit OpSimulator(OpSimulatorOptions options);

  /// The process's recorder (from the environment, made on first use), or nullptr when off.
  static OpSimulator* process();

  const OpSimulatorOptions& options() const { return options_; }
  /// A launch of kernel `name` arrives: its recording id, or -1 when it is not recorded (name
  /// filter, launch count). `freq_hz`: the AI Core clock (cycles in the files).
  int begin_launch(const std::string& name, double freq_hz);
  /// A core starts replaying block `block` of launch `launch` from `trace` (called again for a
  /// preempted block's remaining trace, whose instructions are numbered anew).
  void begin_block(int launch, std::uint32_t block, const ascendc::BlockTrace& trace);
  /// Instruction `index` of that block's `trace` occupied `pipe` of core unit `unit` (unit_id())
  /// during [start, end).
  void instr(int launch, std::uint32_t block, const ascendc::BlockTrace& trace,
             std::uint32_t index, int unit, ascendc::Pipe pipe, sim::SimTime start,
             sim::SimTime end);
  /// The id of core unit `name` ("core0.veccore1"); `label` is its name on the timeline and in
  /// stats.json's core ("AIV 1": cores.aiv1), given in trace.json's process_labels.
  int unit_id(const std::string& name, const std::string& label = "");

  /// Instructions recorded so far; whether the budget cut the trace.
  std::uint64_t recorded() const { return records_.size(); }
  bool cut() const { return cut_; }
  /// Writes the files into options().dir (again, complete, at each call). Problems go to the log.
  void write() const;
  /// The files' contents (write() without the disk), by path relative to the directory.
  std::map<std::string, std::string> render() const;

 private:
  struct Record {
    sim::SimTime start, end;
    const char* label;
    std::uint64_t bytes;
    std::uint32_t count;
    std::uint32_t launch, block, index, site;
    std::uint16_t m, n, k;
    std::uint16_t unit;
    ascendc::Pipe pipe;
    ascendc::Op op;
    ascendc::DType dtype;
  };
  struct Flow {
    std::uint32_t from, to;
    bool cross;
  };
  struct Launch {
    std::string name;
    double freq_hz;
  };
  struct Site {  // resolved at write()
    std::string code = "??:0";
    std::string call = "?";
    std::uintptr_t addr = 0;  // the kernel line's return address, as an offset in its module
  };
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static std::uint64_t key(std::uint32_t launch, std::uint32_t block) {
    return (static_cast<std::uint64_t>(launch) << 32) | block;
  }
  std::vector<Site> resolve() const;

  OpSimulatorOptions options_;
  std::vector<Launch> launches_;
  std::uint64_t matched_ = 0;
  std::vector<std::string> units_, labels_;
  std::vector<Record> records_;
  std::vector<Flow> flows_;
  bool cut_ = false;
  std::string cut_at_;  // "kernel K block B" where the budget ran out
  // Sites, by their return addresses (index: Record::site).
  std::map<std::vector<std::uintptr_t>, std::uint32_t> site_ids_;
  std::vector<std::vector<std::uintptr_t>> sites_;
  // Per running block: its trace's instructions -> records, and its local sites -> site ids.
  struct BlockState {
    std::vector<std::uint32_t> rec;
    std::vector<std::uint32_t> sites;
  };
  std::unordered_map<std::uint64_t, BlockState> blocks_;
  // Cross-block signals (kSyncSet) -> records, by (launch, block, instr).
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint32_t> sync_sets_;
};

}  // namespace npusim::models
