// SPDX-License-Identifier: Apache-2.0
#include "runtime/ascendc/sanitizer.h"
#include "runtime/core/lifecycle.h"

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/ipc.h"
#include "runtime/core/library.h"
#include "runtime/core/runtime.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

// The aclInit file must exist and be JSON (or empty). The libraries take their sections (the
// dump library its "dump" object, runtime/dump/dump.h) and keep them until init; other settings
// are ignored.
void check_config_file(const char* path) {
  std::ifstream in(path);
  require(in.good(), ACL_ERROR_INVALID_FILE, std::string("cannot read config file ") + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const bool empty = text.find_first_not_of(" \t\r\n") == std::string::npos;
  if (!empty && !nlohmann::json::accept(text)) {
    fail(ACL_ERROR_PARSE_FILE, std::string("config file ") + path + " is not valid JSON");
  }
  libraries_init_config(text, path);
  if (!empty) sim::log_info(std::string("aclInit: ") + path + " accepted; settings other than dump are ignored");
}

bool g_init_called = false;  // aclInit was called in this process (under the API lock)

}  // namespace

void initialize(Call& call, const char* config_path) {
  g_init_called = true;
  if (config_path != nullptr && *config_path != '\0') {
    check_config_file(config_path);
  } else {
    libraries_init_config(std::string(), "");
  }
  call.runtime().init();
  libraries_init();
}

void initialize_implicitly(Call& call) {
  if (g_init_called || call.runtime().initialized()) return;
  sim::log_info("aclrtSetDevice before aclInit: initialised as aclInit(nullptr)");
  initialize(call, nullptr);
}

void finalize(Call& call) {
  Runtime& rt = call.runtime();
  require(rt.initialized(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize without a matching aclInit");
  std::vector<void*> contexts;
  rt.contexts().for_each([&](void* h, const Context&) { contexts.push_back(h); });
  for (void* h : contexts) teardown_context(call, h);
  std::shared_ptr<TaskCounter> all = rt.all_tasks();
  if (!all->idle() &&
      call.wait([all] { return all->idle(); }, kForever,
                [] { return std::string("aclFinalize waits for the tasks of destroyed streams"); }) !=
          WaitResult::kDone) {
    sim::log_warn("aclFinalize: some tasks can never finish; they are abandoned");
  }
  // mssanitizer: what the program never freed, and allocations with bytes nothing touched.
  if (sanitizer::g_checks != 0) sanitizer::finish();
  rt.events().clear();
  rt.notifies().clear();
  rt.kernels().clear();
  release_all_vmm(call);
  rt.ipc().withdraw_all(process_pid());
  rt.leave_session();
  rt.memory().unregister_all();
  rt.memory().release_all(MemKind::kDevice);
  rt.memory().release_all(MemKind::kHostPinned);
  rt.memory().release_all(MemKind::kManaged);
  rt.trace_memo().clear();
  libraries_finalize(call);
  rt.mark_finalized();
  call.finish();
  if (rt.backend() != nullptr) {
    rt.backend()->write_outputs();
    libraries_write_outputs(*rt.backend());
  }
  libraries_reset();
}

}  // namespace npusim::rt
