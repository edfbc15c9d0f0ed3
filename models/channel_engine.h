// SPDX-License-Identifier: Apache-2.0
// Base of the engines made of N identical channels (PCIe DMA queues, SDMA channels).
//
// Timing model: each channel is one SC_METHOD (no thread, no coroutine: it runs on the
// simulation's own stack) that the scheduler starts with a job after the dispatch delay. It calls
// the subclass's resume(), which computes its durations and returns the next simulated time it
// must be called again (a burst boundary) or that the work is done; the method sleeps until then
// with next_trigger. A channel is busy from dispatch to the end of its work, then reports back to
// the scheduler. The channels share one TLM initiator socket towards the Hbm target (LT
// b_transport with annotated delays; the target never waits).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/engine.h"
#include "sim/stats.h"
#include "sim/tracks.h"

namespace npusim::models {

class Hbm;

class ChannelEngine : public sc_core::sc_module, public TaskEngine {
 public:
  tlm_utils::simple_initiator_socket<ChannelEngine> mem;

  /// One track per channel in `tracks`: "<label> ch 0", "<label> ch 1"... (`noun` replaces "ch":
  /// "AI CPU core 0").
  ChannelEngine(const sc_core::sc_module_name& name, std::int64_t channels,
                sim::TrackGroup& tracks, const std::string& label, sim::StatGroup& stats,
                const std::string& noun = "ch");

  /// Bind the memory socket to `hbm` (its latency is needed to pipeline bursts).
  void bind_memory(Hbm& hbm);

  bool has_free_channel() const override { return !free_.empty(); }
  void start(EngineJob& job, sim::SimTime delay, JobSink& sink) override;

 protected:
  /// Starts (the first call of a job) or continues the work of `job` at simulated time `now`:
  /// returns when it must be called again (> now), or nullopt when the work ended at `now`. The
  /// channel has already slept through lead_time(job) of it. Per-job state lives in the
  /// subclass, indexed by job.channel.
  virtual std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) = 0;
  /// A fixed delay at the start of `task`'s work that touches no shared resource (a link
  /// latency): the channel sleeps through it in the same wait as the dispatch delay.
  virtual sim::SimTime lead_time(const Task& task) const { return 0; }
  /// Most trace arguments a busy span has.
  static constexpr std::size_t kMaxSpanArgs = 8;
  /// Trace arguments of a finished job's busy span: fills `args` (room for kMaxSpanArgs),
  /// returns how many. Texts must outlive the call (literals).
  virtual std::size_t span_args(const EngineJob& job, sim::TraceField* args) const;

  /// Issue an access of `bytes` at time `at` (>= now) to memory. Returns when its data is
  /// complete; `slot_end` receives when the next pipelined access may issue.
  sim::SimTime memory_access(tlm::tlm_command cmd, sim::SimTime at, std::uint64_t bytes,
                             sim::SimTime& slot_end);

  std::uint64_t bytes_ = 0;  // bytes moved by finished jobs (subclasses add)

 private:
  struct Channel {
    sc_core::sc_event go;
    EngineJob* job = nullptr;
    JobSink* sink = nullptr;
    sim::SimTime lead = 0;
    bool started = false;  // the job's first resume() has run
    sim::Track track;
  };

  void on_channel(int index);
  void release(int index);
  void trace_job(const EngineJob& job);

  std::vector<std::unique_ptr<Channel>> channels_;
  std::vector<int> free_;  // descending, so back() is the lowest free channel
  tlm::tlm_generic_payload payload_;
  sim::SimTime memory_latency_ = 0;
  std::uint64_t jobs_ = 0;
  std::uint64_t busy_time_ = 0;  // summed over channels, ps
};

}  // namespace npusim::models
