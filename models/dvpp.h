// SPDX-License-Identifier: Apache-2.0
// DVPP: the media unit (VPC, JPEGD, JPEGE, PNGD, VDEC, VENC). Each module the chip has
// (dvpp.<module>.channels > 0) is one engine claiming its own TaskKind (kDvppVpc + module).
//
// Timing model, per module, from the product's published "Performance Specifications" table
// (n channels of a reference resolution: n x fps up to `channels`, then total_fps):
//  - The module has `channels` hardware units; the scheduler hands it at most `channels` tasks
//    at once (more queue in the scheduler). A task's frames (one; a batch has one per ROI) are
//    issued back to back: frame i+1 is issued when frame i has been admitted, so a batch spreads
//    over the free units (CANN: a batch VPC call alone can reach the module's total rate).
//  - A frame of P pixels is worth w = P / (ref_width x ref_height) reference frames; on its unit
//    it takes c = w / fps. The module's total rate is a token bucket in time units: admitting a
//    frame costs p = w / total_fps of "module time"; the bucket refills at one second per second
//    and holds at most channels / total_fps (so `channels` reference frames may start at once).
//    A frame is admitted when a unit is free and the bucket is not in debt (level >= 0), then pays
//    p (the level may go negative: later frames wait for the debt). So n channels alone run at
//    n x fps while that is below total_fps, and the module at total_fps when it is not.
//    Unit choice: the lowest-numbered unit free at the issue time, else the one free first.
//  - Admitted at a, the frame reads its input from HBM (read_bytes, issued at a), computes for
//    c = w / fps on its unit (ends at max(a + c, input read)), then writes its output to HBM
//    (write_bytes); the unit is busy until the write completes. The task ends with its last
//    frame. So one channel alone runs at fps, n channels at n x fps while n x fps <= total_fps.
//  - Memory traffic goes through the chip's HBM like every other initiator.
// Timeline: one track per module unit, "DVPP <MODULE> ch <k>", one span per frame; the task's
// type (op_summary, stream tracks) is msprof's "DVPP". op_summary.csv gets a row per DVPP task
// (Task Type DVPP, Block Dim = its frames, the AI Core columns N/A) when records are kept.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/aicore/op_summary.h"
#include "models/channel_engine.h"
#include "models/dvpp_config.h"
#include "models/dvpp_work.h"
#include "models/unit.h"

namespace npusim::models {

/// One DVPP module: claims kDvppVpc + module (every direction).
class DvppModuleEngine : public ChannelEngine {
 public:
  DvppModuleEngine(const sc_core::sc_module_name& name, DvppModule module,
                   const DvppModuleConfig& cfg, UnitContext& ctx, sim::StatGroup& stats);

  const char* task_type(const Task&) const override { return "DVPP"; }

  /// Keep an op_summary record of every task finished from now on (off by default).
  void keep_records(bool on) { keep_records_ = on; }
  const std::vector<KernelRecord>& records() const { return records_; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;

 private:
  struct Frame {
    int phase = 0;  // 0 = waiting to be issued, 1 = admitted (waiting for a), 2 = computing,
                    // 3 = writing, 4 = done
    sim::SimTime issue = 0;
    sim::SimTime admit = 0;
    sim::SimTime compute = 0;  // computation ends (phase 2)
    sim::SimTime end = 0;      // output written (phase 3)
    sim::SimTime work = 0;     // c: the frame's time on its unit
    int unit = -1;
  };
  struct JobState {
    std::vector<Frame> frames;
  };

  /// Admits frame `f` of `work` issued at `now`: picks its unit and admission time.
  void admit(Frame& f, const DvppFrame& frame, sim::SimTime now);
  /// Time of `pixels` at `rate` reference frames per second, in ps (rounded to nearest).
  sim::SimTime frame_time(std::uint64_t pixels, double rate) const;
  /// resume()'s steps: a frame's phases up to `now`; a frame done; the task's op_summary record.
  void advance(const Task& task, Frame& f, const DvppFrame& in, std::size_t i, sim::SimTime now);
  void finish(const Task& task, Frame& f, const DvppFrame& in, std::size_t i);
  void keep_record(const Task& task, sim::SimTime start, std::size_t frames, sim::SimTime now);

  DvppModule module_;
  double ref_pixels_;
  double fps_;
  double total_fps_;
  double overhead_s_;  // DvppModuleConfig::frame_overhead, seconds
  sim::SimTime depth_ = 0;     // the bucket's capacity, ps of module time
  std::int64_t level_ = 0;     // ps of module time available (negative: debt)
  sim::SimTime level_at_ = 0;  // when level_ was last brought up to date
  std::vector<sim::SimTime> unit_free_;
  std::vector<sim::Track> unit_tracks_;
  std::vector<JobState> jobs_;  // by channel
  std::uint64_t frames_ = 0;
  std::uint64_t pixels_ = 0;
  sim::SimTime completion_ = 0;  // scheduler.completion: a record ends when the task is reported
  bool keep_records_ = false;
  std::vector<KernelRecord> records_;
};

/// The DVPP unit: the modules the chip has.
class Dvpp : public sc_core::sc_module, public Unit {
 public:
  Dvpp(const sc_core::sc_module_name& name, UnitContext& ctx);
  /// The module's engine, or nullptr when the chip has none.
  DvppModuleEngine* module(DvppModule m) { return modules_[static_cast<int>(m)].get(); }
  /// op_summary records of every module (DvppModuleEngine::keep_records).
  void keep_records(bool on) override;
  void append_records(std::vector<KernelRecord>& out) const override;
  std::vector<KernelRecord> records() const;

 private:
  std::array<std::unique_ptr<DvppModuleEngine>, kDvppModules> modules_;
};

}  // namespace npusim::models
