// SPDX-License-Identifier: Apache-2.0
// Kernel launches: every launch path (the `<<<>>>` seam npusim::ascendc::launch_kernel and the
// aclrtLaunchKernel* calls of the binary path) ends in submit_kernel(), which validates the launch
// and queues one kKernel task whose models::KernelWork runs the blocks on the Ascend C twin.
//
// How a block runs (KernelWork::run_block, called by the backend at the simulated moment the block
// is dispatched to a core, blocks in order, never concurrently):
//  * the runtime's one BlockContext (reset for every block) is installed with ScopedBlock: block
//    index, blockDim, local memories sized from ChipConfig aicore.{ub,l1,l0a,l0b,l0c}, and a global
//    memory check that accepts device memory, managed memory and registered host ranges
//    (MemoryRegistry::device_accessible);
//  * the kernel body runs; DeviceTrap (asm("trap")) and KernelError (API misuse, bad access) end
//    the block with ACL_ERROR_RT_VECTOR_CORE_EXCEPTION (507035) on an AIV kernel of a split chip,
//    ACL_ERROR_RT_AICORE_EXCEPTION (507015) otherwise, and an error line on stderr naming the
//    kernel, the block and the reason; the backend then starts no further block;
//  * the block's instruction trace is handed to the core model, its printf text is kept.
// When the task retires (done), the printf text of all blocks is written to stdout in block order,
// a failure is reported to the exception callbacks, runtime-owned argument memory is released.
// Destroying a stream (even with force), resetting the device and aclFinalize first let submitted
// kernels run, so their printf always appears.
//
// Timing-only mode (aicore.functional: false): a block of a launch with a memo key whose kernel,
// name, key, blockDim, block index, core type and local memory sizes match an earlier successful
// block, with no allocation, free or host write into device memory since (MemoryRegistry::
// generation), takes that block's trace, printf text and pipe use from the runtime's TraceMemo
// instead of running the kernel body (trace_memo.h). The `<<<>>>` path has a key when every
// parameter is a pointer, integer, enum or other type without padding bytes (or float/double);
// the binary path (a fresh argument block per launch) and the operator library are not memoised.
//
// Core type: ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE when given; otherwise what earlier launches of
// the same kernel showed (cube pipes only → AIC, vector only → AIV, both → MIX; learnt from the
// block traces, per kernel identity, models::PipeUse); for a kernel never seen before the AI Core
// engine runs block 0 when the kernel arrives and takes the type from what it used
// (KernelWork::core_type_known false), so a cube kernel runs on AIC cores from its first launch.
// Core cap (KernelWork::max_cores): the stream's limit (aclrtSetStreamResLimit), else the
// thread's (aclrtUseStreamResInCurrentThread), else the process's (aclrtSetDeviceResLimit), else
// every core — of the vector kind for a kernel of unknown type (its exception and timeout codes
// are the vector core's too).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/kernel_work.h"
#include "models/task.h"
#include "runtime/core/exception_info.h"

namespace npusim::rt {

class Call;

/// Largest blockDim a launch accepts.
constexpr std::uint32_t kMaxBlockDim = 65535;

/// How the exception callbacks see a failed launch (aclrtGet*FromExceptionInfo).
struct KernelOrigin {
  void* func_handle = nullptr;  // aclrtFuncHandle (binary path), else nullptr
  void* args = nullptr;         // the argument block the kernel received
  std::uint32_t args_size = 0;
  /// aclrtBinarySetExceptionCallback of the kernel's binary, with its user data.
  void (*binary_callback)(void* info, void* user_data) = nullptr;
  void* binary_user_data = nullptr;
};

/// KernelSpec::engine of a kernel that uses an AIC and its AIVs together (the operator library's
/// fused kernels); user launches learn that from the kernel's first run.
constexpr int kEngineMix = -2;

/// One launch, as the launch paths describe it to submit_kernel().
struct KernelSpec {
  std::string name;
  const void* identity = nullptr;  // the kernel (function address or KernelEntry): core-type memory
  std::uint32_t block_dim = 0;
  /// Runs the kernel body for the block installed on this thread; may throw (trap, KernelError).
  std::function<void()> body;
  /// Called once when the task retires (after the printf flush): releases argument memory...
  std::function<void()> on_retire;
  /// Kept alive until the task retires (the loaded binary, argument blocks...).
  std::shared_ptr<const void> keep_alive;
  bool batch_mode = false;  // ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1
  int engine = -1;  // ACL_RT_ENGINE_TYPE_AIC / _AIV from the launch config, kEngineMix, -1 = not given
  KernelOrigin origin;
  /// The launch's arguments as bytes when they fully determine the kernel's control flow in
  /// timing-only mode (KernelLaunch::memo_key); empty = never memoised (trace_memo.h).
  std::string memo_key;
  /// op_summary's Op Name and tensors (the operator library's); an empty op_name gets
  /// op_info_for()'s.
  models::OpInfo info;
};

struct Stream;
class Runtime;

/// What the exception callbacks will see if the launch about to be queued on `s` fails.
rtExceptionInfo launch_exception_info(Call& call, const Stream& s, const KernelOrigin& origin);
/// Queues the exception report of a failed launch (outcome `r`), if anyone listens.
void report_launch_failure(Runtime& rt, const models::TaskOutcome& r, rtExceptionInfo info,
                           const KernelOrigin& origin);

/// `info` with its Op Name filled in when empty (models/op_info.h): "<API>_<kernel><engine>_<OP
/// Type>" with the API of `call` ("aclnnAdd", "KernelLaunch"...), `engine` "AiCore" or "AiCpu".
models::OpInfo op_info_for(const Call& call, models::OpInfo info, const std::string& kernel,
                           const std::string& op_type, const char* engine);

/// The checks every kernel launch makes before queuing (AI Core and AI CPU): `s` belongs to the
/// current context, blockDim is 1..65535 and the kernel has a body. `what` names the kernel in
/// the blockDim error ("kernel add", "AI CPU kernel topk").
void check_launch(const Call& call, const Stream& s, std::uint32_t block_dim,
                  const std::string& what, bool has_body);

/// Checks blockDim (1..65535, else ACL_ERROR_RT_PARAM_INVALID) and the stream (NULL = default;
/// it must belong to the current context), then queues the kernel task.
void submit_kernel(Call& call, void* stream, KernelSpec spec);

}  // namespace npusim::rt
