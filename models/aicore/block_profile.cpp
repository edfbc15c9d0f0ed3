// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/block_profile.h"

namespace npusim::models {
namespace {

using ascendc::DType;
using ascendc::Instr;
using ascendc::Mem;
using ascendc::Op;
using ascendc::Pipe;

constexpr std::uint64_t kFractalBytes = 512;  // LoadData's unit when a copy records no bytes

int idx(Mem m) { return static_cast<int>(m); }
int idx(DType t) { return static_cast<int>(t); }

// Source operands a vector instruction reads (see the header).
unsigned vector_sources(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kMax:
    case Op::kMin: return 2;
    case Op::kDuplicate: return 0;
    default: return 1;
  }
}

bool reduction(Op op) {
  return op == Op::kReduceSum || op == Op::kReduceMax || op == Op::kReduceMin;
}

void add_vector(const Instr& in, std::uint64_t cycles, BlockProfile& p) {
  std::uint64_t rd = 0, wr = 0;
  const std::uint64_t n = in.count;
  if (in.op == Op::kCast && ascendc::dtype_size(in.dtype) != 0 &&
      ascendc::dtype_size(in.dtype2) != 0) {
    rd = n * ascendc::dtype_size(in.dtype2);
    wr = n * ascendc::dtype_size(in.dtype);
  } else {
    const std::uint64_t elem = n != 0 ? in.bytes / n : 0;
    rd = vector_sources(in.op) * in.bytes;
    wr = reduction(in.op) ? elem : in.bytes;
  }
  p.read[idx(in.src)] += rd;
  p.written[idx(in.dst)] += wr;
  if (in.src == Mem::kUb) p.vec_ub_read += rd;
  if (in.dst == Mem::kUb) p.vec_ub_write += wr;
  p.vec_cycles[idx(in.dtype)] += cycles;
  ++p.vec_instrs[idx(in.dtype)];
  if (in.op != Op::kDuplicate && in.op != Op::kCast) p.vec_fops += n;
}

void add_cube(const Instr& in, std::uint64_t cycles, BlockProfile& p) {
  const std::uint64_t m = in.m, n = in.n, k = in.k;
  const std::uint64_t in_size = ascendc::dtype_size(in.dtype);
  p.read[idx(Mem::kL0a)] += m * k * in_size;
  p.read[idx(Mem::kL0b)] += k * n * in_size;
  p.written[idx(Mem::kL0c)] += m * n * ascendc::dtype_size(in.dtype2);
  p.cube_cycles[idx(in.dtype)] += cycles;
  ++p.cube_instrs[idx(in.dtype)];
  p.cube_fops += 2 * m * n * k;
}

}  // namespace

void add_instr(const Instr& in, std::uint64_t cycles, BlockProfile& p) {
  ++p.instrs[static_cast<int>(in.pipe)];
  switch (in.pipe) {
    case Pipe::kVector: add_vector(in, cycles, p); return;
    case Pipe::kCube: add_cube(in, cycles, p); return;
    case Pipe::kScalar:
      if (in.op == Op::kScalarRead) {
        p.read[idx(in.src)] += in.bytes;
        if (in.src == Mem::kUb) p.scalar_ub_read += in.bytes;
      } else if (in.op == Op::kScalarWrite) {
        p.written[idx(in.dst)] += in.bytes;
        if (in.dst == Mem::kUb) p.scalar_ub_write += in.bytes;
      }
      return;
    default: {  // copies: MTE1, MTE2, MTE3, FIXPIPE
      const std::uint64_t bytes = in.bytes != 0 ? in.bytes : std::uint64_t{in.count} * kFractalBytes;
      p.read[idx(in.src)] += bytes;
      p.written[idx(in.dst)] += bytes;
      p.moved[idx(in.src)][idx(in.dst)] += bytes;
      return;
    }
  }
}

}  // namespace npusim::models
