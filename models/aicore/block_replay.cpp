// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/block_replay.h"

#include <algorithm>

namespace npusim::models {

using kernel::Instr;
using kernel::Mem;
using kernel::Pipe;

const ReplayResult& BlockReplay::run(const kernel::BlockTrace& trace, SimTime start,
                                     bool split_mix, bool trace_instrs, ReplayHost& host) {
  trace_ = &trace;
  host_ = &host;
  trace_instrs_ = trace_instrs;
  start_time_ = start;
  prepare(split_mix);
  const std::uint32_t n = static_cast<std::uint32_t>(trace.instrs.size());
  for (;;) {
    bool progress = true;
    while (progress) {
      progress = false;
      while (next_issue_ < n && issue_next()) progress = true;
      for (int lane = 0; lane < kLaneCount; ++lane) {
        while (start_head(lane)) progress = true;
      }
    }
    if (pending_.empty()) break;
    resolve_earliest();
  }
  SimTime end = scalar_tail();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (end_[i] != kUnknown) end = std::max(end, end_[i]);
  }
  result_.end = end;
  result_.busy[static_cast<int>(Pipe::kScalar)] += costs_.to_ps(scalar_cycles_);
  return result_;
}

void BlockReplay::prepare(bool split_mix) {
  const std::vector<Instr>& instrs = trace_->instrs;
  const std::size_t n = instrs.size();
  issue_.assign(n, kUnknown);
  start_.assign(n, kUnknown);
  release_.assign(n, kUnknown);
  end_.assign(n, kUnknown);
  lane_.resize(n);
  pos_.resize(n);
  for (auto& l : lanes_) l.clear();
  head_.fill(0);
  next_issue_ = 0;
  scalar_cycles_ = 0;
  result_ = ReplayResult{};
  for (std::size_t i = 0; i < n; ++i) {
    const Instr& in = instrs[i];
    int lane = static_cast<int>(in.pipe);
    if (split_mix && in.pipe == Pipe::kMte2 && in.dst == Mem::kUb) lane = kMte2AivLane;
    lane_[i] = static_cast<std::uint8_t>(lane);
    pos_[i] = static_cast<std::uint32_t>(lanes_[lane].size());
    lanes_[lane].push_back(static_cast<std::uint32_t>(i));
  }
}

bool BlockReplay::issue_next() {
  const std::vector<Instr>& instrs = trace_->instrs;
  const std::uint32_t i = next_issue_;
  const std::uint64_t prev_bbs = i == 0 ? 0 : instrs[i - 1].scalar_bbs;
  const double bb_cycles =
      static_cast<double>(instrs[i].scalar_bbs > prev_bbs ? instrs[i].scalar_bbs - prev_bbs : 0) *
      costs_.scalar_cycles_per_bb();
  SimTime t = start_time_ + costs_.to_ps(bb_cycles);
  if (i > 0) {
    SimTime prev = issue_[i - 1];
    if (lane_[i - 1] == static_cast<int>(Pipe::kScalar)) {
      if (end_[i - 1] == kUnknown) return false;  // the scalar unit waits for its own access
      prev = std::max(prev, end_[i - 1]);
    }
    t = prev + costs_.to_ps(1.0 + bb_cycles);
  }
  const std::uint64_t depth = costs_.queue_depth();
  if (depth > 0 && pos_[i] >= depth) {
    const std::uint32_t j = lanes_[lane_[i]][pos_[i] - depth];
    if (start_[j] == kUnknown) return false;  // its pipe queue is full
    t = std::max(t, start_[j]);
  }
  issue_[i] = t;
  scalar_cycles_ += 1.0 + bb_cycles;
  ++next_issue_;
  return true;
}

bool BlockReplay::start_head(int lane) {
  const std::vector<std::uint32_t>& list = lanes_[lane];
  const std::size_t h = head_[lane];
  if (h >= list.size()) return false;
  const std::uint32_t i = list[h];
  if (i >= next_issue_) return false;
  SimTime t = issue_[i];
  if (h > 0) {
    const SimTime prev = release_[list[h - 1]];
    if (prev == kUnknown) return false;
    t = std::max(t, prev);
  }
  const Instr& in = trace_->instrs[i];
  const std::uint32_t* deps = trace_->deps.data() + in.dep_begin;
  for (std::uint32_t d = 0; d < in.dep_count; ++d) {
    const std::uint32_t dep = deps[d];
    if (dep >= i) continue;  // not an earlier instruction: ignored (trace contract)
    if (end_[dep] == kUnknown) return false;
    t = std::max(t, end_[dep]);
  }
  start_[i] = t;
  ++head_[lane];
  if (in.touches_gm()) {
    pending_.emplace(t, i);
  } else {
    const SimTime end = t + costs_.to_ps(static_cast<double>(costs_.cycles(in)));
    finish(i, end, end);
  }
  return true;
}

void BlockReplay::resolve_earliest() {
  const auto [start, i] = pending_.top();
  pending_.pop();
  host_->wait_until(start);
  const Instr& in = trace_->instrs[i];
  const SimTime core_end = start + costs_.to_ps(static_cast<double>(costs_.cycles(in)));
  const SimTime request = start + costs_.to_ps(static_cast<double>(costs_.startup_cycles(in.pipe)));
  const SimTime latency = costs_.gm_latency(in);
  const SimTime data = std::max(host_->gm_access(in, request), request + latency);
  finish(i, std::max(core_end, data - latency), std::max(core_end + latency, data));
}

void BlockReplay::finish(std::uint32_t i, SimTime release, SimTime end) {
  release_[i] = release;
  end_[i] = end;
  result_.busy[lane_[i]] += release - start_[i];
  ++result_.instrs;
  if (trace_instrs_) host_->instr_done(trace_->instrs[i], lane_[i], start_[i], release);
}

SimTime BlockReplay::scalar_tail() {
  const std::vector<Instr>& instrs = trace_->instrs;
  const std::uint64_t total = trace_->scalar_bbs;
  SimTime t = start_time_;
  std::uint64_t done_bbs = 0;
  if (!instrs.empty()) {
    const std::size_t last = instrs.size() - 1;
    t = issue_[last] + costs_.to_ps(1.0);
    if (lane_[last] == static_cast<int>(Pipe::kScalar)) t = std::max(t, end_[last]);
    done_bbs = instrs[last].scalar_bbs;
  }
  const double cycles =
      static_cast<double>(total > done_bbs ? total - done_bbs : 0) * costs_.scalar_cycles_per_bb();
  scalar_cycles_ += cycles;
  return t + costs_.to_ps(cycles);
}

}  // namespace npusim::models
