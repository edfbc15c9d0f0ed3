// SPDX-License-Identifier: Apache-2.0
// Device exception reports (aclrtSetExceptionInfoCallback / aclrtExceptionInfoCallbackRegister,
// aclrtBinarySetExceptionCallback and the aclrtGet*FromExceptionInfo accessors).
//
// A kernel task that fails queues a report when it retires (inside a backend callback, under the
// API lock). The callbacks run at the end of the API call that was simulating at that moment
// (usually the synchronisation that waits for the kernel), after the API lock is released, so a
// callback may call the accessors (or any other API) freely.
#pragma once

#include <cstdint>
#include <vector>

/// The opaque aclrtExceptionInfo of acl_rt.h.
struct rtExceptionInfo {
  std::uint32_t task_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t thread_id = 0;  // host thread index of the thread that issued the task
  std::uint32_t device_id = 0;
  std::uint32_t error_code = 0;
  void* args = nullptr;  // the kernel's argument block (binary launches), else nullptr
  std::uint32_t args_size = 0;
  void* func_handle = nullptr;  // aclrtFuncHandle (binary launches), else nullptr
};

namespace npusim::rt {

using ExceptionCallback = void (*)(rtExceptionInfo*);
using BinaryExceptionCallback = void (*)(void* info, void* user_data);

/// One report waiting for delivery, with the callbacks registered when the task failed.
struct PendingException {
  rtExceptionInfo info;
  ExceptionCallback process_callback = nullptr;
  BinaryExceptionCallback binary_callback = nullptr;
  void* binary_user_data = nullptr;
};

/// Runs the callbacks of `reports` (the caller does not hold the API lock).
void deliver_exceptions(std::vector<PendingException>& reports);

}  // namespace npusim::rt
