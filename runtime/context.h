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

struct Context {
  std::uint32_t device = 0;
  bool is_default = false;
  void* default_stream = nullptr;  // handle
  /// Every task of every stream of this context, destroyed streams included (device reset waits
  /// for it to drain).
  std::shared_ptr<TaskCounter> tasks = std::make_shared<TaskCounter>();
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
