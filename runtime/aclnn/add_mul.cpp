// SPDX-License-Identifier: Apache-2.0
// aclnnAdd (out = self + alpha * other) and aclnnMul (out = self * other), element-wise with
// NumPy broadcasting (dimensions aligned right, size 1 stretches) over any strided views; self,
// other and out may have different element types (computed in long double, stored as out's
// type). One block on a vector core computes every element when the device runs it.
// TODO(issue 10): this body records no pipe instructions (no simulated time of its own); the
// Ascend C versions replace it.
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn {
namespace {

// The element offset of `t` for the output multi-index `idx` (broadcast: t aligned right).
std::int64_t offset_of(const aclTensor& t, const std::vector<std::int64_t>& idx) {
  std::int64_t off = 0;
  const std::size_t shift = idx.size() - t.dims.size();
  for (std::size_t k = 0; k < t.dims.size(); ++k) {
    if (t.dims[k] != 1) off += idx[shift + k] * t.strides[k];
  }
  return off;
}

struct Binary {
  aclTensor self, other, out;  // shapes, strides and types (addresses come with the launch)
  bool add = true;
  long double alpha = 1;
};

void compute(const Binary& op, const Addrs& a) {
  std::int64_t count = op.out.numel();
  std::vector<std::int64_t> idx(op.out.dims.size(), 0);
  for (std::int64_t n = 0; n < count; ++n) {
    const long double x = load(op.self.dtype, a.in[0], offset_of(op.self, idx));
    const long double y = load(op.other.dtype, a.in[1], offset_of(op.other, idx));
    store(op.out.dtype, a.out[0], offset_of(op.out, idx), op.add ? x + op.alpha * y : x * y);
    for (std::size_t k = idx.size(); k-- > 0;) {  // next multi-index
      if (++idx[k] < op.out.dims[k]) break;
      idx[k] = 0;
    }
  }
}

// self and other must broadcast to out's shape.
void check_broadcast(const Plan& p, const aclTensor& in, const aclTensor& out, const char* what) {
  p.require(in.dims.size() <= out.dims.size(),
            std::string(what) + " has more dimensions than out");
  const std::size_t shift = out.dims.size() - in.dims.size();
  for (std::size_t k = 0; k < in.dims.size(); ++k) {
    p.require(in.dims[k] == out.dims[shift + k] || in.dims[k] == 1,
              std::string(what) + "'s shape does not broadcast to out's");
  }
}

void plan_binary(Plan& p, bool add, const aclTensor* self, const aclTensor* other,
                 const aclTensor* out, long double alpha) {
  Binary op;
  op.self = p.input(self, "self");
  op.other = p.input(other, "other");
  op.out = p.output(out, "out");
  op.add = add;
  op.alpha = alpha;
  check_broadcast(p, op.self, op.out, "self");
  check_broadcast(p, op.other, op.out, "other");
  static const char kIdentity = 0;  // one core-type memory for these kernels
  p.launch(add ? "Add" : "Mul", &kIdentity, 1, Core::kVector,
           [op](const Addrs& a) { compute(op, a); });
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnAddGetWorkspaceSize", "Add", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       const long double a = p.scalar(alpha, "alpha");
                       nn::plan_binary(p, true, self, other, out, a);
                     });
}

aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                     aclrtStream stream) {
  return nn::execute("aclnnAdd", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return nn::prepare("aclnnMulGetWorkspaceSize", "Mul", workspaceSize, executor,
                     [&](nn::Plan& p) { nn::plan_binary(p, false, self, other, out, 1); });
}

aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                     aclrtStream stream) {
  return nn::execute("aclnnMul", workspace, workspaceSize, executor, stream);
}
