// SPDX-License-Identifier: Apache-2.0
// aclnnReduceSum, aclnnMean, aclnnAmax, aclnnAmin: reductions over any set of dimensions. Adjacent
// reduced dimensions are merged; each remaining group is one reduce_kernel launch over the view
// [outer, group, inner] (right-most group first; the last axis as rows, any other axis column-
// wise), fp32 partial results in the workspace; the last launch scales (Mean) and the result is
// cast to the output type when it is not FLOAT.
#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "runtime/aclnn/norm_plan.h"

namespace npusim::aclnn::norm {
namespace {

constexpr std::uint32_t kColumnChunk = 2048;  // output columns per unit (inner > 1)
constexpr std::int64_t kSegmentMin = 2048;    // elements per row segment when rows are split

ReduceTiling plan_reduce_pass(const Plan& p, Dt dt, std::int64_t outer, std::int64_t len,
                              std::int64_t inner) {
  ReduceTiling t;
  t.dt = dt;
  t.outer = outer;
  t.len = len;
  t.inner = inner;
  const std::uint64_t ub = p.ub_bytes() > 2 * kUbReserve ? p.ub_bytes() - kUbReserve : kUbReserve;
  const std::uint32_t sz = dt_size(dt), align = 32 / sz;
  const std::uint64_t elem = 2ull * sz + (sz == 4 ? 0 : 4);  // in tiles + fp32 copy
  if (inner == 1) {
    RowNeeds needs;
    needs.has_out = false;
    needs.chunk_f32_rows = 1;
    needs.per_row_bytes = 2 * 4;
    const RowTiling r = plan_rows(p, dt, outer, len, needs);
    t.units = outer;
    t.per_block = r.per_block;
    t.tile_rows = r.tile_rows;
    t.chunk = r.chunk;
    t.pitch = r.pitch;
    return t;
  }
  // Columns per unit: the double-buffered fp32 result plus at least 4 rows of input fit UB.
  plan_column_chunks(p, t, ub, elem, align, kColumnChunk, [](const ReduceTiling& r) {
    return 2ull * round_up64(r.chunk, 8) * 4 + r.pitch * 4ull;  // + partial
  });
  return t;
}

// `dims` of `x` normalised (negative counted from the end), checked, sorted; empty = all.
std::vector<bool> reduced_axes(const Plan& p, const aclTensor& x,
                               const std::vector<std::int64_t>& dims, const char* what) {
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  std::vector<bool> red(x.dims.size(), dims.empty());
  for (std::int64_t d : dims) {
    const std::int64_t r = std::max<std::int64_t>(rank, 1);
    p.require(d >= -r && d < r, std::string(what) + " entry " + std::to_string(d) +
                                    " is out of range for a " + std::to_string(rank) +
                                    "-dimensional self");
    const std::int64_t n = d < 0 ? d + r : d;
    if (rank == 0) continue;
    p.require(!red[static_cast<std::size_t>(n)],
              std::string(what) + " repeats dimension " + std::to_string(n));
    red[static_cast<std::size_t>(n)] = true;
  }
  return red;
}

struct Group {
  std::int64_t size;
  bool reduced;
};

void check_reduce_tensors(const Plan& p, const aclTensor& x, const aclTensor& y, int dtype) {
  p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "self");
  p.require_dtype(y, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out");
  p.require(y.dtype == dtype,
            "out has data type " + dtype_name(y.dtype) + ", expected " + dtype_name(dtype));
  p.require_contiguous(x, "self");
  p.require_contiguous(y, "out");
  p.require(x.numel() > 0, "self is empty (empty tensors are not supported)");
}

// x's axes as groups of neighbours alike (reduced or kept; size-1 axes dropped), out's expected
// shape and the number of elements each output reduces.
struct Grouping {
  std::vector<Group> groups;
  std::vector<std::int64_t> expect;
  std::int64_t count = 1;
};

Grouping group_axes(const aclTensor& x, const std::vector<bool>& red, bool keep) {
  Grouping gr;
  for (std::size_t i = 0; i < x.dims.size(); ++i) {
    if (red[i]) gr.count *= x.dims[i];
    if (!red[i] || keep) gr.expect.push_back(red[i] ? 1 : x.dims[i]);
    const bool r = red[i] && x.dims[i] > 1;  // a reduced size-1 axis changes nothing
    if (x.dims[i] == 1) continue;
    if (!gr.groups.empty() && gr.groups.back().reduced == r) {
      gr.groups.back().size *= x.dims[i];
    } else {
      gr.groups.push_back({x.dims[i], r});
    }
  }
  return gr;
}

// Few long rows (the last axis reduced into few outputs): split each row into segments
// reduced by more cores first (rows [outer * segments, len / segments]), then the partials.
void split_long_rows(const Plan& p, std::vector<Group>& groups) {
  if (groups.empty() || !groups.back().reduced) return;
  std::int64_t outer = 1;
  for (std::size_t i = 0; i + 1 < groups.size(); ++i) outer *= groups[i].size;
  const std::int64_t len = groups.back().size;
  const auto cores = static_cast<std::int64_t>(p.vector_cores());
  if (outer * 2 > cores || len < 4 * kSegmentMin) return;
  for (std::int64_t seg = std::max<std::int64_t>(cores / outer, 2); seg >= 2; --seg) {
    if (len % seg != 0 || len / seg < kSegmentMin) continue;
    groups.back().size = seg;
    groups.push_back({len / seg, true});
    break;
  }
}

// The view [outer, len, inner] of reducing group g (the right-most reduced one), which it
// removes from `groups` (merging the kept neighbours it leaves side by side).
void take_group(std::vector<Group>& groups, std::size_t g, std::int64_t& outer, std::int64_t& len,
                std::int64_t& inner) {
  for (std::size_t i = 0; i < g; ++i) outer *= groups[i].size;
  len = groups[g].size;
  for (std::size_t i = g + 1; i < groups.size(); ++i) inner *= groups[i].size;
  groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
  if (g > 0 && g < groups.size() && !groups[g - 1].reduced && !groups[g].reduced) {
    groups[g - 1].size *= groups[g].size;
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
  }
}

// One reduce_kernel launch.
struct Pass {
  ReduceTiling t;
  bool from_input;
  std::uint64_t src, dst;  // workspace offsets
  bool to_output;
};

// One pass per reduced group, right-most first (or one scaling / converting pass when nothing
// is reduced); partial results alternate between two fp32 workspace buffers.
std::vector<Pass> plan_passes(const Plan& p, const aclTensor& x, std::vector<Group> groups,
                              ReduceKind kind, Workspace& ws) {
  std::vector<Pass> passes;
  std::uint64_t buf[2] = {0, 0};
  std::int64_t elems = x.numel();
  for (;;) {
    int g = -1;
    for (std::size_t i = 0; i < groups.size(); ++i)
      if (groups[i].reduced) g = static_cast<int>(i);
    if (g < 0 && !passes.empty()) break;
    std::int64_t outer = 1, len = 1, inner = 1;
    if (g >= 0) {
      take_group(groups, static_cast<std::size_t>(g), outer, len, inner);
    } else {
      outer = elems;  // nothing to reduce: one scaling / converting pass
    }
    Pass ps;
    ps.from_input = passes.empty();
    ps.t = plan_reduce_pass(p, ps.from_input ? dt_of(x.dtype) : Dt::kF32, outer, len, inner);
    ps.t.kind = kind;
    elems = outer * inner;
    const int slot = static_cast<int>(passes.size() % 2);
    if (buf[slot] == 0) buf[slot] = ws.take(static_cast<std::uint64_t>(elems) * 4) + 1;
    ps.dst = buf[slot] - 1;
    ps.src = passes.empty() ? 0 : passes.back().dst;
    ps.to_output = false;
    passes.push_back(ps);
    if (g < 0) break;
  }
  return passes;
}

void launch_passes(Plan& p, const std::vector<Pass>& passes, ReduceKind kind) {
  for (const Pass& ps : passes) {
    const char* name = kind == ReduceKind::kMax   ? "ReduceMax"
                       : kind == ReduceKind::kMin ? "ReduceMin"
                                                  : "ReduceSum";
    p.launch(name, reinterpret_cast<const void*>(&reduce_kernel),
             row_blocks(ps.t.units, ps.t.per_block), Core::kVector, [ps](const Addrs& a) {
               std::uint8_t* src = ps.from_input ? a.in[0] : a.workspace + ps.src;
               std::uint8_t* dst = ps.to_output ? a.out[0] : a.workspace + ps.dst;
               reduce_kernel(src, dst, ps.t);
             });
  }
}

// Validate, infer out's shape and the groups of axes, then one pass per group.
void plan_reduce(Plan& p, const aclTensor* self, const aclIntArray* dim_array, bool keep, int dtype,
                 aclTensor* out, ReduceKind kind, bool mean, const char* dim_name) {
  const aclTensor& x = p.input(self, "self");
  const std::vector<std::int64_t> dims = p.int_array(dim_array, dim_name);
  const aclTensor& y = p.output(out, "out");
  check_reduce_tensors(p, x, y, dtype);
  Grouping gr = group_axes(x, reduced_axes(p, x, dims, dim_name), keep);
  p.require_shape(y, gr.expect, "out");
  split_long_rows(p, gr.groups);
  Workspace ws;
  std::vector<Pass> passes = plan_passes(p, x, gr.groups, kind, ws);
  Pass& last = passes.back();
  if (mean) last.t.scale = 1.0f / static_cast<float>(gr.count);
  last.to_output = y.dtype == ACL_FLOAT;
  launch_passes(p, passes, kind);
  if (!last.to_output) cast_out(p, last.dst, y.dtype, y.numel(), 0);
  p.set_workspace(ws.size());
}

// Amax / Amin: out has self's data type.
aclnnStatus extreme_prepare(const char* api, const char* op, const aclTensor* self,
                            const aclIntArray* dim, bool keep, aclTensor* out, ReduceKind kind,
                            std::uint64_t* workspace_size, aclOpExecutor** executor) {
  return prepare(api, op, workspace_size, executor, [&](Plan& p) {
    const int type = self != nullptr && is_live(self) ? self->dtype : ACL_FLOAT;
    plan_reduce(p, self, dim, keep, type, out, kind, false, "dim");
  });
}

}  // namespace
}  // namespace npusim::aclnn::norm

namespace nn = npusim::aclnn;
namespace nm = npusim::aclnn::norm;

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                           bool keepDims, aclDataType dtype, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnReduceSumGetWorkspaceSize", "ReduceSum", workspaceSize, executor, [&](nn::Plan& p) {
        nm::plan_reduce(p, self, dims, keepDims, dtype, out, nm::ReduceKind::kSum, false, "dims");
      });
}

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnMeanGetWorkspaceSize", "Mean", workspaceSize, executor, [&](nn::Plan& p) {
        nm::plan_reduce(p, self, dim, keepDim, dtype, out, nm::ReduceKind::kSum, true, "dim");
      });
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return nm::extreme_prepare("aclnnAmaxGetWorkspaceSize", "Amax", self, dim, keepDim, out,
                             nm::ReduceKind::kMax, workspaceSize, executor);
}

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return nm::extreme_prepare("aclnnAminGetWorkspaceSize", "Amin", self, dim, keepDim, out,
                             nm::ReduceKind::kMin, workspaceSize, executor);
}
