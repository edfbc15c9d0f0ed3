// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/fault_guard.h"

#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <mutex>

namespace npusim::rt {
namespace {

thread_local sigjmp_buf* t_jump = nullptr;
thread_local MemoryFault t_fault;

struct sigaction g_previous[2];  // SIGSEGV, SIGBUS

int slot(int sig) { return sig == SIGBUS ? 1 : 0; }

void on_fault(int sig, siginfo_t* info, void* uctx) {
  if (t_jump != nullptr) {
    t_fault.hit = true;
    t_fault.signal = sig;
    t_fault.address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    sigjmp_buf* jump = t_jump;
    t_jump = nullptr;
    siglongjmp(*jump, 1);
  }
  // Not kernel code: whatever was there before handles it.
  const struct sigaction& prev = g_previous[slot(sig)];
  if ((prev.sa_flags & SA_SIGINFO) != 0 && prev.sa_sigaction != nullptr) {
    prev.sa_sigaction(sig, info, uctx);
    return;
  }
  if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);  // returning re-runs the faulting instruction: the default action
}

// The handler runs on an alternate stack, so a kernel that overflows its stack is caught too.
void ensure_alt_stack() {
  thread_local bool done = false;
  if (done) return;
  done = true;
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0) return;
  static constexpr std::size_t kSize = 64 * 1024;
  stack_t st{};
  st.ss_sp = std::malloc(kSize);  // lives as long as the thread (one per thread)
  st.ss_size = kSize;
  if (st.ss_sp != nullptr) sigaltstack(&st, nullptr);
}

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa{};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous[0]);
    sigaction(SIGBUS, &sa, &g_previous[1]);
  });
}

}  // namespace

MemoryFault run_guarded(FunctionRef<void()> body) {
  install();
  ensure_alt_stack();
  sigjmp_buf jump;
  t_fault = MemoryFault{};
  if (sigsetjmp(jump, 1) != 0) return t_fault;  // back from on_fault
  t_jump = &jump;
  try {
    body();
  } catch (...) {
    t_jump = nullptr;
    throw;
  }
  t_jump = nullptr;
  return MemoryFault{};
}

}  // namespace npusim::rt
