// SPDX-License-Identifier: Apache-2.0
// The element-wise family's tiling and launches (declared in elementwise_plan.h).
//
// Tiling of one launch: the output's dimensions (size-1 ones dropped) merge where every tensor
// steps through neighbours as one; the last merged dimension is a row (cols), the others rows.
// A UB tile holds as many elements as the double-buffered queues, conversion and scratch buffers
// of the op leave room for (UB minus 1 KiB, in multiples of 32 elements). Units of work are
// groups of whole rows when there are rows enough for every vector core and a row fits a tile,
// else chunks of rows (at least 512 elements, multiples of 32); blocks take consecutive units,
// as many blocks as vector cores at most. The kernel's time follows from this tiling through the
// pipe model (elementwise_kernels.cpp); nothing here is timed.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/elementwise_plan.h"

namespace npusim::aclnn::ew {
namespace {

constexpr std::int64_t kAlign = 32;         // elements: UB rows start 32-byte aligned for any type
constexpr std::int64_t kMinChunk = 512;     // elements a block gets at least (small tensors)
constexpr std::uint64_t kUbReserve = 1024;  // UB bytes left unused

std::uint8_t* resolve(const Addrs& a, Ref r) {
  switch (r.where) {
    case Ref::kIn0:
      return a.in[0];
    case Ref::kIn1:
      return a.in[1];
    case Ref::kOut:
      return a.out[0];
    case Ref::kWs:
      return a.workspace + r.offset;
    default:
      return nullptr;
  }
}

// The output's dimensions merged for the kernel, with every tensor's element stride along each
// (0 where an input broadcasts).
struct Merged {
  std::vector<std::int64_t> dims;
  std::vector<std::vector<std::int64_t>> strides;  // [dim][tensor]: inputs, then out
  std::int64_t total = 1;                          // output elements
};

// Every tensor's element stride along output dimension d: inputs, then out.
std::vector<std::int64_t> strides_at(const Layout& out, const std::vector<Layout>& ins,
                                     std::size_t d) {
  std::vector<std::int64_t> st(ins.size() + 1, 0);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].immediate) continue;
    const std::size_t shift = out.dims.size() - ins[i].dims.size();
    if (d >= shift && ins[i].dims[d - shift] == out.dims[d]) st[i] = ins[i].strides[d - shift];
  }
  st[ins.size()] = out.strides[d];
  return st;
}

// Neighbouring dimensions merge where every tensor steps through them as one.
Merged merge_dims(const Layout& out, const std::vector<Layout>& ins) {
  const std::size_t nt = ins.size() + 1;
  Merged m;
  for (std::size_t d = 0; d < out.dims.size(); ++d) {
    if (out.dims[d] == 1) continue;
    const std::vector<std::int64_t> st = strides_at(out, ins, d);
    bool merge = !m.dims.empty();
    for (std::size_t i = 0; merge && i < nt; ++i) {
      merge = m.strides.back()[i] == st[i] * out.dims[d];
    }
    if (merge) {
      m.dims.back() *= out.dims[d];
      m.strides.back() = st;
    } else {
      m.dims.push_back(out.dims[d]);
      m.strides.push_back(st);
    }
  }
  for (std::int64_t d : out.dims) m.total *= d;
  if (m.dims.empty()) {  // one element (or none)
    m.dims.push_back(m.total);
    m.strides.emplace_back(nt, 1);
  }
  return m;
}

// Rows are copied as bursts: the innermost dimension must be contiguous (or broadcast).
void check_views(const Plan& p, const Merged& m, std::size_t inputs) {
  for (std::size_t i = 0; i <= inputs && m.total > 1; ++i) {
    const std::int64_t last = m.strides.back()[i];
    const bool is_out = i == inputs;
    p.require(last == 1 || (last == 0 && !is_out),
              std::string(is_out   ? "out"
                          : i == 0 ? "self"
                                   : "other") +
                  ": views whose innermost dimension is not contiguous are not supported");
  }
  for (std::size_t d = 0; d < m.dims.size(); ++d) {
    p.require(m.strides[d][inputs] != 0 || m.total <= 1, "out must not overlap itself");
  }
}

// UB elements of every buffer: queues double-buffered, conversion and scratch buffers once.
std::uint32_t ub_tile(const Plan& p, EwOp op, const std::vector<Layout>& ins, int in_type,
                      int c_type, int out_type) {
  const auto e_in = static_cast<std::uint64_t>(element_size(in_type));
  const auto e_c = static_cast<std::uint64_t>(element_size(c_type));
  const auto e_out = static_cast<std::uint64_t>(element_size(out_type));
  std::uint64_t per_elem = 2 * e_out;
  if (op != EwOp::kCast && c_type != out_type) per_elem += e_c;
  if (op == EwOp::kGelu || op == EwOp::kTanh || op == EwOp::kSigmoid) per_elem += e_c;
  if (op == EwOp::kGeluErf) per_elem += 3 * e_c;
  for (const Layout& in : ins) {
    // (+1: a column-broadcast input's values, 32 bytes per row of a unit, at most a tile's bytes)
    per_elem += in.immediate ? e_c : 2 * e_in + (in_type != c_type ? e_c : 0) + 1;
  }
  const std::uint64_t ub = p.ub_bytes() > kUbReserve ? p.ub_bytes() - kUbReserve : 0;
  const auto tile = static_cast<std::uint32_t>(ub / per_elem / kAlign * kAlign);
  p.require(tile >= kAlign, "the vector core's UB is too small for this operator");
  return tile;
}

// Units: groups of whole rows when there are rows enough for every core, else row chunks.
void split_units(const Plan& p, EwTiling& t) {
  const auto cores = static_cast<std::int64_t>(std::max<std::uint32_t>(p.vector_cores(), 1));
  t.pitch = round_up(std::max<std::int64_t>(t.cols, 1), kAlign);
  if (t.rows >= cores && t.pitch <= t.tile) {
    t.rows_per_unit = std::min<std::int64_t>(t.tile / t.pitch, ceil_div(t.rows, cores));
    t.chunk = t.cols;
    t.chunks = 1;
    t.units = ceil_div(t.rows, t.rows_per_unit);
  } else {
    std::int64_t chunks = std::max(ceil_div(t.cols, t.tile), ceil_div(cores, t.rows));
    if (t.rows == 1) chunks = round_up(chunks, cores);
    std::int64_t chunk = round_up(ceil_div(t.cols, chunks), kAlign);
    chunk = std::max(chunk, std::min(kMinChunk, round_up(t.cols, kAlign)));
    chunk = std::max<std::int64_t>(std::min<std::int64_t>(chunk, t.tile), kAlign);
    t.chunk = chunk;
    t.chunks = std::max<std::int64_t>(ceil_div(t.cols, chunk), 1);
    t.units = t.rows * t.chunks;
  }
  t.units_per_block = std::max<std::int64_t>(ceil_div(t.units, cores), 1);
  t.blocks =
      static_cast<std::uint32_t>(std::max<std::int64_t>(ceil_div(t.units, t.units_per_block), 1));
}

// How tensor i is reached: row-major over the merged dims (kFull), one row for all (kRow), one
// element (kScalar), or per-row offsets from its strides (kStrided).
void classify(const Merged& m, std::size_t i, std::int64_t chunks, EwOperand& o) {
  const std::size_t nd = m.dims.size();
  std::int64_t dense = 1;  // the row-major stride of dimension d
  bool full = true, zero = true, leading_zero = true;
  for (std::size_t d = nd; d-- > 0;) {
    const std::int64_t s = m.strides[d][i];
    o.strides[d] = s;
    full = full && s == dense;
    zero = zero && s == 0;
    if (d + 1 < nd) leading_zero = leading_zero && s == 0;
    dense *= m.dims[d];
  }
  if (full) {
    o.kind = EwKind::kFull;
  } else if (zero) {
    o.kind = EwKind::kScalar;
  } else if (leading_zero && m.strides.back()[i] == 1 && chunks == 1) {
    o.kind = EwKind::kRow;
  } else {
    o.kind = EwKind::kStrided;
  }
}

}  // namespace

Layout contiguous(const std::vector<std::int64_t>& dims) {
  Layout l{dims, std::vector<std::int64_t>(dims.size(), 1), false};
  for (std::size_t k = dims.size(); k-- > 1;) l.strides[k - 1] = l.strides[k] * dims[k];
  return l;
}

void check_tensor(const Plan& p, const aclTensor& t, const char* what) {
  p.require(t.dims.size() <= kEwMaxDims, std::string(what) + " has more than 8 dimensions");
}

EwTiling plan_tiling(const Plan& p, EwOp op, const Layout& out, const std::vector<Layout>& ins,
                     int in_type, int c_type, int out_type) {
  EwTiling t;
  t.op = op;
  t.inputs = static_cast<std::int32_t>(ins.size());
  const Merged m = merge_dims(out, ins);
  check_views(p, m, ins.size());
  t.ndim = static_cast<std::int32_t>(m.dims.size());
  for (std::size_t d = 0; d < m.dims.size(); ++d) t.dims[d] = m.dims[d];
  t.cols = m.dims.back();
  t.rows = m.total / std::max<std::int64_t>(t.cols, 1);
  t.pitch = t.chunk = kAlign;
  t.units_per_block = 1;
  t.tile = ub_tile(p, op, ins, in_type, c_type, out_type);
  if (m.total == 0) return t;  // nothing to do: one block that finds no unit
  split_units(p, t);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].immediate) {
      t.in[i].kind = EwKind::kImmediate;
    } else {
      classify(m, i, t.chunks, t.in[i]);
    }
  }
  classify(m, ins.size(), t.chunks, t.out);
  return t;
}

void launch(Plan& p, const char* name, int in_type, int c_type, int out_type, const EwTiling& t,
            Ref x, Ref y, Ref z) {
  const EwKernel k = ew_kernel_for(in_type, c_type, out_type);
  p.require(k != nullptr,
            std::string("no kernel for ") + dtype_name(in_type) + " -> " + dtype_name(out_type));
  p.launch(name, reinterpret_cast<const void*>(k), t.blocks, Core::kVector,
           [k, t, x, y, z](const Addrs& a) { k(resolve(a, x), resolve(a, y), resolve(a, z), t); });
}

void launch_cast(Plan& p, const Layout& from_l, int from, const Layout& to_l, int to, Ref src,
                 Ref dst) {
  if (from == ACL_BOOL) from = ACL_UINT8;
  if (to == ACL_BOOL) {
    const EwTiling t = plan_tiling(p, EwOp::kToBool, to_l, {from_l}, from, ACL_FLOAT, ACL_UINT8);
    launch(p, "Cast", from, ACL_FLOAT, ACL_UINT8, t, src, Ref{}, dst);
    return;
  }
  EwTiling t = plan_tiling(p, EwOp::kCast, to_l, {from_l}, from, from, to);
  const bool to_integer =
      to == ACL_INT32 || to == ACL_INT8 || to == ACL_UINT8 || to == ACL_INT16 || to == ACL_INT64;
  t.round = static_cast<std::int32_t>(is_float(from) && to_integer ? 5 /*CAST_TRUNC*/
                                                                   : 1 /*CAST_RINT*/);
  launch(p, "Cast", from, from, to, t, src, Ref{}, dst);
}

}  // namespace npusim::aclnn::ew
