// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/model_ri.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "runtime/core/errors.h"
#include "runtime/core/memory.h"
#include "runtime/core/model_ri_execution.h"
#include "sim/log.h"

namespace npusim::rt {

using namespace model_detail;  // NOLINT: the model files share these internals

// ---- Model run instances ----

void* build_begin(Call& call, std::uint32_t flag) {
  require(flag == 0, ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0");
  Context& ctx = call.context();
  auto m = std::make_shared<Model>();
  m->device = ctx.device;
  m->context = call.context_handle();
  m->id = registry(call).next_model_id++;
  return registry(call).models.add(std::move(m));
}

void bind_stream(Call& call, void* model, void* stream, std::uint32_t flag) {
  Model& m = model_of(call, model);
  require(!m.captured, ACL_ERROR_RT_PARAM_INVALID, "a captured model run instance binds no stream");
  require(flag == kHeadFlag || flag == kDefaultFlag, ACL_ERROR_INVALID_PARAM,
          "flag is neither ACL_MODEL_STREAM_FLAG_HEAD nor ACL_MODEL_STREAM_FLAG_DEFAULT");
  Stream& s = explicit_stream(call, stream, "stream");
  require((s.flags & ACL_STREAM_PERSISTENT) != 0, ACL_ERROR_RT_PARAM_INVALID,
          "only a persistent stream (ACL_STREAM_PERSISTENT) can be bound to a model run instance");
  require(s.model == nullptr, ACL_ERROR_RT_STREAM_MODEL,
          "the stream is already bound to a model run instance");
  require(s.device == m.device, ACL_ERROR_RT_PARAM_INVALID,
          "the stream and the model run instance belong to different devices");
  require_not_running(m);
  m.streams.push_back(ModelStream{s.recording, flag == kHeadFlag, s.id, stream});
  s.model = model;
}

void unbind_stream(Call& call, void* model, void* stream) {
  Model& m = model_of(call, model);
  Stream& s = explicit_stream(call, stream, "stream");
  ModelStream* ms = bound_entry(m, stream);
  require(ms != nullptr, ACL_ERROR_RT_STREAM_MODEL,
          "the stream is not bound to this model run instance");
  require_not_running(m);
  m.streams.erase(m.streams.begin() + (ms - m.streams.data()));
  s.model = nullptr;
}

void end_task(Call& call, void* model, void* stream) {
  Model& m = model_of(call, model);
  Stream& s = explicit_stream(call, stream, "stream");
  require(bound_entry(m, stream) != nullptr, ACL_ERROR_RT_STREAM_MODEL,
          "the stream is not bound to this model run instance");
  append(call, s, Control::kModelEnd);
  s.recording->ended = true;
}

void build_end(Call& call, void* model) {
  Model& m = model_of(call, model);
  require(!m.captured, ACL_ERROR_RT_PARAM_INVALID,
          "a captured model run instance is finished by aclmdlRICaptureEnd");
  require(!m.streams.empty(), ACL_ERROR_RT_PARAM_INVALID,
          "no stream is bound to the model run instance");
  m.built = true;
}

namespace {

// Starts capturing `stream` into `handle` (a captured model not built yet).
void start_capture(Call& call, void* stream, void* handle, int mode) {
  require(mode >= ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && mode <= ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
          ACL_ERROR_INVALID_PARAM, "mode is not an aclmdlRICaptureMode");
  Stream& s = call.stream(stream);
  require(s.context == call.context_handle(), ACL_ERROR_RT_STREAM_CONTEXT,
          "the stream does not belong to the current context");
  require((s.flags & ACL_STREAM_PERSISTENT) == 0, ACL_ERROR_RT_PARAM_INVALID,
          "a persistent stream cannot be captured");
  require(!s.recording, ACL_ERROR_RT_STREAM_CAPTURED,
          "the stream is already being captured (or its tasks are being updated)");
  Model& m = *registry(call).models.find(handle);
  m.capture_stream = call.stream_handle(stream);
  m.capture_mode = mode;
  m.capture_thread = call.thread().index;
  ++registry(call).capturing;
  s.recording = std::make_shared<Recording>();
  s.model = handle;
}

}  // namespace

void capture_begin(Call& call, void* stream, int mode) {
  Stream& s = call.stream(stream);
  auto m = std::make_shared<Model>();
  m->device = s.device;
  m->context = s.context;
  m->id = registry(call).next_model_id++;
  m->captured = true;
  void* handle = registry(call).models.add(std::move(m));
  try {
    start_capture(call, stream, handle, mode);
  } catch (...) {
    registry(call).models.remove(handle);
    throw;
  }
}

void capture_to_model_begin(Call& call, void* stream, void* model, int mode) {
  Model& m = model_of(call, model);
  require(m.captured && !m.built && !capturing(call, m), ACL_ERROR_RT_PARAM_INVALID,
          "modelRI is not a sub-model waiting to be captured (aclmdlRIAddCondTask makes them)");
  Stream& s = call.stream(stream);
  require(s.device == m.device, ACL_ERROR_RT_PARAM_INVALID,
          "the stream and the model run instance belong to different devices");
  start_capture(call, stream, model, mode);
}

void* cond_handle_create(Call& call, void* model, std::uint32_t value, int flag) {
  Model& m = model_of(call, model);
  require(flag == 0 || flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, ACL_ERROR_INVALID_PARAM,
          "flag is neither 0 nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT");
  auto c = std::make_shared<CondHandle>();
  c->ptr = malloc_device(call, sizeof(std::uint64_t), ACL_MEM_MALLOC_HUGE_FIRST, true);
  c->serial = call.runtime().memory().find(c->ptr)->serial;
  c->default_value = value;
  c->assign_default = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
  std::memcpy(c->ptr, &c->default_value, sizeof(std::uint64_t));
  void* handle = registry(call).conds.add(std::move(c));
  m.conds.push_back(handle);
  return handle;
}

std::uint64_t* cond_handle_ptr(Call& call, void* handle) {
  require_not_null(handle, "handle");
  CondHandle* c = registry(call).conds.find(handle);
  require(c != nullptr, ACL_ERROR_RT_PARAM_INVALID, "handle is not a live condition handle");
  return static_cast<std::uint64_t*>(c->ptr);
}

void add_cond_task(Call& call, void* handle, int type, std::uint32_t size, void** models,
                   void* stream, std::uint32_t flags) {
  require(flags == 0, ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0");
  require_not_null(handle, "params.handle");
  CondHandle* c = registry(call).conds.find(handle);
  require(c != nullptr, ACL_ERROR_RT_PARAM_INVALID, "params.handle is not a live condition handle");
  require_not_null(models, "params.modelRIArray");
  bool size_ok = false;
  switch (type) {
    case ACL_MODEL_RI_COND_TYPE_IF: size_ok = size == 1 || size == 2; break;
    case ACL_MODEL_RI_COND_TYPE_WHILE: size_ok = size == 1; break;
    case ACL_MODEL_RI_COND_TYPE_SWITCH: size_ok = size > 0 && size <= 65536; break;
    default:
      fail(ACL_ERROR_INVALID_PARAM, "params.type is not an aclmdlRICondTaskType");
  }
  require(size_ok, ACL_ERROR_INVALID_PARAM,
          "params.size does not fit the condition type (IF: 1 or 2, WHILE: 1, SWITCH: > 0)");
  Stream& s = call.stream(stream);
  Model* parent = s.model != nullptr ? registry(call).models.find(s.model) : nullptr;
  require(parent != nullptr && parent->captured && !parent->built && s.recording,
          ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
  Entry& e = append(call, s, Control::kCond);
  e.left = c->ptr;
  e.left_serial = c->serial;
  e.cond_type = type;
  for (std::uint32_t i = 0; i < size; ++i) {
    auto m = std::make_shared<Model>();
    m->device = parent->device;
    m->context = parent->context;
    m->id = registry(call).next_model_id++;
    m->captured = true;
    m->child = true;
    void* h = registry(call).models.add(std::move(m));
    parent->children.push_back(h);
    e.children.push_back(h);
    models[i] = h;
  }
}

void task_group_begin(Call& call, void* stream) {
  Stream& s = call.stream(stream);
  Model* m = s.model != nullptr ? registry(call).models.find(s.model) : nullptr;
  require(m != nullptr && m->captured && !m->built && s.recording,
          ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
  auto [it, fresh] = registry(call).group_begin.try_emplace(call.stream_handle(stream),
                                                            s.recording->entries.size());
  require(fresh, ACL_ERROR_STREAM_TASK_GROUP_STATUS, "a task group is already open on the stream");
}

void* task_group_end(Call& call, void* stream) {
  Stream& s = call.stream(stream);
  auto& open = registry(call).group_begin;
  auto it = open.find(call.stream_handle(stream));
  require(it != open.end() && s.recording, ACL_ERROR_STREAM_TASK_GROUP_STATUS,
          "no task group is open on the stream");
  auto g = std::make_shared<TaskGroup>();
  g->recording = s.recording;
  g->begin = it->second;
  g->end = s.recording->entries.size();
  open.erase(it);
  for (std::size_t k = g->begin; k < g->end; ++k) {
    Entry& e = s.recording->entries[k];
    require(e.control == Control::kNone, ACL_ERROR_STREAM_TASK_GROUP_STATUS,
            "a task group holds a control-flow task");
    e.grouped = true;
  }
  return registry(call).groups.add(std::move(g));
}

void task_update_begin(Call& call, void* stream, void* group) {
  require_not_null(group, "handle");
  std::shared_ptr<TaskGroup> g = registry(call).groups.get(group);
  require(g != nullptr, ACL_ERROR_RT_PARAM_INVALID, "handle is not a live task group");
  require(!g->recording.expired(), ACL_ERROR_RT_PARAM_INVALID,
          "the task group's model run instance was destroyed");
  Stream& s = call.stream(stream);
  require(!s.recording, ACL_ERROR_STREAM_TASK_GROUP_STATUS,
          "the stream is being captured or updated already");
  registry(call).updating[call.stream_handle(stream)] = g;
  s.recording = std::make_shared<Recording>();
}

void task_update_end(Call& call, void* stream) {
  Stream& s = call.stream(stream);
  auto& updating = registry(call).updating;
  auto it = updating.find(call.stream_handle(stream));
  require(it != updating.end(), ACL_ERROR_STREAM_TASK_GROUP_STATUS,
          "no task update is open on the stream");
  std::shared_ptr<TaskGroup> g = it->second;
  updating.erase(it);
  std::shared_ptr<Recording> fresh = std::move(s.recording);
  s.recording = nullptr;
  require(fresh->entries.size() == g->end - g->begin, ACL_ERROR_RT_MODEL_UPDATE_FAILED,
          "the update issued " + std::to_string(fresh->entries.size()) +
              " task(s); the task group holds " + std::to_string(g->end - g->begin));
  for (const Entry& e : fresh->entries) {
    require(e.control == Control::kNone, ACL_ERROR_RT_MODEL_UPDATE_FAILED,
            "a task update holds a control-flow task");
  }
  Task update;  // when the device reaches it, the group's tasks become the new ones
  update.kind = TaskKind::kNop;
  update.name = "MODEL_UPDATE";
  update.effect = [g, fresh] {
    std::shared_ptr<Recording> r = g->recording.lock();
    if (!r) return 0;  // the model is gone: nothing to update
    for (std::size_t k = 0; k < fresh->entries.size(); ++k) {
      r->entries[g->begin + k].make = fresh->entries[k].make;
      r->entries[g->begin + k].name = fresh->entries[k].name;
    }
    return 0;
  };
  submit_to_stream(call, s, std::move(update));
}

void* capture_end(Call& call, void* stream) {
  Stream& s = call.stream(stream);
  Model* m = s.model != nullptr ? registry(call).models.find(s.model) : nullptr;
  require(m != nullptr && m->captured && !m->built && s.recording, ACL_ERROR_RT_STREAM_NOT_CAPTURED,
          "the stream is not being captured");
  Device& dev = call.device(s.device);
  std::uint32_t id = take_stream_id(dev);
  m->owned_ids.push_back(id);
  m->streams.push_back(ModelStream{std::move(s.recording), true, id, nullptr});
  m->built = true;
  m->capture_stream = nullptr;
  --registry(call).capturing;
  void* handle = s.model;
  s.recording = nullptr;
  s.model = nullptr;
  return handle;
}

int capture_info(Call& call, void* stream, void** model) {
  Stream& s = call.stream(stream);
  Model* m = s.model != nullptr ? registry(call).models.find(s.model) : nullptr;
  if (m != nullptr && m->captured && !m->built) {
    *model = s.model;
    return ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  }
  *model = nullptr;
  return ACL_MODEL_RI_CAPTURE_STATUS_NONE;
}

void require_capture_safe(Call& call) {
  Registry& r = registry(call);
  if (r.capturing == 0) return;
  const std::uint32_t self = call.thread().index;
  auto it = r.thread_modes.find(self);
  const int mode = it == r.thread_modes.end() ? ACL_MODEL_RI_CAPTURE_MODE_GLOBAL : it->second;
  if (mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return;
  r.models.for_each([&](void*, Model& m) {
    if (m.capture_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED || !capturing(call, m)) return;
    const bool own = m.capture_thread == self;
    if (own || (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
                m.capture_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)) {
      fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
           std::string(call.name()) + " is not allowed while " +
               (own ? "this thread captures a stream" : "a stream is captured in GLOBAL mode") +
               " (switch this thread to RELAXED with aclmdlRICaptureThreadExchangeMode)");
    }
  });
}

void exchange_capture_mode(Call& call, int* mode) {
  require_not_null(mode, "mode");
  require(*mode >= ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && *mode <= ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
          ACL_ERROR_INVALID_PARAM, "mode is not an aclmdlRICaptureMode");
  auto& modes = registry(call).thread_modes;
  auto [it, fresh] = modes.try_emplace(call.thread().index, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  std::swap(it->second, *mode);
}

void execute_async(Call& call, void* model, void* stream) {
  Model& m = model_of(call, model);
  require(m.built, ACL_ERROR_RT_PARAM_INVALID,
          "the model run instance is not built yet (aclmdlRIBuildEnd / aclmdlRICaptureEnd)");
  Stream& s = call.stream(stream);
  require(s.device == m.device, ACL_ERROR_RT_PARAM_INVALID,
          "the stream and the model run instance belong to different devices");
  require(!s.recording, ACL_ERROR_RT_PARAM_INVALID,
          "a model run instance cannot be executed on a persistent or capturing stream");
  std::shared_ptr<Execution> ex = instantiate(call, m, s.priority);
  std::shared_ptr<Execution> prev = m.last;
  m.last = ex;
  ++m.executions;

  Task launch;  // holds the stream until the previous execution is over, then starts this one
  launch.kind = TaskKind::kEventWait;
  launch.name = "MODEL_EXECUTE";
  launch.ready = [prev] { return !prev || prev->finished; };
  launch.follow = [ex](std::vector<Task>& out) { ex->start(out); };
  launch.done = [ex](const TaskOutcome& r) {
    if (r.discarded && !ex->started) ex->finished = true;  // never ran
  };
  try {
    submit_to_stream(call, s, std::move(launch));
  } catch (...) {
    ex->finished = true;  // refused: the next execution must not wait for this one
    throw;
  }

  Task wait;  // holds the stream until the model's streams have all stopped
  wait.kind = TaskKind::kEventWait;
  wait.name = "MODEL_WAIT";
  wait.ready = [ex] { return ex->finished; };
  wait.effect = [ex] { return ex->error; };
  wait.done = [ex](const TaskOutcome& r) {
    if (r.discarded) ex->aborted = true;  // the stream was destroyed or its device reset
  };
  submit_to_stream(call, s, std::move(wait));
}

void execute_sync(Call& call, void* model, std::int32_t timeout_ms) {
  require(timeout_ms == -1 || timeout_ms > 0, ACL_ERROR_INVALID_PARAM,
          "timeout must be -1 (forever) or a positive number of ms");
  execute_async(call, model, nullptr);
  synchronize_stream(call, nullptr, timeout_ms);
}

namespace {

void forget_model(Call& call, void* model) {
  Model* m = registry(call).models.find(model);
  if (m == nullptr) return;
  for (ModelStream& ms : m->streams) {
    if (ms.bound == nullptr) continue;
    if (Stream* s = call.runtime().streams().find(ms.bound); s != nullptr && s->model == model) {
      s->model = nullptr;
    }
  }
  auto& devices = call.runtime().devices();
  if (m->device < devices.size()) {
    for (std::uint32_t id : m->owned_ids) devices[m->device].free_stream_ids.insert(id);
  }
  for (void* h : m->conds) {
    if (std::shared_ptr<CondHandle> c = registry(call).conds.remove(h)) {
      if (call.runtime().memory().alive(c->serial)) free_device(call, c->ptr);
    }
  }
  std::vector<void*> children = m->children;
  registry(call).models.remove(model);
  for (void* h : children) forget_model(call, h);
}

}  // namespace

void destroy_model(Call& call, void* model) {
  Model& m = model_of(call, model);
  require(!capturing(call, m), ACL_ERROR_RT_MODEL_CAPTURED,
          "the model run instance is still being captured (call aclmdlRICaptureEnd first)");
  require_not_running(m);
  for (void* h : m.children) {
    if (Model* c = registry(call).models.find(h)) {
      require(!capturing(call, *c), ACL_ERROR_RT_MODEL_CAPTURED,
              "a sub-model is still being captured");
    }
  }
  forget_model(call, model);
}

void set_model_name(Call& call, void* model, const char* name) {
  Model& m = model_of(call, model);
  require_not_null(name, "name");
  m.name.assign(name, strnlen(name, 512));
}

void get_model_name(Call& call, void* model, std::uint32_t max_len, char* name) {
  Model& m = model_of(call, model);
  require_not_null(name, "name");
  require(max_len > 0, ACL_ERROR_INVALID_PARAM, "maxLen must hold at least the terminating NUL");
  const std::size_t n = std::min<std::size_t>(m.name.size(), max_len - 1);
  std::memcpy(name, m.name.data(), n);
  name[n] = '\0';
}

std::uint32_t model_id(Call& call, void* model) { return model_of(call, model).id; }

std::string describe_model(Call& call, void* model, bool json) {
  Model& m = model_of(call, model);
  std::ostringstream o;
  if (json) {
    o << "{\n  \"model_id\": " << m.id << ",\n  \"captured\": " << (m.captured ? "true" : "false")
      << ",\n  \"executions\": " << m.executions << ",\n  \"streams\": [";
  } else {
    o << "model run instance " << m.id << (m.captured ? " (captured)" : " (built)") << ", "
      << m.streams.size() << " stream(s), executed " << m.executions << " time(s)";
  }
  for (std::size_t i = 0; i < m.streams.size(); ++i) {
    const ModelStream& ms = m.streams[i];
    if (json) {
      o << (i == 0 ? "\n" : ",\n") << "    {\"stream_id\": " << ms.id
        << ", \"head\": " << (ms.head ? "true" : "false") << ", \"tasks\": [";
    } else {
      o << "\n  stream " << ms.id << (ms.head ? " (head)" : "") << ":";
    }
    for (std::size_t j = 0; j < ms.recording->entries.size(); ++j) {
      const Entry& e = ms.recording->entries[j];
      std::string name = e.control == Control::kNone ? e.name : control_name(e.control);
      if (json) {
        o << (j == 0 ? "" : ", ") << "\"" << name << "\"";
      } else {
        o << "\n    " << j << ": " << name;
      }
    }
    if (json) o << "]}";
  }
  if (json) o << "\n  ]\n}\n";
  return o.str();
}

}  // namespace npusim::rt

