// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/pipe_costs.h"

#include <algorithm>
#include <cmath>

namespace npusim::models {
namespace {

using ascendc::DType;
using ascendc::Instr;
using ascendc::Mem;
using ascendc::Op;
using ascendc::Pipe;

constexpr std::uint64_t kFractalBytes = 512;

/// A rate from the config. The loader rejects non-positive rates (their keys declare > 0); a
/// config built in code that skipped validation gets 1 B/cycle instead of a division by zero.
double rate(double bytes_per_cycle) { return bytes_per_cycle > 0 ? bytes_per_cycle : 1.0; }
std::uint64_t at_least_one(std::int64_t v) { return v > 0 ? static_cast<std::uint64_t>(v) : 1; }
std::uint64_t non_negative(std::int64_t v) { return v > 0 ? static_cast<std::uint64_t>(v) : 0; }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// floor/ceil/llround without libm calls (x86-64 without SSE4.1 has no rounding instruction and
// these run for every replayed instruction); exact for the non-negative finite values costs are.
constexpr double kTwoTo63 = 9223372036854775808.0;

std::uint64_t ceil_cycles(double cycles) {
  const double c = cycles - 1e-9;
  if (!(c > -1.0 && c < kTwoTo63)) return static_cast<std::uint64_t>(std::ceil(c));
  const auto t = static_cast<std::int64_t>(c);  // toward zero
  return static_cast<std::uint64_t>(static_cast<double>(t) < c ? t + 1 : t);
}

std::uint64_t copy_bytes(const Instr& in) {
  return in.bytes != 0 ? in.bytes : std::uint64_t{in.count} * kFractalBytes;
}

}  // namespace

PipeCosts::PipeCosts(const ChipConfig& cfg)
    : PipeCosts(cfg.aicore, cfg.l2, cfg.hbm) {}

PipeCosts::PipeCosts(const AiCoreConfig& core, const L2Config& l2, const HbmConfig& hbm)
    : freq_hz_(core.frequency.hz > 0 ? core.frequency.hz : 1e9),
      period_ps_(1e12 / freq_hz_),
      scalar_per_bb_(std::max(core.scalar_cycles_per_bb, 0.0)),
      queue_depth_(non_negative(core.pipe_queue_depth)),
      scalar_access_(non_negative(core.scalar_access_cycles)),
      mte_startup_(non_negative(core.mte_startup_cycles)),
      vector_startup_(non_negative(core.vector_startup_cycles)),
      cube_startup_(non_negative(core.cube_startup_cycles)),
      mte2_gm_(rate(core.mte2_bytes_per_cycle)),
      mte2_l2_(rate(core.mte2_l2_bytes_per_cycle)),
      mte1_l0a_(rate(core.mte1_l0a_bytes_per_cycle)),
      mte1_l0b_(rate(core.mte1_l0b_bytes_per_cycle)),
      mte3_(rate(core.mte3_bytes_per_cycle)),
      fixpipe_(rate(core.fixpipe_bytes_per_cycle)),
      vector_(rate(core.vector_bytes_per_cycle)),
      cube_m_(at_least_one(core.cube_m)),
      cube_n_(at_least_one(core.cube_n)),
      cube_k_(at_least_one(core.cube_k)),
      hit_rate_(std::clamp(l2.read_hit_rate, 0.0, 1.0)),
      l2_latency_(l2.hit_latency.ps),
      hbm_latency_(hbm.latency.ps) {}

sim::SimTime PipeCosts::gm_latency(const Instr& in) const {
  if (in.dst == Mem::kGm || in.gm_addr != 0) return l2_latency_;
  const std::uint64_t bytes = std::max<std::uint64_t>(in.bytes, 1);
  return l2_latency_ + (read_hit_bytes(bytes, hit_rate_) < bytes ? hbm_latency_ : 0);
}

std::uint64_t PipeCosts::read_hit_bytes(std::uint64_t bytes, double hit_rate) {
  const double h = std::clamp(hit_rate, 0.0, 1.0);
  const double hits = static_cast<double>(bytes) * h;
  // hits >= 0: converting truncates, which is floor
  if (!(hits < kTwoTo63)) return std::min(bytes, static_cast<std::uint64_t>(std::floor(hits)));
  return std::min(bytes, static_cast<std::uint64_t>(static_cast<std::int64_t>(hits)));
}

sim::SimTime PipeCosts::mte2_stream_ps(std::uint64_t hit, std::uint64_t miss) const {
  return to_ps(static_cast<double>(ceil_cycles(static_cast<double>(hit) / mte2_l2_ +
                                               static_cast<double>(miss) / mte2_gm_)));
}

sim::SimTime PipeCosts::to_ps(double cycles) const {
  const double ps = cycles * period_ps_;
  if (!(ps >= 0.0 && ps < kTwoTo63)) return static_cast<sim::SimTime>(std::llround(ps));
  const auto t = static_cast<std::int64_t>(ps);  // floor; ps - t is exact
  return static_cast<sim::SimTime>(t + (ps - static_cast<double>(t) >= 0.5 ? 1 : 0));
}

std::uint64_t PipeCosts::startup_cycles(Pipe pipe) const {
  switch (pipe) {
    case Pipe::kScalar: return 0;
    case Pipe::kVector: return vector_startup_;
    case Pipe::kCube: return cube_startup_;
    default: return mte_startup_;
  }
}

std::uint64_t PipeCosts::cycles(const Instr& in) const {
  switch (in.pipe) {
    case Pipe::kScalar: return scalar_access_;
    case Pipe::kVector: {
      const std::uint64_t repeats = ceil_cycles(static_cast<double>(in.bytes) / vector_);
      return vector_startup_ + std::max<std::uint64_t>(repeats, 1);
    }
    case Pipe::kCube: return cube_cycles(in);
    default: return copy_cycles(in);
  }
}

std::uint64_t PipeCosts::copy_cycles(const Instr& in) const {
  const std::uint64_t bytes = copy_bytes(in);
  const double b = static_cast<double>(bytes);
  double c = 0;
  switch (in.pipe) {
    case Pipe::kMte1: c = b / (in.dst == Mem::kL0a ? mte1_l0a_ : mte1_l0b_); break;
    case Pipe::kMte2:
      if (in.src == Mem::kGm && in.gm_addr != 0) {
        c = b / mte2_l2_;
      } else if (in.src == Mem::kGm) {
        const std::uint64_t hit = read_hit_bytes(bytes, hit_rate_);
        c = static_cast<double>(hit) / mte2_l2_ + static_cast<double>(bytes - hit) / mte2_gm_;
      } else {
        c = b / mte2_gm_;
      }
      break;
    case Pipe::kMte3: c = b / mte3_; break;
    default: c = b / fixpipe_; break;  // kFixpipe
  }
  return mte_startup_ + ceil_cycles(c);
}

std::uint64_t PipeCosts::cube_cycles(const Instr& in) const {
  std::uint64_t k0 = cube_k_;
  switch (in.dtype) {
    case DType::kInt8:
    case DType::kUInt8: k0 = cube_k_ * 2; break;
    case DType::kFp32: k0 = std::max<std::uint64_t>(cube_k_ / 2, 1); break;
    default: break;
  }
  const std::uint64_t m = std::max<std::uint64_t>(in.m, 1);
  const std::uint64_t n = std::max<std::uint64_t>(in.n, 1);
  const std::uint64_t k = std::max<std::uint64_t>(in.k, 1);
  return cube_startup_ + ceil_div(m, cube_m_) * ceil_div(n, cube_n_) * ceil_div(k, k0);
}

const char* instr_label(const Instr& in) {
  static const char* const kOps[] = {
      "Copy", "CopyNd2Nz", "LoadData", "Fixpipe", "Mmad", "Add", "Sub", "Mul", "Div", "Max",
      "Min", "Adds", "Muls", "Exp", "Ln", "Abs", "Relu", "Sqrt", "Duplicate", "Cast",
      "ReduceSum", "ReduceMax", "ReduceMin", "GetValue", "SetValue"};
  const auto op = static_cast<std::size_t>(in.op);
  if (in.op == Op::kCopy) {
    switch (in.pipe) {
      case Pipe::kMte2: return in.dst == Mem::kL1 ? "MTE2 GM->L1" : "MTE2 GM->UB";
      case Pipe::kMte3: return in.dst == Mem::kGm ? "MTE3 UB->GM" : "MTE3 UB->L1";
      case Pipe::kMte1: return "MTE1 L1->L0";
      default: break;
    }
  }
  return op < sizeof(kOps) / sizeof(kOps[0]) ? kOps[op] : "?";
}

std::size_t instr_args(const Instr& in, std::uint32_t task_id, std::uint32_t block,
                       double cycles, sim::TraceField (&out)[kInstrArgs]) {
  using sim::TraceField;
  std::size_t n = 0;
  out[n++] = TraceField::num("Task Id", task_id);
  out[n++] = TraceField::num("block", block);
  out[n++] = TraceField::num("cycles", cycles);
  if (in.op == Op::kMmad) {
    out[n++] = TraceField::num("m", in.m);
    out[n++] = TraceField::num("n", in.n);
    out[n++] = TraceField::num("k", in.k);
    return n;
  }
  out[n++] = TraceField::num("bytes", static_cast<double>(in.bytes));
  if (in.pipe == Pipe::kScalar) return n;
  const bool vector = in.op >= Op::kAdd && in.op <= Op::kReduceMin;
  const char* what = vector ? "elements" : in.op == Op::kLoad2d ? "fractals" : "bursts";
  out[n++] = TraceField::num(what, in.count);
  return n;
}

}  // namespace npusim::models
