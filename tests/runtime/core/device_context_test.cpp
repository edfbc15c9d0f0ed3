// SPDX-License-Identifier: Apache-2.0
// Devices (reference-counted set/reset, queries from the configuration) and contexts (per thread).
#include <thread>

#include "models/aicpu_config.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

using DeviceContextTest = AclTest;

TEST_F(DeviceContextTest, SetDeviceCreatesTheDefaultContextAndStream) {
  aclrtContext ctx = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);
  int32_t dev = -1;
  EXPECT_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  EXPECT_NE(ctx, nullptr);
  ASSERT_EQ(aclrtGetDevice(&dev), ACL_SUCCESS);
  EXPECT_EQ(dev, 0);
  aclrtStream def = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  EXPECT_NE(def, nullptr);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext again = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&again), ACL_SUCCESS);
  EXPECT_EQ(again, ctx);  // one default context per device
}

TEST_F(DeviceContextTest, ResetDeviceIsReferenceCounted) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDeviceForce(0), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(DeviceContextTest, BadDeviceIds) {
  EXPECT_EQ(aclrtSetDevice(8), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtContext ctx = nullptr;
  EXPECT_EQ(aclrtCreateContext(&ctx, 9), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(DeviceContextTest, ResetWaitsForTheDefaultContextsTasks) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 1 << 20), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 1 << 20, host, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 1u);
  EXPECT_GE(host_clock(), fake().tasks()[0].record.end);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_PARAM_INVALID);  // went with the context
}

TEST_F(DeviceContextTest, CreatedContextsHaveTheirOwnDefaultStream) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext primary = nullptr, ctx = nullptr, cur = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_EQ(cur, ctx);
  EXPECT_NE(ctx, primary);
  int32_t id = -1;
  ASSERT_EQ(aclrtStreamGetId(nullptr, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 1);  // stream ids are device-wide: the primary default stream is 0
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(primary), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT);
  EXPECT_EQ(aclrtDestroyContext(primary), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtStreamGetId(s, &id), ACL_ERROR_RT_PARAM_INVALID);  // destroyed with ctx
  EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(DeviceContextTest, CurrentContextIsPerThread) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext mine = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&mine), ACL_SUCCESS);
  aclError before = ACL_SUCCESS, after = ACL_ERROR_INTERNAL_ERROR, created = 1;
  aclrtContext seen = nullptr, theirs = nullptr;
  std::thread t([&] {
    aclrtContext c = nullptr;
    before = aclrtGetCurrentContext(&c);
    created = aclrtCreateContext(&theirs, 0);
    aclrtSetCurrentContext(mine);
    after = aclrtGetCurrentContext(&seen);
  });
  t.join();
  EXPECT_EQ(before, ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(created, ACL_SUCCESS);
  EXPECT_EQ(after, ACL_SUCCESS);
  EXPECT_EQ(seen, mine);
  aclrtContext cur = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_EQ(cur, mine);  // the other thread's CreateContext did not change ours
  EXPECT_EQ(aclrtDestroyContext(theirs), ACL_SUCCESS);
}

TEST_F(DeviceContextTest, DeviceQueriesComeFromTheConfig) {
  const models::ChipConfig cfg;
  int64_t v = 0;
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, cfg.aicore.cube_cores);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, cfg.aicore.vector_cores);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, cfg.unit<models::AiCpuConfig>().cores);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
  EXPECT_EQ(static_cast<uint64_t>(v), cfg.hbm.size.value);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v), ACL_SUCCESS);
  EXPECT_EQ(static_cast<uint64_t>(v), cfg.l2.size.value);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 2201);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(7777), &v), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDeviceInfo(8, ACL_DEV_ATTR_NPU_ARCH, &v), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v), ACL_SUCCESS);
  EXPECT_EQ(v, cfg.aicore.cube_cores);
  int32_t ok = -1;
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend910B2", &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 1);
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 1);
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend310P3", &ok), ACL_SUCCESS);
  EXPECT_EQ(ok, 0);
  int32_t cap = -1;
  ASSERT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap),
            ACL_SUCCESS);
  EXPECT_EQ(cap, ACL_DEV_FEATURE_NOT_SUPPORT);
}

TEST_F(DeviceContextTest, StatusAndUtilization) {
  aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_ABNORMAL;
  ASSERT_EQ(aclrtQueryDeviceStatus(0, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);
  EXPECT_EQ(aclrtQueryDeviceStatus(12, &st), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, models::ChipConfig{}.hbm.size.value / 4, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  aclrtUtilizationInfo u{};
  u.cubeUtilization = -1;
  ASSERT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
  EXPECT_EQ(u.cubeUtilization, 0);
  EXPECT_EQ(u.memoryUtilization, 25);
  aclrtErrorInfo info{};
  info.tryRepair = 7;
  ASSERT_EQ(aclrtGetErrorVerbose(0, &info), ACL_SUCCESS);
  EXPECT_EQ(info.errorType, ACL_RT_NO_ERROR);
  EXPECT_EQ(info.tryRepair, 0);
}

TEST_F(DeviceContextTest, ResourceLimitsByPrecedence) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  uint32_t v = 0;
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 24u);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 48u);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 8u);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 8u);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 4u);
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 24u);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(2), 1),
            ACL_ERROR_INVALID_PARAM);
}

// The current device's saturation mode (aclrtGetDeviceSatMode must succeed).
aclrtFloatOverflowMode sat_mode() {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  return mode;
}

TEST_F(DeviceContextTest, SaturationModeAndOverflow) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(sat_mode(), ACL_RT_OVERFLOW_MODE_INFNAN);
  ASSERT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS);
  EXPECT_EQ(sat_mode(), ACL_RT_OVERFLOW_MODE_SATURATION);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t sw = 9;
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);
  EXPECT_EQ(sw, 1u);
  uint8_t* status = nullptr;
  ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&status), 64, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  std::fill(status, status + 64, 0xFF);
  ASSERT_EQ(aclrtGetOverflowStatus(status, 64, s), ACL_SUCCESS);
  EXPECT_EQ(status[0], 0xFF);  // async: written when the task runs
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(status[i], 0) << i;
  ASSERT_EQ(aclrtResetOverflowStatus(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetOverflowStatus(status, 8, s), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetOverflowStatus(status + 8, 64, s), ACL_SUCCESS);  // within the 96 bytes
}

class Chip310Test : public AclTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.name = "Ascend310P3";
    config.soc.npu_arch = 2002;
  }
};

TEST_F(Chip310Test, SaturationOnlyAndNoBf16) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(sat_mode(), ACL_RT_OVERFLOW_MODE_SATURATION);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  int32_t v = -1;
  ASSERT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 0);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
}

}  // namespace
}  // namespace npusim::rt::testing
