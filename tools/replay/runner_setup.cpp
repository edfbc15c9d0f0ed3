// SPDX-License-Identifier: Apache-2.0
// The replay runner's set-up (tools/replay/runner_internal.h): the aclnn functions of every op
// (ops whose functions are missing, or --skip-op, are skipped and reported), the cross-stream
// dependency plan (runner.h: events only where an op touches memory another stream's op used,
// and none that an earlier wait already implies), device memory for the tensors (views share
// their base's) and their fills.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>

#include "tools/replay/elements.h"
#include "tools/replay/runner_internal.h"

namespace npusim::replay {
namespace {

constexpr const char* kSkippedByOption = "skipped (--skip-op)";

}  // namespace

// ---- operators ----

void Runner::resolve_base_api() {
  create_tensor_ = reinterpret_cast<CreateTensorFn>(symbol("aclCreateTensor"));
  destroy_tensor_ = reinterpret_cast<DestroyTensorFn>(symbol("aclDestroyTensor"));
  create_scalar = reinterpret_cast<CreateScalarFn>(symbol("aclCreateScalar"));
  destroy_scalar_ = reinterpret_cast<DestroyScalarFn>(symbol("aclDestroyScalar"));
  create_int_array = reinterpret_cast<CreateIntArrayFn>(symbol("aclCreateIntArray"));
  destroy_int_array_ = reinterpret_cast<DestroyIntArrayFn>(symbol("aclDestroyIntArray"));
}

void Runner::resolve_op(std::size_t i) {
  const OpEntry* e = find_op(t_.ops[i].type);
  entries_[i] = e;
  const std::string name = std::string("aclnn") + e->aclnn;
  std::string what = missing_symbol(*e, [](const std::string& s) { return symbol(s); });
  if (what.empty() && o_.skip_ops.count(t_.ops[i].type)) what = kSkippedByOption;
  if (!what.empty()) {
    skip_[i] = true;
    auto& m = missing_[t_.ops[i].type];
    ++m.first;
    m.second = what;
  } else {
    fns[i] = {symbol(name + "GetWorkspaceSize"), symbol(name)};
  }
}

/// Names the op types that are not run; false when that stops the run (--strict).
bool Runner::report_unsupported() const {
  bool unsupported = !t_.unsupported.empty();
  for (const auto& kv : missing_) unsupported |= kv.second.second != kSkippedByOption;
  for (const auto& [type, m] : t_.unsupported) {
    std::cerr << "npusim replay: OP Type " << type << " (" << m.first
              << (m.first == 1 ? " row" : " rows") << "): cannot be replayed: " << m.second << "\n";
  }
  for (const auto& [type, m] : missing_) {
    std::cerr << "npusim replay: op type " << type << " (" << m.first
              << (m.first == 1 ? " op" : " ops") << "): " << m.second << "\n";
  }
  if (unsupported && o_.strict) {
    std::cerr << "npusim replay: --strict: nothing was run\n";
    return false;
  }
  if (unsupported) std::cerr << "npusim replay: those are skipped (--strict makes this an error)\n";
  return true;
}

bool Runner::resolve_ops() {
  resolve_base_api();
  entries_.assign(t_.ops.size(), nullptr);
  skip_.assign(t_.ops.size(), false);
  fns.assign(t_.ops.size(), {nullptr, nullptr});
  for (std::size_t i = 0; i < t_.ops.size(); ++i) resolve_op(i);
  return report_unsupported();
}

// ---- the dependency plan ----

struct Runner::PlanState {
  std::vector<int> last_writer;           // per tensor (allocation): step, or -1
  std::vector<std::vector<int>> readers;  // per tensor: steps that read it since the last write
  std::vector<std::vector<std::int64_t>> clock;  // per stream: a vector clock over streams
  std::vector<std::int64_t> seq_count;           // per stream: steps issued
  std::vector<std::int64_t> step_seq;            // per step: its sequence number on its stream
  std::vector<std::vector<std::int64_t>> snap;   // per step: its stream's clock after it
};

int Runner::root(int tensor) const {
  const int v = t_.tensors[static_cast<std::size_t>(tensor)].view_of;
  return v >= 0 ? v : tensor;
}

/// The earlier steps `op` must follow (it reads what they wrote; it writes what they read or
/// wrote), latest first, each once.
std::vector<int> Runner::dependencies(const Op& op, const PlanState& st) const {
  std::vector<int> deps;
  for (int in : op.inputs) {
    if (in >= 0 && st.last_writer[static_cast<std::size_t>(root(in))] >= 0) {
      deps.push_back(st.last_writer[static_cast<std::size_t>(root(in))]);
    }
  }
  for (int out : op.outputs) {
    if (out < 0) continue;
    const auto r = static_cast<std::size_t>(root(out));
    if (st.last_writer[r] >= 0) deps.push_back(st.last_writer[r]);
    deps.insert(deps.end(), st.readers[r].begin(), st.readers[r].end());
  }
  // Latest first: waiting for a stream's latest dependency covers its earlier ones.
  std::sort(deps.begin(), deps.end(), std::greater<int>());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

/// Waits for the dependencies on other streams that the stream's clock does not cover yet.
void Runner::add_waits(Step& step, const std::vector<int>& deps, std::size_t s, PlanState& st) {
  std::vector<std::int64_t>& vc = st.clock[s];
  for (int d : deps) {
    const auto ds = static_cast<std::size_t>(
        t_.ops[static_cast<std::size_t>(steps_[static_cast<std::size_t>(d)].op)].stream);
    if (ds == s || vc[ds] >= st.step_seq[static_cast<std::size_t>(d)]) continue;
    step.waits.push_back(d);
    steps_[static_cast<std::size_t>(d)].record = true;
    for (std::size_t k = 0; k < vc.size(); ++k)
      vc[k] = std::max(vc[k], st.snap[static_cast<std::size_t>(d)][k]);
  }
}

void Runner::note_accesses(const Op& op, int g, PlanState& st) const {
  for (int in : op.inputs) {
    if (in >= 0) st.readers[static_cast<std::size_t>(root(in))].push_back(g);
  }
  for (int out : op.outputs) {
    if (out < 0) continue;
    st.last_writer[static_cast<std::size_t>(root(out))] = g;
    st.readers[static_cast<std::size_t>(root(out))].clear();
  }
}

void Runner::plan() {
  const auto nstreams = static_cast<std::size_t>(t_.streams);
  PlanState st;
  st.last_writer.assign(t_.tensors.size(), -1);
  st.readers.resize(t_.tensors.size());
  st.clock.assign(nstreams, std::vector<std::int64_t>(nstreams, -1));
  st.seq_count.assign(nstreams, 0);
  for (int it = 0; it < o_.repeat; ++it) {
    for (std::size_t i = 0; i < t_.ops.size(); ++i) {
      if (skip_[i]) continue;
      const Op& op = t_.ops[i];
      const int g = static_cast<int>(steps_.size());
      Step step{static_cast<int>(i), {}, false};
      const auto s = static_cast<std::size_t>(op.stream);
      if (!o_.sync_per_op) add_waits(step, dependencies(op, st), s, st);
      st.clock[s][s] = ++st.seq_count[s];
      st.step_seq.push_back(st.clock[s][s]);
      st.snap.push_back(st.clock[s]);
      note_accesses(op, g, st);
      steps_.push_back(std::move(step));
    }
  }
}

// ---- device memory and fills ----

/// The tensors the run touches: operands of ops that run, the bases of used views, and the
/// tensors that are checked or dumped.
std::vector<bool> Runner::used_tensors() const {
  std::vector<bool> used(t_.tensors.size(), false);
  for (std::size_t i = 0; i < t_.ops.size(); ++i) {
    if (skip_[i]) continue;
    for (int x : t_.ops[i].inputs) {
      if (x >= 0) used[static_cast<std::size_t>(x)] = true;
    }
    for (int x : t_.ops[i].outputs) {
      if (x >= 0) used[static_cast<std::size_t>(x)] = true;
    }
  }
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {  // a used view keeps its base
    const int v = t_.tensors[i].view_of;
    if (used[i] && v >= 0) used[static_cast<std::size_t>(v)] = true;
    if (t_.tensors[i].expect.present || t_.tensors[i].role == Role::kOutput) used[i] = true;
  }
  return used;
}

bool Runner::allocate(const std::vector<bool>& used) {
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    const Tensor& t = t_.tensors[i];
    if (t.view_of >= 0 || !used[i]) continue;
    const std::size_t bytes =
        std::max<std::size_t>(1, static_cast<std::size_t>(t.elements()) * dtype_size(t.dtype));
    void* p = nullptr;
    const aclError st = aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (st != ACL_SUCCESS) {
      std::cerr << "npusim replay: " << t.where << ": aclrtMalloc of " << bytes
                << " bytes failed: " << st << recent_error() << "\n";
      return false;
    }
    allocations_.push_back(p);
    dev_[i] = p;
  }
  return true;
}

void Runner::point_views() {
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    const Tensor& t = t_.tensors[i];
    if (t.view_of >= 0 && dev_[static_cast<std::size_t>(t.view_of)] != nullptr) {
      dev_[i] = static_cast<char*>(dev_[static_cast<std::size_t>(t.view_of)]) +
                t.offset * static_cast<std::int64_t>(dtype_size(t.dtype));
    }
  }
}

bool Runner::allocate_and_fill() {
  dev_.assign(t_.tensors.size(), nullptr);
  if (!allocate(used_tensors())) return false;
  point_views();
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    if (dev_[i] != nullptr && t_.tensors[i].view_of < 0 && !fill(static_cast<int>(i))) return false;
  }
  return true;
}

namespace {

void fill_random(const Tensor& t, std::uint64_t trace_seed, std::vector<char>& host) {
  const std::size_t es = dtype_size(t.dtype);
  std::uint64_t state = t.init.seed != 0 ? t.init.seed : name_hash(t.name, trace_seed);
  const double lo = t.init.low, span = t.init.high - t.init.low;
  const bool integer = is_integer(t.dtype);
  for (std::size_t i = 0; i < host.size() / es; ++i) {
    const double u = static_cast<double>(splitmix(state) >> 11) * (1.0 / 9007199254740992.0);
    const double v = integer ? std::floor(lo + u * span) : lo + u * span;
    store_element(t.dtype, host.data() + i * es, v);
  }
}

void fill_triu(const Tensor& t, std::vector<char>& host) {
  const std::size_t es = dtype_size(t.dtype);
  const auto cols = static_cast<std::size_t>(t.shape.back());
  const auto rows = static_cast<std::size_t>(t.shape[t.shape.size() - 2]);
  for (std::size_t i = 0; i < host.size() / es; ++i) {
    const auto c = static_cast<std::int64_t>(i % cols);
    const auto r = static_cast<std::int64_t>((i / cols) % rows);
    store_element(t.dtype, host.data() + i * es, c - r >= t.init.diagonal ? 1.0 : 0.0);
  }
}

}  // namespace

/// The host image of a tensor's initial contents; false (reported) when its file is unreadable.
bool Runner::generate(const Tensor& t, std::vector<char>& host) const {
  const std::size_t es = dtype_size(t.dtype);
  // Timing-only: floating-point values are never computed on, so generating them (most of a large
  // trace's set-up time) is skipped; the copy still costs what it costs.
  const bool generate = !o_.timing_only || is_integer(t.dtype) || t.init.kind == Init::Kind::kFile;
  switch (generate ? t.init.kind : Init::Kind::kNone) {
    case Init::Kind::kRandom:
      fill_random(t, t_.seed, host);
      break;
    case Init::Kind::kValue:
      for (std::size_t i = 0; i < host.size() / es; ++i)
        store_element(t.dtype, host.data() + i * es, t.init.value);
      break;
    case Init::Kind::kValues:
      for (std::size_t i = 0; i < host.size() / es; ++i)
        store_element(t.dtype, host.data() + i * es, t.init.values[i]);
      break;
    case Init::Kind::kTriu:
      fill_triu(t, host);
      break;
    case Init::Kind::kFile: {
      std::ifstream in(t.init.file, std::ios::binary);
      if (!in.read(host.data(), static_cast<std::streamsize>(host.size()))) {
        std::cerr << "npusim replay: " << t.where << ": cannot read " << t.init.file << "\n";
        return false;
      }
      break;
    }
    default:
      break;
  }
  return true;
}

bool Runner::fill(int index) {
  const Tensor& t = t_.tensors[static_cast<std::size_t>(index)];
  const std::size_t bytes = static_cast<std::size_t>(t.elements()) * dtype_size(t.dtype);
  if (bytes == 0 || t.init.kind == Init::Kind::kNone) return true;
  if (t.init.kind == Init::Kind::kZeros) {
    const aclError st = aclrtMemset(device(index), bytes, 0, bytes);
    if (st != ACL_SUCCESS) {
      std::cerr << "npusim replay: " << t.where << ": aclrtMemset failed: " << st << recent_error()
                << "\n";
      return false;
    }
    return true;
  }
  std::vector<char> host(bytes);
  if (!generate(t, host)) return false;
  const aclError st =
      aclrtMemcpy(device(index), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  if (st != ACL_SUCCESS) {
    std::cerr << "npusim replay: " << t.where << ": aclrtMemcpy failed: " << st << recent_error()
              << "\n";
    return false;
  }
  return true;
}

}  // namespace npusim::replay
