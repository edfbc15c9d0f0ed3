// SPDX-License-Identifier: Apache-2.0
// Several host threads on the inline thread model: a wait parks its thread until another thread
// acts; a wait no thread can satisfy is reported (at once when every thread waits, after
// NPUSIM_HANG_TIMEOUT when some thread is busy elsewhere).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class ThreadsTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&flag_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
  }
  void TearDown() override {
    set_hang_timeout(30);
    AclTest::TearDown();
  }
  void* flag_ = nullptr;
  aclrtStream a_ = nullptr;
  aclrtStream b_ = nullptr;
};

// The shape of the memory/9 sample: one thread waits for a value another thread writes later.
TEST_F(ThreadsTest, WaiterIsReleasedByALaterWriterThread) {
  aclError wait_rc = -1, sync_a = -1, write_rc = -1, sync_b = -1;
  std::thread waiter([&] {
    aclrtSetDevice(0);
    wait_rc = aclrtValueWait(flag_, 100, ACL_STREAM_WAIT_VALUE_EQ, a_);
    sync_a = aclrtSynchronizeStream(a_);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread writer([&] {
    aclrtSetDevice(0);
    write_rc = aclrtValueWrite(flag_, 100, 0, b_);
    sync_b = aclrtSynchronizeStream(b_);
  });
  writer.join();
  waiter.join();
  EXPECT_EQ(wait_rc, ACL_SUCCESS);
  EXPECT_EQ(sync_a, ACL_SUCCESS);
  EXPECT_EQ(write_rc, ACL_SUCCESS);
  EXPECT_EQ(sync_b, ACL_SUCCESS);
  uint64_t v = 0;
  ASSERT_EQ(aclrtMemcpy(&v, 8, flag_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(v, 100u);
}

TEST_F(ThreadsTest, ExitedThreadsDoNotDelayDeadlockReports) {
  std::thread t([] { aclrtSetDevice(0); });
  t.join();  // registered, then gone
  ASSERT_EQ(aclrtValueWait(flag_, 1, ACL_STREAM_WAIT_VALUE_EQ, a_), ACL_SUCCESS);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_EQ(aclrtDestroyStreamForce(a_), ACL_SUCCESS);
}

TEST_F(ThreadsTest, WaitersWithNobodyToWakeThemHitTheHangTimeout) {
  set_hang_timeout(0.3);
  aclError r1 = -1, r2 = -1;
  auto waiter = [&](aclrtStream s, aclError* rc) {
    aclrtSetDevice(0);
    aclrtValueWait(flag_, 5, ACL_STREAM_WAIT_VALUE_EQ, s);
    *rc = aclrtSynchronizeStream(s);
  };
  auto start = std::chrono::steady_clock::now();
  std::thread t1(waiter, a_, &r1);
  std::thread t2(waiter, b_, &r2);
  t1.join();  // this thread is live but not in an API call: the waiters must time out
  t2.join();
  EXPECT_EQ(r1, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(r2, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_EQ(aclrtDestroyStreamForce(a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStreamForce(b_), ACL_SUCCESS);
}

TEST_F(ThreadsTest, ThreadsHaveTheirOwnSyncStreamsAndClocks) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  std::thread t([&] {
    aclrtSetDevice(0);
    aclrtMemcpy(flag_, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE);
  });
  t.join();
  ASSERT_EQ(aclrtMemcpy(flag_, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 2u);
  EXPECT_NE(fake().tasks()[0].stream, fake().tasks()[1].stream);
  EXPECT_GE(fake().tasks()[0].stream, kSyncStream);
  std::vector<std::uint32_t> threads;
  for (const auto& a : fake().api_calls()) {
    if (a.name == "AscendCL@aclrtMemcpy") threads.push_back(a.thread);
  }
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_NE(threads[0], threads[1]);  // one timeline thread per host thread
  // The main thread's copy starts after the other thread's (host clocks meet the device clock).
  EXPECT_GE(fake().tasks()[1].record.submit, fake().tasks()[0].record.end);
}


// ---- Order between threads (runtime.h, "Several host threads") ----

/// A thread's work in the order tests: `calls` cheap calls (0.2 us of host time each), then a
/// stream created, so the stream's span shows where the thread stood.
void calls_then_stream(int calls, aclrtStream* stream) {
  aclrtSetDevice(0);
  int32_t device = -1;
  for (int i = 0; i < calls; ++i) aclrtGetDevice(&device);
  aclrtCreateStream(stream);
}

class ThreadOrderTest : public DeviceTest {
 protected:
  void TearDown() override {
    set_passive_ms(100);
    DeviceTest::TearDown();
  }
  /// The API spans named `name`, in the order they were traced.
  std::vector<FakeBackend::ApiTrace> spans(const std::string& name) {
    std::vector<FakeBackend::ApiTrace> out;
    for (const auto& a : fake().api_calls()) {
      if (a.name == "AscendCL@" + name) out.push_back(a);
    }
    return out;
  }
};

// A thread created with std::thread starts at its creator's simulated clock, however late it makes
// its first call in wall time, and gets the next thread index at creation.
TEST_F(ThreadOrderTest, ANewThreadStartsAtItsCreatorsClock) {
  const SimTime created_at = host_clock();
  std::thread t([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    aclrtSetDevice(0);
  });
  t.join();
  const auto set = spans("aclrtSetDevice");
  ASSERT_EQ(set.size(), 2u);  // the fixture's, then the thread's
  EXPECT_EQ(set[1].start, created_at);
  EXPECT_EQ(set[1].thread, set[0].thread + 1);
}

// Calls take effect in simulated-clock order, not wall order: thread 1 waits 20 ms of wall time
// before it starts, thread 2 makes 50 calls first; thread 1's stream is created first because its
// clock is earlier, and each span starts exactly where its thread's previous call ended.
TEST_F(ThreadOrderTest, CallsTakeEffectInClockOrderNotWallOrder) {
  aclrtStream s1 = nullptr, s2 = nullptr;
  std::thread t1([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    aclrtSetDevice(0);
    aclrtCreateStream(&s1);
  });
  std::thread t2(calls_then_stream, 50, &s2);
  t1.join();
  t2.join();
  const auto created = spans("aclrtCreateStream");
  ASSERT_EQ(created.size(), 3u);  // the fixture's stream, then the threads'
  EXPECT_LT(created[1].start, created[2].start);
  EXPECT_EQ(created[1].thread + 1, created[2].thread);  // thread 1's, then thread 2's
  // Every span is traced in simulated-time order.
  for (std::size_t i = 1; i < fake().api_calls().size(); ++i) {
    EXPECT_LE(fake().api_calls()[i - 1].start, fake().api_calls()[i].start) << i;
  }
  EXPECT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

/// Burns `ms` of this thread's CPU time (not wall time: a loaded machine stretches it).
void compute_for(double ms) {
  timespec start{}, now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  volatile std::uint64_t sink = 0;
  do {
    for (int i = 0; i < 10000; ++i) sink = sink + static_cast<std::uint64_t>(i);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1e3 + (now.tv_nsec - start.tv_nsec) / 1e6 < ms);
}

// A thread computing outside the runtime (filling buffers) for far longer than the grace still
// holds the others back: its next call takes effect at its own clock, before a call the other
// thread makes at a later clock. Before, it lost its place after the grace of wall time, so the
// order (and the timeline) depended on how loaded the machine was.
TEST_F(ThreadOrderTest, AThreadComputingOutsideTheRuntimeKeepsItsPlace) {
  set_passive_ms(10);
  aclrtStream s1 = nullptr, s2 = nullptr;
  SimTime t1_set_end = 0;
  std::thread t1([&] {
    aclrtSetDevice(0);
    compute_for(200);  // 20 graces
    aclrtCreateStream(&s1);
  });
  std::thread t2(calls_then_stream, 200, &s2);
  t1.join();
  t2.join();
  const auto set = spans("aclrtSetDevice");
  const auto created = spans("aclrtCreateStream");
  ASSERT_EQ(created.size(), 3u);  // the fixture's stream, then t1's, then t2's
  for (const auto& a : set) {
    if (a.thread == created[1].thread) t1_set_end = a.end;
  }
  EXPECT_LT(created[1].thread, created[2].thread);  // t1's stream first
  EXPECT_EQ(created[1].start, t1_set_end);  // t1's clock did not move while it computed
  EXPECT_LT(created[1].start, created[2].start);
  EXPECT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

// A thread blocked outside the runtime (here asleep) stops holding the others back after the
// grace: the other thread's calls go first.
TEST_F(ThreadOrderTest, AThreadBlockedOutsideTheRuntimeStopsHoldingOthersBack) {
  set_passive_ms(10);
  aclrtStream s1 = nullptr, s2 = nullptr;
  std::thread t1([&] {
    aclrtSetDevice(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    aclrtCreateStream(&s1);
  });
  std::thread t2(calls_then_stream, 200, &s2);
  t2.join();
  t1.join();
  const auto created = spans("aclrtCreateStream");
  ASSERT_EQ(created.size(), 3u);
  EXPECT_GT(created[1].thread, created[2].thread);  // t2's stream first, though t1 was created first
  EXPECT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

// A thread spinning outside the runtime on another thread's progress (which needs its turn) is
// computing, but not forever: after kBusyGraces graces of CPU time it stops holding the others
// back, so the program finishes instead of reporting a hang.
TEST_F(ThreadOrderTest, AThreadSpinningOnAnotherThreadsProgressDoesNotHangThem) {
  set_passive_ms(10);  // CPU-time cap: 50 graces = 0.5 s
  std::atomic<bool> released{false};
  aclrtStream s1 = nullptr, s2 = nullptr;
  std::thread t1([&] {
    aclrtSetDevice(0);
    while (!released.load()) {
    }
    aclrtCreateStream(&s1);
  });
  std::thread t2([&] {
    aclrtSetDevice(0);
    int32_t device = -1;
    for (int i = 0; i < 20; ++i) aclrtGetDevice(&device);
    EXPECT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    released = true;
  });
  t2.join();
  t1.join();
  const auto created = spans("aclrtCreateStream");
  ASSERT_EQ(created.size(), 3u);
  EXPECT_GT(created[1].thread, created[2].thread);  // the spinner's stream comes second
  EXPECT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

// A thread in std::thread::join (pthread_join, interposed) holds nobody back, however long the
// grace for threads outside the runtime (here ten minutes: without the interposition the worker
// would wait for the joining thread that long and the test would time out), and continues from
// the clock the joined thread ended at.
TEST_F(ThreadOrderTest, AJoiningThreadHoldsNobodyBackAndContinuesFromTheJoinedThreadsClock) {
  set_passive_ms(600000);
  std::thread t([] {
    aclrtSetDevice(0);
    int32_t device = -1;
    for (int i = 0; i < 20; ++i) aclrtGetDevice(&device);
  });
  t.join();
  int32_t device = -1;
  ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  const auto calls = spans("aclrtGetDevice");
  ASSERT_EQ(calls.size(), 21u);
  EXPECT_NE(calls[19].thread, calls[20].thread);
  EXPECT_EQ(calls[20].start, calls[19].end);  // the main thread's call follows the worker's last
}

// A thread blocked in a synchronize resumes exactly when its copy completes and then takes its
// turn among the others: its next call comes before a call another thread makes at a later clock,
// though that thread raced ahead in wall time.
TEST_F(ThreadOrderTest, AWaiterResumesAtItsCompletionTimeAndTakesItsTurn) {
  void* host = nullptr;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 1 << 20), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s1 = nullptr, s2 = nullptr;
  std::thread t1([&] {
    aclrtSetDevice(0);
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    aclrtMemcpyAsync(dev, 1 << 20, host, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s);  // ~106 us
    aclrtSynchronizeStream(s);
    aclrtCreateStream(&s1);
    aclrtDestroyStream(s);
  });
  std::thread t2(calls_then_stream, 1000, &s2);  // 200 us of host time
  t1.join();
  t2.join();
  ASSERT_EQ(fake().tasks().size(), 1u);
  const SimTime copy_end = fake().tasks()[0].record.end;
  const auto syncs = spans("aclrtSynchronizeStream");
  ASSERT_EQ(syncs.size(), 1u);
  EXPECT_EQ(syncs[0].end, copy_end + fake().config().host.sync_call.ps);  // after the completion
  const auto created = spans("aclrtCreateStream");
  ASSERT_EQ(created.size(), 4u);  // fixture, t1's first, then s1 (after the sync), then s2
  EXPECT_EQ(created[2].start, syncs[0].end);
  EXPECT_LT(created[2].start, created[3].start);
  EXPECT_EQ(created[2].thread + 1, created[3].thread);
  EXPECT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}


// A rendezvous on host state (the shape of HcclCommInitRootInfo): each of 4 threads joins, then
// waits in Call::wait until all joined. Thread k makes 100 * k cheap calls first, so thread 3 joins
// last in simulated time whatever the wall order; the others are woken at the clock its call had
// when it joined.
TEST_F(ThreadOrderTest, HostStateRendezvousWakesWaitersAtTheLastJoinersEndClock) {
  constexpr int kThreads = 4;
  int joined = 0;  // guarded by the API lock
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&joined, k] {
      aclrtSetDevice(0);
      int32_t device = -1;
      for (int i = 0; i < 100 * k; ++i) aclrtGetDevice(&device);
      api("TestRendezvous", [&](Call& c) {
        ++joined;
        const WaitResult r = c.wait([&joined] { return joined >= kThreads; }, kForever,
                                    [] { return std::string("the test rendezvous"); });
        if (r != WaitResult::kDone) fail(ACL_ERROR_RT_INTERNAL_ERROR, "rendezvous failed");
      });
    });
  }
  for (auto& t : threads) t.join();
  const auto joins = spans("TestRendezvous");
  ASSERT_EQ(joins.size(), static_cast<std::size_t>(kThreads));
  SimTime last_start = 0, last_end = 0;
  std::uint32_t last_thread = 0;
  for (const auto& j : joins) {
    if (j.start > last_start) {
      last_start = j.start;
      last_end = j.end;
      last_thread = j.thread;
    }
  }
  for (const auto& j : joins) {
    if (j.thread == last_thread) continue;
    // Woken where the last joiner's call made the predicate true, then host.sync_call: all four
    // calls end together.
    EXPECT_EQ(j.end, last_end) << "thread " << j.thread;
  }
  std::uint32_t highest = 0;
  for (const auto& j : joins) highest = std::max(highest, j.thread);
  EXPECT_EQ(last_thread, highest);  // the thread created last made the most calls first
  // Same end clock: the calls finish (and are traced) in thread index order, not wall order.
  for (std::size_t i = 1; i < joins.size(); ++i) EXPECT_LT(joins[i - 1].thread, joins[i].thread);
}

}  // namespace
}  // namespace npusim::rt::testing
