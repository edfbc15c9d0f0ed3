// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/aicpu_kernel.h"

#include <cctype>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <utility>

#include "acl/acl_rt.h"
#include "models/aicpu_config.h"
#include "models/aicpu_work.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/launch.h"
#include "runtime/core/api_call.h"
#include "runtime/core/library.h"
#include "runtime/core/errors.h"
#include "runtime/core/fault_guard.h"
#include "runtime/core/kernel_launch.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

// ---- A small JSON reader: objects, arrays, strings, numbers, true/false/null ----

struct JsonValue {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  std::string text;  // string value (numbers and booleans keep their spelling)
  std::vector<std::pair<std::string, JsonValue>> members;
  std::vector<JsonValue> items;

  const JsonValue* member(const std::string& key) const {
    for (const auto& [k, v] : members) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

class JsonReader {
 public:
  JsonReader(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (pos_ != s_.size()) error("text after the end of the document");
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    fail(ACL_ERROR_RT_PARAM_INVALID, "AI CPU operator information file " + origin_ +
                                         " is not valid JSON at offset " + std::to_string(pos_) +
                                         ": " + what);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) error(std::string("expected '") + c + "'");
  }

  std::string string_body() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) error("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) error("unterminated escape");
      append_escape(s_[pos_++], out);
    }
  }

  // The character of escape \e (a \u escape reads its four hex digits), UTF-8 encoded.
  void append_escape(char e, std::string& out) {
    switch (e) {
      case 'n': out += '\n'; return;
      case 't': out += '\t'; return;
      case 'r': out += '\r'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'u': {
        if (pos_ + 4 > s_.size()) error("short \\u escape");
        unsigned code = static_cast<unsigned>(std::stoul(s_.substr(pos_, 4), nullptr, 16));
        pos_ += 4;
        return append_utf8(code, out);
      }
      default: out += e; return;  // \" \\ \/
    }
  }

  static void append_utf8(unsigned code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  JsonValue value(int depth) {
    if (depth > 64) error("nested too deeply");
    skip_space();
    if (pos_ >= s_.size()) error("unexpected end");
    const char c = s_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    JsonValue v;
    if (c == '"') {
      v.kind = JsonValue::kString;
      v.text = string_body();
      return v;
    }
    return literal();
  }

  // An object or an array (pos_ at its opening bracket): item(v) reads one member or element
  // into v; `close` ends it.
  template <class F>
  JsonValue sequence(JsonValue::Kind kind, char close, F&& item) {
    ++pos_;
    JsonValue v;
    v.kind = kind;
    if (take(close)) return v;
    do {
      item(v);
    } while (take(','));
    expect(close);
    return v;
  }

  JsonValue object(int depth) {
    return sequence(JsonValue::kObject, '}', [&](JsonValue& v) {
      skip_space();
      std::string key = string_body();
      expect(':');
      v.members.emplace_back(std::move(key), value(depth + 1));
    });
  }

  JsonValue array(int depth) {
    return sequence(JsonValue::kArray, ']',
                    [&](JsonValue& v) { v.items.push_back(value(depth + 1)); });
  }

  // true, false, null or a number.
  JsonValue literal() {
    JsonValue v;
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '-' || s_[pos_] == '+' || s_[pos_] == '.')) {
      ++pos_;
    }
    v.text = s_.substr(start, pos_ - start);
    if (v.text == "true" || v.text == "false") {
      v.kind = JsonValue::kBool;
    } else if (v.text == "null") {
      v.kind = JsonValue::kNull;
    } else if (!v.text.empty() && (std::isdigit(static_cast<unsigned char>(v.text[0])) ||
                                   v.text[0] == '-')) {
      v.kind = JsonValue::kNumber;
    } else {
      error("unexpected character");
    }
    return v;
  }

  const std::string& s_;
  const std::string& origin_;
  std::size_t pos_ = 0;
};

// ---- Running a launch ----

struct AiCpuState {
  std::string name;
  std::uint32_t block_dim = 1;
  std::function<std::uint32_t(void*)> body;
  void* args = nullptr;  // device address of the argument block
  std::uint64_t args_size = 0;
  std::uint64_t args_serial = 0;  // device_args: the allocation that must still be alive
  bool check_args = false;
  std::uint64_t bb_limit = ~std::uint64_t{0};
  Runtime* runtime = nullptr;
  std::shared_ptr<ContextFault> fault;
};

int aicpu_failed(const AiCpuState& st, std::uint32_t block, const std::string& what, int code) {
  std::string text = "AI CPU kernel " + st.name + " (run " + std::to_string(block) + " of " +
                     std::to_string(st.block_dim) + ") failed: " + what;
  sim::log_error(text);
  st.runtime->set_device_error(std::move(text));
  return code;
}

// The scalar (basic-block) and memory counters of the kernel's host thread, while it runs.
struct CounterScope {
  CounterScope(std::uint64_t* c, std::uint64_t limit, std::uint64_t* b,
               std::pair<std::uintptr_t, std::uintptr_t> range) {
    ascendc::detail::set_scalar_counter(c, limit);
    ascendc::detail::set_memory_counter(b, range.first, range.second);
  }
  ~CounterScope() {
    ascendc::detail::set_scalar_counter(nullptr);
    ascendc::detail::set_memory_counter(nullptr);
  }
};

std::string fault_text(const MemoryFault& fault) {
  char text[160];
  std::snprintf(text, sizeof text, "illegal memory access at address 0x%llx (%s)",
                static_cast<unsigned long long>(fault.address),
                fault.signal == SIGBUS ? "bus error" : "segmentation fault");
  return text;
}

// The kernel body, guarded against memory faults; its failure as an error code (logged).
int run_guarded_body(const AiCpuState& st, std::uint32_t block, std::uint64_t& bbs,
                     std::uint64_t& bytes) {
  std::uint32_t result = 0;
  MemoryFault fault;
  {
    CounterScope scope(&bbs, st.bb_limit, &bytes, st.runtime->memory().device_range());
    fault = run_guarded([&] { result = st.body(st.args); });
  }
  if (fault.hit) return aicpu_failed(st, block, fault_text(fault), ACL_ERROR_RT_AICPU_EXCEPTION);
  if (result != 0) {
    return aicpu_failed(st, block, "the kernel returned " + std::to_string(result),
                        ACL_ERROR_RT_AICPU_EXCEPTION);
  }
  return 0;
}

// run_guarded_body, with what the kernel throws (the watchdog's timeout too) as its failure.
int run_caught(const AiCpuState& st, std::uint32_t block, std::uint64_t& bbs,
               std::uint64_t& bytes) {
  try {
    return run_guarded_body(st, block, bbs, bytes);
  } catch (const ascendc::KernelTimeout&) {
    return aicpu_failed(st, block, "watchdog: it ran longer than aicore.timeout",
                        ACL_ERROR_RT_AICPU_TIMEOUT);
  } catch (const std::exception& e) {
    return aicpu_failed(st, block, std::string("exception: ") + e.what(),
                        ACL_ERROR_RT_AICPU_EXCEPTION);
  } catch (...) {
    return aicpu_failed(st, block, "unknown exception", ACL_ERROR_RT_AICPU_EXCEPTION);
  }
}

// AiCpuWork::run_block: the kernel on this host thread with the basic-block counter installed.
int run_aicpu(const AiCpuState& st, std::uint32_t block, models::AiCpuCount& count) {
  if (st.fault->stopped) return 0;  // the context stopped (stop-on-failure): nothing runs
  if (st.check_args && !st.runtime->memory().alive(st.args_serial)) {
    return aicpu_failed(st, block, "its argument block was freed", ACL_ERROR_RT_AICPU_EXCEPTION);
  }
  std::uint64_t bbs = 0;
  std::uint64_t bytes = 0;
  const int code = run_caught(st, block, bbs, bytes);
  count.basic_blocks += bbs;
  count.bytes += bytes;
  return code;
}

}  // namespace

std::vector<AiCpuOpInfo> parse_aicpu_op_info(const std::string& text, const std::string& origin) {
  JsonReader reader(text, origin);
  const JsonValue doc = reader.document();
  require(doc.kind == JsonValue::kObject, ACL_ERROR_RT_PARAM_INVALID,
          "AI CPU operator information file " + origin + " is not a JSON object");
  std::vector<AiCpuOpInfo> ops;
  for (const auto& [op_type, op] : doc.members) {
    const JsonValue* info = op.member("opInfo");
    require(info != nullptr && info->kind == JsonValue::kObject, ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU operator " + op_type + " in " + origin + " has no opInfo object");
    auto field = [&](const char* key) {
      const JsonValue* v = info->member(key);
      return v != nullptr && v->kind == JsonValue::kString ? v->text : std::string();
    };
    AiCpuOpInfo o{op_type, field("kernelSo"), field("functionName"), field("opKernelLib")};
    require(!o.kernel_so.empty() && !o.function_name.empty(), ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU operator " + op_type + " in " + origin +
                " needs opInfo.kernelSo and opInfo.functionName");
    ops.push_back(std::move(o));
  }
  return ops;
}

namespace {

// The launch checked (stream, blockDim, body, AI CPU cores present) and its state, with the
// watchdog's limit: aicore.timeout worth of basic blocks at the AI CPU's rates.
std::shared_ptr<AiCpuState> aicpu_state(Call& call, const Stream& s, AiCpuSpec& spec) {
  check_launch(call, s, spec.block_dim, "AI CPU kernel " + spec.name,
               static_cast<bool>(spec.body));
  const models::ChipConfig& cfg = call.config();
  const auto& aicpu = cfg.unit<models::AiCpuConfig>();
  if (aicpu.cores <= 0) {
    call.runtime().report_unsupported("AI CPU kernels on a chip without AI CPU cores");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "the chip has no AI CPU cores (aicpu.cores: 0): AI CPU kernel " + spec.name +
             " cannot run");
  }
  auto st = std::make_shared<AiCpuState>();
  st->name = spec.name;
  st->block_dim = spec.block_dim;
  st->body = std::move(spec.body);
  st->runtime = &call.runtime();
  st->fault = s.context_fault;
  const double bbs = static_cast<double>(cfg.aicore.timeout.ps) * 1e-12 * aicpu.clock.hz *
                     aicpu.ipc / aicpu.instructions_per_bb;
  if (bbs < 1.8e19) st->bb_limit = static_cast<std::uint64_t>(bbs);
  return st;
}

// The caller's device argument block, checked.
void use_device_args(MemoryRegistry& memory, const AiCpuSpec& spec, AiCpuState& st) {
  const Allocation* a = memory.find(spec.device_args);
  require(a != nullptr && a->kind != MemKind::kHostPinned &&
              a->contains(reinterpret_cast<std::uintptr_t>(spec.device_args),
                          spec.device_args_size),
          ACL_ERROR_RT_PARAM_INVALID, "argsData + argsSize is not inside device memory");
  st.args = spec.device_args;
  st.args_size = spec.device_args_size;
  st.args_serial = a->serial;
  st.check_args = true;
}

// The host argument block copied into a device allocation of its own, placeholders patched with
// device addresses; returns what frees that allocation (empty when there are no arguments).
std::function<void()> copy_host_args(Call& call, MemoryRegistry& memory, const AiCpuSpec& spec,
                                     AiCpuState& st) {
  const std::size_t size = spec.args.size();
  for (const auto& [addr, data] : spec.patches) {
    require(std::size_t{addr} + 8 <= size && data < size, ACL_ERROR_RT_PARAM_INVALID,
            "a placeholder offset lies outside the argument block");
  }
  if (size == 0) return {};
  const Allocation* a = memory.allocate(MemKind::kDevice, call.context().device, size, 0);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for the argument block");
  auto* base = reinterpret_cast<std::uint8_t*>(a->base);
  std::memcpy(base, spec.args.data(), size);
  for (const auto& [addr, data] : spec.patches) {
    const std::uint64_t address = a->base + data;
    std::memcpy(base + addr, &address, sizeof address);
  }
  st.args = base;
  st.args_size = size;
  return [&memory, base, serial = a->serial] { memory.release_if(base, serial); };
}

}  // namespace

void submit_aicpu_kernel(Call& call, void* stream, AiCpuSpec spec) {
  Stream& s = call.stream(stream);
  auto st = aicpu_state(call, s, spec);
  Runtime& rt = call.runtime();
  MemoryRegistry& memory = rt.memory();
  std::function<void()> release;
  if (spec.device_args != nullptr) {
    use_device_args(memory, spec, *st);
  } else {
    release = copy_host_args(call, memory, spec, *st);
  }
  auto work = std::make_shared<models::AiCpuWork>();
  work->name = spec.name;
  work->op_type = spec.op_type;
  work->info = op_info_for(call, std::move(spec.info), spec.name,
                           spec.op_type.empty() ? spec.name : spec.op_type, "AiCpu");
  work->block_dim = spec.block_dim;
  work->run_block = [st](std::uint32_t block, models::AiCpuCount& count) {
    return run_aicpu(*st, block, count);
  };
  spec.origin.args = st->args;
  spec.origin.args_size = static_cast<std::uint32_t>(st->args_size);
  Task task;
  task.kind = TaskKind::kAiCpu;
  task.name = spec.name;
  task.payload = std::move(work);
  task.done = [st, release, &rt, info = launch_exception_info(call, s, spec.origin),
               origin = spec.origin, keep = std::move(spec.keep_alive)](const TaskOutcome& r) {
    if (r.error != 0 && !r.discarded) {  // exception dump (dump_scene), when on
      libraries_kernel_failed(
          {st->name, info.device_id, info.stream_id, info.task_id, r, info.args, info.args_size});
    }
    report_launch_failure(rt, r, info, origin);
    if (release) release();
  };
  try {
    submit_to_stream(call, s, std::move(task));
  } catch (...) {
    if (release) release();
    throw;
  }
}

}  // namespace npusim::rt

// The `<<<>>>` seam of AI CPU kernels (npusim/ascendc/launch.h).
std::int32_t npusim::ascendc::launch_aicpu_kernel(std::uint32_t (*kernel)(void*), const char* name,
                                                 std::uint32_t block_dim, void* stream,
                                                 const void* args, std::size_t size) {
  if (kernel == nullptr) {
    return rt::api("KernelLaunch", [](rt::Call&) {
      rt::fail(ACL_ERROR_INVALID_PARAM, "the AI CPU kernel is NULL");
    });
  }
  return launch_aicpu_call(name, block_dim, stream, args, size,
                           [kernel](void* a) { return kernel(a); });
}

std::int32_t npusim::ascendc::launch_aicpu_call(const char* name, std::uint32_t block_dim,
                                               void* stream, const void* args, std::size_t size,
                                               std::function<std::uint32_t(void*)> body) {
  return rt::api("KernelLaunch", [&](rt::Call& c) {
    rt::require(args != nullptr || size == 0, ACL_ERROR_INVALID_PARAM,
                "the AI CPU kernel's argument pointer is NULL");
    rt::AiCpuSpec spec;
    spec.name = name != nullptr ? name : "aicpu_kernel";
    spec.block_dim = block_dim;
    spec.body = std::move(body);
    const auto* bytes = static_cast<const std::uint8_t*>(args);
    if (size != 0) spec.args.assign(bytes, bytes + size);
    rt::submit_aicpu_kernel(c, stream, std::move(spec));
  });
}
