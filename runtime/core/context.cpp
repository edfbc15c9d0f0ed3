// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/context.h"

#include <string>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "sim/log.h"

namespace npusim::rt {

void* new_context(Call& call, std::uint32_t device, bool is_default) {
  Runtime& rt = call.runtime();
  auto ctx = std::make_shared<Context>();
  ctx->device = device;
  ctx->is_default = is_default;
  void* handle = rt.contexts().add(ctx);
  try {
    ctx->default_stream = new_stream(call, handle, 0, 0, true);
  } catch (...) {
    rt.contexts().remove(handle);
    throw;
  }
  return handle;
}

void* create_context(Call& call, std::int64_t device) {
  Device& dev = call.device(device);
  void* handle = new_context(call, dev.id, false);
  call.thread().context = handle;
  return handle;
}

void destroy_context(Call& call, void* handle) {
  require_not_null(handle, "context");
  Context* ctx = call.runtime().contexts().find(handle);
  require(ctx != nullptr, ACL_ERROR_RT_PARAM_INVALID, "context is not a live context handle");
  require(!ctx->is_default, ACL_ERROR_RT_PARAM_INVALID,
          "a device's default context cannot be destroyed (use aclrtResetDevice)");
  teardown_context(call, handle);
  if (call.thread().context == handle) call.thread().context = nullptr;
}

void teardown_context(Call& call, void* handle) {
  Runtime& rt = call.runtime();
  std::shared_ptr<Context> ctx = rt.contexts().get(handle);
  if (!ctx) return;
  std::vector<void*> streams;
  rt.streams().for_each([&](void* h, const Stream& s) {
    if (s.context == handle) streams.push_back(h);
  });
  std::shared_ptr<TaskCounter> tasks = ctx->tasks;
  if (!tasks->idle()) {
    auto what = [&] {
      return std::string(call.name()) + " waits for the tasks of a context of device " +
             std::to_string(ctx->device);
    };
    if (call.wait([tasks] { return tasks->idle(); }, kForever, what) != WaitResult::kDone) {
      sim::log_warn(std::string(call.name()) + ": discarding tasks that can never finish");
      for (void* h : streams) {
        if (const Stream* s = rt.streams().find(h)) discard_stream_tasks(call, *s);
      }
    }
  }
  for (void* h : streams) remove_stream(call, h);
  rt.contexts().remove(handle);
}

void set_current_context(Call& call, void* handle) {
  require_not_null(handle, "context");
  require(call.runtime().contexts().find(handle) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "context is not a live context handle");
  call.thread().context = handle;
}

}  // namespace npusim::rt
