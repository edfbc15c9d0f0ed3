// SPDX-License-Identifier: Apache-2.0
// The AI Core engine's statistics (aicore_engine.h, "Measured"): totals, per-pipe busy cycles,
// and per stream the preemption and fairness measurements (PREMA's ANTT / STP).
#include <array>
#include <limits>
#include <string>
#include <utility>

#include "models/aicore/aicore_engine.h"
#include "sim/engine.h"

namespace npusim::models {
namespace {

const char* const kPipeStatNames[ascendc::kPipeCount] = {"scalar", "vector", "cube",   "mte1",
                                                         "mte2",   "mte3",   "fixpipe"};

// <name>_p50, _p99 and _max (ps) of `samples`; what[i] describes each in that order.
void add_percentiles(sim::StatGroup& g, const std::string& name, const sim::Distribution& samples,
                     const std::array<const char*, 3>& what) {
  static const std::pair<const char*, double> kPoints[] = {
      {"_p50", 50}, {"_p99", 99}, {"_max", 100}};
  for (std::size_t i = 0; i < what.size(); ++i) {
    const double p = kPoints[i].second;
    g.formula(name + kPoints[i].first, [&samples, p] { return samples.percentile(p); }, "ps",
              what[i]);
  }
}

}  // namespace

AiCoreEngine::StreamStats& AiCoreEngine::stream_stats(std::uint32_t stream) {
  auto [it, fresh] = streams_.try_emplace(stream);
  StreamStats& st = it->second;
  if (!fresh || streams_group_ == nullptr) return st;
  sim::StatGroup& g = streams_group_->child("s" + std::to_string(stream));
  add_stream_counts(g, st);
  add_stream_latencies(g, st);
  add_stream_context_costs(g, st);
  return st;
}

// How many kernels a stream ran, when, and the preemptions between it and others.
void AiCoreEngine::add_stream_counts(sim::StatGroup& g, StreamStats& st) {
  g.add("kernels", st.kernels, "", "kernels of this stream finished");
  g.add("first_received", st.first_received, "ps", "when the engine received its first kernel");
  g.add("last_end", st.last_end, "ps", "when its last kernel's last block ended");
  g.add("preemptions_caused", st.caused, "", "running blocks preempted for this stream's kernels");
  g.add("preemptions_suffered", st.suffered, "", "this stream's running blocks preempted");
}

// Preemption and start latencies of a stream's kernels (percentiles of its samples).
void AiCoreEngine::add_stream_latencies(sim::StatGroup& g, StreamStats& st) {
  g.formula("preempt_latency_count", [&st] { return static_cast<double>(st.latency.count()); },
            "", "kernels of this stream that preempted (latency samples)");
  add_percentiles(g, "preempt_latency", st.latency,
                  {"median preemption latency: a preempting kernel's readiness to the first issue "
                   "slot of the first block it dispatched after asking",
                   "99th percentile preemption latency", "largest preemption latency"});
  add_percentiles(g, "start_latency", st.start,
                  {"median over its kernels of readiness (aicore.kernel_launch after receipt) to "
                   "the first block's first issue slot, preempting or not",
                   "99th percentile of start_latency", "largest start_latency"});
}

// What preemption cost a stream: context saved and restored, work killed, blocks redispatched,
// and its normalized turnaround.
void AiCoreEngine::add_stream_context_costs(sim::StatGroup& g, StreamStats& st) {
  g.add("saved_bytes", st.saved_bytes, "B", "context bytes its preempted blocks wrote (checkpoint)");
  g.add("restored_bytes", st.restored_bytes, "B", "context bytes its resumed blocks read back");
  g.add("save_time", st.save_time, "ps", "core time its preempted blocks spent saving context");
  g.add("restore_time", st.restore_time, "ps", "core time its resumed blocks spent restoring context");
  g.add("killed_time", st.killed_time, "ps", "execution time of its blocks discarded by kill");
  g.add("redispatched_blocks", st.redispatched, "",
        "preempted blocks dispatched again (each pays aicore.block_launch again)");
  g.formula("normalized_turnaround", [&st] {
    return st.iso > 0 ? st.turnaround / st.iso : std::numeric_limits<double>::quiet_NaN();
  }, "", "sum of its kernels' engine times / sum of their predicted isolated times");
}

void AiCoreEngine::register_stats(sim::StatGroup& stats) {
  stats.add("kernels", kernels_done_, "", "kernels finished");
  stats.add("failed_kernels", failed_, "", "kernels that ended with an error");
  stats.add("blocks", blocks_, "", "blocks run");
  stats.add("instructions", instrs_, "", "pipe instructions replayed");
  stats.add("preemptions", preemptions_, "",
            "running blocks preempted (scheduler.preemption; drain counts the blocks waited for)");
  register_latency_stats(stats);
  register_fairness_stats(stats);
  streams_group_ = &stats.child("streams");
  register_pipe_stats(stats.child("pipes"));
}

// Preemption latency over all streams.
void AiCoreEngine::register_latency_stats(sim::StatGroup& stats) {
  const auto all_latency = [this] {
    sim::Distribution all;
    for (const auto& [id, st] : streams_) all.merge(st.latency);
    return all;
  };
  stats.formula("preempt_latency_p50", [all_latency] { return all_latency().percentile(50); },
                "ps", "median preemption latency over all streams (streams.s<id> has the definition)");
  stats.formula("preempt_latency_p99", [all_latency] { return all_latency().percentile(99); },
                "ps", "99th percentile preemption latency over all streams");
  stats.formula("preempt_latency_max", [all_latency] { return all_latency().percentile(100); },
                "ps", "largest preemption latency");
}

// PREMA's fairness (ANTT) and throughput (STP) over streams.
void AiCoreEngine::register_fairness_stats(sim::StatGroup& stats) {
  stats.formula("antt", [this] { return antt(); }, "",
                "average normalized turnaround time over streams (PREMA's ANTT; lower is "
                "better): mean of streams.s<id>.normalized_turnaround");
  stats.formula("stp", [this] { return stp(); }, "",
                "system throughput over streams (PREMA's STP; higher is better): sum of 1 / "
                "normalized turnaround");
}

double AiCoreEngine::antt() const {
  double sum = 0;
  int n = 0;
  for (const auto& [id, st] : streams_) {
    if (st.iso <= 0) continue;
    sum += st.turnaround / st.iso;
    ++n;
  }
  return n == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / n;
}

double AiCoreEngine::stp() const {
  double sum = 0;
  for (const auto& [id, st] : streams_) {
    if (st.iso > 0 && st.turnaround > 0) sum += st.iso / st.turnaround;
  }
  return sum;
}

// Busy cycles and utilization of each pipe, over all cores.
void AiCoreEngine::register_pipe_stats(sim::StatGroup& pipes) {
  for (int p = 0; p < ascendc::kPipeCount; ++p) {
    const auto total = [this, p] {
      std::uint64_t sum = 0;
      for (const auto& core : cores_) sum += core->pipe_busy()[p];
      return sum;
    };
    pipes.formula(std::string(kPipeStatNames[p]) + "_busy_cycles",
                  [this, total] { return costs_.to_cycles(total()); }, "cycles",
                  "busy cycles of this pipe summed over all cores");
    pipes.formula(std::string(kPipeStatNames[p]) + "_utilization", [this, total] {
      const SimTime now = sim::sim_now();
      if (now == 0) return 0.0;
      return static_cast<double>(total()) / (static_cast<double>(now) * cores_.size());
    }, "", "busy time / (simulated time x cores)");
  }
}

}  // namespace npusim::models
