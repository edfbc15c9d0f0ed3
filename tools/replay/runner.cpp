// SPDX-License-Identifier: Apache-2.0
// The replay runner from start to end (tools/replay/runner.h): the trace, its operators and
// plan, aclInit, the device and its streams, the timed run, the checks, the outputs, and the
// release of everything in the end whatever failed. The parts: tools/replay/runner_internal.h.
#include "tools/replay/runner.h"

#include <dlfcn.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "tools/replay/runner_internal.h"

namespace npusim::replay {

void* symbol(const std::string& name) { return dlsym(RTLD_DEFAULT, name.c_str()); }

std::string recent_error() {
  const char* msg = aclGetRecentErrMsg();
  return msg != nullptr && *msg != '\0' ? std::string(": ") + msg : std::string();
}

std::string fmt_us(double us) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3) << us;
  return o.str();
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

/// The trace, its operators and the dependency plan, then aclInit: 0, or 2 (reported).
int Runner::prepare() {
  try {
    t_ = load_trace(o_.trace, o_.params);
  } catch (const TraceError& e) {
    std::cerr << "npusim replay: bad trace: " << e.what() << "\n";
    return 2;
  }
  if (!resolve_ops() || !dump_dir_writable()) return 2;
  plan();
  if (aclError st = aclInit(nullptr); st != ACL_SUCCESS) {
    std::cerr << "npusim replay: aclInit failed: " << st << recent_error() << "\n";
    return 2;
  }
  return 0;
}

/// Device 0, one stream per trace stream, the tensors' memory and fills: 0, or 2 (reported).
int Runner::set_up_device() {
  if (aclError st = aclrtSetDevice(0); st != ACL_SUCCESS) {
    std::cerr << "npusim replay: aclrtSetDevice(0) failed: " << st << recent_error() << "\n";
    return 2;
  }
  for (int s = 0; s < t_.streams; ++s) {
    aclrtStream stream = nullptr;
    const aclError st = aclrtCreateStream(&stream);
    if (st != ACL_SUCCESS) {
      std::cerr << "npusim replay: aclrtCreateStream failed: " << st << recent_error() << "\n";
    }
    streams_.push_back(stream);
    if (st != ACL_SUCCESS) return 2;
  }
  return allocate_and_fill() ? 0 : 2;
}

int Runner::execute_timed(Outcome& outcome) {
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = execute(outcome.simulated_us, outcome.ops_run);
  outcome.ran = rc == 0;
  outcome.run_wall_s = seconds_since(t0);
  return rc;
}

int Runner::run() {
  const auto wall0 = std::chrono::steady_clock::now();
  if (const int rc = prepare(); rc != 0) return rc;
  Outcome outcome;
  int rc = set_up_device();
  if (rc == 0) rc = execute_timed(outcome);
  if (rc == 0) {
    outcome.checks_failed = check_and_dump();
    if (outcome.checks_failed > 0) rc = 1;
  }
  report_rejected();
  write_summary(outcome.ops_run, outcome.simulated_us, outcome.checks_failed);
  cleanup();
  aclrtResetDevice(0);
  aclFinalize();
  print_results(outcome, seconds_since(wall0));
  return rc;
}

int run_replay(const Options& options) {
  if (options.repeat < 1) {
    std::cerr << "npusim replay: --repeat must be at least 1\n";
    return 2;
  }
  try {
    return Runner(options).run();
  } catch (const std::exception& e) {  // e.g. host memory for a fill: reported, never a crash
    std::cerr << "npusim replay: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace npusim::replay
