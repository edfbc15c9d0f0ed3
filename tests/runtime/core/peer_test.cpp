// SPDX-License-Identifier: Apache-2.0
// Peer access between devices: aclrtDeviceCanAccessPeer, aclrtDeviceEnablePeerAccess,
// aclrtDeviceDisablePeerAccess, aclrtDevicePeerAccessStatus, and copies between two devices'
// memories (which device runs them, when they are refused). FakeBackend, three devices.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class PeerTest : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.num_devices = 3; }

  void* malloc_on(int device, std::size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtSetDevice(device), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_SUCCESS);
    return p;
  }
};

TEST_F(PeerTest, CanAccessPeerChecksItsArguments) {
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 2, 0), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 3), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(PeerTest, EnableIsOneWayAndDisableNeedsAnEnable) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  int32_t status = -1;
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_INVALID_PARAM);     // flags must be 0
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_RT_PARAM_INVALID);  // itself
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(3, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);  // not enabled
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);  // one way only
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 3, &status), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(PeerTest, ResettingADeviceDropsTheAccessItEnabled) {
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  int32_t status = -1;
  EXPECT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  // What device 0 enabled stays (it disables it itself, as the CANN P2P sample does).
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
}

TEST_F(PeerTest, SyncCopyRunsOnTheCurrentDeviceOnceItEnabledTheOther) {
  void* d0 = malloc_on(0, 4096);
  void* d1 = malloc_on(1, 4096);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(d0, 4096, 0x5A, 4096), ACL_SUCCESS);
  // Not enabled yet.
  EXPECT_EQ(aclrtMemcpy(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  // Device 1 enabling device 0 does not let device 0 copy.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  const std::size_t before = fake().tasks().size();
  ASSERT_EQ(aclrtMemcpy(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), before + 1);
  const FakeBackend::TaskTrace& t = fake().tasks().back();
  EXPECT_EQ(t.name, "MEMCPY_P2P");
  EXPECT_EQ(t.device, 0u);  // device 0 pushes to device 1
  std::vector<unsigned char> host(4096);
  ASSERT_EQ(aclrtMemcpy(host.data(), 4096, d1, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host[0], 0x5A);
  EXPECT_EQ(host[4095], 0x5A);
  // Device 2 is neither end: refused even with its access enabled.
  ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(PeerTest, AsyncCopyRunsOnTheStreamsDevice) {
  void* d0 = malloc_on(0, 4096);
  void* d1 = malloc_on(1, 4096);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(d1, 4096, 0x33, 4096), ACL_SUCCESS);
  aclrtStream s1 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  // Device 1's stream: device 1 has not enabled device 0.
  EXPECT_EQ(aclrtMemcpyAsync(d0, 4096, d1, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s1),
            ACL_ERROR_RT_PARAM_INVALID);
  // Device 0's stream pulls from device 1.
  ASSERT_EQ(aclrtMemcpyAsync(d0, 4096, d1, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  const FakeBackend::TaskTrace& t = fake().tasks().back();
  EXPECT_EQ(t.name, "MEMCPY_P2P");
  EXPECT_EQ(t.device, 0u);
  // FakeBackend: 1 us + 4096 B at 10 GB/s.
  EXPECT_EQ(t.record.end - t.record.start, 1 * sim::kUs + 409600 * sim::kPs);
  std::vector<unsigned char> host(4096);
  ASSERT_EQ(aclrtMemcpy(host.data(), 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host[100], 0x33);
  // A 2-D copy between devices is refused.
  EXPECT_EQ(aclrtMemcpy2dAsync(d0, 64, d1, 64, 64, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(PeerTest, AStreamRefusesMemsetsOfAnotherDevicesMemory) {
  void* d1 = malloc_on(1, 4096);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemsetAsync(d1, 4096, 0, 4096, s0), ACL_ERROR_RT_PARAM_INVALID);
}

// The task of `device` named `name` (the last one).
const FakeBackend::TaskTrace* find_task(FakeBackend& fake, std::uint32_t device, const char* name) {
  const FakeBackend::TaskTrace* found = nullptr;
  for (const auto& t : fake.tasks()) {
    if (t.device == device && t.name == name) found = &t;
  }
  return found;
}

TEST_F(PeerTest, AStreamWaitsForAnotherDevicesEventOnceItEnabledThatDevice) {
  void* d0 = malloc_on(0, 1 << 20);
  void* d1 = malloc_on(1, 4096);
  aclrtStream s1 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);  // device 1
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);  // device 0's
  ASSERT_EQ(aclrtMemsetAsync(d0, 1 << 20, 1, 1 << 20, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, s0), ACL_SUCCESS);
  // Recording on another device's stream stays refused.
  EXPECT_EQ(aclrtRecordEvent(ev, s1), ACL_ERROR_RT_PARAM_INVALID);
  // Device 1 has not enabled device 0 (device 0 enabling device 1 is the other way).
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(s1, ev), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s1, ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(d1, 4096, 2, 4096, s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  const FakeBackend::TaskTrace* record = find_task(fake(), 0, "EVENT_RECORD");
  const FakeBackend::TaskTrace* memset1 = find_task(fake(), 1, "MEMSET");
  ASSERT_NE(record, nullptr);
  ASSERT_NE(memset1, nullptr);
  // The record follows 1 MiB of memset (1 us + 104.8576 us); device 1's memset waits for it.
  EXPECT_GE(record->record.end, 1 * sim::kUs + 104857600 * sim::kPs);
  EXPECT_GE(memset1->record.start, record->record.end);
}

TEST_F(PeerTest, AStreamRecordsAnotherDevicesNotifyOnceItEnabledThatDevice) {
  void* d0 = malloc_on(0, 1 << 20);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream s1 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  aclrtNotify n1 = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&n1, 0), ACL_SUCCESS);  // device 1's
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordNotify(n1, s0), ACL_ERROR_RT_PARAM_INVALID);  // not enabled
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  // Waiting stays on the notify's own device.
  EXPECT_EQ(aclrtWaitAndResetNotify(n1, s0, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtMemsetAsync(d0, 1 << 20, 1, 1 << 20, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordNotify(n1, s0), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(n1, s1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  const FakeBackend::TaskTrace* record = find_task(fake(), 0, "NOTIFY_RECORD");
  const FakeBackend::TaskTrace* wait = find_task(fake(), 1, "NOTIFY_WAIT");
  ASSERT_NE(record, nullptr);
  ASSERT_NE(wait, nullptr);
  EXPECT_GE(wait->record.end, record->record.end);
  EXPECT_GE(record->record.start, 1 * sim::kUs + 104857600 * sim::kPs);
}

class NoPeerChip : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.num_devices = 2;
    config.soc.npu_arch = 3002;  // Atlas 200I/500 A2: no peer access
    config.soc.name = "Ascend310B1";
  }
};

TEST_F(NoPeerChip, CannotAccessPeersNorEnableThem) {
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(can, 0);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace npusim::rt::testing
