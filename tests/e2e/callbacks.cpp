// SPDX-License-Identifier: Apache-2.0
// Host callbacks on the simulated chip, the CANN way: a report thread loops on
// aclrtProcessReport(100) while the main thread launches copies, blocking and non-blocking
// callbacks and an unsubscribed host function; then stream stop and abort. Exits non-zero on any
// unexpected result. e2e.sh runs it several times and compares the timelines.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "acl/acl.h"

namespace {

std::atomic<bool> g_run{true};
std::atomic<bool> g_ready{false};
std::atomic<int> g_callbacks{0};

void on_callback(void*) { ++g_callbacks; }
void on_host_func(void* arg) { ++*static_cast<int*>(arg); }

bool check(const char* what, aclError got, aclError want) {
  if (got == want) return true;
  std::printf("FAIL %s returned %d, expected %d\n", what, got, want);
  return false;
}

}  // namespace

#define CHECK(call, want) \
  do {                    \
    if (!check(#call, (call), (want))) return 1; \
  } while (0)

int main() {
  CHECK(aclInit(nullptr), ACL_SUCCESS);
  CHECK(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext ctx = nullptr;
  CHECK(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  aclrtStream s = nullptr, s2 = nullptr;
  CHECK(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK(aclrtCreateStream(&s2), ACL_SUCCESS);
  std::thread reporter([ctx] {
    aclrtSetCurrentContext(ctx);
    g_ready = true;
    while (g_run) aclrtProcessReport(100);
  });
  while (!g_ready) std::this_thread::yield();  // its first call is made: thread indices are fixed
  const auto tid = static_cast<uint64_t>(reporter.native_handle());

  CHECK(aclrtLaunchCallback(on_callback, nullptr, ACL_CALLBACK_BLOCK, s),
        ACL_ERROR_RT_STREAM_NO_CB_REG);
  CHECK(aclrtSubscribeReport(tid, s), ACL_SUCCESS);
  const size_t size = 1 << 20;
  void* host = nullptr;
  void* dev = nullptr;
  CHECK(aclrtMallocHost(&host, size), ACL_SUCCESS);
  CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    CHECK(aclrtMemcpyAsync(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    CHECK(aclrtLaunchCallback(on_callback, nullptr,
                              i == 1 ? ACL_CALLBACK_NO_BLOCK : ACL_CALLBACK_BLOCK, s),
          ACL_SUCCESS);
  }
  int host_funcs = 0;
  CHECK(aclrtLaunchHostFunc(s2, on_host_func, &host_funcs), ACL_SUCCESS);  // the runtime's thread
  CHECK(aclrtMemcpyAsync(host, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, s2), ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  g_run = false;
  reporter.join();
  std::printf("callbacks run: %d, host functions run: %d\n", g_callbacks.load(), host_funcs);
  if (g_callbacks != 3 || host_funcs != 1) return 1;
  CHECK(aclrtUnSubscribeReport(tid, s), ACL_SUCCESS);
  CHECK(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);

  CHECK(aclrtStreamStop(s), ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s), ACL_ERROR_RT_INTERNAL_ERROR);
  CHECK(aclrtStreamAbort(s), ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
  CHECK(aclrtSynchronizeStream(s), ACL_SUCCESS);

  CHECK(aclrtFree(dev), ACL_SUCCESS);
  CHECK(aclrtFreeHost(host), ACL_SUCCESS);
  CHECK(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK(aclrtDestroyStream(s2), ACL_SUCCESS);
  CHECK(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK(aclFinalize(), ACL_SUCCESS);
  std::printf("callbacks ok\n");
  return 0;
}
