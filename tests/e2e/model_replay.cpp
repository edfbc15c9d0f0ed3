// SPDX-License-Identifier: Apache-2.0
// A captured model replays with the per-task launch cost removed (runtime/core/model_ri.h, README
// "How a model replays"). Run with NPUSIM_CONFIG=tiny and
// NPUSIM_SET="scheduler.doorbell=500ns;scheduler.dispatch=200ns;scheduler.completion=300ns;
// scheduler.sync_task=100ns;host.launch_call=2us".
//
// N value writes (scheduler tasks: dispatch + sync_task + completion = 0.6 us each) between two
// event records on one stream:
//  - eager: every write is an API call paying launch_call (2 us) > 0.6 us, so the host sets the
//    pace: the records are (N + 1) launch calls apart: 22 us for N = 10;
//  - replay (the writes captured into a model, aclmdlRIExecuteAsync between the records): one
//    launch call for ExecuteAsync; MODEL_EXECUTE and MODEL_WAIT (scheduler tasks) and the N
//    resident writes each take 0.6 us, back to back: L + (N + 2) x 0.6 us = 9.2 us.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "e2e_common.h"

constexpr int kWrites = 10;

static bool exactly(float got_ms, double want_us) {
  std::printf("  %.6f us (want %.6f us)\n", got_ms * 1e3, want_us);
  return std::fabs(got_ms * 1e3 - want_us) < 1e-3;  // 1 ps of float rounding room
}

int main() {
  aclrtStream s = e2e_open(0), cap = nullptr;
  E2E_CHECK(aclrtCreateStream(&cap));
  void* word = nullptr;
  E2E_CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtEvent e[4];
  for (auto& ev : e) E2E_CHECK(aclrtCreateEvent(&ev));

  // Eager.
  const float eager_ms = e2e_timed_ms(s, e[0], e[1], [&] {
    for (int i = 1; i <= kWrites; ++i) E2E_CHECK(aclrtValueWrite(word, i, 0, s));
  });
  std::printf("eager:\n");
  E2E_EXPECT(exactly(eager_ms, (kWrites + 1) * 2.0));

  // Captured, then replayed.
  aclmdlRI model = nullptr;
  E2E_CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  for (int i = 1; i <= kWrites; ++i) E2E_CHECK(aclrtValueWrite(word, 100 + i, 0, cap));
  E2E_CHECK(aclmdlRICaptureEnd(cap, &model));
  E2E_CHECK(aclrtSynchronizeStream(cap));
  std::uint64_t v = 0;
  E2E_CHECK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  E2E_EXPECT(v == kWrites);  // capturing ran nothing

  const float replay_ms =
      e2e_timed_ms(s, e[2], e[3], [&] { E2E_CHECK(aclmdlRIExecuteAsync(model, s)); });
  std::printf("replay:\n");
  E2E_EXPECT(exactly(replay_ms, 2.0 + (kWrites + 2) * 0.6));
  E2E_CHECK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  E2E_EXPECT(v == 100 + kWrites);

  E2E_CHECK(aclmdlRIDestroy(model));
  for (auto& ev : e) E2E_CHECK(aclrtDestroyEvent(ev));
  e2e_free({word});
  E2E_CHECK(aclrtDestroyStream(cap));
  e2e_close(s, 0);
  std::printf("PASS model_replay\n");
  return 0;
}
