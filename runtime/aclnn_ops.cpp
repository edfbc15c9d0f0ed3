// SPDX-License-Identifier: Apache-2.0
// A small operator library with CANN's aclnn interface (aclnn/acl_meta.h, aclnnop/aclnn_*.h):
// tensors, scalars, and the element-wise aclnnAdd and aclnnMul. Installed as libopapi.so and
// libnnopbase.so (links to the runtime library).
//
// An operator call is a kernel launch (one block on a vector core, KernelSpec through
// submit_kernel, so it can be captured into a model run instance): the block computes every
// element when the device runs it, reading and writing device memory then. Timing: the launch
// costs what any kernel launch costs (host launch_call, scheduler, one block's dispatch); the
// arithmetic itself records no pipe instructions, so it takes no simulated time of its own.
//
// Semantics: broadcasting as NumPy (dimensions aligned right, size 1 stretches); self, other and
// out may have different element types (computed in long double, stored as out's type); types
// FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64. An executor is single-use
// (aclnnAdd/aclnnMul consume it), as CANN's are by default. Errors: NULL arguments
// ACLNN_ERR_PARAM_NULLPTR, unknown handles, types or shapes that do not broadcast to out
// ACLNN_ERR_PARAM_INVALID; launch failures return the runtime's aclError.
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "acl/acl_rt.h"
#include "runtime/api_call.h"
#include "runtime/errors.h"
#include "runtime/half_float.h"
#include "runtime/kernel_launch.h"

struct aclTensor {
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> strides;
  std::int64_t offset = 0;
  int dtype = 0;
  std::vector<std::int64_t> storage;
  void* data = nullptr;
};

struct aclScalar {
  int dtype = 0;
  long double value = 0;
};

struct aclOpExecutor {
  std::string name;
  bool add = true;  // else mul
  aclTensor self, other, out;
  long double alpha = 1;
};

namespace npusim::rt {
namespace {

std::set<const void*>& live() {
  static auto* objects = new std::set<const void*>;  // under the API lock; never destroyed
  return *objects;
}

std::size_t element_size(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: return 8;
    case ACL_INT8: case ACL_UINT8: return 1;
    default: return 0;  // not supported
  }
}

long double load(int dtype, const void* base, std::int64_t index) {
  const char* p =
      static_cast<const char*>(base) + index * static_cast<std::int64_t>(element_size(dtype));
  switch (dtype) {
    case ACL_FLOAT: { float v; std::memcpy(&v, p, 4); return v; }
    case ACL_FLOAT16: { std::uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case ACL_BF16: {
      std::uint16_t h;
      std::memcpy(&h, p, 2);
      std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
      float v;
      std::memcpy(&v, &bits, 4);
      return v;
    }
    case ACL_DOUBLE: { double v; std::memcpy(&v, p, 8); return v; }
    case ACL_INT8: { std::int8_t v; std::memcpy(&v, p, 1); return v; }
    case ACL_UINT8: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
    case ACL_INT16: { std::int16_t v; std::memcpy(&v, p, 2); return v; }
    case ACL_INT32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::int64_t v; std::memcpy(&v, p, 8); return static_cast<long double>(v); }
  }
}

// An integer result out of its type's range saturates (NaN gives 0): never an undefined cast.
template <class T>
T saturate(long double v) {
  if (!(v == v)) return 0;
  if (v <= static_cast<long double>(std::numeric_limits<T>::min())) {
    return std::numeric_limits<T>::min();
  }
  if (v >= static_cast<long double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

void store(int dtype, void* base, std::int64_t index, long double v) {
  char* p = static_cast<char*>(base) + index * static_cast<std::int64_t>(element_size(dtype));
  switch (dtype) {
    case ACL_FLOAT: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); return; }
    case ACL_FLOAT16: {
      std::uint16_t x = float_to_half(static_cast<float>(v));
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_BF16: {  // round to nearest even
      float f = static_cast<float>(v);
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      bits += 0x7FFFu + ((bits >> 16) & 1u);
      std::uint16_t x = static_cast<std::uint16_t>(bits >> 16);
      std::memcpy(p, &x, 2);
      return;
    }
    case ACL_DOUBLE: { double x = static_cast<double>(v); std::memcpy(p, &x, 8); return; }
    case ACL_INT8: { auto x = saturate<std::int8_t>(v); std::memcpy(p, &x, 1); return; }
    case ACL_UINT8: { auto x = saturate<std::uint8_t>(v); std::memcpy(p, &x, 1); return; }
    case ACL_INT16: { auto x = saturate<std::int16_t>(v); std::memcpy(p, &x, 2); return; }
    case ACL_INT32: { auto x = saturate<std::int32_t>(v); std::memcpy(p, &x, 4); return; }
    default: { auto x = saturate<std::int64_t>(v); std::memcpy(p, &x, 8); return; }
  }
}

// The element offset of `t` for the output multi-index `idx` (broadcast: t aligned right).
std::int64_t offset_of(const aclTensor& t, const std::vector<std::int64_t>& idx) {
  std::int64_t off = t.offset;
  const std::size_t shift = idx.size() - t.dims.size();
  for (std::size_t k = 0; k < t.dims.size(); ++k) {
    if (t.dims[k] != 1) off += idx[shift + k] * t.strides[k];
  }
  return off;
}

// The kernel body: every element, on the device, when the block runs.
void compute(const aclOpExecutor& ex) {
  const aclTensor& out = ex.out;
  std::int64_t count = 1;
  for (std::int64_t d : out.dims) count *= d;
  std::vector<std::int64_t> idx(out.dims.size(), 0);
  for (std::int64_t n = 0; n < count; ++n) {
    const long double a = load(ex.self.dtype, ex.self.data, offset_of(ex.self, idx));
    const long double b = load(ex.other.dtype, ex.other.data, offset_of(ex.other, idx));
    store(out.dtype, out.data, offset_of(out, idx), ex.add ? a + ex.alpha * b : a * b);
    for (std::size_t k = idx.size(); k-- > 0;) {  // next multi-index
      if (++idx[k] < out.dims[k]) break;
      idx[k] = 0;
    }
  }
}

const aclTensor& tensor(const aclTensor* t, const char* what) {
  require(t != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  require(live().count(t) != 0, ACLNN_ERR_PARAM_INVALID,
          std::string(what) + " is not a live aclTensor");
  return *t;
}

// self and other must broadcast to out's shape.
void check_broadcast(const aclTensor& in, const aclTensor& out, const char* what) {
  require(in.dims.size() <= out.dims.size(), ACLNN_ERR_PARAM_INVALID,
          std::string(what) + " has more dimensions than out");
  const std::size_t shift = out.dims.size() - in.dims.size();
  for (std::size_t k = 0; k < in.dims.size(); ++k) {
    require(in.dims[k] == out.dims[shift + k] || in.dims[k] == 1, ACLNN_ERR_PARAM_INVALID,
            std::string(what) + "'s shape does not broadcast to out's");
  }
}

aclOpExecutor* make_executor(const char* name, bool add, const aclTensor* self,
                             const aclTensor* other, aclTensor* out, uint64_t* workspace_size,
                             aclOpExecutor** executor) {
  const aclTensor& s = tensor(self, "self");
  const aclTensor& o = tensor(other, "other");
  const aclTensor& r = tensor(out, "out");
  require(workspace_size != nullptr && executor != nullptr, ACLNN_ERR_PARAM_NULLPTR,
          "workspaceSize and executor must not be NULL");
  check_broadcast(s, r, "self");
  check_broadcast(o, r, "other");
  auto ex = std::make_unique<aclOpExecutor>();
  ex->name = name;
  ex->add = add;
  ex->self = s;
  ex->other = o;
  ex->out = r;
  *workspace_size = 0;
  *executor = ex.get();
  live().insert(ex.get());
  return ex.release();
}

int launch(const char* api_name, const char* kernel, void* workspace, uint64_t workspace_size,
           aclOpExecutor* executor, void* stream) {
  static const char kIdentity = 0;  // one core-type memory for the library's kernels
  return run_api(api_name, Needs::kInit, [&](Call& c) {
    require(executor != nullptr, ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
    require(live().count(executor) != 0, ACLNN_ERR_PARAM_INVALID,
            "executor is not a live aclOpExecutor (each one runs once)");
    require(workspace_size == 0 || workspace != nullptr, ACLNN_ERR_PARAM_NULLPTR,
            "workspace is NULL");
    std::shared_ptr<const aclOpExecutor> ex(executor);
    live().erase(executor);  // consumed, launched or not
    KernelSpec spec;
    spec.name = kernel;
    spec.identity = &kIdentity;
    spec.block_dim = 1;
    spec.engine = ACL_RT_ENGINE_TYPE_AIV;
    spec.body = [ex] { compute(*ex); };
    submit_kernel(c, stream, std::move(spec));
  });
}

}  // namespace
}  // namespace npusim::rt

using namespace npusim::rt;

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  return api_value<aclTensor*>("aclCreateTensor", Needs::kNothing, nullptr, [&](Call&) {
    require(viewDimsNum == 0 || viewDims != nullptr, ACLNN_ERR_PARAM_NULLPTR, "viewDims is NULL");
    require(viewDimsNum <= 8, ACLNN_ERR_PARAM_INVALID, "at most 8 dimensions");
    const int dtype = as_int(dataType);
    require(element_size(dtype) != 0, ACLNN_ERR_PARAM_INVALID,
            "dataType " + std::to_string(dtype) + " is not supported by npusim's operators");
    (void)format;
    auto t = std::make_unique<aclTensor>();
    t->dims.assign(viewDims, viewDims + viewDimsNum);
    for (std::int64_t d : t->dims) {
      require(d >= 0, ACLNN_ERR_PARAM_INVALID, "a dimension is negative");
    }
    if (stride != nullptr) {
      t->strides.assign(stride, stride + viewDimsNum);
    } else {  // contiguous
      t->strides.assign(viewDimsNum, 1);
      for (std::size_t k = viewDimsNum; k-- > 1;) t->strides[k - 1] = t->strides[k] * t->dims[k];
    }
    t->offset = offset;
    t->dtype = dtype;
    if (storageDims != nullptr) t->storage.assign(storageDims, storageDims + storageDimsNum);
    t->data = tensorData;
    live().insert(t.get());
    return t.release();
  });
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  return api_value<aclScalar*>("aclCreateScalar", Needs::kNothing, nullptr, [&](Call&) {
    require(value != nullptr, ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
    const int dtype = as_int(dataType);
    require(element_size(dtype) != 0, ACLNN_ERR_PARAM_INVALID,
            "dataType " + std::to_string(dtype) + " is not supported by npusim's operators");
    auto s = std::make_unique<aclScalar>();
    s->dtype = dtype;
    s->value = load(dtype, value, 0);
    live().insert(s.get());
    return s.release();
  });
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  return run_api("aclDestroyTensor", Needs::kNothing, [&](Call&) {
    require(tensor != nullptr, ACLNN_ERR_PARAM_NULLPTR, "tensor is NULL");
    require(live().erase(tensor) != 0, ACLNN_ERR_PARAM_INVALID, "tensor is not a live aclTensor");
    delete tensor;
  });
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  return run_api("aclDestroyScalar", Needs::kNothing, [&](Call&) {
    require(scalar != nullptr, ACLNN_ERR_PARAM_NULLPTR, "scalar is NULL");
    require(live().erase(scalar) != 0, ACLNN_ERR_PARAM_INVALID, "scalar is not a live aclScalar");
    delete scalar;
  });
}

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return run_api("aclnnAddGetWorkspaceSize", Needs::kNothing, [&](Call&) {
    require(alpha != nullptr, ACLNN_ERR_PARAM_NULLPTR, "alpha is NULL");
    require(live().count(alpha) != 0, ACLNN_ERR_PARAM_INVALID, "alpha is not a live aclScalar");
    aclOpExecutor* ex = make_executor("Add", true, self, other, out, workspaceSize, executor);
    ex->alpha = alpha->value;
  });
}

aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                     aclrtStream stream) {
  return launch("aclnnAdd", "Add", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return run_api("aclnnMulGetWorkspaceSize", Needs::kNothing, [&](Call&) {
    make_executor("Mul", false, self, other, out, workspaceSize, executor);
  });
}

aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                     aclrtStream stream) {
  return launch("aclnnMul", "Mul", workspace, workspaceSize, executor, stream);
}
