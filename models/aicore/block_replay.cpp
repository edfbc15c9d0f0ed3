// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/block_replay.h"

#include <algorithm>

namespace npusim::models {

using ascendc::Instr;
using ascendc::Mem;
using ascendc::Pipe;

namespace {

bool same_shape(const Instr& a, const Instr& b) {
  return a.pipe == b.pipe && a.op == b.op && a.dtype == b.dtype && a.dtype2 == b.dtype2 &&
         a.src == b.src && a.dst == b.dst && a.m == b.m && a.n == b.n && a.k == b.k &&
         a.count == b.count && a.bytes == b.bytes && (a.gm_addr != 0) == (b.gm_addr != 0);
}

std::size_t shape_hash(const Instr& in) {
  std::uint64_t h = static_cast<std::uint64_t>(in.pipe) | (static_cast<std::uint64_t>(in.op) << 8) |
                    (static_cast<std::uint64_t>(in.dtype) << 16) |
                    (static_cast<std::uint64_t>(in.dst) << 24) |
                    (static_cast<std::uint64_t>(in.src) << 32);
  h ^= in.bytes * 0x9e3779b97f4a7c15ull;
  h ^= ((static_cast<std::uint64_t>(in.count) << 32) | (static_cast<std::uint64_t>(in.m) << 16) |
        (static_cast<std::uint64_t>(in.n) ^ (static_cast<std::uint64_t>(in.k) << 8))) *
       0xc2b2ae3d27d4eb4full;
  return static_cast<std::size_t>(h ^ h >> 29);
}

}  // namespace

BlockReplay::BlockReplay(const PipeCosts& costs) : costs_(costs) {
  for (int p = 0; p < ascendc::kPipeCount; ++p) {
    startup_ps_[p] = costs_.to_ps(static_cast<double>(costs_.startup_cycles(Pipe(p))));
  }
}

const BlockReplay::ShapeCost& BlockReplay::shape_cost(const Instr& in) {
  ShapeCost& c = shapes_[shape_hash(in) % shapes_.size()];
  if (!c.valid || !same_shape(c.shape, in)) {
    c.shape = in;
    c.valid = true;
    c.duration = costs_.to_ps(static_cast<double>(costs_.cycles(in)));
    c.latency = in.touches_gm() ? costs_.gm_latency(in) : 0;
  }
  return c;
}

SimTime BlockReplay::issue_ps(std::uint64_t bbs, double bb_cycles) {
  IssueCost& c = issue_costs_[bbs % issue_costs_.size()];
  if (!c.valid || c.bbs != bbs) {
    c.bbs = bbs;
    c.valid = true;
    c.ps = costs_.to_ps(1.0 + bb_cycles);
  }
  return c.ps;
}

const ReplayResult& BlockReplay::run(const ascendc::BlockTrace& trace, SimTime start,
                                     bool split_mix, bool trace_instrs, ReplayHost& host) {
  begin(trace, start, split_mix, trace_instrs, host);
  SimTime now = 0, wake_at = 0;  // every GM instruction goes through host.wait_until()
  while (!advance(now, wake_at)) {
    host.wait_until(wake_at);
    now = wake_at;
  }
  return result_;
}

void BlockReplay::begin(const ascendc::BlockTrace& trace, SimTime start, bool split_mix,
                        bool trace_instrs, ReplayHost& host) {
  trace_ = &trace;
  host_ = &host;
  trace_instrs_ = trace_instrs;
  start_time_ = start;
  prepare(split_mix);
}

bool BlockReplay::advance(SimTime now, SimTime& wake_at) {
  const std::uint32_t n = static_cast<std::uint32_t>(trace_->instrs.size());
  // Rounds of passes: issue what can be issued, then start lane heads, lanes in increasing order,
  // until nothing moves; then resolve the earliest pending GM instruction (at its start time: a
  // later one returns to the caller). A lane is only tried when what stopped it last time (its
  // blocker) has become known: the same instructions start in the same order as trying every
  // lane in every pass, since a failed try changes nothing.
  for (;;) {
    while (pass(n)) {
    }
    if (pending_.empty()) {
      if (!waits_on_blocks()) break;
      wake_at = ReplayHost::kNever;  // another block's kSyncSet: the host calls again
      return false;
    }
    if (pending_.top().first > now) {
      wake_at = pending_.top().first;
      return false;
    }
    resolve_earliest();
  }
  finish_replay();
  return true;
}

// Every instruction ended: the block ends with the last of them, or its scalar tail.
void BlockReplay::finish_replay() {
  SimTime end = scalar_tail();
  for (const Node& node : nodes_) {
    if (node.end != kUnknown) end = std::max(end, node.end);
  }
  result_.end = end;
  result_.busy[static_cast<int>(Pipe::kScalar)] += costs_.to_ps(scalar_cycles_);
}

// One pass: issues what can be issued, then starts the heads of the lanes whose blocker became
// known (lanes in increasing order); drops finished lanes. True when anything moved.
bool BlockReplay::pass(std::uint32_t n) {
  bool progress = false;
  bool issued = false;
  while (next_issue_ < n && issue_blocker_ == kNoBlocker && issue_next()) issued = true;
  if (issued) {
    progress = true;
    wake(kBlockedOnIssue);
  }
  std::size_t kept = 0;
  for (std::size_t k = 0; k < active_count_; ++k) {
    const int lane = active_[k];
    if (dirty_[lane]) {
      dirty_[lane] = false;
      while (start_head(lane)) progress = true;
    }
    if (head_[lane] < lanes_[lane].size()) active_[kept++] = static_cast<std::uint8_t>(lane);
  }
  active_count_ = kept;
  return progress;
}

void BlockReplay::prepare(bool split_mix) {
  const std::vector<Instr>& instrs = trace_->instrs;
  const std::size_t n = instrs.size();
  reset(n);
  const double per_bb = costs_.scalar_cycles_per_bb();
  std::uint64_t prev_bbs = 0;
  std::array<const ShapeCost*, kLaneCount> last_shape{};
  for (std::size_t i = 0; i < n; ++i) {
    const Instr& in = instrs[i];
    int lane = static_cast<int>(in.pipe);
    if (split_mix && in.pipe == Pipe::kMte2 && in.dst == Mem::kUb) lane = kMte2AivLane;
    Node& node = place(i, lane, last_shape[lane]);
    // Basic blocks since the previous instruction, and the issue step they make.
    const std::uint64_t bbs = in.scalar_bbs > prev_bbs ? in.scalar_bbs - prev_bbs : 0;
    prev_bbs = in.scalar_bbs;
    node.bb_cycles = static_cast<double>(bbs) * per_bb;
    node.step = i == 0 ? 0 : issue_ps(bbs, node.bb_cycles);
  }
  activate_lanes();
}

// The lanes with instructions, each to be tried in the first pass.
void BlockReplay::activate_lanes() {
  active_count_ = 0;
  for (int lane = 0; lane < kLaneCount; ++lane) {
    if (!lanes_[lane].empty()) active_[active_count_++] = static_cast<std::uint8_t>(lane);
  }
  dirty_.fill(true);
  blocker_.fill(kNoBlocker);
}

// Instruction i joins `lane` with its duration and latency; `last` is the lane's last shape.
BlockReplay::Node& BlockReplay::place(std::size_t i, int lane, const ShapeCost*& last) {
  const Instr& in = trace_->instrs[i];
  Node& node = nodes_[i];
  node.issue = node.start = node.release = node.end = kUnknown;
  node.lane = static_cast<std::uint8_t>(lane);
  node.gm = in.touches_gm();
  node.pos = static_cast<std::uint32_t>(lanes_[lane].size());
  lanes_[lane].push_back(static_cast<std::uint32_t>(i));
  // Runs of one shape per lane are common: compare with the lane's last before hashing (the
  // entry may have been replaced since, the comparison sees its current shape).
  if (last == nullptr || !same_shape(last->shape, in)) last = &shape_cost(in);
  node.duration = last->duration;
  latency_[i] = last->latency;
  return node;
}

// The state of a replay of n instructions before any is placed.
void BlockReplay::reset(std::size_t n) {
  nodes_.resize(n);
  latency_.resize(n);
  for (auto& l : lanes_) l.clear();
  head_.fill(0);
  next_issue_ = 0;
  issue_blocker_ = kNoBlocker;
  scalar_cycles_ = 0;
  result_ = ReplayResult{};
  while (!pending_.empty()) pending_.pop();  // left over by a replay cut short (preemption)
}

void BlockReplay::wake(std::uint32_t known) {
  if (issue_blocker_ == known) issue_blocker_ = kNoBlocker;  // a scalar access ended
  for (std::size_t k = 0; k < active_count_; ++k) {
    const int lane = active_[k];
    if (blocker_[lane] == known) dirty_[lane] = true;
  }
}

bool BlockReplay::issue_next() {
  const std::uint32_t i = next_issue_;
  Node& node = nodes_[i];
  SimTime t;
  if (i == 0) {
    t = start_time_ + costs_.to_ps(node.bb_cycles);
  } else {
    const Node& prev_node = nodes_[i - 1];
    SimTime prev = prev_node.issue;
    if (prev_node.lane == static_cast<int>(Pipe::kScalar)) {
      if (prev_node.end == kUnknown) {  // the scalar unit waits for its own access
        issue_blocker_ = i - 1;
        return false;
      }
      prev = std::max(prev, prev_node.end);
    }
    t = prev + node.step;
  }
  const std::uint64_t depth = costs_.queue_depth();
  if (depth > 0 && node.pos >= depth) {
    const std::uint32_t j = lanes_[node.lane][node.pos - depth];
    if (nodes_[j].start == kUnknown) {  // its pipe queue is full
      issue_blocker_ = j;
      return false;
    }
    t = std::max(t, nodes_[j].start);
  }
  node.issue = t;
  scalar_cycles_ += 1.0 + node.bb_cycles;
  ++next_issue_;
  return true;
}

bool BlockReplay::start_head(int lane) {
  const std::vector<std::uint32_t>& list = lanes_[lane];
  const std::size_t h = head_[lane];
  if (h >= list.size()) return false;
  const std::uint32_t i = list[h];
  if (i >= next_issue_) return blocked(lane, kBlockedOnIssue);
  SimTime t = nodes_[i].issue;
  if (h > 0) {
    const SimTime prev = nodes_[list[h - 1]].release;
    if (prev == kUnknown) return blocked(lane, list[h - 1]);
    t = std::max(t, prev);
  }
  const Instr& in = trace_->instrs[i];
  const std::uint32_t* deps = trace_->deps.data() + in.dep_begin;
  for (std::uint32_t d = 0; d < in.dep_count; ++d) {
    const std::uint32_t dep = deps[d];
    if (dep >= i) continue;  // not an earlier instruction: ignored (trace contract)
    if (nodes_[dep].end == kUnknown) return blocked(lane, dep);
    t = std::max(t, nodes_[dep].end);
  }
  if (in.op == ascendc::Op::kSyncWait && !block_deps_start(i, t)) {
    return blocked(lane, kBlockedOnBlock);
  }
  nodes_[i].start = t;
  if (issue_blocker_ == i) issue_blocker_ = kNoBlocker;  // a pipe queue slot frees
  ++head_[lane];
  if (nodes_[i].gm) {
    pending_.emplace(t, i);
  } else {
    const SimTime end = t + nodes_[i].duration;
    finish(i, end, end);
  }
  return true;
}

// Called at the simulated time the earliest pending instruction starts.
void BlockReplay::resolve_earliest() {
  const auto [start, i] = pending_.top();
  pending_.pop();
  const Instr& in = trace_->instrs[i];
  const SimTime core_end = start + nodes_[i].duration;
  const SimTime request = start + startup_ps_[static_cast<int>(in.pipe)];
  SimTime latency = latency_[i];
  const SimTime answered = host_->gm_access(in, request, latency);  // may raise latency
  const SimTime data = std::max(answered, request + latency);
  finish(i, std::max(core_end, data - latency), std::max(core_end + latency, data));
}

// Raises `t` to the end of every other block's kSyncSet instruction i waited for; false while
// one of them is not known yet.
bool BlockReplay::block_deps_start(std::uint32_t i, SimTime& t) const {
  const auto& deps = trace_->block_deps;  // program order: sorted by instr
  auto it = std::lower_bound(deps.begin(), deps.end(), i,
                             [](const ascendc::BlockDep& d, std::uint32_t v) { return d.instr < v; });
  for (; it != deps.end() && it->instr == i; ++it) {
    const SimTime end = host_->block_dep_end(it->block, it->other);
    if (end == ReplayHost::kNever) return false;
    t = std::max(t, end);
  }
  return true;
}

// Lanes waiting for another block: tried again at every advance(); true when there are any.
bool BlockReplay::waits_on_blocks() {
  bool any = false;
  for (std::size_t k = 0; k < active_count_; ++k) {
    const int lane = active_[k];
    if (blocker_[lane] == kBlockedOnBlock) {
      dirty_[lane] = true;
      any = true;
    }
  }
  return any;
}

void BlockReplay::finish(std::uint32_t i, SimTime release, SimTime end) {
  nodes_[i].release = release;
  nodes_[i].end = end;
  if (trace_->instrs[i].op == ascendc::Op::kSyncSet) host_->sync_set_end(i, end);
  wake(i);
  result_.busy[nodes_[i].lane] += release - nodes_[i].start;
  ++result_.instrs;
  if (trace_instrs_) host_->instr_done(trace_->instrs[i], nodes_[i].lane, nodes_[i].start, release);
}

bool BlockReplay::cut(SimTime now, ascendc::BlockTrace& rest, Cut& out) const {
  const std::size_t n = trace_->instrs.size();
  out = Cut{};
  out.drained = now;
  std::vector<bool> done(n, false);
  const std::uint64_t base_bbs = count_done(now, done, out);
  rest.clear();
  rest.local_bytes = trace_->local_bytes;
  out.progress = out.done > 0;
  // Only the scalar code after the last instruction is left: cut it there.
  if (out.done == n) return cut_scalar_tail(now, rest, out);
  out.busy[static_cast<int>(Pipe::kScalar)] += costs_.to_ps(
      static_cast<double>(out.done) +
      static_cast<double>(base_bbs) * costs_.scalar_cycles_per_bb());
  copy_rest(done, base_bbs, rest);
  return true;
}

// The instructions started by `now` whose end is known are done: marked in `done` and counted
// in `out`. Returns the basic blocks the scalar unit ran up to the last of them.
std::uint64_t BlockReplay::count_done(SimTime now, std::vector<bool>& done, Cut& out) const {
  const std::vector<Instr>& instrs = trace_->instrs;
  std::uint64_t base_bbs = 0;
  for (std::size_t i = 0; i < instrs.size(); ++i) {
    if (nodes_[i].start == kUnknown || nodes_[i].start > now || nodes_[i].end == kUnknown) continue;
    done[i] = true;
    ++out.done;
    out.drained = std::max(out.drained, nodes_[i].end);
    out.busy[nodes_[i].lane] += nodes_[i].release - nodes_[i].start;
    base_bbs = std::max(base_bbs, instrs[i].scalar_bbs);
  }
  return base_bbs;
}

// Every instruction is done: the rest is the scalar tail's basic blocks not run by `now` (false:
// nothing is left).
bool BlockReplay::cut_scalar_tail(SimTime now, ascendc::BlockTrace& rest, Cut& out) const {
  const std::size_t n = trace_->instrs.size();
  std::uint64_t done_bbs = 0;
  const SimTime t = tail_start(done_bbs);
  const std::uint64_t tail = trace_->scalar_bbs > done_bbs ? trace_->scalar_bbs - done_bbs : 0;
  const SimTime bb_ps = costs_.to_ps(costs_.scalar_cycles_per_bb());
  if (tail == 0 || bb_ps == 0) return false;
  const std::uint64_t ran = now <= t ? 0 : std::min<std::uint64_t>(tail, (now - t) / bb_ps);
  if (ran >= tail) return false;
  rest.scalar_bbs = tail - ran;  // a basic block in progress runs again
  out.progress = n > 0 || ran > 0;
  out.busy[static_cast<int>(Pipe::kScalar)] += costs_.to_ps(
      static_cast<double>(n) +
      static_cast<double>(done_bbs + ran) * costs_.scalar_cycles_per_bb());
  return true;
}

// When the scalar code after the last instruction starts; `done_bbs` the basic blocks run before.
SimTime BlockReplay::tail_start(std::uint64_t& done_bbs) const {
  const std::size_t n = trace_->instrs.size();
  done_bbs = 0;
  if (n == 0) return start_time_;
  SimTime t = nodes_[n - 1].issue + costs_.to_ps(1.0);
  if (nodes_[n - 1].lane == static_cast<int>(Pipe::kScalar)) t = std::max(t, nodes_[n - 1].end);
  done_bbs = trace_->instrs[n - 1].scalar_bbs;
  return t;
}

// The instructions not done, renumbered, with their dependencies among themselves and their
// basic-block counts from `base_bbs` on.
void BlockReplay::copy_rest(const std::vector<bool>& done, std::uint64_t base_bbs,
                            ascendc::BlockTrace& rest) const {
  const std::vector<Instr>& instrs = trace_->instrs;
  constexpr std::uint32_t kGone = ~std::uint32_t{0};
  std::vector<std::uint32_t> index(instrs.size(), kGone);
  for (std::size_t i = 0; i < instrs.size(); ++i) {
    if (done[i]) continue;
    Instr c = instrs[i];
    c.scalar_bbs = c.scalar_bbs > base_bbs ? c.scalar_bbs - base_bbs : 0;
    c.dep_begin = static_cast<std::uint32_t>(rest.deps.size());
    const std::uint32_t* deps = trace_->deps.data() + instrs[i].dep_begin;
    for (std::uint32_t d = 0; d < instrs[i].dep_count; ++d) {
      if (deps[d] < i && index[deps[d]] != kGone) rest.deps.push_back(index[deps[d]]);
    }
    c.dep_count = static_cast<std::uint32_t>(rest.deps.size()) - c.dep_begin;
    index[i] = static_cast<std::uint32_t>(rest.instrs.size());
    if (i < trace_->sites.size()) {
      rest.sites.resize(rest.instrs.size(), 0);
      rest.sites.push_back(trace_->sites[i]);
    }
    rest.instrs.push_back(c);
  }
  rest.scalar_bbs = trace_->scalar_bbs > base_bbs ? trace_->scalar_bbs - base_bbs : 0;
  if (!rest.sites.empty()) rest.site_frames = trace_->site_frames;
}

SimTime BlockReplay::scalar_tail() {
  const std::vector<Instr>& instrs = trace_->instrs;
  const std::uint64_t total = trace_->scalar_bbs;
  SimTime t = start_time_;
  std::uint64_t done_bbs = 0;
  if (!instrs.empty()) {
    const std::size_t last = instrs.size() - 1;
    t = nodes_[last].issue + costs_.to_ps(1.0);
    if (nodes_[last].lane == static_cast<int>(Pipe::kScalar)) t = std::max(t, nodes_[last].end);
    done_bbs = instrs[last].scalar_bbs;
  }
  const double cycles =
      static_cast<double>(total > done_bbs ? total - done_bbs : 0) * costs_.scalar_cycles_per_bb();
  scalar_cycles_ += cycles;
  return t + costs_.to_ps(cycles);
}

}  // namespace npusim::models
