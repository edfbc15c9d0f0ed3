// SPDX-License-Identifier: Apache-2.0
// AI CPU kernels: how they reach the AI CPU unit (models/aicpu.h), as in CANN.
//
// A user AI CPU kernel is a host C++ function `uint32_t Kernel(void* args)` (extern "C"; args =
// the argument block) in a shared library built by the install tree's aicpu_kernel_library()
// (ascendc.cmake: -fsanitize-coverage=trace-pc, so its basic blocks are counted as for AI Core
// scalar code). The runtime finds it as CANN does:
//  - aclrtBinaryLoadFromFile(<ops>.json, ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE 0 or 1, or no
//    option and a .json path): the operator information file maps each op type to
//    opInfo.kernelSo and opInfo.functionName; the library is looked up as <json dir>/<kernelSo>,
//    then <json dir>/<json stem>.so (mode 1's rule), then by dlopen's search path;
//    aclrtBinaryGetFunction(<op type>) resolves functionName in it;
//  - aclrtBinaryLoadFromData(<the .so bytes>, mode 2) + aclrtRegisterCpuFunc(funcName, opType).
// Arguments: aclrtKernelArgsAppend copies each parameter at the next 8-byte-aligned offset of the
// block (an AI CPU function has no parameter metadata); placeholders are 8-byte pointer slots
// whose data follows the parameters. Launches (aclrtLaunchKernelWithConfig, ...WithHostArgs,
// aclrtLaunchKernel/V2 with device args) submit one kAiCpu task; the argument block is copied to
// runtime-owned device memory and the kernel gets its address.
//
// Running: when the task starts on an AI CPU core the kernel runs on the host thread of the
// simulation block_dim times (block 0..n-1, the same argument block), with the counters installed:
// the basic blocks it executes (-fsanitize-coverage=trace-pc) and the bytes of its loads and stores
// that touch device memory (the argument block included; -fsanitize=thread's access hooks,
// runtime/ascendc/memory_counter.cpp). A non-zero return value, an exception or a memory
// fault ends the task with ACL_ERROR_RT_AICPU_EXCEPTION (507018); the watchdog (aicore.timeout of
// work at the aicpu rates) with ACL_ERROR_RT_AICPU_TIMEOUT (507017). A chip with aicpu.cores 0
// rejects AI CPU launches with ACL_ERROR_RT_FEATURE_NOT_SUPPORT. A failed task is reported to the
// exception callbacks (aclrtSetExceptionInfoCallback, aclrtBinarySetExceptionCallback) as a
// failed AI Core kernel is (runtime/core/exception_info.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/kernel_launch.h"

namespace npusim::rt {

class Call;

/// The documented AI CPU kernel signature.
using AiCpuEntry = std::uint32_t (*)(void* args);

/// One operator of an AI CPU operator information file.
struct AiCpuOpInfo {
  std::string op_type;        // the top-level key: the name aclrtBinaryGetFunction takes
  std::string kernel_so;      // opInfo.kernelSo
  std::string function_name;  // opInfo.functionName
  std::string kernel_lib;     // opInfo.opKernelLib ("AICPUKernel", "CUSTAICPUKernel"...)
};

/// Parses an operator information file (JSON); `origin` names it in errors. Malformed text or an
/// op without kernelSo / functionName → ACL_ERROR_RT_PARAM_INVALID.
std::vector<AiCpuOpInfo> parse_aicpu_op_info(const std::string& text, const std::string& origin);

/// One AI CPU launch.
struct AiCpuSpec {
  std::string name;     // timeline / op_summary name
  std::string op_type;  // op_summary OP Type (empty = name)
  models::OpInfo info;  // op_summary Op Name (empty: op_info_for()'s) and tensors
  std::uint32_t block_dim = 1;
  /// The kernel body: gets the device address of the argument block, returns 0 on success.
  std::function<std::uint32_t(void* args)> body;
  /// The argument block (copied to device memory at launch); `patches` as for AI Core launches:
  /// the 8-byte slot at addr_offset receives the device address of data_offset.
  std::vector<std::uint8_t> args;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> patches;  // (addr_offset, data_offset)
  /// Arguments already in device memory (aclrtLaunchKernel*): used instead of `args` when set.
  void* device_args = nullptr;
  std::size_t device_args_size = 0;
  std::shared_ptr<const void> keep_alive;  // the loaded library, until the task retires
  /// For the exception callbacks of a failed task (func_handle and the binary's callback; the
  /// argument block is filled in at submission).
  KernelOrigin origin;
};

/// Checks the stream and blockDim (1..65535) and that the chip has AI CPU cores, copies the
/// argument block to device memory and queues the kAiCpu task.
void submit_aicpu_kernel(Call& call, void* stream, AiCpuSpec spec);

}  // namespace npusim::rt
