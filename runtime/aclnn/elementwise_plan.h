// SPDX-License-Identifier: Apache-2.0
// Host-side planning shared by the element-wise family (elementwise.cpp): where kernel arguments
// live, tensor layouts as the tiling sees them, the tiling of one launch, the launch itself and
// the Cast launches that convert operands and results (elementwise_tiling.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/aclnn/elementwise_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn::ew {

inline bool is_float(int t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }
inline bool is_int(int t) { return t == ACL_INT32 || t == ACL_INT8; }

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
inline std::int64_t round_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

/// Where a kernel argument lives: an operator tensor or a workspace region.
struct Ref {
  enum Where : std::uint8_t { kNone, kIn0, kIn1, kOut, kWs } where = kNone;
  std::uint64_t offset = 0;
};

/// A tensor as the tiling sees it: view shape and element strides (a host scalar: immediate).
struct Layout {
  std::vector<std::int64_t> dims, strides;
  bool immediate = false;
};

inline Layout layout_of(const aclTensor& t) { return Layout{t.dims, t.strides, false}; }
Layout contiguous(const std::vector<std::int64_t>& dims);
inline Layout immediate() { return Layout{{}, {}, true}; }

/// Workspace regions, 512-byte aligned.
struct Workspace {
  std::uint64_t used = 0;
  Ref take(std::int64_t elements, int type) {
    Ref r{Ref::kWs, used};
    used += static_cast<std::uint64_t>(round_up(
        std::max<std::int64_t>(elements, 1) * static_cast<std::int64_t>(element_size(type)), 512));
    return r;
  }
};

/// ACLNN_ERR_PARAM_INVALID for a tensor of more dimensions than the kernels take.
void check_tensor(const Plan& p, const aclTensor& t, const char* what);

/// The tiling of one kernel launch writing `out` from `ins` (see elementwise_kernels.h); checks
/// that every view's innermost dimension is contiguous and that out does not overlap itself.
EwTiling plan_tiling(const Plan& p, EwOp op, const Layout& out, const std::vector<Layout>& ins,
                     int in_type, int c_type, int out_type);

/// Queues the kernel reading `in_type`, computing in `c_type`, writing `out_type` with tiling `t`
/// (ACLNN_ERR_PARAM_INVALID when there is none for the combination).
void launch(Plan& p, const char* name, int in_type, int c_type, int out_type, const EwTiling& t,
            Ref x, Ref y, Ref z);

/// A Cast launch from `src` (laid out as `from_l`) to `dst` (`to_l`, same shape). BOOL is stored
/// as UINT8 (0 / 1); converting to BOOL is its own kernel op (x != 0).
void launch_cast(Plan& p, const Layout& from_l, int from, const Layout& to_l, int to, Ref src,
                 Ref dst);

}  // namespace npusim::aclnn::ew
