// SPDX-License-Identifier: Apache-2.0
// Execution: the device-side interpreter of one model run (model_ri.h, "Execution"). Included
// only by runtime/core/model_ri*.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/core/model_ri_detail.h"
#include "sim/log.h"

namespace npusim::rt::model_detail {

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
    Task t = task_of(rs, step);
    auto self = shared_from_this();
    if (branches(step)) t.effect = [self, i] { return self->decide(i); };
    t.follow = [self, i](std::vector<Task>& next) { self->advance(i, next); };
    t.done = [self, i, user_done = std::move(t.done)](const TaskOutcome& r) {
      if (user_done) user_done(r);
      self->task_done(i, r);
    };
    out.push_back(std::move(t));
  }

  // A label switch, stream switch or conditional: its task's effect decides what runs next.
  static bool branches(const Step& step) {
    return step.control == Control::kLabelSwitch || step.control == Control::kStreamSwitch ||
           step.control == Control::kCond;
  }

  // A task of stream i ended: a discarded one ends the stream, a failed one the execution.
  void task_done(std::size_t i, const TaskOutcome& r) {
    Execution& top = root();
    if (r.discarded) {
      std::vector<Task> lost;  // nothing can run on a discarded model stream
      stop(i, lost);
    } else if (r.error != 0 && top.error == 0) {
      top.error = r.error;
    }
  }

  Task task_of(const RunStream& rs, const Step& step) const {
    if (!step.lazy) return step.task;
    Task t = step.lazy->entries[step.pos].make();  // a task group member: as the group holds it now
    t.device = device;
    t.stream = rs.id;
    t.task_id = static_cast<std::uint32_t>(step.pos & 0xFFFFu);
    t.priority = priority;
    return t;
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
      rs.decision = cond_child(step);
    } else {
      rs.decision = switch_holds(step) ? 1 : 0;
    }
    rs.failed = false;
    return 0;
  }

  // A conditional (if, while, case) sub-model step: the child to run, -1 for none.
  static std::int64_t cond_child(const Step& step) {
    std::uint64_t v;
    std::memcpy(&v, step.left, sizeof v);
    const std::uint64_t n = step.children.size();
    switch (step.cond_type) {
      case ACL_MODEL_RI_COND_TYPE_IF: return v != 0 ? 0 : (n > 1 ? 1 : -1);
      case ACL_MODEL_RI_COND_TYPE_WHILE: return v != 0 ? 0 : -1;
      default: return v < n ? static_cast<std::int64_t>(v) : -1;
    }
  }

  // An operand of a stream switch as the device holds it now (32- or 64-bit).
  static std::int64_t operand(const void* at, bool wide) {
    if (wide) {
      std::int64_t v;
      std::memcpy(&v, at, sizeof v);
      return v;
    }
    std::int32_t v32;
    std::memcpy(&v32, at, sizeof v32);
    return v32;
  }

  // A stream switch: whether `left (cond) right` holds.
  static bool switch_holds(const Step& step) {
    const std::int64_t a = operand(step.left, step.wide);
    const std::int64_t b = operand(step.right, step.wide);
    switch (step.cond) {
      case ACL_RT_EQUAL: return a == b;
      case ACL_RT_NOT_EQUAL: return a != b;
      case ACL_RT_GREATER: return a > b;
      case ACL_RT_GREATER_OR_EQUAL: return a >= b;
      case ACL_RT_LESS: return a < b;
      default: return a <= b;
    }
  }

  // A task of stream i completed: hand over what runs next.
  void advance(std::size_t i, std::vector<Task>& out) {
    RunStream& rs = streams[i];
    const Step& step = rs.steps[rs.pc];
    Execution& top = root();
    if (top.aborted) return stop(i, out);
    const bool control = branches(step) || step.control == Control::kStreamActive;
    if (control && over_control_budget(top)) return stop(i, out);
    if (!follow_control(i, step, out)) return;
    ++rs.pc;
    emit(i, out);
  }

  // One more control-flow step of the whole execution: past the limit, it fails (logged once).
  static bool over_control_budget(Execution& top) {
    if (++top.control_steps <= kMaxControlSteps) return false;
    if (top.error == 0) top.error = ACL_ERROR_RT_MODEL_EXECUTE;
    if (top.control_steps == kMaxControlSteps + 1) {
      sim::log_error("npusim: a model execution took more than " +
                     std::to_string(kMaxControlSteps) +
                     " control-flow steps (a device-side loop that never ends?): stopped");
    }
    return true;
  }

  // What a control step decided, for stream i: true when the stream goes on with its next step;
  // false when it jumped, stopped or waits for a sub-model (what runs next is in `out`).
  bool follow_control(std::size_t i, const Step& step, std::vector<Task>& out) {
    if (step.control == Control::kStreamActive) {
      activate(step.target, 0, out);
      return true;
    }
    if (!branches(step)) return true;
    if (streams[i].failed) {  // the decision could not be taken
      stop(i, out);
      return false;
    }
    return take_branch(i, step, out);
  }

  // A branch's decision: a label switch jumps; a stream switch that holds goes on on its target
  // stream; a conditional runs its chosen child (this stream waits for it: resume()).
  bool take_branch(std::size_t i, const Step& step, std::vector<Task>& out) {
    const std::int64_t d = streams[i].decision;
    if (step.control == Control::kLabelSwitch) {
      jump(i, step.jumps[static_cast<std::size_t>(d)], out);
      return false;
    }
    if (step.control == Control::kStreamSwitch) {
      if (d == 0) return true;
      activate(step.target, 0, out);
      stop(i, out);
      return false;
    }
    if (d < 0) return true;  // a conditional with no child to run
    step.children[static_cast<std::size_t>(d)]->restart(out);
    return false;
  }

  // A label switch of stream i goes on at (stream, position): there, or on another stream.
  void jump(std::size_t i, std::pair<std::size_t, std::size_t> to, std::vector<Task>& out) {
    if (to.first == i) {
      streams[i].pc = to.second;
      return emit(i, out);
    }
    activate(to.first, to.second, out);
    stop(i, out);
  }

  int running_ = 0;
};

}  // namespace npusim::rt::model_detail
