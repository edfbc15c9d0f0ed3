// SPDX-License-Identifier: Apache-2.0
// Test fixture for the runtime API against FakeBackend: every test starts from aclInit on a fresh
// fake chip and ends with aclFinalize, so tests are independent even in one process.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "runtime/backend/fake_backend.h"

namespace npusim::rt::testing {

/// Installs a FakeBackend factory for the next aclInit; returns where the created backend will be
/// published (valid after aclInit).
FakeBackend** use_fake_backend(models::ChipConfig config = {}, FakeTiming timing = {});

/// The calling thread's simulated host clock.
SimTime host_clock();

/// The runtime's hang timeout (wall seconds a blocking call waits before reporting a hang).
void set_hang_timeout(double seconds);
/// The runtime's passive wait (wall ms a thread waits for another's turn in simulated time).
void set_passive_ms(double ms);

class AclTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  /// Hook to change the chip or the fake timing before aclInit.
  virtual void configure(models::ChipConfig& config, FakeTiming& timing) {}

  FakeBackend& fake() { return **fake_; }
  /// The last task of `kind` the backend ran (a test failure when none did).
  const FakeBackend::TaskTrace& last_task(TaskKind kind);
  /// How many tasks of `kind` the backend ran.
  std::size_t tasks_of(TaskKind kind);
  /// Clears the thread's last error and message.
  static void clear_errors();

  FakeBackend** fake_ = nullptr;
};

/// Device memory (aclrtMalloc, HUGE_FIRST) of `bytes`; a refusal fails the test. aclFinalize
/// frees what a test leaves.
void* dev_alloc(std::size_t bytes);
/// Pinned host memory (aclrtMallocHost) of `bytes`.
void* host_alloc(std::size_t bytes);

/// `n` elements of T copied back from device memory.
template <class T>
std::vector<T> download(const void* dev, std::size_t n) {
  std::vector<T> v(n);
  EXPECT_EQ(aclrtMemcpy(v.data(), n * sizeof(T), dev, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  return v;
}

/// AclTest plus aclrtSetDevice(0) and a stream.
class DeviceTest : public AclTest {
 protected:
  void SetUp() override;
  aclrtStream stream_ = nullptr;
};

/// DeviceTest plus 1 MiB of device memory and 1 MiB of pinned host memory to copy between.
class CopyTest : public DeviceTest {
 protected:
  static constexpr std::size_t kMiB = 1 << 20;
  void SetUp() override;
  /// 1 MiB pinned H2D copy on `s`.
  aclError copy(aclrtStream s) {
    return aclrtMemcpyAsync(dev_, kMiB, host_, kMiB, ACL_MEMCPY_HOST_TO_DEVICE, s);
  }
  void* dev_ = nullptr;
  void* host_ = nullptr;
};

}  // namespace npusim::rt::testing
