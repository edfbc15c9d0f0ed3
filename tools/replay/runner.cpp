// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/runner.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "acl/acl.h"
#include "tools/replay/op_table.h"
#include "tools/replay/trace.h"

namespace npusim::replay {
namespace {

namespace fs = std::filesystem;

// The aclnn base API, resolved at run time like the operators (CANN's aclnn/acl_meta.h).
using CreateTensorFn = aclTensor* (*)(const int64_t*, uint64_t, aclDataType, const int64_t*,
                                      int64_t, aclFormat, const int64_t*, uint64_t, void*);
using DestroyTensorFn = aclnnStatus (*)(const aclTensor*);
using CreateScalarFn = aclScalar* (*)(void*, aclDataType);
using DestroyScalarFn = aclnnStatus (*)(const aclScalar*);
using CreateIntArrayFn = aclIntArray* (*)(const int64_t*, uint64_t);
using DestroyIntArrayFn = aclnnStatus (*)(const aclIntArray*);
using Phase2Fn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

void* symbol(const std::string& name) { return dlsym(RTLD_DEFAULT, name.c_str()); }

std::string recent_error() {
  const char* msg = aclGetRecentErrMsg();
  return msg != nullptr && *msg != '\0' ? std::string(": ") + msg : std::string();
}

// ---- element conversion (host side of fills and checks) ----

std::uint16_t to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t mant = x & 0x7FFFFFu;
  const int exp = static_cast<int>((x >> 23) & 0xFF);
  if (exp == 0xFF) return static_cast<std::uint16_t>(sign | 0x7C00u | (mant ? 0x200u : 0u));
  int e = exp - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return static_cast<std::uint16_t>(sign);
    const std::uint32_t m = mant | 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: right
  return static_cast<std::uint16_t>(sign | h);
}

float from_half(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  int exp = (h >> 10) & 0x1F;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 1;
      while (!(mant & 0x400u)) mant <<= 1, --exp;
      mant &= 0x3FFu;
      bits = sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
    }
  } else {
    bits = sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void store(int dtype, char* p, double v) {
  switch (dtype) {
    case ACL_FLOAT: {
      float x = static_cast<float>(v);
      std::memcpy(p, &x, 4);
      return;
    }
    case ACL_FLOAT16: {
      std::uint16_t x = to_half(static_cast<float>(v));
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_BF16: {
      float f = static_cast<float>(v);
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      bits += 0x7FFFu + ((bits >> 16) & 1u);
      std::uint16_t x = static_cast<std::uint16_t>(bits >> 16);
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_DOUBLE:
      std::memcpy(p, &v, 8);
      return;
    case ACL_INT8: {
      auto x = static_cast<std::int8_t>(v);
      std::memcpy(p, &x, 1);
      return;
    }
    case ACL_UINT8:
    case ACL_BOOL: {
      auto x = static_cast<std::uint8_t>(v);
      std::memcpy(p, &x, 1);
      return;
    }
    case ACL_INT16: {
      auto x = static_cast<std::int16_t>(v);
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_UINT16: {
      auto x = static_cast<std::uint16_t>(v);
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_INT32: {
      auto x = static_cast<std::int32_t>(v);
      std::memcpy(p, &x, 4);
      return;
    }
    case ACL_UINT32: {
      auto x = static_cast<std::uint32_t>(v);
      std::memcpy(p, &x, 4);
      return;
    }
    case ACL_UINT64: {
      auto x = static_cast<std::uint64_t>(v);
      std::memcpy(p, &x, 8);
      return;
    }
    default: {
      auto x = static_cast<std::int64_t>(v);
      std::memcpy(p, &x, 8);
      return;
    }
  }
}

double load(int dtype, const char* p) {
  switch (dtype) {
    case ACL_FLOAT: {
      float x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case ACL_FLOAT16: {
      std::uint16_t x;
      std::memcpy(&x, p, 2);
      return from_half(x);
    }
    case ACL_BF16: {
      std::uint16_t h;
      std::memcpy(&h, p, 2);
      std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case ACL_DOUBLE: {
      double x;
      std::memcpy(&x, p, 8);
      return x;
    }
    case ACL_INT8: {
      std::int8_t x;
      std::memcpy(&x, p, 1);
      return x;
    }
    case ACL_UINT8:
    case ACL_BOOL: {
      std::uint8_t x;
      std::memcpy(&x, p, 1);
      return x;
    }
    case ACL_INT16: {
      std::int16_t x;
      std::memcpy(&x, p, 2);
      return x;
    }
    case ACL_UINT16: {
      std::uint16_t x;
      std::memcpy(&x, p, 2);
      return x;
    }
    case ACL_INT32: {
      std::int32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case ACL_UINT32: {
      std::uint32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case ACL_UINT64: {
      std::uint64_t x;
      std::memcpy(&x, p, 8);
      return static_cast<double>(x);
    }
    default: {
      std::int64_t x;
      std::memcpy(&x, p, 8);
      return static_cast<double>(x);
    }
  }
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t name_hash(const std::string& s, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

bool is_integer(int dtype) {
  return dtype != ACL_FLOAT && dtype != ACL_FLOAT16 && dtype != ACL_BF16 && dtype != ACL_DOUBLE;
}

std::string fmt_us(double us) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3) << us;
  return o.str();
}

// ---- the runner ----

struct Step {
  int op;
  std::vector<int> waits;  // steps whose events this step's stream waits for
  bool record = false;
};

class Runner;

class OpCall final : public Call {
 public:
  OpCall(Runner& r, int op_index, aclrtStream stream) : r_(r), index_(op_index), stream_(stream) {}
  aclTensor* in(std::size_t i) override { return operand(true, i, false); }
  aclTensor* out(std::size_t i) override { return operand(false, i, false); }
  aclTensor* in_transposed(std::size_t i, bool t) override { return operand(true, i, t); }
  const std::vector<std::int64_t>& in_shape(std::size_t i) const override;
  const std::vector<std::int64_t>& out_shape(std::size_t i) const override;
  aclDataType out_dtype(std::size_t i) const override;
  std::int64_t attr_int(const char* name) const override { return std::stoll(text(name)); }
  double attr_float(const char* name) const override { return std::stod(text(name)); }
  bool attr_bool(const char* name) const override { return text(name) == "true"; }
  const std::string& attr_string(const char* name) override {
    strings_.push_back(std::make_unique<std::string>(text(name)));
    return *strings_.back();
  }
  std::vector<std::int64_t> attr_ints(const char* name) const override;
  bool rejected = false;  // phase 1 refused the arguments (nothing was queued)
  aclIntArray* int_array(const std::vector<std::int64_t>& values, bool null_if_empty) override;
  aclScalar* scalar(double value) override;
  std::string error;

 protected:
  void* phase1() override;
  aclnnStatus phase2(aclnnStatus st, std::uint64_t workspace, aclOpExecutor* executor) override;

 private:
  aclTensor* operand(bool input, std::size_t i, bool transposed);
  std::string text(const char* name) const;

  Runner& r_;
  int index_;
  aclrtStream stream_;
  std::vector<std::unique_ptr<std::string>> strings_;
};

class Runner {
 public:
  explicit Runner(const Options& o) : o_(o) {}
  int run();

  // For OpCall.
  const Trace& trace() const { return t_; }
  const OpEntry& entry(int op) const { return *entries_[static_cast<std::size_t>(op)]; }
  aclTensor* make_tensor(int tensor, bool transposed, const OpEntry& e);
  void* device(int tensor) const;
  void* workspace(int op, std::uint64_t bytes, std::string& error);
  CreateIntArrayFn create_int_array = nullptr;
  CreateScalarFn create_scalar = nullptr;
  std::vector<aclIntArray*> arrays;
  std::vector<aclScalar*> scalars;
  std::vector<std::pair<void*, void*>> fns;  // per op: phase 1, phase 2

 private:
  bool resolve_ops();
  void plan();
  bool allocate_and_fill();
  bool fill(int tensor);
  int execute(double& simulated_us, int& ops_run);
  int check_and_dump();
  void cleanup();
  void write_summary(int ops_run, double simulated_us, int checks_failed);

  Options o_;
  Trace t_;
  std::vector<const OpEntry*> entries_;
  std::vector<bool> skip_;
  std::map<std::string, std::pair<int, std::string>> missing_;   // op type → count, what
  std::map<std::string, std::pair<int, std::string>> rejected_;  // refused in phase 1 (runs)
  std::vector<Step> steps_;
  std::vector<void*> dev_;  // per tensor; views point into their base
  std::vector<void*> allocations_;
  std::map<int, std::pair<void*, std::uint64_t>> workspaces_;
  std::vector<aclrtStream> streams_;
  std::vector<aclTensor*> tensors_;
  CreateTensorFn create_tensor_ = nullptr;
  DestroyTensorFn destroy_tensor_ = nullptr;
  DestroyScalarFn destroy_scalar_ = nullptr;
  DestroyIntArrayFn destroy_int_array_ = nullptr;
  int checks_passed_ = 0;
  int checks_skipped_ = 0;
};

const std::vector<std::int64_t>& OpCall::in_shape(std::size_t i) const {
  static const std::vector<std::int64_t> none;
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  if (i >= op.inputs.size() || op.inputs[i] < 0) return none;
  return r_.trace().tensors[static_cast<std::size_t>(op.inputs[i])].shape;
}

const std::vector<std::int64_t>& OpCall::out_shape(std::size_t i) const {
  static const std::vector<std::int64_t> none;
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  if (i >= op.outputs.size() || op.outputs[i] < 0) return none;
  return r_.trace().tensors[static_cast<std::size_t>(op.outputs[i])].shape;
}

aclDataType OpCall::out_dtype(std::size_t i) const {
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  if (i >= op.outputs.size() || op.outputs[i] < 0) return ACL_DT_UNDEFINED;
  return static_cast<aclDataType>(
      r_.trace().tensors[static_cast<std::size_t>(op.outputs[i])].dtype);
}

std::string OpCall::text(const char* name) const {
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  auto it = op.attrs.find(name);
  if (it != op.attrs.end() && !it->second.items.empty()) return it->second.items[0];
  for (const AttrSpec& a : r_.entry(index_).attrs) {
    if (std::strcmp(a.name, name) == 0 && a.fallback != nullptr) return a.fallback;
  }
  return "0";
}

std::vector<std::int64_t> OpCall::attr_ints(const char* name) const {
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  std::vector<std::int64_t> out;
  auto it = op.attrs.find(name);
  if (it != op.attrs.end()) {
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
  const Op& op = r_.trace().ops[static_cast<std::size_t>(index_)];
  const std::vector<int>& list = input ? op.inputs : op.outputs;
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

bool Runner::resolve_ops() {
  create_tensor_ = reinterpret_cast<CreateTensorFn>(symbol("aclCreateTensor"));
  destroy_tensor_ = reinterpret_cast<DestroyTensorFn>(symbol("aclDestroyTensor"));
  create_scalar = reinterpret_cast<CreateScalarFn>(symbol("aclCreateScalar"));
  destroy_scalar_ = reinterpret_cast<DestroyScalarFn>(symbol("aclDestroyScalar"));
  create_int_array = reinterpret_cast<CreateIntArrayFn>(symbol("aclCreateIntArray"));
  destroy_int_array_ = reinterpret_cast<DestroyIntArrayFn>(symbol("aclDestroyIntArray"));
  entries_.assign(t_.ops.size(), nullptr);
  skip_.assign(t_.ops.size(), false);
  fns.assign(t_.ops.size(), {nullptr, nullptr});
  for (std::size_t i = 0; i < t_.ops.size(); ++i) {
    const OpEntry* e = find_op(t_.ops[i].type);
    entries_[i] = e;
    const std::string name = std::string("aclnn") + e->aclnn;
    std::string what = missing_symbol(*e, [](const std::string& s) { return symbol(s); });
    if (what.empty() && o_.skip_ops.count(t_.ops[i].type)) what = "skipped (--skip-op)";
    if (!what.empty()) {
      skip_[i] = true;
      auto& m = missing_[t_.ops[i].type];
      ++m.first;
      m.second = what;
    } else {
      fns[i] = {symbol(name + "GetWorkspaceSize"), symbol(name)};
    }
  }
  bool unsupported = !t_.unsupported.empty();
  for (const auto& kv : missing_) unsupported |= kv.second.second != "skipped (--skip-op)";
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

void Runner::plan() {
  const int nstreams = t_.streams;
  auto root = [&](int tensor) {
    const int v = t_.tensors[static_cast<std::size_t>(tensor)].view_of;
    return v >= 0 ? v : tensor;
  };
  std::vector<int> last_writer(t_.tensors.size(), -1);
  std::vector<std::vector<int>> readers(t_.tensors.size());
  std::vector<std::vector<std::int64_t>> clock(
      static_cast<std::size_t>(nstreams),
      std::vector<std::int64_t>(static_cast<std::size_t>(nstreams), -1));
  std::vector<std::int64_t> seq_count(static_cast<std::size_t>(nstreams), 0);
  std::vector<std::int64_t> step_seq;
  std::vector<std::vector<std::int64_t>> snap;
  for (int it = 0; it < o_.repeat; ++it) {
    for (std::size_t i = 0; i < t_.ops.size(); ++i) {
      if (skip_[i]) continue;
      const Op& op = t_.ops[i];
      const int g = static_cast<int>(steps_.size());
      Step step{static_cast<int>(i), {}, false};
      const auto s = static_cast<std::size_t>(op.stream);
      std::vector<int> deps;
      for (int in : op.inputs) {
        if (in >= 0 && last_writer[static_cast<std::size_t>(root(in))] >= 0) {
          deps.push_back(last_writer[static_cast<std::size_t>(root(in))]);
        }
      }
      for (int out : op.outputs) {
        if (out < 0) continue;
        const auto r = static_cast<std::size_t>(root(out));
        if (last_writer[r] >= 0) deps.push_back(last_writer[r]);
        deps.insert(deps.end(), readers[r].begin(), readers[r].end());
      }
      // Latest first: waiting for a stream's latest dependency covers its earlier ones.
      std::sort(deps.begin(), deps.end(), std::greater<int>());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      std::vector<std::int64_t>& vc = clock[s];
      if (!o_.sync_per_op) {
        for (int d : deps) {
          const auto ds = static_cast<std::size_t>(
              t_.ops[static_cast<std::size_t>(steps_[static_cast<std::size_t>(d)].op)].stream);
          if (ds == s || vc[ds] >= step_seq[static_cast<std::size_t>(d)]) continue;
          step.waits.push_back(d);
          steps_[static_cast<std::size_t>(d)].record = true;
          for (std::size_t k = 0; k < vc.size(); ++k)
            vc[k] = std::max(vc[k], snap[static_cast<std::size_t>(d)][k]);
        }
      }
      vc[s] = ++seq_count[s];
      step_seq.push_back(vc[s]);
      snap.push_back(vc);
      for (int in : op.inputs) {
        if (in >= 0) readers[static_cast<std::size_t>(root(in))].push_back(g);
      }
      for (int out : op.outputs) {
        if (out < 0) continue;
        last_writer[static_cast<std::size_t>(root(out))] = g;
        readers[static_cast<std::size_t>(root(out))].clear();
      }
      steps_.push_back(std::move(step));
    }
  }
}

bool Runner::fill(int index) {
  const Tensor& t = t_.tensors[static_cast<std::size_t>(index)];
  const std::size_t es = dtype_size(t.dtype);
  const auto n = static_cast<std::size_t>(t.elements());
  const std::size_t bytes = n * es;
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
  // Timing-only: floating-point values are never computed on, so generating them (most of a large
  // trace's set-up time) is skipped; the copy below still costs what it costs.
  const bool generate = !o_.timing_only || is_integer(t.dtype) || t.init.kind == Init::Kind::kFile;
  switch (generate ? t.init.kind : Init::Kind::kNone) {
    case Init::Kind::kRandom: {
      std::uint64_t state = t.init.seed != 0 ? t.init.seed : name_hash(t.name, t_.seed);
      const double lo = t.init.low, span = t.init.high - t.init.low;
      const bool integer = is_integer(t.dtype);
      for (std::size_t i = 0; i < n; ++i) {
        const double u = static_cast<double>(splitmix(state) >> 11) * (1.0 / 9007199254740992.0);
        const double v = integer ? std::floor(lo + u * span) : lo + u * span;
        store(t.dtype, host.data() + i * es, v);
      }
      break;
    }
    case Init::Kind::kValue:
      for (std::size_t i = 0; i < n; ++i) store(t.dtype, host.data() + i * es, t.init.value);
      break;
    case Init::Kind::kValues:
      for (std::size_t i = 0; i < n; ++i) store(t.dtype, host.data() + i * es, t.init.values[i]);
      break;
    case Init::Kind::kTriu: {
      const auto cols = static_cast<std::size_t>(t.shape.back());
      const auto rows = static_cast<std::size_t>(t.shape[t.shape.size() - 2]);
      for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<std::int64_t>(i % cols);
        const auto r = static_cast<std::int64_t>((i / cols) % rows);
        store(t.dtype, host.data() + i * es, c - r >= t.init.diagonal ? 1.0 : 0.0);
      }
      break;
    }
    case Init::Kind::kFile: {
      std::ifstream in(t.init.file, std::ios::binary);
      if (!in.read(host.data(), static_cast<std::streamsize>(bytes))) {
        std::cerr << "npusim replay: " << t.where << ": cannot read " << t.init.file << "\n";
        return false;
      }
      break;
    }
    default:
      break;
  }
  const aclError st =
      aclrtMemcpy(device(index), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  if (st != ACL_SUCCESS) {
    std::cerr << "npusim replay: " << t.where << ": aclrtMemcpy failed: " << st << recent_error()
              << "\n";
    return false;
  }
  return true;
}

bool Runner::allocate_and_fill() {
  dev_.assign(t_.tensors.size(), nullptr);
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
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    const Tensor& t = t_.tensors[i];
    if (t.view_of >= 0 && dev_[static_cast<std::size_t>(t.view_of)] != nullptr) {
      dev_[i] = static_cast<char*>(dev_[static_cast<std::size_t>(t.view_of)]) +
                t.offset * static_cast<std::int64_t>(dtype_size(t.dtype));
    }
  }
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    if (dev_[i] != nullptr && t_.tensors[i].view_of < 0 && !fill(static_cast<int>(i))) return false;
  }
  return true;
}

int Runner::execute(double& simulated_us, int& ops_run) {
  std::vector<aclrtEvent> events(steps_.size(), nullptr);
  aclrtEvent start = nullptr, end = nullptr;
  std::vector<aclrtEvent> joins;
  int rc = 0;
  auto bad = [&](const std::string& what, aclError st) {
    std::cerr << "npusim replay: " << what << " failed: " << st << recent_error() << "\n";
    rc = 1;
  };
  if (aclrtCreateEvent(&start) != ACL_SUCCESS || aclrtCreateEvent(&end) != ACL_SUCCESS) {
    bad("aclrtCreateEvent", 1);
    return rc;
  }
  for (std::size_t g = 0; g < steps_.size(); ++g) {
    if (steps_[g].record && aclrtCreateEvent(&events[g]) != ACL_SUCCESS) {
      bad("aclrtCreateEvent", 1);
      return rc;
    }
  }
  if (aclError st = aclrtSynchronizeDevice(); st != ACL_SUCCESS) {
    bad("aclrtSynchronizeDevice after the fills", st);
    return rc;
  }
  aclrtRecordEvent(start, streams_[0]);
  for (std::size_t s = 1; s < streams_.size(); ++s) aclrtStreamWaitEvent(streams_[s], start);
  for (std::size_t g = 0; g < steps_.size() && rc == 0; ++g) {
    const Step& step = steps_[g];
    const Op& op = t_.ops[static_cast<std::size_t>(step.op)];
    aclrtStream stream = streams_[static_cast<std::size_t>(op.stream)];
    for (int w : step.waits) {
      if (aclError st = aclrtStreamWaitEvent(stream, events[static_cast<std::size_t>(w)]);
          st != ACL_SUCCESS) {
        bad(op.where + ": aclrtStreamWaitEvent", st);
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
      continue;
    }
    if (st != 0) {
      std::cerr << "npusim replay: " << t_.file << ": " << op.where << ": "
                << (call.error.empty() ? "failed with " + std::to_string(st) : call.error) << "\n";
      rc = 1;
      break;
    }
    ++ops_run;
    if (step.record) aclrtRecordEvent(events[g], stream);
    if (o_.sync_per_op) {
      if (aclError e = aclrtSynchronizeStream(stream); e != ACL_SUCCESS) {
        bad(op.where + ": aclrtSynchronizeStream", e);
      }
    }
  }
  if (rc == 0) {
    for (std::size_t s = 1; s < streams_.size(); ++s) {
      aclrtEvent j = nullptr;
      aclrtCreateEvent(&j);
      joins.push_back(j);
      aclrtRecordEvent(j, streams_[s]);
      aclrtStreamWaitEvent(streams_[0], j);
    }
    aclrtRecordEvent(end, streams_[0]);
    if (aclError st = aclrtSynchronizeEvent(end); st != ACL_SUCCESS)
      bad("the run (aclrtSynchronizeEvent)", st);
  }
  // A kernel that failed (trap, bad access, UB overflow) fails its stream: report it, never a
  // timing of a broken run.
  for (std::size_t s = 0; rc == 0 && s < streams_.size(); ++s) {
    if (aclError st = aclrtSynchronizeStream(streams_[s]); st != ACL_SUCCESS) {
      bad("stream " + std::to_string(s) + " (a kernel failed)", st);
    }
  }
  if (rc == 0) {
    float ms = 0;
    if (aclError st = aclrtEventElapsedTime(&ms, start, end); st != ACL_SUCCESS) {
      bad("aclrtEventElapsedTime", st);
    }
    simulated_us = static_cast<double>(ms) * 1000.0;
  }
  (void)aclrtSynchronizeDevice();
  for (aclrtEvent e : events) {
    if (e != nullptr) aclrtDestroyEvent(e);
  }
  for (aclrtEvent e : joins) aclrtDestroyEvent(e);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(end);
  return rc;
}

int Runner::check_and_dump() {
  int failed = 0;
  for (std::size_t i = 0; i < t_.tensors.size(); ++i) {
    const Tensor& t = t_.tensors[i];
    const bool dump = !o_.dump_dir.empty() && t.role == Role::kOutput;
    if ((!t.expect.present && !dump) || dev_[i] == nullptr) continue;
    const std::size_t es = dtype_size(t.dtype);
    const auto n = static_cast<std::size_t>(t.elements());
    std::vector<char> host(n * es);
    if (!host.empty()) {
      const aclError st =
          aclrtMemcpy(host.data(), host.size(), dev_[i], host.size(), ACL_MEMCPY_DEVICE_TO_HOST);
      if (st != ACL_SUCCESS) {
        std::cerr << "npusim replay: reading " << t.where << " failed: " << st << recent_error()
                  << "\n";
        ++failed;
        continue;
      }
    }
    if (dump) {
      std::error_code ec;
      fs::create_directories(o_.dump_dir, ec);
      std::ofstream out(fs::path(o_.dump_dir) / (t.name + ".bin"), std::ios::binary);
      out.write(host.data(), static_cast<std::streamsize>(host.size()));
    }
    if (!t.expect.present) continue;
    if (o_.timing_only) {  // the kernels computed nothing: there is no result to judge
      ++checks_skipped_;
      std::cout << "  check " << t.name << ": skipped (timing-only run: results are undefined)\n";
      continue;
    }
    std::size_t bad = 0;
    std::ostringstream first;
    for (std::size_t k = 0; k < n; ++k) {
      const double got = load(t.dtype, host.data() + k * es);
      const double want = t.expect.single ? t.expect.values[0] : t.expect.values[k];
      const bool ok = std::fabs(got - want) <= t.expect.atol + t.expect.rtol * std::fabs(want);
      if (!ok && bad++ < 3) first << " [" << k << "] " << got << " (expected " << want << ")";
    }
    if (bad == 0) {
      ++checks_passed_;
      std::cout << "  check " << t.name << ": OK (" << n << " elements)\n";
    } else {
      ++failed;
      std::cout << "  check " << t.name << ": FAILED, " << bad << " of " << n
                << " elements differ:" << first.str() << "\n";
    }
  }
  return failed;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
  }
  return out + "\"";
}

void Runner::write_summary(int ops_run, double simulated_us, int checks_failed) {
  if (o_.out_dir.empty()) return;
  std::ostringstream j;
  j << "{\n  \"trace\": " << json_string(t_.name) << ",\n  \"ops_run\": " << ops_run
    << ",\n  \"iterations\": " << o_.repeat << ",\n  \"streams\": " << t_.streams
    << ",\n  \"sync_per_op\": " << (o_.sync_per_op ? "true" : "false")
    << ",\n  \"simulated_us\": " << fmt_us(simulated_us) << ",\n  \"skipped\": {";
  bool first = true;
  for (const auto& [type, m] : missing_) {
    j << (first ? "" : ", ") << json_string(type) << ": " << m.first;
    first = false;
  }
  for (const auto& [type, m] : t_.unsupported) {
    j << (first ? "" : ", ") << json_string(type) << ": " << m.first;
    first = false;
  }
  j << "},\n  \"rejected\": {";
  first = true;
  for (const auto& [type, r] : rejected_) {
    j << (first ? "" : ", ") << json_string(type) << ": " << r.first;
    first = false;
  }
  j << "},\n  \"checks_passed\": " << checks_passed_ << ",\n  \"checks_skipped\": " << checks_skipped_
    << ",\n  \"checks_failed\": " << checks_failed
    << "\n}\n";
  std::ofstream out(fs::path(o_.out_dir) / "replay_summary.json");
  out << j.str();
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

// The runtime's op_summary.csv (msprof columns), summed per OP Type, longest first.
void print_op_types(const std::string& out_dir) {
  std::ifstream in(fs::path(out_dir) / "op_summary.csv", std::ios::binary);
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  const auto rows = parse_csv(text.str());
  if (rows.size() < 2) return;
  long type_col = -1, dur_col = -1;
  for (std::size_t i = 0; i < rows[0].size(); ++i) {
    if (rows[0][i] == "OP Type") type_col = static_cast<long>(i);
    if (rows[0][i] == "Task Duration(us)") dur_col = static_cast<long>(i);
  }
  if (type_col < 0 || dur_col < 0) return;
  std::map<std::string, std::pair<int, double>> by_type;
  double total = 0;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() <= static_cast<std::size_t>(std::max(type_col, dur_col))) continue;
    double us = 0;
    try {
      us = std::stod(rows[r][static_cast<std::size_t>(dur_col)]);
    } catch (const std::exception&) {
      continue;
    }
    auto& slot = by_type[rows[r][static_cast<std::size_t>(type_col)]];
    ++slot.first;
    slot.second += us;
    total += us;
  }
  std::vector<std::pair<std::string, std::pair<int, double>>> sorted(by_type.begin(),
                                                                     by_type.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  std::cout << "  kernel time by OP Type (op_summary.csv, Task Duration):\n";
  for (const auto& [type, v] : sorted) {
    std::cout << "    " << std::left << std::setw(28) << type << std::right << std::setw(6)
              << v.first << std::setw(14) << fmt_us(v.second) << " us" << std::setw(8) << std::fixed
              << std::setprecision(1) << (total > 0 ? 100.0 * v.second / total : 0.0) << " %\n";
  }
}

int Runner::run() {
  const auto wall0 = std::chrono::steady_clock::now();
  try {
    t_ = load_trace(o_.trace, o_.params);
  } catch (const TraceError& e) {
    std::cerr << "npusim replay: bad trace: " << e.what() << "\n";
    return 2;
  }
  if (!resolve_ops()) return 2;
  plan();
  if (aclError st = aclInit(nullptr); st != ACL_SUCCESS) {
    std::cerr << "npusim replay: aclInit failed: " << st << recent_error() << "\n";
    return 2;
  }
  int rc = 0;
  double simulated_us = 0;
  int ops_run = 0;
  double run_wall = 0;
  int checks_failed = 0;
  bool ran = false;
  if (aclError st = aclrtSetDevice(0); st != ACL_SUCCESS) {
    std::cerr << "npusim replay: aclrtSetDevice(0) failed: " << st << recent_error() << "\n";
    rc = 2;
  }
  for (int s = 0; rc == 0 && s < t_.streams; ++s) {
    aclrtStream stream = nullptr;
    if (aclError st = aclrtCreateStream(&stream); st != ACL_SUCCESS) {
      std::cerr << "npusim replay: aclrtCreateStream failed: " << st << recent_error() << "\n";
      rc = 2;
    }
    streams_.push_back(stream);
  }
  if (rc == 0 && !allocate_and_fill()) rc = 2;
  if (rc == 0) {
    const auto t0 = std::chrono::steady_clock::now();
    rc = execute(simulated_us, ops_run);
    ran = rc == 0;
    run_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (rc == 0) {
    checks_failed = check_and_dump();
    if (checks_failed > 0) rc = 1;
  }
  for (const auto& [type, r] : rejected_) {
    std::cerr << "npusim replay: op type " << type << " (" << r.first
              << (r.first == 1 ? " op" : " ops")
              << "): refused by its operator, not run; first: " << r.second << "\n";
  }
  write_summary(ops_run, simulated_us, checks_failed);
  cleanup();
  aclrtResetDevice(0);
  aclFinalize();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  int skipped = 0;
  for (const auto& kv : missing_) skipped += kv.second.first;
  std::cout << "npusim replay: " << t_.name
            << (t_.description.empty() ? "" : " (" + t_.description + ")") << "\n"
            << "  ops run: " << ops_run << " (" << t_.ops.size() - static_cast<std::size_t>(skipped)
            << " per iteration x " << o_.repeat << ")";
  if (skipped > 0) std::cout << ", " << skipped << " skipped per iteration";
  int rejected = 0;
  for (const auto& kv : rejected_) rejected += kv.second.first;
  if (rejected > 0) std::cout << ", " << rejected << " refused by their operator";
  if (!t_.unsupported.empty()) {
    int rows = 0;
    for (const auto& kv : t_.unsupported) rows += kv.second.first;
    std::cout << ", " << rows << " of " << t_.csv_rows << " CSV rows not replayable";
  }
  std::cout << "; streams: " << t_.streams << (o_.sync_per_op ? " (synchronous per op)" : "")
            << "\n";
  if (ran) {
    std::cout << "  simulated end-to-end: " << fmt_us(simulated_us) << " us";
    if (o_.repeat > 1)
      std::cout << " (" << fmt_us(simulated_us / o_.repeat) << " us per iteration)";
    std::cout << "\n";
    double captured = 0;
    int with = 0;
    for (std::size_t i = 0; i < t_.ops.size(); ++i) {
      if (!skip_[i] && t_.ops[i].captured_us >= 0) captured += t_.ops[i].captured_us, ++with;
    }
    if (with > 0) {
      std::cout << "  captured (msprof, sum of Task Duration of the replayed rows): "
                << fmt_us(captured * o_.repeat) << " us\n";
    }
  }
  std::cout << "  wall time: " << std::fixed << std::setprecision(3) << run_wall
            << " s running the ops, " << wall << " s in all\n";
  if (ran && !o_.out_dir.empty()) print_op_types(o_.out_dir);
  if (!o_.out_dir.empty()) {
    std::cout << "  outputs in " << o_.out_dir
              << " (timeline.json, stats.json, op_summary.csv, config.yaml, replay_summary.json)\n";
  }
  return rc;
}

}  // namespace

int run_replay(const Options& options) {
  if (options.repeat < 1) {
    std::cerr << "npusim replay: --repeat must be at least 1\n";
    return 2;
  }
  try {
    return Runner(options).run();
  } catch (const std::exception& e) {  // e.g. host memory for a fill: reported, never a crash
    std::cerr << "npusim replay: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace npusim::replay
