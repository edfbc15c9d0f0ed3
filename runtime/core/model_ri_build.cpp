// SPDX-License-Identifier: Apache-2.0
// Model run instances: the registry and the helpers the model files share, and the
// instantiation of a model's recording into an execution (model_ri_detail.h).
#include <algorithm>
#include <map>
#include <string>

#include "runtime/core/errors.h"
#include "runtime/core/memory.h"
#include "runtime/core/model_ri_execution.h"

namespace npusim::rt::model_detail {

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

namespace {

// One instantiation: the execution being built and the recorded entries in recording order.
class Builder {
 public:
  Builder(Call& call, Model& m, std::uint32_t priority) : call_(call), m_(m), priority_(priority) {}

  std::shared_ptr<Execution> run() {
    ex_ = std::make_shared<Execution>();
    ex_->memory = &call_.runtime().memory();
    ex_->device = m_.device;
    ex_->priority = priority_;
    for (void* h : m_.conds) {
      if (auto c = registry(call_).conds.get(h); c && c->assign_default) ex_->defaults.push_back(c);
    }
    for (std::size_t i = 0; i < m_.streams.size(); ++i) index_[m_.streams[i].recording.get()] = i;
    lay_out_streams();
    // First the checks (they may fail), then the tasks (making one may have effects on the host:
    // an event record takes its generation).
    for (const Ref& ref : order_) check_control(ref);
    for (const Ref& ref : order_) make_step(ref);
    return ex_;
  }

 private:
  struct Ref {
    std::uint64_t seq;
    std::size_t stream, pos;
  };

  std::size_t stream_index(const std::weak_ptr<Recording>& w, const char* what) const {
    std::shared_ptr<Recording> r = w.lock();
    auto it = r ? index_.find(r.get()) : index_.end();
    require(it != index_.end(), ACL_ERROR_RT_PARAM_INVALID,
            std::string(what) + " is not a stream of this model run instance");
    return it->second;
  }

  // One execution stream per model stream, and every entry of every stream in recording order.
  void lay_out_streams() {
    ex_->streams.resize(m_.streams.size());
    for (std::size_t i = 0; i < m_.streams.size(); ++i) {
      const ModelStream& ms = m_.streams[i];
      if (ms.bound != nullptr) {
        require(call_.runtime().streams().find(ms.bound) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
                "a stream bound to the model run instance was destroyed");
      }
      ex_->streams[i].id = ms.id;
      ex_->streams[i].steps.resize(ms.recording->entries.size());
      if (ms.head) ex_->heads.push_back(i);
      for (std::size_t j = 0; j < ms.recording->entries.size(); ++j) {
        order_.push_back({ms.recording->entries[j].seq, i, j});
      }
    }
    std::sort(order_.begin(), order_.end(),
              [](const Ref& a, const Ref& b) { return a.seq < b.seq; });
  }

  const Entry& entry(const Ref& ref) const {
    return m_.streams[ref.stream].recording->entries[ref.pos];
  }
  Step& step(const Ref& ref) { return ex_->streams[ref.stream].steps[ref.pos]; }

  // A control task's targets resolved (labels set, streams of this model, sub-models built).
  void check_control(const Ref& ref) {
    const Entry& e = entry(ref);
    Step& step = this->step(ref);
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
          Model* c = registry(call_).models.find(h);
          require(c != nullptr && c->built, ACL_ERROR_RT_PARAM_INVALID,
                  "a sub-model of a condition task was destroyed or never captured");
        }
        break;
      default:
        break;
    }
  }

  // The step's task (made now, made later for grouped entries, or a named no-op for control),
  // the sub-executions of a condition, and the operands of its comparison.
  void make_step(const Ref& ref) {
    const Entry& e = entry(ref);
    Step& step = this->step(ref);
    if (e.grouped) {
      step.lazy = m_.streams[ref.stream].recording;
      step.pos = ref.pos;
    } else if (e.control == Control::kNone) {
      step.task = e.make();
    } else {
      step.task.kind = TaskKind::kNop;
      step.task.name = control_name(e.control);
    }
    if (e.control == Control::kCond) add_children(e, step, ref.stream);
    step.left = e.left;
    step.right = e.right;
    step.left_serial = e.left_serial;
    step.right_serial = e.right_serial;
    step.cond = e.cond;
    step.wide = e.wide;
    step.task.device = m_.device;
    step.task.stream = ex_->streams[ref.stream].id;
    step.task.task_id = static_cast<std::uint32_t>(ref.pos & 0xFFFFu);
    step.task.priority = priority_;
  }

  void add_children(const Entry& e, Step& step, std::size_t stream) {
    step.cond_type = e.cond_type;
    for (void* h : e.children) {
      auto child = instantiate(call_, *registry(call_).models.find(h), priority_);
      child->parent = ex_;
      child->parent_stream = stream;
      step.children.push_back(std::move(child));
    }
  }

  Call& call_;
  Model& m_;
  const std::uint32_t priority_;
  std::shared_ptr<Execution> ex_;
  std::map<const Recording*, std::size_t> index_;
  std::vector<Ref> order_;
};

}  // namespace

// Builds the execution of `m`: every recorded task instantiated now (host side), in recording
// order across the model's streams.
std::shared_ptr<Execution> instantiate(Call& call, Model& m, std::uint32_t priority) {
  return Builder(call, m, priority).run();
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

}  // namespace npusim::rt::model_detail
