// SPDX-License-Identifier: Apache-2.0
// A context: a device binding plus a default stream. The default context of a device is created
// by the first aclrtSetDevice and shared by every thread that sets that device; others come from
// aclrtCreateContext. Each thread has its own current context (ThreadState::context).
#pragma once

#include <cstdint>
#include <memory>

namespace npusim::rt {

/// Tasks submitted and finished; shared with task callbacks so it outlives its owner.
struct TaskCounter {
  std::uint64_t submitted = 0;
  std::uint64_t finished = 0;
  bool idle() const { return finished == submitted; }
};

/// Stop-on-failure state of a context, shared with task callbacks. Once one stream of a context is
/// in ACL_STOP_ON_FAILURE mode, all its streams are (the CANN docs); when a task of one fails,
/// the context stops: the later tasks of all its streams do not
/// run (their effects and kernels are skipped; event records still complete so nothing hangs),
/// new tasks are refused with `error`, and every synchronisation in the context reports `error`.
struct ContextFault {
  bool stop_on_failure = false;  // some stream of the context is in ACL_STOP_ON_FAILURE mode
  bool stopped = false;
  int error = 0;  // the first failure's aclError
};

struct Context {
  std::uint32_t device = 0;
  bool is_default = false;
  void* default_stream = nullptr;  // handle
  /// Every task of every stream of this context, destroyed streams included (device reset waits
  /// for it to drain).
  std::shared_ptr<TaskCounter> tasks = std::make_shared<TaskCounter>();
  std::shared_ptr<ContextFault> fault = std::make_shared<ContextFault>();
};

class Call;

/// Creates a context with its default stream on `device` (no current-context change).
void* new_context(Call& call, std::uint32_t device, bool is_default);
/// aclrtCreateContext: new_context + make it the thread's current context.
void* create_context(Call& call, std::int64_t device);
/// aclrtDestroyContext (explicit contexts only).
void destroy_context(Call& call, void* context);
/// Waits for the context's tasks (discarding them if they can never finish), then destroys its
/// streams and the context itself.
void teardown_context(Call& call, void* context);
void set_current_context(Call& call, void* context);

}  // namespace npusim::rt
