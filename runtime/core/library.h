// SPDX-License-Identifier: Apache-2.0
// The runtime's extension point for libraries: the counterpart of the unit registry in models/.
//
// A library (dump, profiling, tensor data transfer, HCCL, DVPP, the operator library...) is its own
// folder under runtime/ with its own CMake target. It hooks into the process's life by registering
// a Library at static-initialisation time (NPUSIM_REGISTER_LIBRARY); the core calls the hooks at
// fixed points and names no library. Every hook is optional. All hooks run under the API lock,
// in registration order (a library registered in a later object file runs later; no library
// relies on another's hook having run first).
//
// Points of the process's life, in order:
//   init_config  aclInit: the text of the aclInit file (JSON, possibly empty) and its path. A
//                library checks and keeps its own section; a bad section throws ApiError, and
//                aclInit fails before the runtime initialises.
//   init         aclInit succeeded (the devices exist).
//   finalize     aclFinalize: user objects are torn down and device work drained; the runtime is
//                still initialised.
//   write_outputs the run's outputs are written (aclFinalize, or process exit without one): the
//                backend has written its own (timeline, stats) just before.
//   reset        after aclFinalize wrote the outputs: back to the state before aclInit.
//   after_call   the end of every API call, under the lock: returns work that must run once the
//                lock is released (callbacks into user code), or an empty function. Kept cheap:
//                it runs on every call.
//   kernel_failed a kernel task ended with an error (exception dump).
// Session messages of a library (several processes, runtime/session/) are registered with the
// session server's own extension point (runtime/session/hub.h), not here.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/task.h"

namespace npusim::rt {

class Backend;
class Call;

/// What the exception dump of a failed kernel task needs to know.
struct KernelFailure {
  const std::string& kernel;
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
  std::uint32_t task_id = 0;
  const models::TaskOutcome& outcome;
  const void* args = nullptr;
  std::uint32_t args_size = 0;
};

struct Library {
  const char* name = "";
  std::function<void(const std::string& text, const char* path)> init_config;
  std::function<void()> init;
  std::function<void(Call&)> finalize;
  std::function<void(Backend&)> write_outputs;
  std::function<void()> reset;
  std::function<std::function<void()>()> after_call;
  std::function<void(const KernelFailure&)> kernel_failed;
};

/// Adds a library; returns true (for the registration macro's static).
bool register_library(Library library);
/// The registered libraries, in registration order.
const std::vector<Library>& libraries();

// ---- The core's calls at each point (loops over the libraries that set the hook) ----
void libraries_init_config(const std::string& text, const char* path);
void libraries_init();
void libraries_finalize(Call& call);
void libraries_write_outputs(Backend& backend);
void libraries_reset();
/// Work to run after the lock is released; empty when no library has any (the common case).
std::vector<std::function<void()>> libraries_after_call();
void libraries_kernel_failed(const KernelFailure& failure);

}  // namespace npusim::rt

/// Registers a library from a source file of its own: NPUSIM_REGISTER_LIBRARY(dump, make_library()).
#define NPUSIM_REGISTER_LIBRARY(id, ...) \
  [[maybe_unused]] static const bool npusim_library_##id = ::npusim::rt::register_library(__VA_ARGS__)
