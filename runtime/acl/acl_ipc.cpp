// SPDX-License-Identifier: Apache-2.0
// C skin: virtual memory (reserve, physical allocations, mappings, shareable handles) and IPC
// memory, events and notifies.
#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/ipc.h"
#include "runtime/core/runtime.h"
#include "runtime/core/vmm.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  return api("aclrtDeviceGetBareTgid", [&](Call&) {
    require_not_null(pid, "pid");
    *pid = process_pid();
  });
}

// ---- Virtual memory ----

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option_arg,
                                          size_t* granularity) {
  const int option = as_int(option_arg);  // any value the caller passed
  return api_out("aclrtMemGetAllocationGranularity", granularity, "granularity",
                 [&](Call& c) { return vmm_granularity(c, prop, option); });
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags) {
  return api_out("aclrtReserveMemAddress", virPtr, "virPtr",
                 [&](Call& c) { return reserve_address(c, size, alignment, expectPtr, flags); });
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  return api("aclrtReleaseMemAddress", [&](Call& c) { release_address(c, virPtr); });
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop, uint64_t flags) {
  return api_out("aclrtMallocPhysical", handle, "handle",
                 [&](Call& c) { return malloc_physical(c, size, prop, flags); });
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  return api("aclrtFreePhysical", [&](Call& c) { free_physical(c, handle); });
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp* prop) {
  return api("aclrtMemGetAllocationPropertiesFromHandle", [&](Call& c) {
    require_not_null(prop, "prop");
    const PhysicalHandle& h = live_physical(c, handle);
    *prop = {};
    prop->handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop->memAttr = static_cast<aclrtMemAttr>(h.memory->mem_attr);
    prop->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop->location.id = h.memory->device;
  });
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
  return api_out("aclrtMemRetainAllocationHandle", handle, "handle",
                 [&](Call& c) { return retain_physical(c, virPtr); });
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                     uint64_t flags) {
  return api("aclrtMapMem",
             [&](Call& c) { map_memory(c, virPtr, size, offset, handle, flags); });
}

aclError aclrtUnmapMem(void* virPtr) {
  return api("aclrtUnmapMem", [&](Call& c) { unmap_memory(c, virPtr); });
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
  return api("aclrtMemSetAccess", [&](Call& c) { set_access(c, virPtr, size, desc, count); });
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
  return api("aclrtMemGetAccess", [&](Call& c) {
    require_not_null(virPtr, "virPtr");
    require_not_null(location, "location");
    require_not_null(flag, "flag");
    const VmmMapping* m = c.runtime().vmm().mapping_of(virPtr);
    require(m != nullptr, ACL_ERROR_RT_PARAM_INVALID,
            "virPtr is not inside an aclrtMapMem mapping");
    location->type = ACL_MEM_LOCATION_TYPE_DEVICE;
    location->id = m->memory->device;
    *flag = m->access;
  });
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType type_arg,
                                         uint64_t flags, uint64_t* shareableHandle) {
  const int type = as_int(type_arg);  // any value the caller passed
  return api_out("aclrtMemExportToShareableHandle", shareableHandle, "shareableHandle",
                 [&](Call& c) { return export_physical(c, handle, type, flags); });
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  return api("aclrtMemSetPidToShareableHandle",
             [&](Call& c) { allow_physical_import(c, shareableHandle, pid, pidNum); });
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* handle) {
  return api_out("aclrtMemImportFromShareableHandle", handle, "handle",
                 [&](Call& c) { return import_physical(c, shareableHandle, deviceId); });
}

// ---- IPC memory ----

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  return api("aclrtIpcMemGetExportKey",
             [&](Call& c) { ipc_mem_export(c, devPtr, size, key, len, flags); });
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
  return api("aclrtIpcMemSetImportPid", [&](Call& c) { ipc_mem_set_pids(c, key, pid, num); });
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
  return api_out("aclrtIpcMemImportByKey", devPtr, "devPtr",
                 [&](Call& c) { return ipc_mem_import(c, key, flags); });
}

aclError aclrtIpcMemClose(const char* key) {
  return api("aclrtIpcMemClose", [&](Call& c) { ipc_mem_close(c, key); });
}

// ---- IPC events ----

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
  return api("aclrtIpcGetEventHandle", [&](Call& c) { ipc_event_export(c, event, handle); });
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
  return api_out("aclrtIpcOpenEventHandle", event, "event",
                 [&](Call& c) { return ipc_event_open(c, &handle); });
}

// ---- IPC notifies ----

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
  return api("aclrtNotifyGetExportKey",
             [&](Call& c) { notify_export(c, notify, key, len, flags); });
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
  return api("aclrtNotifySetImportPid", [&](Call& c) { notify_set_pids(c, notify, pid, num); });
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
  return api_out("aclrtNotifyImportByKey", notify, "notify",
                 [&](Call& c) { return notify_import(c, key, flags); });
}

}  // extern "C"
