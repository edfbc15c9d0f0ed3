// SPDX-License-Identifier: Apache-2.0
// The SystemC kernel driver for the inline thread model: simulated time advances only inside
// run_until(), in whichever host thread calls it; models call wake() at every host-visible
// completion so run_until() can re-test its predicate.
//
// SystemC allows ONE elaboration per process: create the Engine first (it fixes the time
// resolution at 1 ps and silences the kernel's info reports), build every module, then call
// elaborate() (or let the first run_until() do it). A second Engine, or a module built after
// elaboration, is an error: the process keeps one simulated system for its whole life.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

#include <systemc>

#include "sim/quantity.h"
#include "sim/wait.h"

namespace npusim::sim {

/// SimTime (ps) <-> sc_time (resolution is 1 ps, so the value is the picosecond count).
inline sc_core::sc_time to_sc_time(SimTime t) { return sc_core::sc_time::from_value(t); }
inline SimTime sim_now() { return sc_core::sc_time_stamp().value(); }

class Engine {
 public:
  /// Prepares SystemC for this process. Throws std::logic_error if an Engine already exists or
  /// the kernel has already been started in this process.
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Ends elaboration (runs SystemC initialisation: every process reaches its first wait).
  /// Idempotent. After it, no module may be created in this process.
  void elaborate();
  bool elaborated() const { return elaborated_; }

  /// Contract: advance simulated time until done() holds (tested first, then after every wake()),
  /// simulated time reaches `deadline` (kTimeout), or nothing is left to simulate (kStarved: the
  /// kernel has no pending activity and done() is false; time does not move). Not re-entrant.
  WaitResult run_until(const std::function<bool()>& done, SimTime deadline = kForever);

  /// Contract: run the simulation up to time `t` (no-op when t <= now), ignoring wake()s.
  void advance_to(SimTime t);

  /// Contract: called by models at host-visible completions. When the current run_until()'s
  /// predicate now holds, the run stops after the current delta cycle (so a wait for many
  /// completions is one SystemC run, not one per completion). No effect outside run_until().
  void wake() {
    if (until_ != nullptr && (*until_)()) sc_core::sc_pause();
  }

  SimTime now() const { return sim_now(); }

 private:
  /// One sc_start slice (kForever = until starvation or a wake() whose `until` holds).
  void start(SimTime duration, const std::function<bool()>* until);

  bool elaborated_ = false;
  bool running_ = false;
  const std::function<bool()>* until_ = nullptr;  // the predicate of the run in progress
};

}  // namespace npusim::sim
