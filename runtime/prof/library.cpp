// SPDX-License-Identifier: Apache-2.0
// Profiling's hooks into the runtime's life (runtime/core/library.h): the PROF_ folders and the
// timeline copies are written with the run's outputs, and the state is dropped at aclFinalize.
#include "runtime/core/library.h"
#include "runtime/prof/profiler.h"

namespace npusim::rt {

Profiler& profiler() {
  static Profiler* p = new Profiler();  // never destroyed: written at process exit too
  return *p;
}

namespace {

Library make_library() {
  Library lib;
  lib.name = "prof";
  lib.write_outputs = [](Backend& backend) { profiler().write_outputs(backend); };
  lib.reset = [] { profiler().reset(); };
  return lib;
}

}  // namespace
}  // namespace npusim::rt

NPUSIM_REGISTER_LIBRARY(prof, npusim::rt::make_library());
