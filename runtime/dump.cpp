// SPDX-License-Identifier: Apache-2.0
#include "runtime/dump.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <system_error>

#include "runtime/api_call.h"
#include "runtime/errors.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "sim/log.h"

namespace npusim::rt::dump {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using ChunkCallback = std::int32_t (*)(const acldumpChunk*, std::int32_t);

// ---- Process state (under the API lock) ----
struct State {
  Config init;               // from aclInit's file
  bool mdl_active = false;   // between aclmdlInitDump and aclmdlFinalizeDump
  bool mdl_set = false;      // aclmdlSetDump called since
  Config mdl;                // from aclmdlSetDump
  std::string time_dir;      // <time> of the active data dump
  ChunkCallback callback = nullptr;
  bool args_on = false;
  std::string args_path;
  std::map<std::string, int> args_written;  // signature -> n
  std::map<std::string, int> args_per_type;
  // Exception dump: the last operator queued on each (device, stream), whose kernels a failure
  // may belong to.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::shared_ptr<OpRun>> exception_ops;
  std::vector<PendingChunk> chunks;
  std::string path_answer;  // what acldumpGetPath returned last (kept alive)
};

State& state() {
  static State s;
  return s;
}

const Config& active() {
  State& s = state();
  return s.mdl_active && s.mdl_set ? s.mdl : s.init;
}

[[noreturn]] void bad(const std::string& source, const std::string& why) {
  fail(ACL_ERROR_INVALID_DUMP_CONFIG, "dump configuration " + source + ": " + why);
}

std::string string_key(const Json& d, const char* key, const std::string& source,
                        std::initializer_list<const char*> allowed, const char* fallback) {
  if (!d.contains(key)) return fallback;
  const Json& v = d[key];
  if (!v.is_string()) bad(source, std::string(key) + " must be a string");
  std::string s = v.get<std::string>();
  if (allowed.size() == 0) return s;
  std::string list;
  for (const char* a : allowed) {
    if (s == a) return s;
    list += list.empty() ? a : std::string(", ") + a;
  }
  bad(source, std::string(key) + " \"" + s + "\" is not one of " + list);
}

fs::path absolute_dir(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(fs::path(p), ec);
  return ec ? fs::path(p) : a.lexically_normal();
}

std::string with_slash(fs::path p) {
  std::string s = p.string();
  if (s.empty() || s.back() != '/') s += '/';
  return s;
}

// ---- Time ----
// Days since 1970-01-01 -> civil date (Howard Hinnant's algorithm).
void civil_from_days(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

// ---- Protobuf wire format ----
void varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
void field_varint(std::string& out, int field, std::uint64_t v) {
  varint(out, static_cast<std::uint64_t>(field) << 3);
  varint(out, v);
}
void field_bytes(std::string& out, int field, const std::string& bytes) {
  varint(out, (static_cast<std::uint64_t>(field) << 3) | 2);
  varint(out, bytes.size());
  out += bytes;
}
std::string shape_message(const std::vector<std::uint64_t>& dims) {
  std::string packed;
  for (std::uint64_t d : dims) varint(packed, d);
  std::string m;
  if (!dims.empty()) field_bytes(m, 1, packed);
  return m;
}

// aclDataType -> the dump proto's OutputDataType.
std::uint64_t proto_dtype(int acl) {
  switch (acl) {
    case 0: return 1;    // FLOAT
    case 1: return 2;    // FLOAT16
    case 2: return 3;    // INT8
    case 3: return 7;    // INT32
    case 4: return 4;    // UINT8
    case 6: return 5;    // INT16
    case 7: return 6;    // UINT16
    case 8: return 9;    // UINT32
    case 9: return 8;    // INT64
    case 10: return 10;  // UINT64
    case 11: return 12;  // DOUBLE
    case 12: return 11;  // BOOL
    case 13: return 13;  // STRING
    case 16: return 16;  // COMPLEX64
    case 17: return 17;  // COMPLEX128
    case 27: return 27;  // BF16
    default: return 0;   // DT_UNDEFINED
  }
}

const char* dtype_text(int acl) {
  switch (acl) {
    case 0: return "FLOAT";
    case 1: return "FLOAT16";
    case 2: return "INT8";
    case 3: return "INT32";
    case 4: return "UINT8";
    case 6: return "INT16";
    case 7: return "UINT16";
    case 8: return "UINT32";
    case 9: return "INT64";
    case 10: return "UINT64";
    case 11: return "DOUBLE";
    case 12: return "BOOL";
    case 27: return "BF16";
    default: return "UNDEFINED";
  }
}

const char* format_text(int f) {
  switch (f) {
    case 0: return "NCHW";
    case 1: return "NHWC";
    case 2: return "ND";
    case 3: return "NC1HWC0";
    case 4: return "FRACTAL_Z";
    case 29: return "FRACTAL_NZ";
    default: return "UNDEFINED";
  }
}

// The elements of `v` in row-major order of its view.
std::vector<std::uint8_t> gather(const TensorView& v) {
  std::int64_t n = 1;
  for (std::int64_t d : v.dims) n *= d;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n > 0 ? n : 0) * v.elem_size);
  if (n <= 0 || v.addr == nullptr) return out;
  const std::size_t rank = v.dims.size();
  std::vector<std::int64_t> strides = v.strides;
  if (strides.size() != rank) {  // none given: row-major
    strides.assign(rank, 1);
    for (std::size_t k = rank; k-- > 1;) strides[k - 1] = strides[k] * v.dims[k];
  }
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t e = 0; e < n; ++e) {
    std::int64_t off = 0;
    for (std::size_t k = 0; k < rank; ++k) off += idx[k] * strides[k];
    std::memcpy(out.data() + static_cast<std::size_t>(e) * v.elem_size,
                v.addr + off * static_cast<std::int64_t>(v.elem_size), v.elem_size);
    for (std::size_t k = rank; k-- > 0;) {
      if (++idx[k] < v.dims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

std::vector<std::uint64_t> udims(const std::vector<std::int64_t>& dims) {
  std::vector<std::uint64_t> out;
  for (std::int64_t d : dims) out.push_back(static_cast<std::uint64_t>(d < 0 ? 0 : d));
  return out;
}

/// The DumpData tensor of `v` (kind 0 input, 1 output) holding `data`.
Tensor tensor_of(const TensorView& v, int kind, std::vector<std::uint8_t> data) {
  Tensor t;
  t.kind = kind;
  t.dtype = v.dtype;
  t.format = v.format;
  t.shape = t.origin_shape = udims(v.dims);
  t.data = std::move(data);
  return t;
}

bool write_file(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  if (!f) return false;
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

// The file, or the callback's chunks.
void emit(const fs::path& file, const std::vector<std::uint8_t>& bytes) {
  State& s = state();
  if (s.callback == nullptr) {
    if (!write_file(file, bytes)) sim::log_error("dump: cannot write " + file.string());
    return;
  }
  std::size_t off = 0;
  const std::string name = file.string();
  do {
    const std::size_t len = std::min<std::size_t>(kChunkBytes, bytes.size() - off);
    PendingChunk c;
    c.callback = s.callback;
    c.bytes.assign(sizeof(acldumpChunk) + len, 0);
    auto* chunk = reinterpret_cast<acldumpChunk*>(c.bytes.data());
    std::snprintf(chunk->fileName, sizeof chunk->fileName, "%s", name.c_str());
    chunk->bufLen = static_cast<std::uint32_t>(len);
    chunk->isLastChunk = off + len == bytes.size() ? 1 : 0;
    chunk->offset = static_cast<std::int64_t>(off);
    chunk->flag = 0;
    // dataBuf starts before the struct's tail padding; the length handed over stays
    // sizeof(acldumpChunk) + bufLen (what callers check).
    if (len > 0) std::memcpy(chunk->dataBuf, bytes.data() + off, len);
    s.chunks.push_back(std::move(c));
    off += len;
  } while (off < bytes.size());
}

bool selected(const Config& c, const OpDesc& d) {
  if (c.layers.empty()) return true;
  for (const std::string& l : c.layers) {
    if (l == d.type || l == d.name) return true;
  }
  return false;
}

std::string tensor_json_list(const std::vector<TensorView>& ts, Json& out) {
  std::string sig;
  out = Json::array();
  for (const TensorView& t : ts) {
    if (t.addr == nullptr) continue;
    Json j;
    j["format"] = format_text(t.format);
    j["data_type"] = dtype_text(t.dtype);
    j["shape"] = t.dims;
    out.push_back(j);
    sig += std::to_string(t.dtype) + ":" + std::to_string(t.format) + ":" + j["shape"].dump() + ";";
  }
  return sig;
}

void write_args_file(const OpDesc& d) {
  State& s = state();
  Json in, out;
  std::string sig = d.type + "|" + tensor_json_list(d.inputs, in) + "|" +
                    tensor_json_list(d.outputs, out);
  if (s.args_written.count(sig) != 0) return;
  const int n = s.args_per_type[d.type]++;
  s.args_written[sig] = n;
  Json j;
  j["op_type"] = d.type;
  j["op_name"] = d.name;
  j["attrs"] = Json::object();
  j["inputs"] = in;
  j["outputs"] = out;
  const std::string text = j.dump(2) + "\n";
  const fs::path p = fs::path(s.args_path) / (d.type + "." + std::to_string(n) + ".json");
  if (!write_file(p, std::vector<std::uint8_t>(text.begin(), text.end()))) {
    sim::log_error("aclopStartDumpArgs: cannot write " + p.string());
  }
}

fs::path exception_base() {
  for (const char* env : {"ASCEND_DUMP_PATH", "ASCEND_WORK_PATH"}) {
    const char* v = std::getenv(env);
    if (v != nullptr && *v != '\0') return absolute_dir(v);
  }
  const Config& c = active();
  if (!c.path.empty()) return absolute_dir(c.path);
  return absolute_dir(".");
}

fs::path exception_root(std::uint32_t device) {
  return exception_base() / "extra-info" / "data-dump" / std::to_string(device);
}

std::uint32_t current_device(Call& call) {
  void* h = call.thread().context;
  const Context* ctx = h != nullptr ? call.runtime().contexts().find(h) : nullptr;
  return ctx != nullptr ? ctx->device : 0;
}

void start_data_dump_clock(Call& call) {
  state().time_dir = civil_time(call.clock(), 14);
}

}  // namespace

// ---- Configuration ----
Config parse_config(const std::string& text, const std::string& source) {
  Config c;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return c;
  Json root = Json::parse(text, nullptr, false);
  if (root.is_discarded()) fail(ACL_ERROR_PARSE_FILE, "config file " + source + " is not valid JSON");
  if (!root.is_object() || !root.contains("dump")) return c;
  const Json& d = root["dump"];
  if (!d.is_object()) bad(source, "\"dump\" must be an object");
  if (d.contains("dump_path")) {
    if (!d["dump_path"].is_string()) bad(source, "dump_path must be a string");
    c.path = d["dump_path"].get<std::string>();
    if (c.path.empty()) bad(source, "dump_path is empty");
  }
  c.op_switch = string_key(d, "dump_op_switch", source, {"on", "off"}, "off") == "on";
  const std::string mode = string_key(d, "dump_mode", source, {"input", "output", "all"}, "output");
  c.mode = mode == "input" ? Mode::kInput : mode == "all" ? Mode::kAll : Mode::kOutput;
  const std::string data = string_key(d, "dump_data", source, {"tensor", "stats"}, "tensor");
  if (data == "stats") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": dump_data \"stats\" is not supported by npusim");
  }
  if (string_key(d, "dump_debug", source, {"on", "off"}, "off") == "on") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": overflow dump (dump_debug on) is not supported by npusim");
  }
  const std::string scene = string_key(
      d, "dump_scene", source,
      {"", "aic_err_brief_dump", "aic_err_norm_dump", "lite_exception", "aic_err_detail_dump",
       "watcher"},
      "");
  if (scene == "aic_err_detail_dump" || scene == "watcher") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": dump_scene \"" + scene + "\" is not supported by npusim");
  }
  c.scene = scene == "aic_err_norm_dump" ? Scene::kNorm
            : scene.empty()              ? Scene::kNone
                                         : Scene::kBrief;
  bool all_ops = true;
  if (d.contains("dump_list")) {
    const Json& list = d["dump_list"];
    if (!list.is_array()) bad(source, "dump_list must be an array");
    for (const Json& e : list) {
      if (!e.is_object()) bad(source, "each dump_list entry must be an object");
      if (e.contains("model_name") && !e["model_name"].is_string()) {
        bad(source, "model_name must be a string");
      }
      if (!e.contains("layer")) continue;
      if (!e["layer"].is_array()) bad(source, "layer must be an array of operator names");
      all_ops = false;
      for (const Json& l : e["layer"]) {
        if (!l.is_string()) bad(source, "layer must be an array of operator names");
        c.layers.push_back(l.get<std::string>());
      }
    }
  }
  if (all_ops) c.layers.clear();
  if (c.op_switch && c.path.empty()) bad(source, "dump_op_switch is on but dump_path is missing");
  if (c.op_switch) {  // the data dump's directory: created when missing
    std::error_code ec;
    const fs::path dir = absolute_dir(c.path);
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir, ec)) bad(source, "dump_path " + dir.string() + " cannot be created");
  }
  if (c.op_switch && c.scene != Scene::kNone) {
    bad(source, "exception dump (dump_scene) cannot be combined with single-operator dump");
  }
  return c;
}

void configure_from_init(const Config& c) {
  State& s = state();
  s.init = c;
  s.time_dir = civil_time(0, 14);
  if (c.op_switch) sim::log_info("dump: single-operator dump to " + absolute_dir(c.path).string());
}

// ---- Operator runs ----
struct OpRun {
  OpDesc desc;
  bool data = false;  // data dump (else only kept for the exception dump)
  std::uint32_t last_task = 0;
  Mode mode = Mode::kOutput;
  fs::path dir;
  std::uint32_t task_id = 0, stream_id = 0, device = 0;
  std::vector<std::vector<std::uint8_t>> inputs;
  bool inputs_taken = false;
};

std::shared_ptr<OpRun> before_op(Call& call, void* stream, const OpDesc& desc) {
  State& s = state();
  if (s.args_on) write_args_file(desc);
  const Config& c = active();
  const bool data = c.op_switch && selected(c, desc);
  const bool exception = c.scene != Scene::kNone;
  if (!data && !exception) return nullptr;
  Stream& st = call.stream(stream);
  auto run = std::make_shared<OpRun>();
  run->desc = desc;
  run->data = data;
  run->mode = c.mode;
  run->task_id = st.next_task_id & 0xFFFFu;
  run->stream_id = st.id;
  run->device = st.device;
  run->dir = absolute_dir(c.path) / s.time_dir / std::to_string(st.device);
  if (exception) s.exception_ops[{st.device, st.id}] = run;
  if (data && run->mode != Mode::kOutput) {
    Task t;
    t.kind = TaskKind::kNop;
    t.name = "DUMP_INPUTS";
    t.done = [run](const TaskOutcome& o) {
      if (o.discarded || o.error != 0) return;
      run->inputs.clear();  // a model run instance runs the recorded task again
      for (const TensorView& v : run->desc.inputs) {
        if (v.addr != nullptr) run->inputs.push_back(gather(v));
      }
      run->inputs_taken = true;
    };
    submit_to_stream(call, st, std::move(t));
    run->task_id = st.next_task_id & 0xFFFFu;  // the operator's first kernel
  }
  return run;
}

void after_op(Call& call, void* stream, const std::shared_ptr<OpRun>& run) {
  if (run == nullptr) return;
  Stream& st = call.stream(stream);
  run->last_task = (st.next_task_id - 1) & 0xFFFFu;
  if (!run->data) return;
  Task t;
  t.kind = TaskKind::kNop;
  t.name = "DUMP_OUTPUTS";
  t.done = [run](const TaskOutcome& o) {
    if (o.discarded || o.error != 0) return;
    std::vector<Tensor> tensors;
    if (run->mode != Mode::kOutput) {
      if (!run->inputs_taken) return;
      std::size_t k = 0;
      for (const TensorView& v : run->desc.inputs) {
        if (v.addr == nullptr) continue;
        tensors.push_back(tensor_of(v, 0, std::move(run->inputs[k++])));
      }
    }
    if (run->mode != Mode::kInput) {
      for (const TensorView& v : run->desc.outputs) {
        if (v.addr == nullptr) continue;
        tensors.push_back(tensor_of(v, 1, gather(v)));
      }
    }
    const std::uint64_t us = o.end / 1000000;
    const std::string file = run->desc.type + "." + run->desc.name + "." +
                             std::to_string(run->task_id) + "." + std::to_string(run->stream_id) +
                             "." + std::to_string(us);
    emit(run->dir / file, encode_file(run->desc.name, us, tensors, ""));
  };
  submit_to_stream(call, st, std::move(t));
}

void on_kernel_failure(const std::string& kernel, std::uint32_t device, std::uint32_t stream,
                       std::uint32_t task_id, const models::TaskOutcome& outcome,
                       const void* args, std::uint32_t args_size) {
  if (active().scene == Scene::kNone) return;
  const std::uint64_t us = outcome.end / 1000000;
  Json j;
  j["kernel"] = kernel;
  j["device_id"] = device;
  j["stream_id"] = stream;
  j["task_id"] = task_id;
  j["error_code"] = outcome.error;
  j["start_us"] = outcome.start / 1000000;
  j["end_us"] = us;
  std::string hex;
  static const char* digits = "0123456789abcdef";
  const auto* b = static_cast<const std::uint8_t*>(args);
  for (std::uint32_t i = 0; b != nullptr && i < args_size; ++i) {
    hex.push_back(digits[b[i] >> 4]);
    hex.push_back(digits[b[i] & 15]);
  }
  j["args"] = hex;
  // An operator's kernel: its tensors as the device holds them now, in a DumpData file beside.
  auto op = state().exception_ops.find({device, stream});
  if (op != state().exception_ops.end() && task_id >= op->second->task_id &&
      task_id <= op->second->last_task) {
    const OpRun& run = *op->second;
    const MemoryRegistry& mem = Runtime::instance().memory();
    std::vector<Tensor> tensors;
    auto add = [&](const std::vector<TensorView>& views, int kind) {
      for (const TensorView& v : views) {
        if (v.addr == nullptr || mem.find(v.addr) == nullptr) continue;  // absent or not device memory
        tensors.push_back(tensor_of(v, kind, gather(v)));
      }
    };
    add(run.desc.inputs, 0);
    add(run.desc.outputs, 1);
    const std::string data_name = run.desc.type + "." + run.desc.name + "." +
                                  std::to_string(task_id) + "." + std::to_string(stream) + "." +
                                  std::to_string(us);
    j["op_type"] = run.desc.type;
    j["op_name"] = run.desc.name;
    j["tensors"] = tensors.size();
    j["data_file"] = data_name;
    if (!write_file(exception_root(device) / data_name, encode_file(run.desc.name, us, tensors, ""))) {
      sim::log_error("exception dump: cannot write " + data_name);
    }
  }
  const std::string text = j.dump(2) + "\n";
  const fs::path p = exception_root(device) / (kernel + "." + std::to_string(task_id) + "." +
                                                std::to_string(stream) + "." +
                                                std::to_string(us) + ".exception.json");
  if (!write_file(p, std::vector<std::uint8_t>(text.begin(), text.end()))) {
    sim::log_error("exception dump: cannot write " + p.string());
    return;
  }
  sim::log_info("exception dump: " + p.string());
}

// ---- The C skin's operations ----
void init_dump(Call& call) {
  State& s = state();
  require(!s.mdl_active, ACL_ERROR_DUMP_ALREADY_RUN,
          "aclmdlInitDump: dump is already initialised (aclmdlFinalizeDump first)");
  require(!s.init.op_switch, ACL_ERROR_DUMP_ALREADY_RUN,
          "aclmdlInitDump: the aclInit configuration already enables single-operator dump");
  s.mdl_active = true;
  s.mdl_set = false;
  s.mdl = Config{};
}

void set_dump(Call& call, const char* path) {
  State& s = state();
  require_not_null(path, "dumpCfgPath");
  require(s.mdl_active, ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump before aclmdlInitDump");
  std::ifstream in(path);
  require(in.good(), ACL_ERROR_INVALID_FILE, std::string("cannot read dump config file ") + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Config c = parse_config(text, path);
  require(c.op_switch || c.scene != Scene::kNone, ACL_ERROR_INVALID_DUMP_CONFIG,
          std::string("dump configuration ") + path +
              " enables no dump npusim performs (dump_op_switch \"on\" or dump_scene)");
  s.mdl = c;
  s.mdl_set = true;
  start_data_dump_clock(call);
  if (c.op_switch) sim::log_info("dump: single-operator dump to " + absolute_dir(c.path).string());
}

void finalize_dump(Call& call) {
  State& s = state();
  require(s.mdl_active, ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump without aclmdlInitDump");
  s.mdl_active = false;
  s.mdl_set = false;
  s.mdl = Config{};
}

void reg_callback(Call& call, ChunkCallback cb, std::int32_t flag) {
  require_not_null(reinterpret_cast<const void*>(cb), "messageCallback");
  require(flag == 0, ACL_ERROR_INVALID_PARAM,
          "acldumpRegCallback: flag must be 0 (data goes to the callback only)");
  state().callback = cb;
}

void unreg_callback(Call& call) { state().callback = nullptr; }

void start_dump_args(Call& call, std::uint32_t type, const char* path) {
  require(type == ACL_OP_DUMP_OP_AICORE_ARGS, ACL_ERROR_INVALID_PARAM,
          "aclopStartDumpArgs: dumpType must be ACL_OP_DUMP_OP_AICORE_ARGS");
  require_not_null(path, "path");
  require(*path != '\0', ACL_ERROR_INVALID_PARAM, "aclopStartDumpArgs: path is empty");
  std::error_code ec;
  const fs::path dir = absolute_dir(path);
  fs::create_directories(dir, ec);
  require(fs::is_directory(dir, ec), ACL_ERROR_INVALID_PARAM,
          "aclopStartDumpArgs: cannot create the directory " + dir.string());
  State& s = state();
  s.args_on = true;
  s.args_path = dir.string();
  s.args_written.clear();
  s.args_per_type.clear();
}

void stop_dump_args(Call& call, std::uint32_t type) {
  require(type == ACL_OP_DUMP_OP_AICORE_ARGS, ACL_ERROR_INVALID_PARAM,
          "aclopStopDumpArgs: dumpType must be ACL_OP_DUMP_OP_AICORE_ARGS");
  State& s = state();
  require(s.args_on, ACL_ERROR_DUMP_NOT_RUN, "aclopStopDumpArgs without aclopStartDumpArgs");
  s.args_on = false;
}

const char* get_path(Call& call, int type) {
  State& s = state();
  const Config& c = active();
  switch (type) {
    case DATA_DUMP:
      require(c.op_switch, ACL_ERROR_DUMP_NOT_RUN, "acldumpGetPath: data dump is not enabled");
      s.path_answer = with_slash(absolute_dir(c.path));
      return s.path_answer.c_str();
    case AIC_ERR_BRIEF_DUMP:
    case AIC_ERR_NORM_DUMP:
      require(c.scene != Scene::kNone, ACL_ERROR_DUMP_NOT_RUN,
              "acldumpGetPath: exception dump is not enabled");
      s.path_answer = with_slash(exception_root(current_device(call)));
      return s.path_answer.c_str();
    case AIC_ERR_DETAIL_DUMP:
    case OVERFLOW_DUMP:
      fail(ACL_ERROR_DUMP_NOT_RUN, "acldumpGetPath: this dump type is never enabled in npusim");
    default:
      fail(ACL_ERROR_INVALID_PARAM, "acldumpGetPath: unknown dumpType " + std::to_string(type));
  }
}

void get_exception_path(Call& call, char* path, std::size_t max_len) {
  require_not_null(path, "path");
  require(max_len > 1, ACL_ERROR_INVALID_PARAM, "acldumpGetExceptionInfoPath: maxLen must be > 1");
  require(active().scene != Scene::kNone, ACL_ERROR_DUMP_NOT_RUN,
          "acldumpGetExceptionInfoPath: exception dump is not enabled (dump_scene)");
  const std::string root = with_slash(exception_root(current_device(call)));
  require(root.size() < max_len, ACL_ERROR_INVALID_PARAM,
          "acldumpGetExceptionInfoPath: maxLen " + std::to_string(max_len) + " cannot hold the " +
              std::to_string(root.size() + 1) + " bytes of " + root);
  std::memcpy(path, root.c_str(), root.size() + 1);
}

void save_exception_info(Call& call, const char* file, const char* tag,
                         const acldumpTensorInfo* tensors, std::size_t count) {
  require_not_null(file, "fileName");
  require(*file != '\0', ACL_ERROR_INVALID_PARAM, "acldumpSaveExceptionInfo: fileName is empty");
  const fs::path rel(file);
  require(rel.is_relative(), ACL_ERROR_INVALID_PARAM,
          std::string("acldumpSaveExceptionInfo: fileName ") + file + " must be a relative path");
  for (const fs::path& part : rel) {
    require(part != "..", ACL_ERROR_INVALID_PARAM,
            std::string("acldumpSaveExceptionInfo: fileName ") + file + " contains \"..\"");
  }
  require_not_null(tensors, "tensors");
  require(count > 0, ACL_ERROR_INVALID_PARAM, "acldumpSaveExceptionInfo: tensorCount is 0");
  require(active().scene != Scene::kNone, ACL_ERROR_DUMP_NOT_RUN,
          "acldumpSaveExceptionInfo: exception dump is not enabled (dump_scene)");
  call.catch_up();  // the data as the device holds it at the caller's time
  const MemoryRegistry& mem = call.runtime().memory();
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < count; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    const std::string which = "tensor " + std::to_string(i);
    require(t.addrType == ACL_DUMP_ADDR_RAW && t.placement == ACL_DUMP_PLACEMENT_DEVICE,
            ACL_ERROR_INVALID_PARAM,
            "acldumpSaveExceptionInfo: " + which +
                " must have addrType ACL_DUMP_ADDR_RAW and placement ACL_DUMP_PLACEMENT_DEVICE");
    require(t.tensorAddr != nullptr && t.tensorSize > 0, ACL_ERROR_INVALID_PARAM,
            "acldumpSaveExceptionInfo: " + which + " has a NULL address or size 0");
    require(t.shapeNum <= ACL_DUMP_MAX_SHAPE_NUM && t.originShapeNum <= ACL_DUMP_MAX_SHAPE_NUM,
            ACL_ERROR_INVALID_PARAM,
            "acldumpSaveExceptionInfo: " + which + " has more than 25 dimensions");
    require(t.type >= ACL_DUMP_TENSOR_INPUT && t.type <= ACL_DUMP_TENSOR_WORKSPACE,
            ACL_ERROR_INVALID_PARAM, "acldumpSaveExceptionInfo: " + which + " has an unknown type");
    const Allocation* a = mem.find(t.tensorAddr);
    require(a != nullptr && a->kind != MemKind::kHostPinned &&
                a->contains(reinterpret_cast<std::uintptr_t>(t.tensorAddr), t.tensorSize),
            ACL_ERROR_INVALID_PARAM,
            "acldumpSaveExceptionInfo: " + which + " (" + std::to_string(t.tensorSize) +
                " bytes) is not inside one device allocation");
    Tensor o;
    o.kind = static_cast<int>(t.type);
    o.dtype = t.dataType;
    o.format = t.format;
    o.shape.assign(t.shape, t.shape + t.shapeNum);
    o.origin_shape.assign(t.originShape, t.originShape + t.originShapeNum);
    const auto* p = reinterpret_cast<const std::uint8_t*>(t.tensorAddr);
    o.data.assign(p, p + t.tensorSize);
    out.push_back(std::move(o));
  }
  const fs::path root = exception_root(current_device(call));
  sim::SimTime at = call.clock();
  fs::path target;
  std::error_code ec;
  for (;;) {
    target = root / (std::string(file) + ".custom." + civil_time(at, 17));
    if (!fs::exists(target, ec)) break;
    at += 1000000000;  // 1 ms
  }
  const std::vector<std::uint8_t> bytes =
      encode_file(file, at / 1000000, out, tag != nullptr ? tag : "");
  require(write_file(target, bytes), ACL_ERROR_INVALID_FILE,
          "acldumpSaveExceptionInfo: cannot write " + target.string());
  sim::log_info("acldumpSaveExceptionInfo: wrote " + target.string());
}

void reset() { state() = State{}; }

bool op_dump_wanted() {
  return state().args_on || active().op_switch || active().scene != Scene::kNone;
}

std::vector<PendingChunk> take_chunks() {
  std::vector<PendingChunk> out;
  out.swap(state().chunks);
  return out;
}

void deliver(std::vector<PendingChunk>& chunks) {
  for (PendingChunk& c : chunks) {
    const auto* chunk = reinterpret_cast<const acldumpChunk*>(c.bytes.data());
    try {
      const std::int32_t r = c.callback(chunk, static_cast<std::int32_t>(c.bytes.size()));
      if (r != 0) {
        sim::log_warn(std::string("dump callback returned ") + std::to_string(r) + " for " +
                      chunk->fileName);
      }
    } catch (...) {
      sim::log_error("a dump callback threw; it is ignored");
    }
  }
}

// ---- Pieces ----
std::string civil_time(sim::SimTime t, int digits) {
  const std::uint64_t ms_total = t / 1000000000ULL;
  const std::uint64_t secs = ms_total / 1000;
  int y = 1970;
  unsigned m = 1, d = 1;
  civil_from_days(static_cast<std::int64_t>(secs / 86400), y, m, d);
  const std::uint64_t sod = secs % 86400;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02u%02u%02u%02u%02u", y, m, d,
                static_cast<unsigned>(sod / 3600), static_cast<unsigned>(sod / 60 % 60),
                static_cast<unsigned>(sod % 60));
  std::string s = buf;
  if (digits == 17) {
    std::snprintf(buf, sizeof buf, "%03u", static_cast<unsigned>(ms_total % 1000));
    s += buf;
  }
  return s;
}

std::vector<std::uint8_t> encode_file(const std::string& op_name, std::uint64_t dump_time_us,
                                      const std::vector<Tensor>& tensors,
                                      const std::string& user_tag) {
  std::string msg;
  field_bytes(msg, 1, "2.0");
  field_varint(msg, 2, dump_time_us);
  for (int kind : {1, 0, 2}) {  // outputs (field 3), inputs (4), buffers (5): field order
    for (const Tensor& t : tensors) {
      if (t.kind != kind) continue;
      std::string m;
      if (kind == 2) {
        field_varint(m, 1, 0);  // L1
        field_varint(m, 3, t.data.size());
        field_bytes(msg, 5, m);
        continue;
      }
      field_varint(m, 1, proto_dtype(t.dtype));
      field_varint(m, 2, static_cast<std::uint64_t>(static_cast<std::uint32_t>(t.format)));
      field_bytes(m, 3, shape_message(t.shape));
      field_varint(m, kind == 1 ? 6 : 5, t.data.size());
      field_bytes(m, kind == 1 ? 7 : 6, shape_message(t.origin_shape));
      field_bytes(msg, kind == 1 ? 3 : 4, m);
    }
  }
  field_bytes(msg, 6, op_name);
  if (!user_tag.empty()) {
    std::string attr;
    field_bytes(attr, 1, "user_tag");
    field_bytes(attr, 2, user_tag);
    field_bytes(msg, 9, attr);
  }
  std::vector<std::uint8_t> out(8);
  const std::uint64_t n = msg.size();
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
  out.insert(out.end(), msg.begin(), msg.end());
  for (int kind : {0, 1, 2}) {  // data: inputs, outputs, buffers
    for (const Tensor& t : tensors) {
      if (t.kind == kind) out.insert(out.end(), t.data.begin(), t.data.end());
    }
  }
  return out;
}

}  // namespace npusim::rt::dump
