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

// <name>_p50, _p99 and _max (ps) of the samples `source()` returns (a Distribution, or a
// reference to one); what[i] describes each in that order.
template <class Source>
void add_percentiles(sim::StatGroup& g, const std::string& name, Source source,
                     const std::array<const char*, 3>& what) {
  static const std::pair<const char*, double> kPoints[] = {
      {"_p50", 50}, {"_p99", 99}, {"_max", 100}};
  for (std::size_t i = 0; i < what.size(); ++i) {
    const double p = kPoints[i].second;
    g.formula(name + kPoints[i].first, [source, p] { return source().percentile(p); }, "ps",
              what[i]);
  }
}

// A source for add_percentiles: the samples themselves.
auto samples_of(const sim::Distribution& d) {
  return [&d]() -> const sim::Distribution& { return d; };
}

// One stat per row: a uint64 field of `Stats` (a stream's counters).
template <class Stats>
struct Counter {
  const char* name;
  std::uint64_t Stats::*field;
  const char* unit;
  const char* desc;
};

template <class Stats, std::size_t N>
void add_counters(sim::StatGroup& g, Stats& st, const Counter<Stats> (&table)[N]) {
  for (const Counter<Stats>& c : table) g.add(c.name, st.*(c.field), c.unit, c.desc);
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
  using S = StreamStats;
  static const Counter<S> kCounts[] = {
      {"kernels", &S::kernels, "", "kernels of this stream finished"},
      {"first_received", &S::first_received, "ps", "when the engine received its first kernel"},
      {"last_end", &S::last_end, "ps", "when its last kernel's last block ended"},
      {"preemptions_caused", &S::caused, "", "running blocks preempted for this stream's kernels"},
      {"preemptions_suffered", &S::suffered, "", "this stream's running blocks preempted"},
  };
  add_counters(g, st, kCounts);
}

// Preemption and start latencies of a stream's kernels (percentiles of its samples).
void AiCoreEngine::add_stream_latencies(sim::StatGroup& g, StreamStats& st) {
  g.formula("preempt_latency_count", [&st] { return static_cast<double>(st.latency.count()); },
            "", "kernels of this stream that preempted (latency samples)");
  add_percentiles(g, "preempt_latency", samples_of(st.latency),
                  {"median preemption latency: a preempting kernel's readiness to the first issue "
                   "slot of the first block it dispatched after asking",
                   "99th percentile preemption latency", "largest preemption latency"});
  add_percentiles(g, "start_latency", samples_of(st.start),
                  {"median over its kernels of readiness (aicore.kernel_launch after receipt) to "
                   "the first block's first issue slot, preempting or not",
                   "99th percentile of start_latency", "largest start_latency"});
}

// What preemption cost a stream: context saved and restored, work killed, blocks redispatched,
// and its normalized turnaround.
void AiCoreEngine::add_stream_context_costs(sim::StatGroup& g, StreamStats& st) {
  using S = StreamStats;
  static const Counter<S> kCosts[] = {
      {"saved_bytes", &S::saved_bytes, "B",
       "context bytes its preempted blocks wrote (checkpoint)"},
      {"restored_bytes", &S::restored_bytes, "B", "context bytes its resumed blocks read back"},
      {"save_time", &S::save_time, "ps", "core time its preempted blocks spent saving context"},
      {"restore_time", &S::restore_time, "ps",
       "core time its resumed blocks spent restoring context"},
      {"killed_time", &S::killed_time, "ps", "execution time of its blocks discarded by kill"},
      {"redispatched_blocks", &S::redispatched, "",
       "preempted blocks dispatched again (each pays aicore.block_launch again)"},
  };
  add_counters(g, st, kCosts);
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
  add_percentiles(stats, "preempt_latency", all_latency,
                  {"median preemption latency over all streams (streams.s<id> has the definition)",
                   "99th percentile preemption latency over all streams",
                   "largest preemption latency"});
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
