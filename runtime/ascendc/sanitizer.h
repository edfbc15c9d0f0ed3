// SPDX-License-Identifier: Apache-2.0
// The checks `mssanitizer` turns on (CANN's msSanitizer): one module of libacl_rt.so that the
// runtime's existing checks call when it is on, never a second copy of them.
//
//   memcheck   every KernelError a block raises (the twin's bounds, alignment and GM checks:
//              "illegal read/write", "misaligned access"...), and a copy moving more bytes into
//              or out of a local buffer (LocalMemAllocator::Alloc, TPipe / TBuf buffer) than it
//              holds (BlockContext::emit: the buffer's slot)
//   leak       aclrtMalloc allocations never aclrtFree'd, at aclFinalize (or at exit)
//   unused     bytes of an aclrtMalloc allocation that no copy, memset or kernel API access ever
//              touched, when it is freed (or at aclFinalize)
//   racecheck  an instruction touching a local buffer that another pipe last wrote (or read)
//              with no SetFlag/WaitFlag, queue event or barrier ordering the two (a vector
//              clock per instruction, from the dependencies the trace already records)
//   initcheck  a read (kernel GM read through the API, device -> host or device -> device copy)
//              of aclrtMalloc bytes that nothing wrote
//
// Switched on by the environment at load time: NPUSIM_SANITIZER (a comma list of the checks
// above; mssanitizer sets it) and NPUSIM_SANITIZER_LOG (the file the reports go to, one JSON
// object a line; default stderr). Off, every hook is one load and branch of `g_checks`.
// Each report carries the return addresses of the call (module + offset) for mssanitizer to
// turn into file:line with the program's -g line tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace npusim::ascendc {
class BlockContext;
struct Access;
struct Instr;
}  // namespace npusim::ascendc

namespace npusim::sanitizer {

enum Check : unsigned {
  kMemcheck = 1u,
  kLeak = 2u,
  kUnused = 4u,
  kRace = 8u,
  kInit = 16u,
};

/// The checks on (0: the sanitizer is off).
extern unsigned g_checks;
inline bool on(unsigned checks) { return (g_checks & checks) != 0; }

/// Turns checks on or off (tests; the environment does it for programs). `log` nullptr or empty:
/// stderr. Forgets every tracked allocation and the error count.
void configure(unsigned checks, const char* log);
/// Reports so far.
std::uint64_t error_count();

// ---- device memory (runtime/core) ----
void on_malloc(const void* p, std::size_t size);  // aclrtMalloc
void on_free(const void* p);                      // aclrtFree (unused check of the allocation)
/// A host-side copy or memset touching device memory (task effects): `src` read, `dst` written
/// (either may be nullptr).
void on_copy(void* dst, const void* src, std::size_t bytes, const char* what);
/// A kernel's GM access through the Ascend C API (the launch's GM check).
void on_kernel_gm(const void* p, std::uint64_t bytes, bool write);
/// Leaks and unused bytes of what is still allocated (aclFinalize; also at exit).
void finish();

// ---- blocks (runtime/ascendc/block_context.cpp) ----
/// A KernelError raised while a block runs.
void on_kernel_error(const char* what, std::uint32_t block);
/// An instruction the block just recorded (its deps are in ctx.trace), `prev_same_pipe` the
/// index of the pipe's previous instruction (kNoInstr: none).
void on_emit(npusim::ascendc::BlockContext& ctx, std::uint32_t idx, std::uint32_t prev_same_pipe,
             std::initializer_list<npusim::ascendc::Access> accesses);

}  // namespace npusim::sanitizer
