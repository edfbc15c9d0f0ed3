// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/library.h"

#include <utility>

namespace npusim::rt {
namespace {

// Built on first use: libraries register from static initialisers of other object files.
std::vector<Library>& registry() {
  static std::vector<Library> libs;
  return libs;
}

// Only the libraries that set the hook `member`, so a point with no taker costs a loop over none.
template <class Hook, class... Args>
void each(Hook Library::*member, Args&&... args) {
  for (const Library& lib : registry()) {
    if (lib.*member) (lib.*member)(args...);
  }
}

}  // namespace

bool register_library(Library library) {
  registry().push_back(std::move(library));
  return true;
}

const std::vector<Library>& libraries() { return registry(); }

void libraries_init_config(const std::string& text, const char* path) {
  each(&Library::init_config, text, path);
}

void libraries_init() { each(&Library::init); }

void libraries_finalize(Call& call) { each(&Library::finalize, call); }

void libraries_write_outputs(Backend& backend) { each(&Library::write_outputs, backend); }

void libraries_reset() { each(&Library::reset); }

std::vector<std::function<void()>> libraries_after_call() {
  std::vector<std::function<void()>> work;
  for (const Library& lib : registry()) {
    if (!lib.after_call) continue;
    if (std::function<void()> w = lib.after_call()) work.push_back(std::move(w));
  }
  return work;
}

void libraries_kernel_failed(const KernelFailure& failure) {
  each(&Library::kernel_failed, failure);
}

}  // namespace npusim::rt
