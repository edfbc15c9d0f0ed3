// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/fault_guard.h"

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <ucontext.h>

namespace npusim::rt {
namespace {

thread_local sigjmp_buf* t_jump = nullptr;
thread_local MemoryFault t_fault;

struct sigaction g_previous[3];  // SIGSEGV, SIGBUS, SIGFPE

int slot(int sig) { return sig == SIGBUS ? 1 : sig == SIGFPE ? 2 : 0; }

#if defined(__x86_64__) && defined(__linux__)
// Integer division in kernel code that the host CPU refuses (#DE: a zero divisor, or the signed
// minimum by -1). The AI Core's scalar unit does not trap on either (CATLASS computes
// `i % count` with count 0 when a block has no next tile, and discards the result), so the twin
// gives the instruction a result and goes on: x / 0 = 0 and x % 0 = x (the values AArch64's
// sdiv/udiv and a remainder computed from them give; the device's own values are not
// documented), MIN / -1 = MIN and MIN % -1 = 0 (wrap-around). Only `div`/`idiv` on 16, 32 or
// 64 bits (opcode F7, what compilers emit for C++ `/` and `%`) are handled; any other faulting
// form stays a kernel error.
std::uint64_t gpr(const greg_t* g, unsigned n) {
  static constexpr int kReg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                   REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                   REG_R12, REG_R13, REG_R14, REG_R15};
  return static_cast<std::uint64_t>(g[kReg[n & 15]]);
}

std::int64_t read_disp(const unsigned char*& p, int bytes) {
  std::int64_t v = 0;
  if (bytes == 1) {
    v = static_cast<std::int8_t>(*p);
  } else {
    std::int32_t d = 0;
    std::memcpy(&d, p, 4);
    v = d;
  }
  p += bytes;
  return v;
}

bool emulate_divide(ucontext_t* uc) {
  greg_t* g = uc->uc_mcontext.gregs;
  const auto* p = reinterpret_cast<const unsigned char*>(g[REG_RIP]);
  bool size16 = false;
  unsigned rex = 0;
  while (*p == 0x66) {
    size16 = true;
    ++p;
  }
  if ((*p & 0xF0) == 0x40) rex = *p++;
  if (*p++ != 0xF7) return false;
  const unsigned modrm = *p++;
  const unsigned mod = modrm >> 6, op = (modrm >> 3) & 7, rm = modrm & 7;
  if (op != 6 && op != 7) return false;  // 6: div, 7: idiv
  const int bits = (rex & 8) != 0 ? 64 : size16 ? 16 : 32;
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  std::uint64_t divisor = 0;
  if (mod == 3) {
    divisor = gpr(g, rm | ((rex & 1) << 3));
  } else {
    std::uint64_t ea = 0;
    if (rm == 4) {  // SIB byte
      const unsigned sib = *p++;
      const unsigned index = ((sib >> 3) & 7) | ((rex & 2) << 2);
      if (index != 4) ea += gpr(g, index) << (sib >> 6);
      if ((sib & 7) == 5 && mod == 0) {
        ea += static_cast<std::uint64_t>(read_disp(p, 4));
      } else {
        ea += gpr(g, (sib & 7) | ((rex & 1) << 3));
      }
    } else if (rm == 5 && mod == 0) {  // RIP-relative: from the next instruction (no immediate)
      const std::int64_t d = read_disp(p, 4);
      ea = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uint64_t>(d);
    } else {
      ea = gpr(g, rm | ((rex & 1) << 3));
    }
    if (mod == 1) ea += static_cast<std::uint64_t>(read_disp(p, 1));
    if (mod == 2) ea += static_cast<std::uint64_t>(read_disp(p, 4));
    std::memcpy(&divisor, reinterpret_cast<const void*>(ea), static_cast<std::size_t>(bits / 8));
  }
  divisor &= mask;
  const std::uint64_t dividend = gpr(g, 0) & mask;
  std::uint64_t quotient = 0, remainder = dividend;
  if (divisor != 0) {  // overflow: only idiv of the minimum by -1 is a C++ expression that does it
    if (op != 7 || divisor != mask) return false;
    quotient = dividend;
    remainder = 0;
  }
  auto store = [&](int reg, std::uint64_t v) {
    const auto old = static_cast<std::uint64_t>(g[reg]);
    // 32-bit results zero the upper half, 16-bit ones keep it (x86-64 rules)
    const std::uint64_t out = bits == 16 ? (old & ~mask) | v : v;
    g[reg] = static_cast<greg_t>(out);
  };
  store(REG_RAX, quotient);
  store(REG_RDX, remainder);
  g[REG_RIP] = static_cast<greg_t>(reinterpret_cast<std::uintptr_t>(p));
  return true;
}
#endif

void on_fault(int sig, siginfo_t* info, void* uctx) {
#if defined(__x86_64__) && defined(__linux__)
  if (sig == SIGFPE && t_jump != nullptr &&
      (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) &&
      emulate_divide(static_cast<ucontext_t*>(uctx))) {
    return;  // the division has its result; the kernel goes on after it
  }
#endif
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
    sigaction(SIGFPE, &sa, &g_previous[2]);
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
