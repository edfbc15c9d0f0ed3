// SPDX-License-Identifier: Apache-2.0
// Every function's invalid inputs, table-driven: the documented code, recorded as the thread's
// last error with a message, and no crash.
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_rt_allocator.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

struct Case {
  const char* what;
  aclError expected;
  std::function<aclError()> call;
};

class InvalidInputTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host_, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS);
    config_ = aclrtCreateStreamConfigHandle();
    ASSERT_NE(config_, nullptr);
  }
  void TearDown() override {
    aclrtDestroyStreamConfigHandle(config_);
    DeviceTest::TearDown();
  }
  void run(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      clear_errors();
      EXPECT_EQ(c.call(), c.expected);
      EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), c.expected);
      EXPECT_NE(aclGetRecentErrMsg(), nullptr);
    }
  }

  void* dev_ = nullptr;
  void* host_ = nullptr;
  aclrtEvent event_ = nullptr;
  aclrtStreamConfigHandle* config_ = nullptr;
  aclrtStream bogus_stream_ = reinterpret_cast<aclrtStream>(0x5000000099);
  aclrtEvent bogus_event_ = reinterpret_cast<aclrtEvent>(0x77);
  aclrtContext bogus_ctx_ = reinterpret_cast<aclrtContext>(0x1234);
  aclrtStream s_ = nullptr;
  aclrtEvent e_ = nullptr;
  aclrtContext c_ = nullptr;
  int32_t i32_ = 0;
  uint32_t u32_ = 0;
  int64_t i64_ = 0;
  uint64_t u64_ = 0;
  size_t sz_ = 0;
  float f_ = 0;
};

constexpr aclError kParam = ACL_ERROR_INVALID_PARAM;
constexpr aclError kRtParam = ACL_ERROR_RT_PARAM_INVALID;

TEST_F(InvalidInputTest, DevicesAndContexts) {
  run({
      {"SetDevice -1", ACL_ERROR_RT_INVALID_DEVICEID, [] { return aclrtSetDevice(-1); }},
      {"ResetDevice 5", ACL_ERROR_RT_INVALID_DEVICEID, [] { return aclrtResetDevice(5); }},
      {"GetDevice NULL", kParam, [] { return aclrtGetDevice(nullptr); }},
      {"GetDeviceCount NULL", kParam, [] { return aclrtGetDeviceCount(nullptr); }},
      {"GetRunMode NULL", kParam, [] { return aclrtGetRunMode(nullptr); }},
      {"GetDeviceInfo NULL", kParam,
       [] { return aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, nullptr); }},
      {"GetDeviceInfo attr", kParam,
       [&] { return aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(0), &i64_); }},
      {"GetDeviceCapability feature", kParam,
       [&] { return aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(5), &i32_); }},
      {"CheckArch NULL", kParam, [&] { return aclrtCheckArchCompatibility(nullptr, &i32_); }},
      {"PriorityRange NULL", kParam,
       [&] { return aclrtDeviceGetStreamPriorityRange(nullptr, &i32_); }},
      {"QueryDeviceStatus NULL", kParam, [] { return aclrtQueryDeviceStatus(0, nullptr); }},
      {"Utilization NULL", kParam, [] { return aclrtGetDeviceUtilizationRate(0, nullptr); }},
      {"CreateContext NULL", kParam, [] { return aclrtCreateContext(nullptr, 0); }},
      {"CreateContext device", ACL_ERROR_RT_INVALID_DEVICEID,
       [&] { return aclrtCreateContext(&c_, 9); }},
      {"DestroyContext NULL", kParam, [] { return aclrtDestroyContext(nullptr); }},
      {"DestroyContext bogus", kRtParam, [&] { return aclrtDestroyContext(bogus_ctx_); }},
      {"SetCurrentContext NULL", kParam, [] { return aclrtSetCurrentContext(nullptr); }},
      {"SetCurrentContext bogus", kRtParam, [&] { return aclrtSetCurrentContext(bogus_ctx_); }},
      {"GetCurrentContext NULL", kParam, [] { return aclrtGetCurrentContext(nullptr); }},
      {"CtxGetCurrentDefaultStream NULL", kParam,
       [] { return aclrtCtxGetCurrentDefaultStream(nullptr); }},
      {"SetDeviceResLimit type", kParam,
       [] { return aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(3), 1); }},
      {"GetDeviceResLimit NULL", kParam,
       [] { return aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr); }},
      {"GetResInCurrentThread NULL", kParam,
       [] { return aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr); }},
      {"SetDeviceSatMode UNDEF", kParam,
       [] { return aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF); }},
      {"GetDeviceSatMode NULL", kParam, [] { return aclrtGetDeviceSatMode(nullptr); }},
      {"GetErrorVerbose NULL", kParam, [] { return aclrtGetErrorVerbose(0, nullptr); }},
  });
}

TEST_F(InvalidInputTest, Streams) {
  run({
      {"CreateStream NULL", kParam, [] { return aclrtCreateStream(nullptr); }},
      {"CreateStreamWithConfig NULL", kParam,
       [] { return aclrtCreateStreamWithConfig(nullptr, 0, 0); }},
      {"CreateStreamWithConfig flags", kParam,
       [&] { return aclrtCreateStreamWithConfig(&s_, 0, 0x100); }},
      {"CreateStreamV2 NULL", kParam, [&] { return aclrtCreateStreamV2(&s_, nullptr); }},
      {"CreateStreamV2 bogus", kParam,
       [&] {
         aclrtStreamConfigHandle h{};
         return aclrtCreateStreamV2(&s_, &h);
       }},
      {"SetStreamConfigOpt attr", kParam,
       [&] {
         return aclrtSetStreamConfigOpt(config_, static_cast<aclrtStreamConfigAttr>(9), &u32_, 4);
       }},
      {"SetStreamConfigOpt NULL value", kParam,
       [&] { return aclrtSetStreamConfigOpt(config_, ACL_RT_STREAM_FLAG, nullptr, 4); }},
      {"DestroyStreamConfigHandle NULL", kParam,
       [] { return aclrtDestroyStreamConfigHandle(nullptr); }},
      {"DestroyStream NULL", kParam, [] { return aclrtDestroyStream(nullptr); }},
      {"DestroyStream bogus", kRtParam, [&] { return aclrtDestroyStream(bogus_stream_); }},
      {"DestroyStreamForce NULL", kParam, [] { return aclrtDestroyStreamForce(nullptr); }},
      {"SynchronizeStream bogus", kRtParam, [&] { return aclrtSynchronizeStream(bogus_stream_); }},
      {"SyncWithTimeout 0", kRtParam,
       [&] { return aclrtSynchronizeStreamWithTimeout(stream_, 0); }},
      {"SyncWithTimeout -3", kRtParam,
       [&] { return aclrtSynchronizeStreamWithTimeout(stream_, -3); }},
      {"SyncDeviceWithTimeout 0", kRtParam, [] { return aclrtSynchronizeDeviceWithTimeout(0); }},
      {"StreamQuery NULL", kParam, [&] { return aclrtStreamQuery(stream_, nullptr); }},
      {"StreamQuery bogus", kRtParam,
       [&] {
         aclrtStreamStatus st;
         return aclrtStreamQuery(bogus_stream_, &st);
       }},
      {"StreamGetId NULL", kParam, [&] { return aclrtStreamGetId(stream_, nullptr); }},
      {"StreamGetPriority NULL", kParam, [&] { return aclrtStreamGetPriority(stream_, nullptr); }},
      {"StreamGetFlags NULL", kParam, [&] { return aclrtStreamGetFlags(stream_, nullptr); }},
      {"StreamGetId bogus", kRtParam, [&] { return aclrtStreamGetId(bogus_stream_, &i32_); }},
      {"SetStreamFailureMode 3", kParam, [&] { return aclrtSetStreamFailureMode(stream_, 3); }},
      {"SetStreamOverflowSwitch 2", kParam,
       [&] { return aclrtSetStreamOverflowSwitch(stream_, 2); }},
      {"GetStreamOverflowSwitch NULL", kParam,
       [&] { return aclrtGetStreamOverflowSwitch(stream_, nullptr); }},
      {"GetOverflowStatus NULL", kParam,
       [&] { return aclrtGetOverflowStatus(nullptr, 64, stream_); }},
      {"GetOverflowStatus host", kRtParam,
       [&] { return aclrtGetOverflowStatus(host_, 64, stream_); }},
      {"ResetOverflowStatus bogus", kRtParam,
       [&] { return aclrtResetOverflowStatus(bogus_stream_); }},
  });
}

TEST_F(InvalidInputTest, Events) {
  run({
      {"CreateEvent NULL", kParam, [] { return aclrtCreateEvent(nullptr); }},
      {"CreateEventWithFlag flags", kParam, [&] { return aclrtCreateEventWithFlag(&e_, 0x1000); }},
      {"CreateEventExWithFlag NULL", kParam,
       [] { return aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC); }},
      {"DestroyEvent NULL", kParam, [] { return aclrtDestroyEvent(nullptr); }},
      {"DestroyEvent bogus", kRtParam, [&] { return aclrtDestroyEvent(bogus_event_); }},
      {"RecordEvent NULL", kParam, [] { return aclrtRecordEvent(nullptr, nullptr); }},
      {"RecordEvent bogus stream", kRtParam,
       [&] { return aclrtRecordEvent(event_, bogus_stream_); }},
      {"ResetEvent NULL", kParam, [] { return aclrtResetEvent(nullptr, nullptr); }},
      {"StreamWaitEvent NULL", kParam, [&] { return aclrtStreamWaitEvent(stream_, nullptr); }},
      {"QueryEventStatus NULL", kParam, [&] { return aclrtQueryEventStatus(event_, nullptr); }},
      {"QueryEventStatus bogus", kRtParam,
       [&] {
         aclrtEventRecordedStatus st;
         return aclrtQueryEventStatus(bogus_event_, &st);
       }},
      {"SynchronizeEvent NULL", kParam, [] { return aclrtSynchronizeEvent(nullptr); }},
      {"SynchronizeEventWithTimeout 0", kRtParam,
       [&] { return aclrtSynchronizeEventWithTimeout(event_, 0); }},
      {"EventElapsedTime NULL", kParam,
       [&] { return aclrtEventElapsedTime(nullptr, event_, event_); }},
      {"EventElapsedTime unrecorded", kRtParam,
       [&] { return aclrtEventElapsedTime(&f_, event_, event_); }},
      {"EventGetTimestamp NULL", kParam, [&] { return aclrtEventGetTimestamp(event_, nullptr); }},
      {"GetEventId NULL", kParam, [&] { return aclrtGetEventId(event_, nullptr); }},
  });
}

TEST_F(InvalidInputTest, Memory) {
  char* d = static_cast<char*>(dev_);
  run({
      {"Malloc NULL", kParam, [] { return aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST); }},
      {"Malloc 0", kParam,
       [] {
         void* p;
         return aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);
       }},
      {"Free NULL", kParam, [] { return aclrtFree(nullptr); }},
      {"Free host", ACL_ERROR_RT_MEMORY_FREE, [&] { return aclrtFree(host_); }},
      {"MallocHost NULL", kParam, [] { return aclrtMallocHost(nullptr, 8); }},
      {"MallocHost 0", kParam,
       [] {
         void* p;
         return aclrtMallocHost(&p, 0);
       }},
      {"FreeHost device", ACL_ERROR_RT_MEMORY_FREE, [&] { return aclrtFreeHost(dev_); }},
      {"Memcpy NULL dst", kParam,
       [&] { return aclrtMemcpy(nullptr, 8, host_, 8, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"Memcpy count > destMax", kRtParam,
       [&] { return aclrtMemcpy(dev_, 4, host_, 8, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"Memcpy kind 6", kParam,
       [&] { return aclrtMemcpy(dev_, 8, host_, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE); }},
      {"Memcpy kind 7", kParam,
       [&] { return aclrtMemcpy(dev_, 8, host_, 8, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE); }},
      {"Memcpy kind -1", kParam,
       [&] { return aclrtMemcpy(dev_, 8, host_, 8, static_cast<aclrtMemcpyKind>(-1)); }},
      {"Memcpy outside allocation", kRtParam,
       [&] { return aclrtMemcpy(d + 64, 96, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"MemcpyAsync bogus stream", kRtParam,
       [&] {
         return aclrtMemcpyAsync(dev_, 8, host_, 8, ACL_MEMCPY_HOST_TO_DEVICE, bogus_stream_);
       }},
      {"MemcpyAsync count > destMax", kRtParam,
       [&] { return aclrtMemcpyAsync(dev_, 4, host_, 8, ACL_MEMCPY_DEFAULT, stream_); }},
      {"Memset NULL", kParam, [] { return aclrtMemset(nullptr, 8, 0, 8); }},
      {"Memset count > max", kRtParam, [&] { return aclrtMemset(dev_, 4, 0, 8); }},
      {"Memset pageable", kRtParam, [&] { return aclrtMemset(&u64_, 8, 0, 8); }},
      {"MemsetAsync bogus stream", kRtParam,
       [&] { return aclrtMemsetAsync(dev_, 8, 0, 8, bogus_stream_); }},
      {"GetMemInfo NULL", kParam, [&] { return aclrtGetMemInfo(ACL_HBM_MEM, &sz_, nullptr); }},
      {"GetMemInfo attr", kParam,
       [&] { return aclrtGetMemInfo(static_cast<aclrtMemAttr>(-1), &sz_, &sz_); }},
      {"ValueWrite NULL", kParam, [&] { return aclrtValueWrite(nullptr, 1, 0, stream_); }},
      {"ValueWrite unaligned", ACL_ERROR_RT_ADDR_UNALIGNED,
       [&] { return aclrtValueWrite(d + 1, 1, 0, stream_); }},
      {"ValueWrite flag", kParam, [&] { return aclrtValueWrite(dev_, 1, 2, stream_); }},
      {"ValueWait flag", kParam, [&] { return aclrtValueWait(dev_, 1, 9, stream_); }},
      {"ValueWait host", kRtParam, [&] { return aclrtValueWait(host_, 1, 0, stream_); }},
  });
}

TEST_F(InvalidInputTest, MiscAndAllocator) {
  char pkg[] = "runtime";
  run({
      {"GetVersionStr NULL pkg", kParam,
       [&] {
         char buf[ACL_PKG_VERSION_MAX_SIZE];
         return aclsysGetVersionStr(nullptr, buf);
       }},
      {"GetVersionStr NULL out", kParam, [&] { return aclsysGetVersionStr(pkg, nullptr); }},
      {"GetVersionNum NULL", kParam, [&] { return aclsysGetVersionNum(pkg, nullptr); }},
      {"CannAttributeList NULL", kParam, [&] { return aclGetCannAttributeList(nullptr, &sz_); }},
      {"CannAttribute value", kParam,
       [&] { return aclGetCannAttribute(static_cast<aclCannAttr>(8), &i32_); }},
      {"CannAttribute NULL", kParam,
       [&] { return aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr); }},
      {"FinalizeReference NULL", kParam, [] { return aclFinalizeReference(nullptr); }},
      {"ThreadLastTaskId NULL", kParam, [] { return aclrtGetThreadLastTaskId(nullptr); }},
      {"AllocatorSetObj NULL desc", kParam,
       [&] { return aclrtAllocatorSetObjToDesc(nullptr, &i32_); }},
      {"AllocatorRegister NULL desc", kParam,
       [&] { return aclrtAllocatorRegister(stream_, nullptr); }},
      {"AllocatorGetByStream none", kParam,
       [&] {
         return aclrtAllocatorGetByStream(stream_, nullptr, nullptr, nullptr, nullptr, nullptr,
                                          nullptr);
       }},
      {"AllocatorUnregister bogus", kRtParam,
       [&] { return aclrtAllocatorUnregister(bogus_stream_); }},
      {"DestroyDataBuffer NULL", kParam, [] { return aclDestroyDataBuffer(nullptr); }},
  });
}

using UninitializedTest = AclTest;

TEST_F(UninitializedTest, ResourceCallsNeedAclInit) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  void* p = nullptr;
  aclrtStream s = nullptr;
  aclrtEvent e = nullptr;
  aclrtContext c = nullptr;
  const std::vector<std::function<aclError()>> calls = {
      [] { return aclrtSetDevice(0); },
      [] { return aclrtResetDeviceForce(0); },
      [&] { return aclrtCreateContext(&c, 0); },
      [&] { return aclrtCreateStream(&s); },
      [&] { return aclrtCreateEvent(&e); },
      [&] { return aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST); },
      [&] { return aclrtMallocHost(&p, 8); },
      [&] { return aclrtMemcpy(&s, 8, &e, 8, ACL_MEMCPY_HOST_TO_HOST); },
      [] { return aclrtSynchronizeStream(nullptr); },
      [] { return aclrtSynchronizeDevice(); },
  };
  for (const auto& call : calls) EXPECT_EQ(call(), ACL_ERROR_UNINITIALIZE);
}

}  // namespace
}  // namespace npusim::rt::testing
