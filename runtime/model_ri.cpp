// SPDX-License-Identifier: Apache-2.0
#include "runtime/model_ri.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "acl/acl_rt.h"
#include "runtime/api_call.h"
#include "runtime/errors.h"
#include "runtime/handle_table.h"
#include "runtime/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr std::uint32_t kHeadFlag = ACL_MODEL_STREAM_FLAG_HEAD;
constexpr std::uint32_t kDefaultFlag = ACL_MODEL_STREAM_FLAG_DEFAULT;

class Execution;

// Control-flow decisions one execution may take (label switches, stream switches and
// activations, condition tests, sub-model runs included); past it the execution stops with
// ACL_ERROR_RT_MODEL_EXECUTE, so a device-side loop that never ends cannot hang the process.
constexpr std::uint64_t kMaxControlSteps = std::uint64_t{1} << 20;

struct ModelStream {
  std::shared_ptr<Recording> recording;
  bool head = false;
  std::uint32_t id = 0;    // the scheduler stream its tasks run on
  void* bound = nullptr;   // the persistent stream (built models)
};

struct CondHandle {
  void* ptr = nullptr;  // the uint64 condition value (device memory)
  std::uint64_t serial = 0;
  std::uint64_t default_value = 0;
  bool assign_default = false;
};

struct TaskGroup {
  std::weak_ptr<Recording> recording;
  std::size_t begin = 0, end = 0;  // entries [begin, end)
};

struct Model {
  std::uint32_t device = 0;
  void* context = nullptr;
  std::uint32_t id = 0;
  bool captured = false;
  bool built = false;             // BuildEnd called, or the capture ended: executable
  void* capture_stream = nullptr; // while capturing
  int capture_mode = 0;
  std::uint32_t capture_thread = 0;  // the host thread that began the capture
  std::vector<ModelStream> streams;
  std::vector<std::uint32_t> owned_ids;  // stream ids taken for captured recordings
  std::shared_ptr<Execution> last;       // the latest execution
  std::uint64_t executions = 0;
  std::string name;                      // aclmdlRISetName (at most 512 bytes)
  bool child = false;                    // a sub-model of a COND task (owned by its parent)
  std::vector<void*> children;           // sub-models, destroyed with this model
  std::vector<void*> conds;              // condition handles, destroyed with this model
};

struct Registry {
  std::uint64_t epoch = ~std::uint64_t{0};
  HandleTable<Model> models{0x10};
  HandleTable<Label> labels{0x11};
  HandleTable<LabelList> lists{0x12};
  HandleTable<CondHandle> conds{0x13};
  HandleTable<TaskGroup> groups{0x14};
  std::map<void*, std::size_t> group_begin;                 // capturing stream -> group start
  std::map<void*, std::shared_ptr<TaskGroup>> updating;     // stream -> group being updated
  std::map<std::uint32_t, int> thread_modes;  // host thread index -> capture mode
  std::uint64_t seq = 0;
  std::uint32_t next_model_id = 0;
  int capturing = 0;  // captures in progress
};

// The registry of the current backend (a new aclInit starts empty).
Registry& registry(Call& call) {
  static Registry* r = new Registry;  // never destroyed: task callbacks may outlive main
  if (r->epoch != call.runtime().backend_epoch()) {
    *r = Registry{};
    r->epoch = call.runtime().backend_epoch();
  }
  return *r;
}

Model& model_of(Call& call, void* handle) {
  require_not_null(handle, "modelRI");
  Model* m = registry(call).models.find(handle);
  if (m == nullptr) fail(ACL_ERROR_RT_PARAM_INVALID, "modelRI is not a live model run instance");
  return *m;
}

// Whether `m` is being captured; a capture whose stream was destroyed is over (the model keeps
// what it recorded but can never be finished).
bool capturing(Call& call, Model& m) {
  if (m.capture_stream == nullptr) return false;
  if (call.runtime().streams().find(m.capture_stream) != nullptr) return true;
  m.capture_stream = nullptr;
  --registry(call).capturing;
  return false;
}

// A live stream given explicitly (NULL is refused: model streams are never the default one).
Stream& explicit_stream(Call& call, void* handle, const char* what) {
  require_not_null(handle, what);
  return call.stream(handle);
}

// `bytes` of device memory at `p`; returns the allocation's serial.
std::uint64_t device_operand(Call& call, void* p, std::size_t bytes, const char* what) {
  require_not_null(p, what);
  const Allocation* a = call.runtime().memory().find(p);
  require(a != nullptr && a->kind == MemKind::kDevice &&
              a->contains(reinterpret_cast<std::uintptr_t>(p), bytes),
          ACL_ERROR_RT_PARAM_INVALID,
          std::string(what) + " is not " + std::to_string(bytes) +
              " bytes inside a device allocation");
  return a->serial;
}

Entry& append(Call& call, Stream& s, Control control) {
  require(static_cast<bool>(s.recording), ACL_ERROR_RT_PARAM_INVALID,
          "the stream neither is a persistent stream nor is being captured: control-flow tasks "
          "only exist in a model run instance");
  Entry& e = s.recording->entries.emplace_back();
  e.seq = ++registry(call).seq;
  e.control = control;
  return e;
}

const char* control_name(Control c) {
  switch (c) {
    case Control::kNone: return "TASK";
    case Control::kLabelSet: return "LABEL_SET";
    case Control::kLabelSwitch: return "LABEL_SWITCH";
    case Control::kStreamSwitch: return "STREAM_SWITCH";
    case Control::kStreamActive: return "STREAM_ACTIVE";
    case Control::kModelEnd: return "MODEL_END";
    case Control::kCond: return "COND";
  }
  return "";
}

std::uint32_t take_stream_id(Device& dev) {
  if (!dev.free_stream_ids.empty()) {
    std::uint32_t id = *dev.free_stream_ids.begin();
    dev.free_stream_ids.erase(dev.free_stream_ids.begin());
    return id;
  }
  return dev.next_stream_id++;
}

// ---- Execution: the device-side interpreter of one model run ----

struct Step {
  Control control = Control::kNone;
  Task task;  // the prototype (no follow; control effects are attached when emitted)
  std::vector<std::pair<std::size_t, std::size_t>> jumps;  // label switch: (stream, position)
  std::size_t target = 0;                                  // switch/active: model stream
  void* left = nullptr;
  void* right = nullptr;
  std::uint64_t left_serial = 0, right_serial = 0;
  int cond = 0;
  bool wide = false;
  int cond_type = 0;
  std::vector<std::shared_ptr<Execution>> children;  // kCond
  std::shared_ptr<Recording> lazy;  // a task group member: made when the device reaches it
  std::size_t pos = 0;
};

struct RunStream {
  std::uint32_t id = 0;
  std::vector<Step> steps;
  std::size_t pc = 0;
  bool active = false;
  std::int64_t decision = 0;  // the last control task's decision (effect -> follow)
  bool failed = false;        // the last control task could not decide
};

class Execution : public std::enable_shared_from_this<Execution> {
 public:
  std::vector<RunStream> streams;
  std::vector<std::size_t> heads;
  const MemoryRegistry* memory = nullptr;
  std::uint32_t device = 0, priority = 0;
  bool started = false;
  bool finished = false;
  bool aborted = false;  // its MODEL_WAIT was discarded: nothing more is handed over
  int error = 0;
  std::uint64_t control_steps = 0;
  // Condition values set when the model starts (ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT).
  std::vector<std::shared_ptr<CondHandle>> defaults;
  // A sub-model's execution: the COND task of parent's stream parent_stream waits for it.
  std::weak_ptr<Execution> parent;
  std::size_t parent_stream = 0;

  void start(std::vector<Task>& out) {
    for (const auto& c : defaults) {
      if (memory->alive(c->serial)) std::memcpy(c->ptr, &c->default_value, sizeof(std::uint64_t));
    }
    restart(out);
  }

 private:
  Execution& root() {
    Execution* e = this;
    while (auto p = e->parent.lock()) e = p.get();
    return *e;
  }

  void restart(std::vector<Task>& out) {
    started = true;
    finished = false;
    running_ = 0;
    for (RunStream& rs : streams) rs.active = false;
    for (std::size_t h : heads) activate(h, 0, out);
    if (running_ == 0) finish(out);
  }

  void finish(std::vector<Task>& out) {
    finished = true;
    if (auto p = parent.lock()) p->resume(parent_stream, out);
  }

  // The sub-model run by the COND task of stream i has finished.
  void resume(std::size_t i, std::vector<Task>& out) {
    RunStream& rs = streams[i];
    if (rs.steps[rs.pc].cond_type != ACL_MODEL_RI_COND_TYPE_WHILE) ++rs.pc;
    emit(i, out);  // WHILE: the COND task again
  }

  void activate(std::size_t i, std::size_t pc, std::vector<Task>& out) {
    RunStream& rs = streams[i];
    if (rs.active) return;  // already running: the activation has nothing to start
    rs.active = true;
    ++running_;
    rs.pc = pc;
    emit(i, out);
  }

  void stop(std::size_t i, std::vector<Task>& out) {
    streams[i].active = false;
    if (--running_ == 0) finish(out);
  }

  void emit(std::size_t i, std::vector<Task>& out) {
    RunStream& rs = streams[i];
    if (rs.pc >= rs.steps.size()) {
      stop(i, out);
      return;
    }
    const Step& step = rs.steps[rs.pc];
    Task t;
    if (step.lazy) {  // a task group member: as the group holds it now
      t = step.lazy->entries[step.pos].make();
      t.device = device;
      t.stream = rs.id;
      t.task_id = static_cast<std::uint32_t>(step.pos & 0xFFFFu);
      t.priority = priority;
    } else {
      t = step.task;
    }
    auto self = shared_from_this();
    if (step.control == Control::kLabelSwitch || step.control == Control::kStreamSwitch ||
        step.control == Control::kCond) {
      t.effect = [self, i] { return self->decide(i); };
    }
    t.follow = [self, i](std::vector<Task>& next) { self->advance(i, next); };
    t.done = [self, i, user_done = std::move(t.done)](const TaskOutcome& r) {
      if (user_done) user_done(r);
      Execution& root = self->root();
      if (r.discarded) {
        std::vector<Task> lost;  // nothing can run on a discarded model stream
        self->stop(i, lost);
      } else if (r.error != 0 && root.error == 0) {
        root.error = r.error;
      }
    };
    out.push_back(std::move(t));
  }

  // A control task's effect, at its simulated completion: reads device memory as it is now.
  int decide(std::size_t i) {
    RunStream& rs = streams[i];
    const Step& step = rs.steps[rs.pc];
    rs.failed = true;
    if (!memory->alive(step.left_serial) ||
        (step.control == Control::kStreamSwitch && !memory->alive(step.right_serial))) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // the operand was freed
    }
    if (step.control == Control::kLabelSwitch) {
      std::uint32_t index;
      std::memcpy(&index, step.left, sizeof index);
      rs.decision = std::min<std::size_t>(index, step.jumps.size() - 1);
    } else if (step.control == Control::kCond) {
      std::uint64_t v;
      std::memcpy(&v, step.left, sizeof v);
      const std::uint64_t n = step.children.size();
      switch (step.cond_type) {
        case ACL_MODEL_RI_COND_TYPE_IF: rs.decision = v != 0 ? 0 : (n > 1 ? 1 : -1); break;
        case ACL_MODEL_RI_COND_TYPE_WHILE: rs.decision = v != 0 ? 0 : -1; break;
        default: rs.decision = v < n ? static_cast<std::int64_t>(v) : -1; break;
      }
    } else {
      std::int64_t a, b;
      if (step.wide) {
        std::memcpy(&a, step.left, sizeof a);
        std::memcpy(&b, step.right, sizeof b);
      } else {
        std::int32_t a32, b32;
        std::memcpy(&a32, step.left, sizeof a32);
        std::memcpy(&b32, step.right, sizeof b32);
        a = a32;
        b = b32;
      }
      bool holds = false;
      switch (step.cond) {
        case ACL_RT_EQUAL: holds = a == b; break;
        case ACL_RT_NOT_EQUAL: holds = a != b; break;
        case ACL_RT_GREATER: holds = a > b; break;
        case ACL_RT_GREATER_OR_EQUAL: holds = a >= b; break;
        case ACL_RT_LESS: holds = a < b; break;
        default: holds = a <= b; break;
      }
      rs.decision = holds ? 1 : 0;
    }
    rs.failed = false;
    return 0;
  }

  // A task of stream i completed: hand over what runs next.
  void advance(std::size_t i, std::vector<Task>& out) {
    RunStream& rs = streams[i];
    const Step& step = rs.steps[rs.pc];
    Execution& top = root();
    if (top.aborted) return stop(i, out);
    const bool decision = step.control == Control::kLabelSwitch ||
                          step.control == Control::kStreamSwitch ||
                          step.control == Control::kStreamActive || step.control == Control::kCond;
    if (decision && ++top.control_steps > kMaxControlSteps) {
      if (top.error == 0) top.error = ACL_ERROR_RT_MODEL_EXECUTE;
      if (top.control_steps == kMaxControlSteps + 1) {
        sim::log_error("npusim: a model execution took more than " +
                       std::to_string(kMaxControlSteps) +
                       " control-flow steps (a device-side loop that never ends?): stopped");
      }
      return stop(i, out);
    }
    switch (step.control) {
      case Control::kLabelSwitch: {
        if (rs.failed) return stop(i, out);
        auto [s, p] = step.jumps[static_cast<std::size_t>(rs.decision)];
        if (s == i) {
          rs.pc = p;
          return emit(i, out);
        }
        activate(s, p, out);
        return stop(i, out);
      }
      case Control::kStreamSwitch:
        if (rs.failed) return stop(i, out);
        if (rs.decision != 0) {
          activate(step.target, 0, out);
          return stop(i, out);
        }
        break;
      case Control::kCond:
        if (rs.failed) return stop(i, out);
        if (rs.decision >= 0) {  // this stream waits for the sub-model (resume())
          return step.children[static_cast<std::size_t>(rs.decision)]->restart(out);
        }
        break;
      case Control::kStreamActive:
        activate(step.target, 0, out);
        break;
      default:
        break;
    }
    ++rs.pc;
    emit(i, out);
  }

  int running_ = 0;
};

// Builds the execution of `m`: every recorded task instantiated now (host side), in recording
// order across the model's streams.
std::shared_ptr<Execution> instantiate(Call& call, Model& m, std::uint32_t priority) {
  auto ex = std::make_shared<Execution>();
  ex->memory = &call.runtime().memory();
  ex->device = m.device;
  ex->priority = priority;
  for (void* h : m.conds) {
    if (auto c = registry(call).conds.get(h); c && c->assign_default) ex->defaults.push_back(c);
  }
  std::map<const Recording*, std::size_t> index;
  for (std::size_t i = 0; i < m.streams.size(); ++i) index[m.streams[i].recording.get()] = i;
  auto stream_index = [&](const std::weak_ptr<Recording>& w, const char* what) {
    std::shared_ptr<Recording> r = w.lock();
    auto it = r ? index.find(r.get()) : index.end();
    require(it != index.end(), ACL_ERROR_RT_PARAM_INVALID,
            std::string(what) + " is not a stream of this model run instance");
    return it->second;
  };
  struct Ref {
    std::uint64_t seq;
    std::size_t stream, pos;
  };
  std::vector<Ref> order;
  ex->streams.resize(m.streams.size());
  for (std::size_t i = 0; i < m.streams.size(); ++i) {
    const ModelStream& ms = m.streams[i];
    if (ms.bound != nullptr) {
      require(call.runtime().streams().find(ms.bound) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
              "a stream bound to the model run instance was destroyed");
    }
    ex->streams[i].id = ms.id;
    ex->streams[i].steps.resize(ms.recording->entries.size());
    if (ms.head) ex->heads.push_back(i);
    for (std::size_t j = 0; j < ms.recording->entries.size(); ++j) {
      order.push_back({ms.recording->entries[j].seq, i, j});
    }
  }
  std::sort(order.begin(), order.end(), [](const Ref& a, const Ref& b) { return a.seq < b.seq; });
  // First the checks (they may fail), then the tasks (making one may have effects on the host:
  // an event record takes its generation).
  for (const Ref& ref : order) {
    const Entry& e = m.streams[ref.stream].recording->entries[ref.pos];
    Step& step = ex->streams[ref.stream].steps[ref.pos];
    step.control = e.control;
    switch (e.control) {
      case Control::kLabelSwitch:
        for (const auto& label : e.labels) {
          require(label->set, ACL_ERROR_RT_PARAM_INVALID,
                  "a label of the switch's label list was never set on a stream");
          step.jumps.emplace_back(stream_index(label->recording, "a label's stream"),
                                  label->position);
        }
        break;
      case Control::kStreamSwitch:
      case Control::kStreamActive:
        step.target = stream_index(e.target, "the activated stream");
        break;
      case Control::kCond:
        for (void* h : e.children) {
          Model* c = registry(call).models.find(h);
          require(c != nullptr && c->built, ACL_ERROR_RT_PARAM_INVALID,
                  "a sub-model of a condition task was destroyed or never captured");
        }
        break;
      default:
        break;
    }
  }
  for (const Ref& ref : order) {
    const Entry& e = m.streams[ref.stream].recording->entries[ref.pos];
    Step& step = ex->streams[ref.stream].steps[ref.pos];
    if (e.grouped) {
      step.lazy = m.streams[ref.stream].recording;
      step.pos = ref.pos;
    } else if (e.control == Control::kNone) {
      step.task = e.make();
    } else {
      step.task.kind = TaskKind::kNop;
      step.task.name = control_name(e.control);
    }
    if (e.control == Control::kCond) {
      step.cond_type = e.cond_type;
      for (void* h : e.children) {
        auto child = instantiate(call, *registry(call).models.find(h), priority);
        child->parent = ex;
        child->parent_stream = ref.stream;
        step.children.push_back(std::move(child));
      }
    }
    step.left = e.left;
    step.right = e.right;
    step.left_serial = e.left_serial;
    step.right_serial = e.right_serial;
    step.cond = e.cond;
    step.wide = e.wide;
    step.task.device = m.device;
    step.task.stream = ex->streams[ref.stream].id;
    step.task.task_id = static_cast<std::uint32_t>(ref.pos & 0xFFFFu);
    step.task.priority = priority;
  }
  return ex;
}

void require_not_running(const Model& m) {
  require(!m.last || m.last->finished, ACL_ERROR_RT_MODEL_RUNNING,
          "the model run instance is executing");
}

ModelStream* bound_entry(Model& m, void* stream) {
  for (ModelStream& ms : m.streams) {
    if (ms.bound == stream) return &ms;
  }
  return nullptr;
}

}  // namespace

bool record_if_recording(Call& call, Stream& s, const TaskMaker& make, const std::string& name) {
  if (!s.recording) return false;
  Entry& e = append(call, s, Control::kNone);
  e.make = make;
  e.name = name;
  return true;
}

void make_persistent(Stream& s) { s.recording = std::make_shared<Recording>(); }

// ---- Labels and control flow ----

void* create_label(Call& call) {
  call.context();
  return registry(call).labels.add(std::make_shared<Label>());
}

void destroy_label(Call& call, void* label) {
  require_not_null(label, "label");
  require(registry(call).labels.remove(label) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "label is not a live label");
}

void set_label(Call& call, void* label, void* stream) {
  require_not_null(label, "label");
  std::shared_ptr<Label> l = registry(call).labels.get(label);
  require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID, "label is not a live label");
  Stream& s = explicit_stream(call, stream, "stream");
  require(!l->set, ACL_ERROR_RT_PARAM_INVALID, "the label is already set on a stream");
  append(call, s, Control::kLabelSet);
  l->recording = s.recording;
  l->position = s.recording->entries.size() - 1;
  l->set = true;
}

void* create_label_list(Call& call, void** labels, std::size_t num) {
  require_not_null(labels, "labels");
  require(num > 0, ACL_ERROR_INVALID_PARAM, "num must be at least 1");
  auto list = std::make_shared<LabelList>();
  for (std::size_t i = 0; i < num; ++i) {
    std::shared_ptr<Label> l = registry(call).labels.get(labels[i]);
    require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID,
            "labels[" + std::to_string(i) + "] is not a live label");
    list->labels.push_back(std::move(l));
  }
  return registry(call).lists.add(std::move(list));
}

void destroy_label_list(Call& call, void* list) {
  require_not_null(list, "labelList");
  require(registry(call).lists.remove(list) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "labelList is not a live label list");
}

void switch_label_by_index(Call& call, void* ptr, std::uint32_t max, void* list, void* stream) {
  std::uint64_t serial = device_operand(call, ptr, sizeof(std::uint32_t), "ptr");
  require_not_null(list, "labelList");
  LabelList* l = registry(call).lists.find(list);
  require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID, "labelList is not a live label list");
  require(max >= 1 && max <= l->labels.size(), ACL_ERROR_INVALID_PARAM,
          "maxValue must be between 1 and the number of labels in the list");
  Stream& s = explicit_stream(call, stream, "stream");
  Entry& e = append(call, s, Control::kLabelSwitch);
  e.left = ptr;
  e.left_serial = serial;
  e.labels.assign(l->labels.begin(), l->labels.begin() + max);
}

void active_stream(Call& call, void* target, void* stream) {
  Stream& t = explicit_stream(call, target, "activeStream");
  Stream& s = explicit_stream(call, stream, "stream");
  require(static_cast<bool>(t.recording) && (t.flags & ACL_STREAM_PERSISTENT) != 0,
          ACL_ERROR_RT_PARAM_INVALID, "activeStream is not a persistent stream");
  Entry& e = append(call, s, Control::kStreamActive);
  e.target = t.recording;
}

void switch_stream(Call& call, void* left, int cond, void* right, int dtype, void* true_stream,
                   void* false_stream, void* stream) {
  require(cond >= ACL_RT_EQUAL && cond <= ACL_RT_LESS_OR_EQUAL, ACL_ERROR_INVALID_PARAM,
          "cond is not an aclrtCondition");
  require(dtype == ACL_RT_SWITCH_INT32 || dtype == ACL_RT_SWITCH_INT64, ACL_ERROR_INVALID_PARAM,
          "dataType is not an aclrtCompareDataType");
  require(false_stream == nullptr, ACL_ERROR_INVALID_PARAM,
          "falseStream is reserved and must be NULL");
  const std::size_t bytes = dtype == ACL_RT_SWITCH_INT64 ? 8 : 4;
  std::uint64_t ls = device_operand(call, left, bytes, "leftValue");
  std::uint64_t rs = device_operand(call, right, bytes, "rightValue");
  Stream& t = explicit_stream(call, true_stream, "trueStream");
  Stream& s = explicit_stream(call, stream, "stream");
  require(static_cast<bool>(t.recording) && (t.flags & ACL_STREAM_PERSISTENT) != 0,
          ACL_ERROR_RT_PARAM_INVALID, "trueStream is not a persistent stream");
  Entry& e = append(call, s, Control::kStreamSwitch);
  e.left = left;
  e.right = right;
  e.left_serial = ls;
  e.right_serial = rs;
  e.cond = cond;
  e.wide = bytes == 8;
  e.target = t.recording;
}

void persistent_task_clean(Call& call, void* stream) {
  Stream& s = explicit_stream(call, stream, "stream");
  require((s.flags & ACL_STREAM_PERSISTENT) != 0, ACL_ERROR_RT_PARAM_INVALID,
          "the stream is not a persistent stream");
  if (s.model != nullptr) {
    if (Model* m = registry(call).models.find(s.model)) require_not_running(*m);
  }
  s.recording->entries.clear();
  s.recording->ended = false;
}

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
