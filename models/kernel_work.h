// SPDX-License-Identifier: Apache-2.0
// The device-side description of one kernel launch (a kKernel task), as the runtime hands it to
// the AI Core engine (models/aicore/aicore_engine.h). Plain C++.
//
// The engine splits the launch into block_dim blocks and, at the simulated moment a block is
// dispatched to a core, calls run_block(block, trace): the runtime runs that block functionally
// on the host (the Ascend C twin) and fills `trace` with what the block did; the core then replays
// the trace in simulated time. Blocks run in dispatch order (0, 1, 2...), never concurrently on
// the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "models/op_info.h"
#include "npusim/ascendc/trace.h"

namespace npusim::models {

/// aclError a kernel task ends with when run_block throws instead of returning a code
/// (ACL_ERROR_RT_AICORE_EXCEPTION).
constexpr int kAicoreException = 507015;
/// aclErrors of a block the watchdog (aicore.timeout) stopped: ACL_ERROR_RT_AICORE_TIMEOUT (cube
/// or coupled cores) and ACL_ERROR_RT_VECTOR_CORE_TIMEOUT (AIV cores).
constexpr int kAicoreTimeout = 507014;
constexpr int kVectorCoreTimeout = 507034;

/// Which cores a kernel's blocks need. On split chips (npusim/chip_arch.h): kAic = one AIC (cube)
/// core per block, kAiv = one AIV (vector) core, kMix = one AIC plus vector_cores / cube_cores
/// AIV cores per block. On coupled chips every block runs on one AI Core that has all pipes,
/// whatever the type.
enum class CoreType : std::uint8_t { kAic, kAiv, kMix };

/// Which side of the core a kernel's instructions used, noted block by block: the cube side (M,
/// MTE1 and FIXPIPE pipes, L1/L0/bias-table/fixpipe buffers) and the vector side (V pipe, UB).
struct PipeUse {
  bool cube = false;
  bool vector = false;

  void note(const npusim::ascendc::BlockTrace& trace) {
    using npusim::ascendc::Mem;
    using npusim::ascendc::Pipe;
    auto cube_memory = [](Mem m) {
      return m == Mem::kL1 || m == Mem::kL0a || m == Mem::kL0b || m == Mem::kL0c ||
             m == Mem::kBiasTable || m == Mem::kFixpipeBuf;
    };
    for (const npusim::ascendc::Instr& i : trace.instrs) {
      if (i.pipe == Pipe::kCube || i.pipe == Pipe::kMte1 || i.pipe == Pipe::kFixpipe ||
          cube_memory(i.src) || cube_memory(i.dst)) {
        cube = true;
      }
      if (i.pipe == Pipe::kVector || i.src == Mem::kUb || i.dst == Mem::kUb) vector = true;
    }
  }
  /// Cube only: kAic; both: kMix; vector only (or nothing): kAiv.
  CoreType type() const {
    if (!cube) return CoreType::kAiv;
    return vector ? CoreType::kMix : CoreType::kAic;
  }
};

struct KernelWork {
  std::string name;                 // kernel name (timeline span; op_summary "Op Name" if no info)
  std::string op_type;              // op_summary "OP Type" (empty = name)
  OpInfo info;                      // op_summary "Op Name" and tensors (models/op_info.h)
  std::uint32_t block_dim = 0;      // number of blocks
  CoreType core_type = CoreType::kAiv;
  /// false when nobody said which cores the kernel needs (no engine attribute, never launched
  /// before): the engine then runs block 0 when the kernel arrives and takes the type from what
  /// it used (PipeUse), instead of core_type.
  bool core_type_known = true;
  /// Most blocks of this kernel running at once (aclrtSetDeviceResLimit / stream limit for the
  /// kernel's core type; for kMix the number of AIC+AIV groups); 0 = every core of that type.
  std::uint32_t max_cores = 0;
  /// ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE: false (0) = blocks start as cores free up;
  /// true (1) = the kernel starts only when min(block_dim, cap) cores are free at once.
  bool batch_mode = false;
  /// Runs block `block` functionally and fills `trace` (cleared before the call). Returns 0 or an
  /// aclError (e.g. 507035 for a trap); after an error no further blocks of the kernel start and
  /// the task ends with the first error once its running blocks finish. Called on the simulation
  /// host thread, never concurrently; must not call back into the backend.
  std::function<int(std::uint32_t block, npusim::ascendc::BlockTrace& trace)> run_block;
  /// Set by run_block when the kernel turns out to declare its cores (CANN 9's __mix__(c, v):
  /// npusim/ascendc/mix_launch.h): a kernel of unknown type then takes declared_type instead of
  /// the type block 0's trace suggests (a mix kernel whose AIC does nothing is still MIX).
  bool declared = false;
  CoreType declared_type = CoreType::kAiv;
};

}  // namespace npusim::models
