// SPDX-License-Identifier: Apache-2.0
// C skin: memory allocation, copies, fills, value write/wait.
#include "acl/acl.h"
#include "runtime/ascendc/sanitizer.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

aclError malloc_api(const char* name, void** devPtr, size_t size, int policy,
                    bool pad) {
  return api(name, [&](Call& c) {
    require_not_null(devPtr, "devPtr");
    *devPtr = malloc_device(c, size, policy, pad);
    if (npusim::sanitizer::g_checks != 0) npusim::sanitizer::on_malloc(*devPtr, size);
  });
}

// aclrtMallocConfig attributes are bookkeeping for the real driver (module id, device id, VA
// flags); the device id must name a device when given.
void check_malloc_config(Call& c, const aclrtMallocConfig* cfg) {
  if (cfg == nullptr) return;
  require(cfg->numAttrs == 0 || cfg->attrs != nullptr, ACL_ERROR_INVALID_PARAM,
          "cfg->attrs is NULL");
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtMallocAttribute& a = cfg->attrs[i];
    require(a.attr >= ACL_RT_MEM_ATTR_RSV && a.attr <= ACL_RT_MEM_ATTR_VA_FLAG,
            ACL_ERROR_INVALID_PARAM, "unknown aclrtMallocAttrType");
    if (a.attr == ACL_RT_MEM_ATTR_DEVICE_ID) c.device(a.value.deviceId);
  }
}

// aclrtMallocWithCfg, aclrtMallocHostWithCfg: checks `cfg`, then stores allocate(c) in *ptr.
template <class F>
aclError malloc_with_cfg(const char* name, void** ptr, const char* what, aclrtMallocConfig* cfg,
                         F&& allocate) {
  return api_out(name, ptr, what, [&](Call& c) {
    check_malloc_config(c, cfg);
    return allocate(c);
  });
}

// aclrtFreeWithDevSync, aclrtFreeHostWithDevSync: waits for the device, then `release`s `ptr`.
aclError free_after_sync(const char* name, void* ptr, const char* what,
                         void (*release)(Call&, void*)) {
  return api(name, [&](Call& c) {
    require_not_null(ptr, what);
    synchronize_device(c, -1);
    release(c, ptr);
  });
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy_arg) {
  const int policy = as_int(policy_arg);  // any value the caller passed
  return malloc_api("aclrtMalloc", devPtr, size, policy, true);
}

aclError aclrtGetHardwareSyncAddr(void** addr) {
  return api_out("aclrtGetHardwareSyncAddr", addr, "addr",
                 [&](Call& c) { return hardware_sync_addr(c); });
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy_arg) {
  const int policy = as_int(policy_arg);  // any value the caller passed
  return malloc_api("aclrtMallocAlign32", devPtr, size, policy, false);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy_arg) {
  const int policy = as_int(policy_arg);  // any value the caller passed
  return malloc_api("aclrtMallocCached", devPtr, size, policy, true);
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy_arg,
                            aclrtMallocConfig* cfg) {
  const int policy = as_int(policy_arg);  // any value the caller passed
  return malloc_with_cfg("aclrtMallocWithCfg", devPtr, "devPtr", cfg,
                         [&](Call& c) {
                           void* p = malloc_device(c, size, policy, true);
                           if (npusim::sanitizer::g_checks != 0) {
                             npusim::sanitizer::on_malloc(p, size);
                           }
                           return p;
                         });
}

aclError aclrtFree(void* devPtr) {
  return api("aclrtFree", [&](Call& c) { free_device(c, devPtr); });
}

aclError aclrtFreeWithDevSync(void* devPtr) {
  return free_after_sync("aclrtFreeWithDevSync", devPtr, "devPtr", free_device);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return api_out("aclrtMallocHost", hostPtr, "hostPtr",
                 [&](Call& c) { return malloc_host(c, size); });
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
  return malloc_with_cfg("aclrtMallocHostWithCfg", ptr, "ptr", cfg,
                         [&](Call& c) { return malloc_host(c, size); });
}

aclError aclrtFreeHost(void* hostPtr) {
  return api("aclrtFreeHost", [&](Call& c) { free_host(c, hostPtr); });
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
  return free_after_sync("aclrtFreeHostWithDevSync", hostPtr, "hostPtr", free_host);
}

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type_arg,
                           void** devPtr) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api("aclrtHostRegister", [&](Call& c) {
    require_not_null(devPtr, "devPtr");
    require(type == ACL_HOST_REGISTER_MAPPED || type == ACL_HOST_REGISTER_IOMEMORY ||
                type == ACL_HOST_REGISTER_READONLY,
            ACL_ERROR_INVALID_PARAM, "type is not an aclrtHostRegisterType value");
    std::uint32_t flags = type == ACL_HOST_REGISTER_MAPPED ? ACL_HOST_REG_MAPPED
                                                           : static_cast<std::uint32_t>(type);
    host_register(c, ptr, size, flags);
    *devPtr = ptr;
  });
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  return api("aclrtHostRegisterV2", [&](Call& c) { host_register(c, ptr, size, flag); });
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  return api_out("aclrtHostGetDevicePointer", pDevice, "pDevice",
                 [&](Call& c) { return host_device_pointer(c, pHost, flag); });
}

aclError aclrtHostUnregister(void* ptr) {
  return api("aclrtHostUnregister", [&](Call& c) { host_unregister(c, ptr); });
}

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  return api_out("aclrtMemAllocManaged", ptr, "ptr",
                 [&](Call& c) { return malloc_managed(c, size, flag); });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr_arg, size_t* free, size_t* total) {
  const int attr = as_int(attr_arg);  // any value the caller passed
  return api("aclrtGetMemInfo", [&](Call& c) { get_mem_info(c, attr, free, total); });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind_arg) {
  const int kind = as_int(kind_arg);  // any value the caller passed
  return api("aclrtMemcpy", [&](Call& c) { memcpy_sync(c, dst, destMax, src, count, kind); });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind_arg, aclrtStream stream) {
  const int kind = as_int(kind_arg);  // any value the caller passed
  return api("aclrtMemcpyAsync",
             [&](Call& c) { memcpy_async(c, dst, destMax, src, count, kind, stream); });
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind_arg, aclrtStream stream) {
  const int kind = as_int(kind_arg);  // any value the caller passed
  return api("aclrtMemcpyAsyncWithCondition",
             [&](Call& c) { memcpy_async(c, dst, destMax, src, count, kind, stream); });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return api("aclrtMemset", [&](Call& c) { memset_sync(c, devPtr, maxCount, value, count); });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  return api("aclrtMemsetAsync",
             [&](Call& c) { memset_async(c, devPtr, maxCount, value, count, stream); });
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind_arg) {
  const int kind = as_int(kind_arg);  // any value the caller passed
  return api("aclrtMemcpy2d", [&](Call& c) {
    memcpy_2d(c, dst, dpitch, src, spitch, width, height, kind, nullptr, false);
  });
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind_arg, aclrtStream stream) {
  const int kind = as_int(kind_arg);  // any value the caller passed
  return api("aclrtMemcpy2dAsync", [&](Call& c) {
    memcpy_2d(c, dst, dpitch, src, spitch, width, height, kind, stream, true);
  });
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
  return api("aclrtMemsetD32",
             [&](Call& c) { memset_d32(c, ptr, memSize, value, N, nullptr, false); });
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream) {
  return api("aclrtMemsetD32Async",
             [&](Call& c) { memset_d32(c, ptr, memSize, value, N, stream, true); });
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  return api("aclrtPointerGetAttributes", [&](Call& c) {
    require_not_null(ptr, "ptr");
    require_not_null(attributes, "attributes");
    const Allocation* a = c.runtime().memory().find(ptr);
    *attributes = {};
    attributes->pageSize = 4096;
    if (a == nullptr) {
      bool registered = c.runtime().memory().find_registered(ptr) != nullptr;
      attributes->location.type =
          registered ? ACL_MEM_LOCATION_TYPE_HOST : ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    } else if (a->kind == MemKind::kManaged) {
      attributes->location = {a->device, ACL_MEM_LOCATION_TYPE_MANAGED};
      attributes->pageSize = 2u << 20;
    } else if (a->kind == MemKind::kDevice) {
      attributes->location = {a->device, ACL_MEM_LOCATION_TYPE_DEVICE};
      // HUGE_FIRST serves blocks above 1 MiB from 2 MiB pages.
      if (a->size > (1u << 20)) attributes->pageSize = 2u << 20;
    } else {
      attributes->location = {0, ACL_MEM_LOCATION_TYPE_HOST};
    }
  });
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  return api("aclrtMemGetAddressRange", [&](Call& c) {
    require_not_null(ptr, "ptr");
    require(pbase != nullptr || psize != nullptr, ACL_ERROR_INVALID_PARAM,
            "pbase and psize are both NULL");
    const Allocation* a = c.runtime().memory().find(ptr);
    require(a != nullptr, ACL_ERROR_RT_PARAM_INVALID, "ptr is not inside any ACL allocation");
    if (pbase != nullptr) *pbase = reinterpret_cast<void*>(a->base);
    if (psize != nullptr) *psize = a->size;
  });
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return api("aclrtValueWrite", [&](Call& c) { value_write(c, devAddr, value, flag, stream); });
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return api("aclrtValueWait", [&](Call& c) { value_wait(c, devAddr, value, flag, stream); });
}

}  // extern "C"
