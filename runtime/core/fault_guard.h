// SPDX-License-Identifier: Apache-2.0
// Runs kernel code so that a memory fault in it (SIGSEGV, SIGBUS: a stray load or store into the
// device arena's inaccessible pages, freed device memory, address 0...) ends that code and is
// reported, instead of killing the process. The kernel's own C++ objects on the faulting path are
// not destroyed (the block is abandoned mid-way); nothing else is affected. Faults outside a
// guarded call go to whatever handler was installed before (or the default: the process dies, as
// for any other crash). An integer division the host CPU refuses (SIGFPE: x / 0, MIN / -1) gets
// the result the device's scalar unit would not trap on (fault_guard.cpp says which) and the
// kernel goes on; a SIGFPE the twin cannot complete ends the kernel as a fault does.
#pragma once

#include <cstdint>

#include "runtime/core/function_ref.h"

namespace npusim::rt {

struct MemoryFault {
  bool hit = false;
  int signal = 0;
  std::uintptr_t address = 0;  // the faulting address (si_addr)
};

/// Runs `body` on the calling thread; returns the fault that stopped it, if any. C++ exceptions
/// from `body` propagate. Not re-entrant within one thread.
MemoryFault run_guarded(FunctionRef<void()> body);

}  // namespace npusim::rt
