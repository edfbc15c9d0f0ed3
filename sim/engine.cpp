// SPDX-License-Identifier: Apache-2.0
#include "sim/engine.h"

#include <cstdlib>
#include <stdexcept>

namespace npusim::sim {
namespace {

// SystemC's kernel is process-wide; so is the one fact we must remember about it: whether it has
// been configured (the time resolution can be set only once) and whether an Engine owns it.
struct KernelState {
  bool configured = false;
  bool engine_alive = false;
};

KernelState& kernel_state() {
  static KernelState state;
  return state;
}

void configure_kernel() {
  // Before the first SystemC object: the banner is printed when the kernel context is created.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  // sc_start() with nothing to do, sc_pause() and sc_stop() are normal operation here.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
}

// Marks the engine as inside sc_start() (so wake() may call sc_pause()), exception-safe.
/// Marks a SystemC run in progress (and the predicate wake() tests) for its duration.
class RunningScope {
 public:
  RunningScope(bool& flag, const std::function<bool()>*& until,
               const std::function<bool()>* value)
      : flag_(flag), until_(until) {
    flag_ = true;
    until_ = value;
  }
  ~RunningScope() {
    flag_ = false;
    until_ = nullptr;
  }
  RunningScope(const RunningScope&) = delete;
  RunningScope& operator=(const RunningScope&) = delete;

 private:
  bool& flag_;
  const std::function<bool()>*& until_;
};

}  // namespace

Engine::Engine() {
  KernelState& state = kernel_state();
  if (state.engine_alive) {
    throw std::logic_error("npusim: a simulation engine already exists in this process");
  }
  if (!state.configured) {
    configure_kernel();
    state.configured = true;
  } else if (sc_core::sc_start_of_simulation_invoked()) {
    throw std::logic_error(
        "npusim: the simulated system was already built and started in this process; SystemC "
        "allows one elaboration per process, so keep the backend alive for the process lifetime");
  }
  state.engine_alive = true;
}

Engine::~Engine() { kernel_state().engine_alive = false; }

void Engine::elaborate() {
  if (elaborated_) return;
  elaborated_ = true;
  RunningScope running(running_, until_, nullptr);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // initialisation: every process reaches its first wait
}

void Engine::start(SimTime duration, const std::function<bool()>* until) {
  RunningScope running(running_, until_, until);
  if (duration == kForever) {
    sc_core::sc_start();  // until starvation or sc_pause()
  } else {
    sc_core::sc_start(to_sc_time(duration));
  }
}

WaitResult Engine::run_until(const std::function<bool()>& done, SimTime deadline) {
  elaborate();
  for (;;) {
    if (done()) return WaitResult::kDone;
    const SimTime now = sim_now();
    if (deadline != kForever && now >= deadline) return WaitResult::kTimeout;
    // sc_start() with nothing pending costs ~0.5 us and does nothing: test first.
    if (!sc_core::sc_pending_activity()) return WaitResult::kStarved;
    start(deadline == kForever ? kForever : deadline - now, &done);
  }
}

void Engine::advance_to(SimTime t) {
  elaborate();
  // With nothing pending, a timed sc_start() still moves time to its end (SC_RUN_TO_TIME).
  while (sim_now() < t) start(t - sim_now(), nullptr);
}

}  // namespace npusim::sim
