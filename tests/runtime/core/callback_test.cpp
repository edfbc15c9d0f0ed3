// SPDX-License-Identifier: Apache-2.0
// Host callbacks (aclrtLaunchCallback, aclrtLaunchHostFunc) and stream control (stop, abort, state
// callbacks) on FakeBackend: orders, exact simulated times (timing in runtime/core/callback.h) and
// error codes, with real report threads polling in wall time.
//
// Fake timing used below (ChipConfig defaults, FakeTiming defaults): a submitting call charges
// host.launch_call = 2 us and its tasks are submitted at the end of that; a host callback task
// takes 0, its wait and other scheduler tasks 100 ns; host.callback = 5 us; a 1 KiB memset takes
// 1 us + 1024 B / 10 GB/s = 1.1024 us.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/core/runtime.h"
#include "tests/runtime/kernel_sources.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr SimTime kLaunch = 2 * sim::kUs;
constexpr SimTime kCallback = 5 * sim::kUs;
constexpr SimTime kWaitTask = 100 * sim::kNs;
constexpr SimTime kMemset1K = 1 * sim::kUs + 102400 * sim::kPs;

std::uint64_t this_tid() { return static_cast<std::uint64_t>(pthread_self()); }

// A thread looping `while (run) aclrtProcessReport(100)` (or ProcessHostFunc), as the samples do.
class Poller {
 public:
  explicit Poller(bool host_func = false) : host_func_(host_func) {
    thread_ = std::thread([this] {
      tid_ = this_tid();
      started_ = true;
      while (run_) {
        aclError rc = host_func_ ? aclrtProcessHostFunc(100) : aclrtProcessReport(100);
        if (rc == ACL_SUCCESS) ++processed_;
        last_rc_ = rc;
      }
    });
    while (!started_) std::this_thread::yield();
  }
  ~Poller() { stop(); }
  void stop() {
    run_ = false;
    if (thread_.joinable()) thread_.join();
  }
  std::uint64_t tid() const { return tid_; }
  int processed() const { return processed_; }
  aclError last_rc() const { return last_rc_; }

 private:
  bool host_func_;
  std::thread thread_;
  std::atomic<std::uint64_t> tid_{0};
  std::atomic<bool> started_{false};
  std::atomic<bool> run_{true};
  std::atomic<int> processed_{0};
  std::atomic<aclError> last_rc_{ACL_SUCCESS};
};

struct Counter {
  std::atomic<int> calls{0};
  std::atomic<aclError> api_rc{ACL_SUCCESS};
};

void count(void* arg) { ++static_cast<Counter*>(arg)->calls; }

// Calls the runtime from inside the callback: refused at once.
void call_runtime(void* arg) {
  auto* c = static_cast<Counter*>(arg);
  int32_t device = -1;
  c->api_rc = aclrtGetDevice(&device);
  ++c->calls;
}

class CallbackTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  // The finished tasks of `stream` since index `from` of fake().tasks().
  std::vector<FakeBackend::TaskTrace> tasks_of(aclrtStream s, std::size_t from = 0) {
    int32_t id = -1;
    aclrtStreamGetId(s, &id);
    std::vector<FakeBackend::TaskTrace> out;
    for (std::size_t i = from; i < fake().tasks().size(); ++i) {
      const FakeBackend::TaskTrace& t = fake().tasks()[i];
      if (t.stream == static_cast<std::uint32_t>(id)) out.push_back(t);
    }
    return out;
  }
  // Where one round began: fake()'s task and host span counts and the host clock.
  struct Round {
    std::size_t first_task = 0, first_span = 0;
    SimTime t0 = 0;
  };
  // One round: a callback of `type` counting into c and a 1 KiB memset, synchronised.
  void callback_round(Counter& c, aclrtCallbackBlockType type, Round* r) {
    *r = {fake().tasks().size(), fake().host_spans().size(), host_clock()};
    ASSERT_EQ(aclrtLaunchCallback(count, &c, type, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  void* dev_ = nullptr;
};

TEST_F(CallbackTest, LaunchArgumentsAndSubscriptionsAreChecked) {
  Counter c;
  EXPECT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_),
            ACL_ERROR_RT_STREAM_NO_CB_REG);  // nobody subscribed to the stream
  ASSERT_EQ(aclrtSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchCallback(nullptr, &c, ACL_CALLBACK_BLOCK, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchCallback(count, &c, static_cast<aclrtCallbackBlockType>(7), stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSubscribeReport(this_tid() + 1, stream_), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtSubscribeReport(0, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtUnSubscribeReport(this_tid() + 1, stream_), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtSubscribeHostFunc(this_tid(), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchHostFunc(stream_, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);  // no host-func subscription
  ASSERT_EQ(aclrtUnSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(c.calls, 0);
}

TEST_F(CallbackTest, AnIdlePollTimesOutWithoutTimeOrTrace) {
  ASSERT_EQ(aclrtSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
  const SimTime before = host_clock();
  const std::size_t calls = fake().api_calls().size();
  EXPECT_EQ(aclrtProcessReport(20), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_EQ(aclrtProcessReport(1), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_EQ(host_clock(), before);                 // idle polls cost no simulated time
  EXPECT_EQ(fake().api_calls().size(), calls);     // and are not on the timeline
  EXPECT_EQ(aclrtUnSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
}

// The callback/0 shape: a report thread polls in wall time; the main thread launches a blocking
// callback and a memset and synchronizes. The callback runs on the report thread at the callback
// task's end, for host.callback; the stream holds until then. Repeated to show that the timeline
// does not depend on how the two threads interleave in wall time.
TEST_F(CallbackTest, BlockingCallbackHoldsItsStreamForExactlyTheCallbackTime) {
  Poller poller;
  ASSERT_EQ(aclrtSubscribeReport(poller.tid(), stream_), ACL_SUCCESS);
  Counter c;
  for (int round = 0; round < 50; ++round) {
    Round r;
    ASSERT_NO_FATAL_FAILURE(callback_round(c, ACL_CALLBACK_BLOCK, &r));
    const auto [first_task, first_span, t0] = r;
    ASSERT_EQ(c.calls, round + 1);
    const SimTime due = t0 + kLaunch;  // the callback task takes no time
    auto tasks = tasks_of(stream_, first_task);
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[0].kind, TaskKind::kHostFunc);
    EXPECT_EQ(tasks[0].record.end, due);
    EXPECT_EQ(tasks[1].kind, TaskKind::kValueWait);  // held until the callback returned
    EXPECT_EQ(tasks[1].record.start, due + kCallback) << "round " << round;
    EXPECT_EQ(tasks[2].kind, TaskKind::kMemset);
    EXPECT_EQ(tasks[2].record.start, due + kCallback + kWaitTask) << "round " << round;
    EXPECT_EQ(tasks[2].record.end, due + kCallback + kWaitTask + kMemset1K);
    ASSERT_EQ(fake().host_spans().size(), first_span + 1);
    const auto& span = fake().host_spans()[first_span];
    EXPECT_EQ(span.name, "Callback");
    EXPECT_EQ(span.start, due);
    EXPECT_EQ(span.end, due + kCallback);
    // + host.api_call and host.sync_call of the synchronize
    EXPECT_EQ(host_clock(), due + kCallback + kWaitTask + kMemset1K +
                                fake().config().host.api_call.ps +
                                fake().config().host.sync_call.ps);
  }
  poller.stop();
  EXPECT_EQ(poller.processed(), 50);
  // Only the polls that ran a callback are on the timeline, at the callback's times.
  int process_spans = 0;
  for (const auto& a : fake().api_calls()) process_spans += a.name == "AscendCL@aclrtProcessReport";
  EXPECT_EQ(process_spans, 50);
  EXPECT_EQ(aclrtUnSubscribeReport(poller.tid(), stream_), ACL_SUCCESS);
}

// The program waits for its callback without any runtime call (a spin on a flag the callback
// sets): after a whole poll timeout without another thread's call, the report thread drives the
// simulation itself, and the callback still runs at the callback task's end.
TEST_F(CallbackTest, AReportThreadDrivesTheSimulationWhenNobodyElseCalls) {
  Poller poller;
  ASSERT_EQ(aclrtSubscribeReport(poller.tid(), stream_), ACL_SUCCESS);
  Counter c;
  const SimTime t0 = host_clock();
  ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_NO_BLOCK, stream_), ACL_SUCCESS);
  while (c.calls == 0) std::this_thread::yield();  // no runtime call meanwhile
  poller.stop();
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  ASSERT_EQ(fake().host_spans().size(), 1u);
  EXPECT_EQ(fake().host_spans()[0].start, t0 + kLaunch);
}

TEST_F(CallbackTest, NonBlockingCallbackDoesNotHoldItsStream) {
  Poller poller;
  ASSERT_EQ(aclrtSubscribeReport(poller.tid(), stream_), ACL_SUCCESS);
  Counter c;
  for (int round = 0; round < 20; ++round) {
    Round r;
    ASSERT_NO_FATAL_FAILURE(callback_round(c, ACL_CALLBACK_NO_BLOCK, &r));
    const auto [first_task, first_span, t0] = r;
    auto tasks = tasks_of(stream_, first_task);
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[1].kind, TaskKind::kMemset);
    EXPECT_EQ(tasks[1].record.start, t0 + 2 * kLaunch);  // when it was submitted: no hold
    // The callback ran anyway, at its own time (the sync ended before it did).
    const SimTime due = t0 + kLaunch;
    Runtime& rt = Runtime::instance();
    std::unique_lock<std::mutex> lock(rt.mutex());
    while (fake().host_spans().size() == first_span) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
    }
    EXPECT_EQ(fake().host_spans()[first_span].start, due);
    EXPECT_EQ(fake().host_spans()[first_span].end, due + kCallback);
  }
  poller.stop();
  EXPECT_EQ(c.calls, 20);
}

TEST_F(CallbackTest, UnsubscribedHostFuncRunsOnTheRuntimeThreadAndMayNotCallTheRuntime) {
  Counter c;
  const SimTime t0 = host_clock();
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, call_runtime, &c), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(c.api_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);  // refused at once, no deadlock
  const SimTime due = t0 + kLaunch;
  ASSERT_EQ(fake().host_spans().size(), 1u);
  EXPECT_EQ(fake().host_spans()[0].thread, kRuntimeCallbackThread);
  EXPECT_EQ(fake().host_spans()[0].name, "HostFunc");
  EXPECT_EQ(fake().host_spans()[0].start, due);
  auto tasks = tasks_of(stream_);
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[2].record.start, due + kCallback + kWaitTask);  // host functions block
}

TEST_F(CallbackTest, SubscribedHostFuncThreadRunsHostFuncsAndCallbacksInStreamOrder) {
  Poller reports;
  Poller host_funcs(true);
  ASSERT_EQ(aclrtSubscribeReport(reports.tid(), stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeHostFunc(host_funcs.tid(), stream_), ACL_SUCCESS);
  static std::mutex order_mutex;
  static std::vector<int> order;
  order.clear();
  auto first = [](void*) { std::lock_guard<std::mutex> l(order_mutex); order.push_back(1); };
  auto second = [](void*) { std::lock_guard<std::mutex> l(order_mutex); order.push_back(2); };
  auto third = [](void*) { std::lock_guard<std::mutex> l(order_mutex); order.push_back(3); };
  const SimTime t0 = host_clock();
  ASSERT_EQ(aclrtLaunchCallback(first, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, second, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(third, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  // Each holds the stream: callback 1 runs at t0+2us, the host function after its wait
  // (t0+2us+5us+100ns), callback 3 after that one's.
  const SimTime d1 = t0 + kLaunch;
  const SimTime d2 = d1 + kCallback + kWaitTask;
  const SimTime d3 = d2 + kCallback + kWaitTask;
  ASSERT_EQ(fake().host_spans().size(), 3u);
  EXPECT_EQ(fake().host_spans()[0].start, d1);
  EXPECT_EQ(fake().host_spans()[1].name, "HostFunc");
  EXPECT_EQ(fake().host_spans()[1].start, d2);
  EXPECT_EQ(fake().host_spans()[2].start, d3);
  reports.stop();
  host_funcs.stop();
  EXPECT_EQ(aclrtUnSubscribeReport(reports.tid(), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeHostFunc(host_funcs.tid(), stream_), ACL_SUCCESS);
}

TEST_F(CallbackTest, UnsubscribingEndsAWaitingPollWithTheSubscribeError) {
  std::atomic<std::uint64_t> tid{0};
  std::atomic<aclError> rc{ACL_SUCCESS};
  std::atomic<bool> subscribed{false};
  std::thread t([&] {
    tid = this_tid();
    while (!subscribed) std::this_thread::yield();
    rc = aclrtProcessReport(-1);
  });
  while (tid == 0) std::this_thread::yield();
  ASSERT_EQ(aclrtSubscribeReport(tid, stream_), ACL_SUCCESS);
  subscribed = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(aclrtUnSubscribeReport(tid, stream_), ACL_SUCCESS);
  t.join();
  EXPECT_EQ(rc, ACL_ERROR_RT_THREAD_SUBSCRIBE);
}

// A report thread that exits without processing its callbacks: they are dropped (with a warning)
// instead of holding simulated time until the hang timeout; the stream goes on.
TEST_F(CallbackTest, CallbacksOfAnExitedThreadAreDropped) {
  std::atomic<std::uint64_t> tid{0};
  std::atomic<bool> subscribed{false};
  std::thread t([&] {
    aclrtSetDevice(0);  // registers with the runtime
    tid = this_tid();
    while (!subscribed) std::this_thread::yield();
  });
  while (tid == 0) std::this_thread::yield();
  ASSERT_EQ(aclrtSubscribeReport(tid, stream_), ACL_SUCCESS);
  subscribed = true;
  t.join();  // exits without ever calling aclrtProcessReport
  Counter c;
  ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(c.calls, 0);
  EXPECT_EQ(aclrtUnSubscribeReport(tid, stream_), ACL_SUCCESS);
}

// A thread that must run a blocking callback itself cannot also wait for the stream behind it:
// the wait reports the deadlock at once; processing the report first works.
TEST_F(CallbackTest, WaitingForOwnCallbackIsADeadlockReportedAtOnce) {
  ASSERT_EQ(aclrtSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
  Counter c;
  const SimTime t0 = host_clock();
  ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);  // a query does not wait for it
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_EQ(aclrtProcessReport(100), ACL_SUCCESS);
  EXPECT_EQ(c.calls, 1);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(fake().host_spans().size(), 1u);
  EXPECT_EQ(fake().host_spans()[0].start, t0 + kLaunch);
  EXPECT_EQ(aclrtUnSubscribeReport(this_tid(), stream_), ACL_SUCCESS);
}

// callback/2: with stop-on-failure, a blocking callback behind a failing kernel never runs and the
// synchronize reports the kernel's error instead of hanging.
TEST_F(CallbackTest, StopOnFailureSkipsALaterCallback) {
  Poller poller;
  ASSERT_EQ(aclrtSubscribeReport(poller.tid(), stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  Counter c;
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  poller.stop();
  EXPECT_EQ(c.calls, 0);
  EXPECT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_),
            ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // the context takes no new tasks
}

// Two streams, each with its own report thread: their callbacks run at the same simulated time
// in parallel. One thread serving both: the second callback waits until the first one ended.
TEST_F(CallbackTest, CallbacksOfTwoStreamsRunInParallelOnTwoThreadsAndInTurnOnOne) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  for (bool shared : {false, true}) {
    Poller a;
    Poller b;
    ASSERT_EQ(aclrtSubscribeReport(a.tid(), stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(shared ? a.tid() : b.tid(), other), ACL_SUCCESS);
    Counter c;
    for (int round = 0; round < 20; ++round) {
      const std::size_t first = fake().tasks().size();
      const SimTime t0 = host_clock();
      ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
      ASSERT_EQ(aclrtLaunchCallback(count, &c, ACL_CALLBACK_BLOCK, other), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, other), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      const SimTime due_a = t0 + kLaunch;
      const SimTime due_b = t0 + 2 * kLaunch;
      // Thread a is busy with stream_'s callback until due_a + 5 us when it serves both.
      const SimTime start_b = shared ? due_a + kCallback : due_b;
      auto ta = tasks_of(stream_, first);
      auto tb = tasks_of(other, first);
      ASSERT_EQ(ta.size(), 3u);
      ASSERT_EQ(tb.size(), 3u);
      EXPECT_EQ(ta[2].record.start, due_a + kCallback + kWaitTask) << shared << round;
      EXPECT_EQ(tb[2].record.start, start_b + kCallback + kWaitTask) << shared << round;
    }
    a.stop();
    b.stop();
    EXPECT_EQ(c.calls, 40);
    EXPECT_EQ(b.processed(), shared ? 0 : 20);
    ASSERT_EQ(aclrtUnSubscribeReport(a.tid(), stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtUnSubscribeReport(shared ? a.tid() : b.tid(), other), ACL_SUCCESS);
  }
}

// Stop-on-failure set on one stream applies to every stream of its context (CANN docs): a trap on
// another stream of the context stops it too.
TEST_F(CallbackTest, StopOnFailureOfOneStreamCoversItsContext) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, ACL_CONTINUE_ON_FAILURE),
            ACL_ERROR_RT_PARAM_INVALID);  // once per stream
  ASSERT_EQ(TrapDo(1, other), ACL_SUCCESS);  // `other` is in continue mode itself
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtMemsetAsync(dev_, 16, 0, 16, stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
}

// ---- Stream control ----

TEST_F(CallbackTest, StopKeepsTheStreamStoppedUntilAbort) {
  ASSERT_EQ(aclrtMemset(dev_, 4096, 0, 4096), ACL_SUCCESS);
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);  // never
  ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamStop(nullptr), ACL_ERROR_INVALID_PARAM);  // not the default stream
  ASSERT_EQ(aclrtStreamStop(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(aclrtMemsetAsync(dev_, 1024, 1, 1024, stream_), ACL_ERROR_RT_INTERNAL_ERROR);
  ASSERT_EQ(aclrtStreamAbort(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_STREAM_ABORT);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
  unsigned char b = 9;
  ASSERT_EQ(aclrtMemcpy(&b, 1, dev_, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(b, 0);  // the memset queued before the stop never ran
  ASSERT_EQ(aclrtMemsetAsync(dev_, 1024, 2, 1024, stream_), ACL_SUCCESS);  // usable again
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(&b, 1, dev_, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(b, 2);
}

TEST_F(CallbackTest, AbortEndsASynchronizeWaitingInAnotherThread) {
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);  // never
  std::atomic<aclError> rc{-1};
  std::thread waiter([&] {
    aclrtSetDevice(0);
    rc = aclrtSynchronizeStream(stream_);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(aclrtStreamAbort(stream_), ACL_SUCCESS);
  waiter.join();
  EXPECT_EQ(rc, ACL_ERROR_RT_STREAM_ABORT);
}

std::vector<std::pair<void*, int>>* g_states = nullptr;

void on_state(aclrtStream stream, aclrtStreamState state, void* args) {
  EXPECT_EQ(args, static_cast<void*>(&g_states));
  g_states->emplace_back(stream, static_cast<int>(state));
}

TEST_F(CallbackTest, StreamStateCallbacksSeeCreateAndDestroy) {
  std::vector<std::pair<void*, int>> states;
  g_states = &states;
  EXPECT_EQ(aclrtRegStreamStateCallback(nullptr, on_state, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtRegStreamStateCallback("test", on_state, &g_states), ACL_SUCCESS);
  EXPECT_EQ(aclrtRegStreamStateCallback("test", on_state, &g_states), ACL_ERROR_INVALID_PARAM);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);  // its default stream too
  aclrtStream def = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtRegStreamStateCallback("test", nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtRegStreamStateCallback("test", nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // back to the default context
  aclrtStream later = nullptr;
  ASSERT_EQ(aclrtCreateStream(&later), ACL_SUCCESS);  // unregistered: no call
  g_states = nullptr;
  using State = std::pair<void*, int>;
  EXPECT_EQ(states, (std::vector<State>{{s, ACL_RT_STREAM_STATE_CREATE_POST},
                                        {s, ACL_RT_STREAM_STATE_DESTROY_PRE},
                                        {def, ACL_RT_STREAM_STATE_CREATE_POST},
                                        {def, ACL_RT_STREAM_STATE_DESTROY_PRE}}));
}

}  // namespace
}  // namespace npusim::rt::testing
