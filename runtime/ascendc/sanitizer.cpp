// SPDX-License-Identifier: Apache-2.0
// The checks mssanitizer turns on: see sanitizer.h.
#include "sanitizer.h"

#include <dlfcn.h>
#include <execinfo.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "npusim/ascendc/block_context.h"

namespace npusim::sanitizer {

unsigned g_checks = 0;

namespace {

using ascendc::BlockContext;
using ascendc::Instr;
using ascendc::kNoInstr;
using ascendc::kPipeCount;
using ascendc::Mem;
using ascendc::Op;
using ascendc::Pipe;

constexpr std::uint8_t kWritten = 1;  // shadow bits of a device byte
constexpr std::uint8_t kUsed = 2;

struct Tracked {
  std::size_t size = 0;
  std::vector<std::uint8_t> shadow;  // a byte per allocated byte
  std::string frames;                // where aclrtMalloc was called
};

struct SlotRace {
  std::uint32_t writer = 0;  // instruction index + 1 (0: none)
  Pipe writer_pipe = Pipe::kScalar;
  std::array<std::uint32_t, kPipeCount> readers{};  // last reader per pipe, index + 1
};

struct RaceState {
  std::vector<std::array<std::uint32_t, kPipeCount>> clock;  // per instruction (index + 1 values)
  std::vector<SlotRace> slots;
  std::vector<std::uint64_t> reported;  // (slot, kind, pipes) already reported in this block
};

struct State {
  std::mutex mutex;
  std::FILE* log = stderr;
  std::map<std::uintptr_t, Tracked> tracked;  // by base address
  std::unordered_map<const BlockContext*, RaceState> races;
};

// Never destroyed: the exit-time report (~FromEnvironment) may run after other statics are gone.
State& state() {
  static State* s = new State;
  return *s;
}

std::atomic<std::uint64_t> g_errors{0};
__attribute__((tls_model("initial-exec"))) thread_local bool tls_reporting = false;

std::string json(const char* s) {
  std::string out = "\"";
  for (; s != nullptr && *s != '\0'; ++s) {
    const auto c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// The caller's return addresses outside this library, as a JSON list of [module, pc, base]
// (mssanitizer symbolises them: pc - base for a position-independent module).
std::string frames() {
  void* pcs[64];
  const int n = backtrace(pcs, 64);
  Dl_info self{};
  dladdr(reinterpret_cast<void*>(&frames), &self);
  std::string out = "[";
  int kept = 0;
  for (int i = 0; i < n && kept < 16; ++i) {
    Dl_info info{};
    if (dladdr(pcs[i], &info) == 0 || info.dli_fname == nullptr) continue;
    if (info.dli_fbase == self.dli_fbase) continue;  // the runtime itself
    char pc[64];
    std::snprintf(pc, sizeof pc, ",\"0x%" PRIxPTR "\",\"0x%" PRIxPTR "\"]",
                  reinterpret_cast<std::uintptr_t>(pcs[i]) - 1,
                  reinterpret_cast<std::uintptr_t>(info.dli_fbase));
    out += (kept++ == 0 ? "[" : ",[") + json(info.dli_fname) + pc;
  }
  return out + "]";
}

struct Report {
  const char* kind;
  const char* op;
  const char* mem;
  std::uint64_t addr;
  std::uint64_t size;
  std::int64_t block;  // -1: host
  std::string detail;
};

// Writes one report (caller holds the mutex).
void write(State& s, const Report& r, const std::string& where) {
  g_errors.fetch_add(1, std::memory_order_relaxed);
  std::string line = "{\"kind\":" + json(r.kind) + ",\"op\":" + json(r.op) +
                     ",\"mem\":" + json(r.mem);
  char nums[96];
  std::snprintf(nums, sizeof nums, ",\"addr\":\"0x%" PRIx64 "\",\"size\":%" PRIu64
                ",\"block\":%" PRId64, r.addr, r.size, r.block);
  line += nums;
  line += ",\"detail\":" + json(r.detail.c_str()) + ",\"frames\":" + where + "}\n";
  std::fputs(line.c_str(), s.log);
  std::fflush(s.log);
}

std::int64_t current_block_index() {
  const BlockContext* ctx = ascendc::current_block();
  return ctx != nullptr ? static_cast<std::int64_t>(ctx->block_idx()) : -1;
}

// The tracked allocation holding [p, p + bytes) (clipped to it), or nullptr.
Tracked* find(State& s, std::uintptr_t p, std::uintptr_t* base) {
  auto it = s.tracked.upper_bound(p);
  if (it == s.tracked.begin()) return nullptr;
  --it;
  if (p - it->first >= it->second.size) return nullptr;
  *base = it->first;
  return &it->second;
}

void mark(Tracked& t, std::uintptr_t base, std::uintptr_t p, std::uint64_t bytes,
          std::uint8_t bits) {
  const std::size_t from = p - base;
  const std::size_t to = static_cast<std::size_t>(std::min<std::uint64_t>(t.size, from + bytes));
  for (std::size_t i = from; i < to; ++i) t.shadow[i] |= bits;
}

// A read of [p, p + bytes): initcheck, then the bytes count as used.
void read(State& s, const void* ptr, std::uint64_t bytes, const char* op, std::int64_t block) {
  std::uintptr_t base = 0;
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  Tracked* t = find(s, p, &base);
  if (t == nullptr) return;
  const std::size_t from = p - base;
  const std::size_t to = static_cast<std::size_t>(std::min<std::uint64_t>(t->size, from + bytes));
  if (on(kInit)) {
    std::size_t first = to, count = 0;
    for (std::size_t i = from; i < to; ++i) {
      if ((t->shadow[i] & kWritten) == 0) {
        first = std::min(first, i);
        ++count;
        t->shadow[i] |= kWritten;  // reported once
      }
    }
    if (count != 0) {
      char detail[200];
      std::snprintf(detail, sizeof detail,
                    "%zu of the %zu bytes read were never written (allocation of %zu bytes at "
                    "0x%" PRIxPTR ")",
                    count, to - from, t->size, base);
      write(s, {"uninitialized read", op, "GM", base + first, to - from, block, detail}, frames());
    }
  }
  mark(*t, base, p, to - from, kUsed);
}

void write_bytes(State& s, const void* ptr, std::uint64_t bytes) {
  std::uintptr_t base = 0;
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  if (Tracked* t = find(s, p, &base)) mark(*t, base, p, bytes, kWritten | kUsed);
}

void unused_report(State& s, std::uintptr_t base, const Tracked& t) {
  std::size_t first = t.size, count = 0;
  for (std::size_t i = 0; i < t.size; ++i) {
    if ((t.shadow[i] & kUsed) == 0) {
      first = std::min(first, i);
      ++count;
    }
  }
  if (count == 0) return;
  char detail[200];
  std::snprintf(detail, sizeof detail,
                "%zu of the %zu bytes allocated at 0x%" PRIxPTR
                " were never read or written (by a copy, a memset or a kernel)",
                count, t.size, base);
  write(s, {"unused memory", "aclrtMalloc", "GM", base + first, count, -1, detail}, t.frames);
}

const char* op_name(Op op) {
  switch (op) {
    case Op::kCopy: return "DataCopy";
    case Op::kCopyNd2Nz: return "DataCopy(Nd2Nz)";
    case Op::kLoad2d: return "LoadData";
    case Op::kFixpipe: return "Fixpipe";
    case Op::kMmad: return "Mmad";
    case Op::kAdd: return "Add";
    case Op::kSub: return "Sub";
    case Op::kMul: return "Mul";
    case Op::kDiv: return "Div";
    case Op::kMax: return "Max";
    case Op::kMin: return "Min";
    case Op::kAdds: return "Adds";
    case Op::kMuls: return "Muls";
    case Op::kExp: return "Exp";
    case Op::kLn: return "Ln";
    case Op::kAbs: return "Abs";
    case Op::kRelu: return "Relu";
    case Op::kSqrt: return "Sqrt";
    case Op::kDuplicate: return "Duplicate";
    case Op::kCast: return "Cast";
    case Op::kReduceSum: return "ReduceSum";
    case Op::kReduceMax: return "ReduceMax";
    case Op::kReduceMin: return "ReduceMin";
    case Op::kScalarRead: return "GetValue";
    case Op::kScalarWrite: return "SetValue";
    case Op::kSyncSet: return "SyncSet";
    case Op::kSyncWait: return "SyncWait";
  }
  return "instruction";
}

std::string pipe_label(Pipe p) { return std::string("PIPE_") + ascendc::pipe_name(p); }

// memcheck of one instruction: a copy moving more bytes than a local buffer it touches holds.
void check_bounds(State& s, BlockContext& ctx, const Instr& ins,
                  std::initializer_list<ascendc::Access> accesses) {
  if (ins.op != Op::kCopy) return;
  for (const ascendc::Access& a : accesses) {
    if (a.slot < 0) continue;
    const ascendc::BufferSlot& slot = ctx.slot(a.slot);
    if (ins.bytes <= slot.bytes) continue;
    char detail[240];
    std::snprintf(detail, sizeof detail,
                  "the copy %s %" PRIu64 " bytes, the %s buffer at offset 0x%x holds %u bytes: "
                  "%" PRIu64 " bytes past its end",
                  a.write ? "writes" : "reads", ins.bytes, ascendc::mem_name(slot.mem),
                  slot.offset, slot.bytes, ins.bytes - slot.bytes);
    write(s, {a.write ? "illegal write" : "illegal read", op_name(ins.op),
              ascendc::mem_name(slot.mem), slot.offset, ins.bytes, ctx.block_idx(), detail},
          frames());
  }
}

void check_race(State& s, BlockContext& ctx, std::uint32_t idx, std::uint32_t prev,
                std::initializer_list<ascendc::Access> accesses) {
  RaceState& r = s.races[&ctx];
  if (idx == 0) {
    r.clock.clear();
    r.slots.clear();
    r.reported.clear();
  }
  const Instr& ins = ctx.trace.instrs[idx];
  const auto pipe = static_cast<std::size_t>(ins.pipe);
  if (r.clock.size() <= idx) r.clock.resize(idx + 1);
  std::array<std::uint32_t, kPipeCount> vc{};
  if (prev != kNoInstr && prev < idx) vc = r.clock[prev];
  for (std::uint32_t i = 0; i < ins.dep_count; ++i) {
    const std::uint32_t d = ctx.trace.deps[ins.dep_begin + i];
    if (d >= idx) continue;
    for (std::size_t q = 0; q < vc.size(); ++q) vc[q] = std::max(vc[q], r.clock[d][q]);
  }
  vc[pipe] = idx + 1;
  r.clock[idx] = vc;
  auto race = [&](const char* kind, std::int32_t slot_id, std::uint32_t other) {
    const Instr& o = ctx.trace.instrs[other - 1];
    const std::uint64_t key = (static_cast<std::uint64_t>(slot_id) << 32) |
                              (static_cast<std::uint64_t>(kind[0]) << 24) |
                              (static_cast<std::uint64_t>(kind[2]) << 16) |
                              (static_cast<std::uint64_t>(o.pipe) << 8) | pipe;
    if (std::find(r.reported.begin(), r.reported.end(), key) != r.reported.end()) return;
    r.reported.push_back(key);
    const ascendc::BufferSlot& slot = ctx.slot(slot_id);
    char detail[320];
    std::snprintf(detail, sizeof detail,
                  "%s (%s) %s the %s buffer at offset 0x%x (%u bytes) that %s (%s) %s, with no "
                  "SetFlag/WaitFlag, queue event or PipeBarrier ordering the two",
                  op_name(ins.op), pipe_label(ins.pipe).c_str(),
                  kind[0] == 'R' ? "reads" : "writes", ascendc::mem_name(slot.mem), slot.offset,
                  slot.bytes, op_name(o.op), pipe_label(o.pipe).c_str(),
                  kind[2] == 'R' ? "read before" : "wrote before");
    write(s, {kind, op_name(ins.op), ascendc::mem_name(slot.mem), slot.offset, slot.bytes,
              ctx.block_idx(), detail},
          frames());
  };
  for (const ascendc::Access& a : accesses) {
    if (a.slot < 0) continue;
    if (r.slots.size() <= static_cast<std::size_t>(a.slot)) r.slots.resize(a.slot + 1);
    const SlotRace& sr = r.slots[a.slot];
    if (sr.writer != 0 && sr.writer_pipe != ins.pipe &&
        vc[static_cast<std::size_t>(sr.writer_pipe)] < sr.writer) {
      race(a.write ? "WAW race" : "RAW race", a.slot, sr.writer);
    }
    if (a.write) {
      for (std::size_t q = 0; q < sr.readers.size(); ++q) {
        if (q != pipe && sr.readers[q] != 0 && vc[q] < sr.readers[q]) {
          race("WAR race", a.slot, sr.readers[q]);
        }
      }
    }
  }
  for (const ascendc::Access& a : accesses) {
    if (a.slot < 0) continue;
    SlotRace& sr = r.slots[a.slot];
    if (a.write) {
      sr.writer = idx + 1;
      sr.writer_pipe = ins.pipe;
      sr.readers.fill(0);
    } else {
      sr.readers[pipe] = idx + 1;
    }
  }
}

// The KernelError's kind, Ascend C call, address and size, from the twin's message
// ("<call>: <what> (block N)").
Report classify(const char* what, std::int64_t block) {
  Report r{"kernel exception", "kernel", "GM", 0, 0, block, what};
  static thread_local std::string op;
  const char* colon = std::strstr(what, ": ");
  op = colon != nullptr ? std::string(what, colon) : std::string("kernel");
  r.op = op.c_str();
  if (std::strstr(what, "aligned") != nullptr) {
    r.kind = "misaligned access";
    r.mem = std::strstr(what, "L1 ") != nullptr ? "L1" : "UB";
    if (const char* a = std::strstr(what, "address ")) {
      r.addr = std::strtoull(a + 8, nullptr, 10);
    }
  } else if (std::strstr(what, "outside any device allocation") != nullptr ||
             std::strstr(what, "illegal global memory access") != nullptr) {
    const char* rd = std::strstr(what, "reads ");
    const char* wr = std::strstr(what, "writes ");
    r.kind = wr != nullptr ? "illegal write" : rd != nullptr ? "illegal read" : "illegal access";
    if (const char* n = wr != nullptr ? wr + 7 : rd != nullptr ? rd + 6 : nullptr) {
      char* end = nullptr;
      r.size = std::strtoull(n, &end, 10);
      if (const char* at = std::strstr(end, " at ")) r.addr = std::strtoull(at + 4, nullptr, 16);
    } else if (const char* at = std::strstr(what, "address 0x")) {
      r.addr = std::strtoull(at + 8, nullptr, 16);
    }
  } else if (std::strstr(what, "null global memory address") != nullptr) {
    r.kind = "illegal access";
  } else if (std::strstr(what, "run past the end") != nullptr ||
             std::strstr(what, "overflow") != nullptr) {
    r.kind = "illegal access";
    r.mem = "UB";
  }
  return r;
}

// The environment's switches, read when the library is loaded; what is still allocated is
// reported at exit (a program that never calls aclFinalize).
struct FromEnvironment {
  FromEnvironment() {
    const char* checks = std::getenv("NPUSIM_SANITIZER");
    if (checks == nullptr || *checks == '\0') return;
    unsigned bits = 0;
    std::string list = checks;
    for (std::size_t pos = 0; pos <= list.size();) {
      std::size_t end = list.find(',', pos);
      if (end == std::string::npos) end = list.size();
      const std::string name = list.substr(pos, end - pos);
      if (name == "memcheck") bits |= kMemcheck;
      if (name == "leak") bits |= kLeak;
      if (name == "unused") bits |= kUnused;
      if (name == "racecheck") bits |= kRace;
      if (name == "initcheck") bits |= kInit;
      pos = end + 1;
    }
    configure(bits, std::getenv("NPUSIM_SANITIZER_LOG"));
  }
  ~FromEnvironment() {
    if (g_checks != 0) finish();
  }
};
FromEnvironment g_from_environment;

}  // namespace

void configure(unsigned checks, const char* log) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.log != stderr && s.log != nullptr) std::fclose(s.log);
  s.log = stderr;
  if (log != nullptr && *log != '\0') {
    if (std::FILE* f = std::fopen(log, "a")) s.log = f;
  }
  s.tracked.clear();
  s.races.clear();
  g_errors = 0;
  g_checks = checks;
}

std::uint64_t error_count() { return g_errors.load(); }

void on_malloc(const void* p, std::size_t size) {
  if (g_checks == 0 || p == nullptr) return;
  State& s = state();
  std::string where = on(kLeak | kUnused) ? frames() : std::string("[]");
  std::lock_guard<std::mutex> lock(s.mutex);
  Tracked& t = s.tracked[reinterpret_cast<std::uintptr_t>(p)];
  t.size = size;
  t.shadow.assign(size, 0);
  t.frames = std::move(where);
}

void on_free(const void* p) {
  if (g_checks == 0) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.tracked.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == s.tracked.end()) return;
  if (on(kUnused)) unused_report(s, it->first, it->second);
  s.tracked.erase(it);
}

void on_copy(void* dst, const void* src, std::size_t bytes, const char* what) {
  if (g_checks == 0 || bytes == 0) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (src != nullptr) read(s, src, bytes, what, -1);
  if (dst != nullptr) write_bytes(s, dst, bytes);
}

void on_kernel_gm(const void* p, std::uint64_t bytes, bool write) {
  if (g_checks == 0 || bytes == 0) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (write)
    write_bytes(s, p, bytes);
  else
    read(s, p, bytes, "kernel GM read", current_block_index());
}

void finish() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (const auto& [base, t] : s.tracked) {
    if (on(kLeak)) {
      char detail[160];
      std::snprintf(detail, sizeof detail,
                    "%zu bytes allocated at 0x%" PRIxPTR " were never freed (aclrtFree)", t.size,
                    base);
      write(s, {"memory leak", "aclrtMalloc", "GM", base, t.size, -1, detail}, t.frames);
    }
    if (on(kUnused)) unused_report(s, base, t);
  }
  s.tracked.clear();
}

void on_kernel_error(const char* what, std::uint32_t block) {
  if (g_checks == 0 || tls_reporting) return;
  tls_reporting = true;  // frames() may not raise another (backtrace is plain C)
  State& s = state();
  const std::string where = frames();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    write(s, classify(what, block), where);
  }
  tls_reporting = false;
}

void on_emit(BlockContext& ctx, std::uint32_t idx, std::uint32_t prev_same_pipe,
             std::initializer_list<ascendc::Access> accesses) {
  if (!on(kMemcheck | kRace)) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (on(kMemcheck)) check_bounds(s, ctx, ctx.trace.instrs[idx], accesses);
  if (on(kRace)) check_race(s, ctx, idx, prev_same_pipe, accesses);
}

}  // namespace npusim::sanitizer
