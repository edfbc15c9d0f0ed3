// SPDX-License-Identifier: Apache-2.0
// The dump library's hooks into the runtime's life (runtime/core/library.h): the "dump" section
// of the aclInit file, chunk delivery to the registered callback after each API call, the
// exception dump of failed kernels, and the reset at aclFinalize.
#include <string>
#include <utility>

#include "runtime/core/library.h"
#include "runtime/dump/dump.h"

namespace npusim::rt::dump {
namespace {

// The aclInit file's dump configuration, kept from its check until aclInit succeeds.
Config& staged() {
  static Config config;
  return config;
}

std::function<void()> after_call() {
  std::vector<PendingChunk> chunks = take_chunks();
  if (chunks.empty()) return {};
  return [chunks = std::move(chunks)]() mutable { deliver(chunks); };
}

Library make_library() {
  Library lib;
  lib.name = "dump";
  lib.init_config = [](const std::string& text, const char* path) {
    const bool empty = text.find_first_not_of(" \t\r\n") == std::string::npos;
    staged() = empty ? Config{} : parse_config(text, path);
  };
  lib.init = [] { configure_from_init(staged()); };
  lib.reset = [] { reset(); };
  lib.after_call = after_call;
  lib.kernel_failed = [](const KernelFailure& f) {
    on_kernel_failure(f.kernel, f.device, f.stream, f.task_id, f.outcome, f.args, f.args_size);
  };
  return lib;
}

}  // namespace
}  // namespace npusim::rt::dump

NPUSIM_REGISTER_LIBRARY(dump, npusim::rt::dump::make_library());
