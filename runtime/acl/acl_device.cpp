// SPDX-License-Identifier: Apache-2.0
// C skin: devices, device queries, resource limits, saturation mode and overflow status.
#include <cstring>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/device_query.h"
#include "runtime/core/errors.h"
#include "runtime/core/lifecycle.h"
#include "runtime/core/runtime.h"
#include "runtime/core/peer.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  return api_any("aclrtSetDevice", [&](Call& c) {
    initialize_implicitly(c);  // before any aclInit, as CANN does
    require(c.runtime().initialized(), ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
    set_device(c, deviceId);
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return api("aclrtResetDevice", [&](Call& c) { reset_device(c, deviceId, false); });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return api("aclrtResetDeviceForce", [&](Call& c) { reset_device(c, deviceId, true); });
}

aclError aclrtGetDevice(int32_t* deviceId) {
  return api_out("aclrtGetDevice", deviceId, "deviceId",
                 [&](Call& c) { return static_cast<int32_t>(c.context().device); });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  return api_any("aclrtGetDeviceCount", [&](Call& c) {
    require_not_null(count, "count");
    *count = static_cast<uint32_t>(c.config().soc.num_devices);
  });
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  return api_any("aclrtDeviceCanAccessPeer", [&](Call& c) {
    require_not_null(canAccessPeer, "canAccessPeer");
    *canAccessPeer = can_access_peer(c, deviceId, peerDeviceId);
  });
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return api("aclrtDeviceEnablePeerAccess",
             [&](Call& c) { enable_peer_access(c, peerDeviceId, flags); });
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return api("aclrtDeviceDisablePeerAccess",
             [&](Call& c) { disable_peer_access(c, peerDeviceId); });
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  return api_out("aclrtDevicePeerAccessStatus", status, "status",
                 [&](Call& c) { return peer_access_status(c, deviceId, peerDeviceId); });
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  return api_any("aclrtGetRunMode", [&](Call&) {
    require_not_null(runMode, "runMode");
    *runMode = ACL_HOST;
  });
}

aclError aclrtSynchronizeDevice(void) {
  return api("aclrtSynchronizeDevice", [&](Call& c) { synchronize_device(c, -1); });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return api("aclrtSynchronizeDeviceWithTimeout", [&](Call& c) { synchronize_device(c, timeout); });
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr_arg, int64_t* value) {
  const int attr = as_int(attr_arg);  // any value the caller passed
  return api_any("aclrtGetDeviceInfo", [&](Call& c) {
    require_not_null(value, "value");
    *value = device_info(c, deviceId, attr);
  });
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo_arg, int64_t* value) {
  const int deviceInfo = as_int(deviceInfo_arg);  // any value the caller passed
  return api_any("aclGetDeviceCapability", [&](Call& c) {
    require_not_null(value, "value");
    switch (deviceInfo) {
      case ACL_DEVICE_INFO_AI_CORE_NUM:
        *value = device_info(c, deviceId, ACL_DEV_ATTR_AICORE_CORE_NUM);
        break;
      case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = device_info(c, deviceId, ACL_DEV_ATTR_VECTOR_CORE_NUM);
        break;
      case ACL_DEVICE_INFO_L2_SIZE:
        *value = device_info(c, deviceId, ACL_DEV_ATTR_L2_CACHE_SIZE);
        break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "deviceInfo is not an aclDeviceInfo value");
    }
  });
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType_arg,
                                  int32_t* value) {
  const int devFeatureType = as_int(devFeatureType_arg);  // any value the caller passed
  return api_any("aclrtGetDeviceCapability", [&](Call& c) {
    check_device_id(c, deviceId);
    require_not_null(value, "value");
    require(devFeatureType == ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV ||
                devFeatureType == ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV,
            ACL_ERROR_INVALID_PARAM, "devFeatureType is not an aclrtDevFeatureType value");
    // Neither task update (aclrtTaskUpdateAsync) nor cross-device memory-queue events exist in
    // the simulator.
    *value = ACL_DEV_FEATURE_NOT_SUPPORT;
  });
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
  return api("aclrtGetDeviceUtilizationRate", [&](Call& c) {
    Device& dev = c.device(deviceId);
    require_not_null(utilizationInfo, "utilizationInfo");
    std::uint64_t capacity = c.config().hbm.size.value;
    std::uint64_t used = c.runtime().memory().charged(dev.id);
    // No kernels run yet, so the compute engines are idle; memory use is the allocated share.
    utilizationInfo->cubeUtilization = 0;
    utilizationInfo->vectorUtilization = 0;
    utilizationInfo->aicpuUtilization = 0;
    utilizationInfo->memoryUtilization =
        capacity == 0 ? 0 : static_cast<int32_t>(used * 100 / capacity);
  });
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  return api("aclrtQueryDeviceStatus", [&](Call& c) {
    c.device(deviceId);
    require_not_null(deviceStatus, "deviceStatus");
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  return api_any("aclrtDeviceGetStreamPriorityRange", [&](Call&) {
    require_not_null(leastPriority, "leastPriority");
    require_not_null(greatestPriority, "greatestPriority");
    *leastPriority = static_cast<int32_t>(kMaxPriority);
    *greatestPriority = 0;
  });
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
  return api_any("aclrtCheckArchCompatibility", [&](Call& c) {
    require_not_null(canCompatible, "canCompatible");
    *canCompatible = arch_compatible(c, socVersion) ? 1 : 0;
  });
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
  return api("aclrtGetErrorVerbose", [&](Call& c) {
    c.device(deviceId);
    require_not_null(errorInfo, "errorInfo");
    std::memset(errorInfo, 0, sizeof *errorInfo);  // the simulated device has no hardware fault
    errorInfo->errorType = ACL_RT_NO_ERROR;
  });
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type_arg, uint32_t value) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api("aclrtSetDeviceResLimit",
             [&](Call& c) { set_resource_limit(c, deviceId, type, value); });
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type_arg, uint32_t* value) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api_out("aclrtGetDeviceResLimit", value, "value",
                 [&](Call& c) { return resource_limit(c, deviceId, type); });
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  return api("aclrtResetDeviceResLimit", [&](Call& c) { c.device(deviceId).limits = {}; });
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type_arg, uint32_t value) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api("aclrtSetStreamResLimit",
             [&](Call& c) { set_stream_resource_limit(c, stream, type, value); });
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type_arg,
                                uint32_t* value) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api_out("aclrtGetStreamResLimit", value, "value",
                 [&](Call& c) { return stream_resource_limit(c, stream, type); });
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  return api("aclrtResetStreamResLimit", [&](Call& c) { c.stream(stream).limits = {}; });
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  return api("aclrtUseStreamResInCurrentThread",
             [&](Call& c) { c.thread().res_stream = c.stream_handle(stream); });
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  return api("aclrtUnuseStreamResInCurrentThread", [&](Call& c) {
    void* handle = c.stream_handle(stream);
    if (c.thread().res_stream == handle) c.thread().res_stream = nullptr;
  });
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type_arg, uint32_t* value) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api_out("aclrtGetResInCurrentThread", value, "value",
                 [&](Call& c) { return resource_limit_in_thread(c, type); });
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode_arg) {
  const int mode = as_int(mode_arg);  // any value the caller passed
  return api("aclrtSetDeviceSatMode", [&](Call& c) { set_sat_mode(c, mode); });
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  return api_out("aclrtGetDeviceSatMode", mode, "mode", [&](Call& c) {
    return static_cast<aclrtFloatOverflowMode>(c.device(c.context().device).sat_mode);
  });
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  return api("aclrtSetStreamOverflowSwitch", [&](Call& c) {
    require(flag <= 1, ACL_ERROR_INVALID_PARAM, "flag must be 0 or 1");
    c.stream(stream).overflow_switch = flag;
  });
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  return api_out("aclrtGetStreamOverflowSwitch", flag, "flag",
                 [&](Call& c) { return c.stream(stream).overflow_switch; });
}

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
  return api("aclrtGetOverflowStatus",
             [&](Call& c) { get_overflow_status(c, outputAddr, outputSize, stream); });
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  return api("aclrtResetOverflowStatus", [&](Call& c) { reset_overflow_status(c, stream); });
}

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  return api("aclrtGetFloatOverflowStatus",
             [&](Call& c) { get_overflow_status(c, outputAddr, outputSize, stream); });
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  return api("aclrtResetFloatOverflowStatus", [&](Call& c) { reset_overflow_status(c, stream); });
}

}  // extern "C"
