// SPDX-License-Identifier: Apache-2.0
// The replay runner's timed run (tools/replay/runner_internal.h): every step issued on its
// stream after the event waits the plan gave it, each op through its entry's two-phase aclnn
// call (OpCall: its tensors, attributes, host-side argument objects and workspace), then the
// streams joined on stream 0 and the simulated time between the start and end events. An op
// its operator refuses in phase 1 is counted and the run goes on (--strict: it stops the run).
#include <cstring>
#include <iostream>
#include <sstream>

#include "tools/replay/runner_internal.h"

namespace npusim::replay {
namespace {

/// Reports a failed ACL call; returns the run's exit code for it.
int acl_failure(const std::string& what, aclError st) {
  std::cerr << "npusim replay: " << what << " failed: " << st << recent_error() << "\n";
  return 1;
}

}  // namespace

// ---- OpCall: one op's arguments ----

const Op& OpCall::op() const { return r_.trace().ops[static_cast<std::size_t>(index_)]; }

const Tensor* OpCall::tensor(const std::vector<int>& list, std::size_t i) const {
  if (i >= list.size() || list[i] < 0) return nullptr;
  return &r_.trace().tensors[static_cast<std::size_t>(list[i])];
}

const std::vector<std::int64_t>& OpCall::in_shape(std::size_t i) const {
  static const std::vector<std::int64_t> none;
  const Tensor* t = tensor(op().inputs, i);
  return t != nullptr ? t->shape : none;
}

const std::vector<std::int64_t>& OpCall::out_shape(std::size_t i) const {
  static const std::vector<std::int64_t> none;
  const Tensor* t = tensor(op().outputs, i);
  return t != nullptr ? t->shape : none;
}

aclDataType OpCall::out_dtype(std::size_t i) const {
  const Tensor* t = tensor(op().outputs, i);
  return t != nullptr ? static_cast<aclDataType>(t->dtype) : ACL_DT_UNDEFINED;
}

std::string OpCall::text(const char* name) const {
  auto it = op().attrs.find(name);
  if (it != op().attrs.end() && !it->second.items.empty()) return it->second.items[0];
  for (const AttrSpec& a : r_.entry(index_).attrs) {
    if (std::strcmp(a.name, name) == 0 && a.fallback != nullptr) return a.fallback;
  }
  return "0";
}

std::vector<std::int64_t> OpCall::attr_ints(const char* name) const {
  std::vector<std::int64_t> out;
  auto it = op().attrs.find(name);
  if (it != op().attrs.end()) {
    for (const std::string& s : it->second.items) out.push_back(std::stoll(s));
    return out;
  }
  for (const AttrSpec& a : r_.entry(index_).attrs) {  // fallback such as "[1, 1]"
    if (std::strcmp(a.name, name) != 0 || a.fallback == nullptr) continue;
    std::string s = a.fallback;
    for (char& ch : s) {
      if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
    }
    std::istringstream in(s);
    std::int64_t v;
    while (in >> v) out.push_back(v);
  }
  return out;
}

aclIntArray* OpCall::int_array(const std::vector<std::int64_t>& values, bool null_if_empty) {
  if (values.empty() && null_if_empty) return nullptr;
  aclIntArray* a = r_.create_int_array(values.data(), values.size());
  r_.arrays.push_back(a);
  return a;
}

aclScalar* OpCall::scalar(double value) {
  float v = static_cast<float>(value);
  aclScalar* s = r_.create_scalar(&v, ACL_FLOAT);
  r_.scalars.push_back(s);
  return s;
}

aclTensor* OpCall::operand(bool input, std::size_t i, bool transposed) {
  const std::vector<int>& list = input ? op().inputs : op().outputs;
  if (i >= list.size() || list[i] < 0) return nullptr;
  return r_.make_tensor(list[i], transposed, r_.entry(index_));
}

void* OpCall::phase1() { return r_.fns[static_cast<std::size_t>(index_)].first; }

aclnnStatus OpCall::phase2(aclnnStatus st, std::uint64_t workspace, aclOpExecutor* executor) {
  const OpEntry& e = r_.entry(index_);
  if (st != 0) {
    rejected = true;
    error = std::string("aclnn") + e.aclnn + "GetWorkspaceSize returned " + std::to_string(st) +
            recent_error();
    return st;
  }
  void* ws = r_.workspace(index_, workspace, error);
  if (workspace > 0 && ws == nullptr) return ACL_ERROR_BAD_ALLOC;
  st = reinterpret_cast<Phase2Fn>(r_.fns[static_cast<std::size_t>(index_)].second)(
      ws, workspace, executor, stream_);
  if (st != 0)
    error = std::string("aclnn") + e.aclnn + " returned " + std::to_string(st) + recent_error();
  return st;
}

// ---- the runner's side of a call ----

void* Runner::device(int tensor) const { return dev_[static_cast<std::size_t>(tensor)]; }

aclTensor* Runner::make_tensor(int index, bool transposed, const OpEntry& e) {
  const Tensor& t = t_.tensors[static_cast<std::size_t>(index)];
  std::vector<std::int64_t> shape = t.shape;
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  const std::vector<std::int64_t> storage = shape;
  if (transposed && shape.size() >= 2) {
    std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
    std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  }
  aclFormat format = ACL_FORMAT_ND;
  if (t.format == "NCHW" || (t.format.empty() && e.nchw && shape.size() == 4))
    format = ACL_FORMAT_NCHW;
  if (t.format == "NHWC") format = ACL_FORMAT_NHWC;
  aclTensor* h =
      create_tensor_(shape.data(), shape.size(), static_cast<aclDataType>(t.dtype), strides.data(),
                     0, format, storage.data(), storage.size(), device(index));
  tensors_.push_back(h);
  return h;
}

void* Runner::workspace(int op, std::uint64_t bytes, std::string& error) {
  if (bytes == 0) return nullptr;
  auto& slot = workspaces_[op];
  if (slot.second >= bytes) return slot.first;
  // A larger one: the old one may still be in use by an earlier iteration's queued launch, so it
  // is kept until the end (freed in cleanup).
  void* p = nullptr;
  const aclError st = aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (st != ACL_SUCCESS) {
    error = "aclrtMalloc of a " + std::to_string(bytes) +
            "-byte workspace failed: " + std::to_string(st) + recent_error();
    return nullptr;
  }
  allocations_.push_back(p);
  slot = {p, bytes};
  return p;
}

// ---- the timed run ----

int Runner::create_events(Events& ev) {
  if (aclrtCreateEvent(&ev.start) != ACL_SUCCESS || aclrtCreateEvent(&ev.end) != ACL_SUCCESS) {
    return acl_failure("aclrtCreateEvent", 1);
  }
  ev.steps.assign(steps_.size(), nullptr);
  for (std::size_t g = 0; g < steps_.size(); ++g) {
    if (steps_[g].record && aclrtCreateEvent(&ev.steps[g]) != ACL_SUCCESS) {
      return acl_failure("aclrtCreateEvent", 1);
    }
  }
  return 0;
}

/// Issues step `g` on its stream: 0, or 1 when it (or an ACL call around it) failed.
int Runner::issue(std::size_t g, const std::vector<aclrtEvent>& events, int& ops_run) {
  int rc = 0;
  const Step& step = steps_[g];
  const Op& op = t_.ops[static_cast<std::size_t>(step.op)];
  aclrtStream stream = streams_[static_cast<std::size_t>(op.stream)];
  for (int w : step.waits) {
    if (aclError st = aclrtStreamWaitEvent(stream, events[static_cast<std::size_t>(w)]);
        st != ACL_SUCCESS) {
      rc = acl_failure(op.where + ": aclrtStreamWaitEvent", st);
    }
  }
  OpCall call(*this, step.op, stream);
  const aclnnStatus st = entries_[static_cast<std::size_t>(step.op)]->build(call);
  if (st != 0 && call.rejected && !o_.strict) {
    // The operator refused these arguments and queued nothing: named and counted, the run
    // goes on (--strict stops it).
    auto& r = rejected_[op.type];
    if (r.first++ == 0) r.second = op.where + ": " + call.error;
    if (step.record) aclrtRecordEvent(events[g], stream);  // other streams may wait for it
    return rc;
  }
  if (st != 0) {
    std::cerr << "npusim replay: " << t_.file << ": " << op.where << ": "
              << (call.error.empty() ? "failed with " + std::to_string(st) : call.error) << "\n";
    return 1;
  }
  ++ops_run;
  if (step.record) aclrtRecordEvent(events[g], stream);
  if (!o_.sync_per_op) return rc;
  if (aclError e = aclrtSynchronizeStream(stream); e != ACL_SUCCESS) {
    rc = acl_failure(op.where + ": aclrtSynchronizeStream", e);
  }
  return rc;
}

/// Joins every stream into stream 0, waits for the end event and measures the simulated time.
int Runner::finish(Events& ev, double& simulated_us) {
  for (std::size_t s = 1; s < streams_.size(); ++s) {
    aclrtEvent j = nullptr;
    aclrtCreateEvent(&j);
    ev.joins.push_back(j);
    aclrtRecordEvent(j, streams_[s]);
    aclrtStreamWaitEvent(streams_[0], j);
  }
  aclrtRecordEvent(ev.end, streams_[0]);
  if (aclError st = aclrtSynchronizeEvent(ev.end); st != ACL_SUCCESS)
    return acl_failure("the run (aclrtSynchronizeEvent)", st);
  // A kernel that failed (trap, bad access, UB overflow) fails its stream: report it, never a
  // timing of a broken run.
  for (std::size_t s = 0; s < streams_.size(); ++s) {
    if (aclError st = aclrtSynchronizeStream(streams_[s]); st != ACL_SUCCESS) {
      return acl_failure("stream " + std::to_string(s) + " (a kernel failed)", st);
    }
  }
  float ms = 0;
  int rc = 0;
  if (aclError st = aclrtEventElapsedTime(&ms, ev.start, ev.end); st != ACL_SUCCESS) {
    rc = acl_failure("aclrtEventElapsedTime", st);
  }
  simulated_us = static_cast<double>(ms) * 1000.0;
  return rc;
}

int Runner::execute(double& simulated_us, int& ops_run) {
  Events ev;
  if (const int rc = create_events(ev); rc != 0) return rc;
  if (aclError st = aclrtSynchronizeDevice(); st != ACL_SUCCESS) {
    return acl_failure("aclrtSynchronizeDevice after the fills", st);
  }
  aclrtRecordEvent(ev.start, streams_[0]);
  for (std::size_t s = 1; s < streams_.size(); ++s) aclrtStreamWaitEvent(streams_[s], ev.start);
  int rc = 0;
  for (std::size_t g = 0; g < steps_.size() && rc == 0; ++g) rc = issue(g, ev.steps, ops_run);
  if (rc == 0) rc = finish(ev, simulated_us);
  (void)aclrtSynchronizeDevice();
  for (aclrtEvent e : ev.steps) {
    if (e != nullptr) aclrtDestroyEvent(e);
  }
  for (aclrtEvent e : ev.joins) aclrtDestroyEvent(e);
  aclrtDestroyEvent(ev.start);
  aclrtDestroyEvent(ev.end);
  return rc;
}

void Runner::cleanup() {
  for (aclTensor* t : tensors_) destroy_tensor_(t);
  for (aclIntArray* a : arrays) {
    if (a != nullptr) destroy_int_array_(a);
  }
  for (aclScalar* s : scalars) {
    if (s != nullptr) destroy_scalar_(s);
  }
  for (void* p : allocations_) aclrtFree(p);
  for (aclrtStream s : streams_) aclrtDestroyStream(s);
}

}  // namespace npusim::replay
