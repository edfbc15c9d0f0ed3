// SPDX-License-Identifier: Apache-2.0
#include "runtime/dump/dump.h"
#include "runtime/dump/dump_file.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <system_error>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"
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

std::string with_slash(fs::path p) {
  std::string s = p.string();
  if (s.empty() || s.back() != '/') s += '/';
  return s;
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

void require_exception_dump(const std::string& api) {
  require(active().scene != Scene::kNone, ACL_ERROR_DUMP_NOT_RUN,
          api + ": exception dump is not enabled (dump_scene)");
}

}  // namespace

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

namespace {

// A dump file's name: type.name.task.stream.microseconds.
std::string dump_file_name(const OpDesc& d, std::uint32_t task, std::uint32_t stream,
                           std::uint64_t us) {
  return d.type + "." + d.name + "." + std::to_string(task) + "." + std::to_string(stream) + "." +
         std::to_string(us);
}

// A task before the operator's kernels that keeps its inputs as the device holds them then.
Task input_capture(const std::shared_ptr<OpRun>& run) {
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
  return t;
}

// The data dump of an operator that ended at `end`: its inputs (kept before it ran), outputs.
void write_op_dump(OpRun& run, sim::SimTime end) {
  std::vector<Tensor> tensors;
  if (run.mode != Mode::kOutput) {
    if (!run.inputs_taken) return;
    std::size_t k = 0;
    for (const TensorView& v : run.desc.inputs) {
      if (v.addr == nullptr) continue;
      tensors.push_back(tensor_of(v, 0, std::move(run.inputs[k++])));
    }
  }
  if (run.mode != Mode::kInput) {
    for (const TensorView& v : run.desc.outputs) {
      if (v.addr == nullptr) continue;
      tensors.push_back(tensor_of(v, 1, gather(v)));
    }
  }
  const std::uint64_t us = end / 1000000;
  emit(run.dir / dump_file_name(run.desc, run.task_id, run.stream_id, us),
       encode_file(run.desc.name, us, tensors, ""));
}

// The operator about to be submitted on `st`: its first task and where its dump goes.
std::shared_ptr<OpRun> new_op_run(const OpDesc& desc, bool data, const Config& c,
                                  const Stream& st) {
  auto run = std::make_shared<OpRun>();
  run->desc = desc;
  run->data = data;
  run->mode = c.mode;
  run->task_id = st.next_task_id & 0xFFFFu;
  run->stream_id = st.id;
  run->device = st.device;
  run->dir = absolute_dir(c.path) / state().time_dir / std::to_string(st.device);
  return run;
}

}  // namespace

std::shared_ptr<OpRun> before_op(Call& call, void* stream, const OpDesc& desc) {
  State& s = state();
  if (s.args_on) write_args_file(desc);
  const Config& c = active();
  const bool data = c.op_switch && selected(c, desc);
  const bool exception = c.scene != Scene::kNone;
  if (!data && !exception) return nullptr;
  Stream& st = call.stream(stream);
  std::shared_ptr<OpRun> run = new_op_run(desc, data, c, st);
  if (exception) s.exception_ops[{st.device, st.id}] = run;
  if (data && run->mode != Mode::kOutput) {
    submit_to_stream(call, st, input_capture(run));
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
    write_op_dump(*run, o.end);
  };
  submit_to_stream(call, st, std::move(t));
}

namespace {

std::string hex_of(const void* data, std::uint32_t size) {
  std::string hex;
  static const char* digits = "0123456789abcdef";
  const auto* b = static_cast<const std::uint8_t*>(data);
  for (std::uint32_t i = 0; b != nullptr && i < size; ++i) {
    hex.push_back(digits[b[i] >> 4]);
    hex.push_back(digits[b[i] & 15]);
  }
  return hex;
}

// The operator's inputs and outputs in device memory, as the device holds them now.
std::vector<Tensor> device_tensors(const OpDesc& desc) {
  const MemoryRegistry& mem = Runtime::instance().memory();
  std::vector<Tensor> tensors;
  auto add = [&](const std::vector<TensorView>& views, int kind) {
    for (const TensorView& v : views) {
      if (v.addr == nullptr || mem.find(v.addr) == nullptr) continue;  // absent or not device memory
      tensors.push_back(tensor_of(v, kind, gather(v)));
    }
  };
  add(desc.inputs, 0);
  add(desc.outputs, 1);
  return tensors;
}

// A failed kernel of an operator: its tensors as the device holds them now, in a DumpData file
// beside the exception record `j` (which names it).
void dump_failed_op(const OpRun& run, std::uint32_t device, std::uint32_t stream,
                    std::uint32_t task_id, std::uint64_t us, Json& j) {
  const std::vector<Tensor> tensors = device_tensors(run.desc);
  const std::string data_name = dump_file_name(run.desc, task_id, stream, us);
  j["op_type"] = run.desc.type;
  j["op_name"] = run.desc.name;
  j["tensors"] = tensors.size();
  j["data_file"] = data_name;
  if (!write_file(exception_root(device) / data_name, encode_file(run.desc.name, us, tensors, ""))) {
    sim::log_error("exception dump: cannot write " + data_name);
  }
}

void write_exception_record(const Json& j, const fs::path& p) {
  const std::string text = j.dump(2) + "\n";
  if (!write_file(p, std::vector<std::uint8_t>(text.begin(), text.end()))) {
    sim::log_error("exception dump: cannot write " + p.string());
    return;
  }
  sim::log_info("exception dump: " + p.string());
}

Json failure_record(const std::string& kernel, std::uint32_t device, std::uint32_t stream,
                    std::uint32_t task_id, const models::TaskOutcome& outcome) {
  Json j;
  j["kernel"] = kernel;
  j["device_id"] = device;
  j["stream_id"] = stream;
  j["task_id"] = task_id;
  j["error_code"] = outcome.error;
  j["start_us"] = outcome.start / 1000000;
  j["end_us"] = outcome.end / 1000000;
  return j;
}

// The operator run whose kernels include task `task_id` of the stream, if any.
const OpRun* op_of_task(std::uint32_t device, std::uint32_t stream, std::uint32_t task_id) {
  auto op = state().exception_ops.find({device, stream});
  if (op == state().exception_ops.end()) return nullptr;
  if (task_id < op->second->task_id || task_id > op->second->last_task) return nullptr;
  return op->second.get();
}

}  // namespace

void on_kernel_failure(const std::string& kernel, std::uint32_t device, std::uint32_t stream,
                       std::uint32_t task_id, const models::TaskOutcome& outcome,
                       const void* args, std::uint32_t args_size) {
  if (active().scene == Scene::kNone) return;
  const std::uint64_t us = outcome.end / 1000000;
  Json j = failure_record(kernel, device, stream, task_id, outcome);
  j["args"] = hex_of(args, args_size);
  if (const OpRun* run = op_of_task(device, stream, task_id)) {
    dump_failed_op(*run, device, stream, task_id, us, j);
  }
  write_exception_record(j, exception_root(device) / (kernel + "." + std::to_string(task_id) +
                                                       "." + std::to_string(stream) + "." +
                                                       std::to_string(us) + ".exception.json"));
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
  require_exception_dump("acldumpGetExceptionInfoPath");
  const std::string root = with_slash(exception_root(current_device(call)));
  require(root.size() < max_len, ACL_ERROR_INVALID_PARAM,
          "acldumpGetExceptionInfoPath: maxLen " + std::to_string(max_len) + " cannot hold the " +
              std::to_string(root.size() + 1) + " bytes of " + root);
  std::memcpy(path, root.c_str(), root.size() + 1);
}

namespace {

// acldumpSaveExceptionInfo's file name: relative, without "..".
void check_custom_file_name(const char* file) {
  require_not_null(file, "fileName");
  require(*file != '\0', ACL_ERROR_INVALID_PARAM, "acldumpSaveExceptionInfo: fileName is empty");
  const fs::path rel(file);
  require(rel.is_relative(), ACL_ERROR_INVALID_PARAM,
          std::string("acldumpSaveExceptionInfo: fileName ") + file + " must be a relative path");
  for (const fs::path& part : rel) {
    require(part != "..", ACL_ERROR_INVALID_PARAM,
            std::string("acldumpSaveExceptionInfo: fileName ") + file + " contains \"..\"");
  }
}

// Tensor i of acldumpSaveExceptionInfo, checked: raw device memory inside one allocation.
void check_custom_tensor(const MemoryRegistry& mem, const acldumpTensorInfo& t, std::size_t i) {
  const std::string which = "acldumpSaveExceptionInfo: tensor " + std::to_string(i);
  require(t.addrType == ACL_DUMP_ADDR_RAW && t.placement == ACL_DUMP_PLACEMENT_DEVICE,
          ACL_ERROR_INVALID_PARAM,
          which + " must have addrType ACL_DUMP_ADDR_RAW and placement ACL_DUMP_PLACEMENT_DEVICE");
  require(t.tensorAddr != nullptr && t.tensorSize > 0, ACL_ERROR_INVALID_PARAM,
          which + " has a NULL address or size 0");
  require(t.shapeNum <= ACL_DUMP_MAX_SHAPE_NUM && t.originShapeNum <= ACL_DUMP_MAX_SHAPE_NUM,
          ACL_ERROR_INVALID_PARAM, which + " has more than 25 dimensions");
  require(t.type >= ACL_DUMP_TENSOR_INPUT && t.type <= ACL_DUMP_TENSOR_WORKSPACE,
          ACL_ERROR_INVALID_PARAM, which + " has an unknown type");
  const Allocation* a = mem.find(t.tensorAddr);
  require(a != nullptr && a->kind != MemKind::kHostPinned &&
              a->contains(reinterpret_cast<std::uintptr_t>(t.tensorAddr), t.tensorSize),
          ACL_ERROR_INVALID_PARAM,
          which + " (" + std::to_string(t.tensorSize) +
              " bytes) is not inside one device allocation");
}

Tensor custom_tensor(const acldumpTensorInfo& t) {
  Tensor o;
  o.kind = static_cast<int>(t.type);
  o.dtype = t.dataType;
  o.format = t.format;
  o.shape.assign(t.shape, t.shape + t.shapeNum);
  o.origin_shape.assign(t.originShape, t.originShape + t.originShapeNum);
  const auto* p = reinterpret_cast<const std::uint8_t*>(t.tensorAddr);
  o.data.assign(p, p + t.tensorSize);
  return o;
}

std::vector<Tensor> custom_tensors(const MemoryRegistry& mem, const acldumpTensorInfo* tensors,
                                   std::size_t count) {
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < count; ++i) {
    check_custom_tensor(mem, tensors[i], i);
    out.push_back(custom_tensor(tensors[i]));
  }
  return out;
}

// The first name file.custom.<time> not taken yet, from simulated time `at` on in 1 ms steps
// (`at` becomes the time in the name).
fs::path free_custom_path(const fs::path& root, const char* file, sim::SimTime& at) {
  std::error_code ec;
  for (;;) {
    fs::path target = root / (std::string(file) + ".custom." + civil_time(at, 17));
    if (!fs::exists(target, ec)) return target;
    at += 1000000000;  // 1 ms
  }
}

}  // namespace

void save_exception_info(Call& call, const char* file, const char* tag,
                         const acldumpTensorInfo* tensors, std::size_t count) {
  check_custom_file_name(file);
  require_not_null(tensors, "tensors");
  require(count > 0, ACL_ERROR_INVALID_PARAM, "acldumpSaveExceptionInfo: tensorCount is 0");
  require_exception_dump("acldumpSaveExceptionInfo");
  call.catch_up();  // the data as the device holds it at the caller's time
  const std::vector<Tensor> out = custom_tensors(call.runtime().memory(), tensors, count);
  sim::SimTime at = call.clock();
  const fs::path target = free_custom_path(exception_root(current_device(call)), file, at);
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

}  // namespace npusim::rt::dump
