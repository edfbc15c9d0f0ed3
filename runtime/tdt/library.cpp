// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer's hook into the runtime's life (runtime/core/library.h): aclFinalize
// releases every channel and queue.
#include "runtime/core/library.h"
#include "runtime/tdt/tdt.h"

namespace npusim::rt::tdt {
namespace {

Library make_library() {
  Library lib;
  lib.name = "tdt";
  lib.finalize = [](Call&) { release_all(); };
  return lib;
}

}  // namespace
}  // namespace npusim::rt::tdt

NPUSIM_REGISTER_LIBRARY(tdt, npusim::rt::tdt::make_library());
