// SPDX-License-Identifier: Apache-2.0
#include "tests/runtime/test_support.h"

#include <memory>
#include <mutex>

#include "runtime/core/runtime.h"

namespace npusim::rt {

// The runtime core calls make_sim_backend() when no factory is installed; in this test binary
// that is a FakeBackend (the SystemC backend lives in libacl_rt.so only).
std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<FakeBackend>(); }

namespace testing {

FakeBackend** use_fake_backend(models::ChipConfig config, FakeTiming timing) {
  static FakeBackend* created = nullptr;
  created = nullptr;
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  rt.set_backend_factory([config, timing] {
    auto backend = std::make_unique<FakeBackend>(config, timing);
    created = backend.get();
    return backend;
  });
  return &created;
}

SimTime host_clock() {
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  return this_thread_state().clock;
}

void set_hang_timeout(double seconds) {
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  rt.set_hang_timeout_seconds(seconds);
}

void set_passive_ms(double ms) {
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  rt.set_passive_ms(ms);
}

void AclTest::SetUp() {
  models::ChipConfig config;
  FakeTiming timing;
  configure(config, timing);
  fake_ = use_fake_backend(config, timing);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_NE(*fake_, nullptr);
  clear_errors();
}

void AclTest::TearDown() {
  Runtime& rt = Runtime::instance();
  bool initialized;
  {
    std::lock_guard<std::mutex> lock(rt.mutex());
    initialized = rt.initialized();
  }
  if (initialized) {
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  clear_errors();
}

const FakeBackend::TaskTrace& AclTest::last_task(TaskKind kind) {
  for (auto it = fake().tasks().rbegin(); it != fake().tasks().rend(); ++it) {
    if (it->kind == kind) return *it;
  }
  ADD_FAILURE() << "no task of kind " << static_cast<int>(kind) << " ran";
  static const FakeBackend::TaskTrace kNone{};
  return kNone;
}

std::size_t AclTest::tasks_of(TaskKind kind) {
  std::size_t n = 0;
  for (const auto& t : fake().tasks()) n += t.kind == kind;
  return n;
}

void AclTest::clear_errors() {
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  aclGetRecentErrMsg();
}

void DeviceTest::SetUp() {
  AclTest::SetUp();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
}

void* dev_alloc(std::size_t bytes) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}

void* host_alloc(std::size_t bytes) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMallocHost(&p, bytes), ACL_SUCCESS);
  return p;
}

void CopyTest::SetUp() {
  DeviceTest::SetUp();
  dev_ = dev_alloc(kMiB);
  host_ = host_alloc(kMiB);
}

}  // namespace testing
}  // namespace npusim::rt
