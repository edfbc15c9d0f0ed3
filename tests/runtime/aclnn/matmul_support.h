// SPDX-License-Identifier: Apache-2.0
// The fixture of the matmul family's tests (aclnn_matmul_test.cpp, aclnn_conv_test.cpp); the
// product check is in matmul_support.cpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing::matmul_test {

using GetWs = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using RunFn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

inline std::size_t elem_size(aclDataType t) { return t == ACL_FLOAT ? 4 : 2; }

// Stores v (rounded to t) at p[i]; returns the rounded value.
double put(aclDataType t, void* p, std::size_t i, double v);
// Element i of t at p.
double get(aclDataType t, const void* p, std::size_t i);

inline double tolerance(aclDataType out) {
  return out == ACL_FLOAT16 ? 1e-3 : out == ACL_BF16 ? 1e-2 : 1e-5;
}

// An aclnnMm shape and its input and output types.
struct MmShape {
  int64_t m, k, n;
  aclDataType in, out;
};

class AclnnMatmulTest : public OperatorTest {
 protected:
  // A view of `dims` with `strides` over a buffer of storage_elems elements.
  aclTensor* view(std::vector<int64_t> dims, std::vector<int64_t> strides, aclDataType t,
                  void* data, int64_t storage_elems) {
    return keep(aclCreateTensor(dims.data(), dims.size(), t, strides.data(), 0, ACL_FORMAT_ND,
                                &storage_elems, 1, data));
  }
  static std::vector<int64_t> contiguous(const std::vector<int64_t>& dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
    return s;
  }
  static int64_t numel(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
  // Deterministic values in [-1, 1).
  double next() {
    seed_ = seed_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>((seed_ >> 40) % 2048) / 1024.0 - 1.0;
  }
  // Runs a two-phase call; returns the first phase's status.
  aclnnStatus run(const GetWs& get_ws, RunFn run_op, uint64_t* ws_out = nullptr) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const aclnnStatus st = get_ws(&ws, &ex);
    if (st != ACLNN_SUCCESS) return st;
    if (ws_out != nullptr) *ws_out = ws;
    void* w = ws > 0 ? alloc(ws) : nullptr;
    if (w != nullptr) std::memset(w, 0x55, ws);  // stale data: every byte used must be written
    EXPECT_EQ(run_op(w, ws, ex, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return st;
  }

  // `batches` operands [rows, cols] of type t at p, row-major or, with `trans`, stored
  // transposed, filled with next() values (rounded to t); returns them row-major.
  std::vector<double> fill(aclDataType t, void* p, int64_t batches, int64_t rows, int64_t cols,
                           bool trans);
  // A batched product [ab.., m, k] x [bb.., k, n] (batch dims broadcast, ab/bb same length);
  // trans_a / trans_b: the operand is passed as a transposed view of a row-major buffer.
  // Checks out against the double reference; returns the number of mismatches.
  int check_product(int which, std::vector<int64_t> ab, std::vector<int64_t> bb, int64_t m,
                    int64_t k, int64_t n, aclDataType in, aclDataType out, bool trans_a,
                    bool trans_b, int8_t cube = 0);

  // check_product of aclnnMm for every shape, with A and B each plain and transposed.
  void check_every_layout(const std::vector<MmShape>& shapes) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "transA " << ta << " transB " << tb);
        for (const MmShape& s : shapes) {
          EXPECT_EQ(check_product(0, {}, {}, s.m, s.k, s.n, s.in, s.out, ta, tb), 0);
        }
      }
    }
  }

  std::uint64_t seed_ = 12345;
};

}  // namespace npusim::rt::testing::matmul_test
