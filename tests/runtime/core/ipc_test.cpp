// SPDX-License-Identifier: Apache-2.0
// Sharing in one process: the shareable-object registry (whitelists, close, withdraw), virtual
// memory (reserve, physical allocations, two mappings of one allocation, shareable handles), IPC
// memory keys, IPC events and IPC notifies, with their documented error codes. FakeBackend.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime/core/ipc_registry.h"
#include "tests/runtime/kernel_sources.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr size_t kGran = size_t{2} << 20;

// ---- The registry itself, with importer pids other than this process's ----

TEST(IpcRegistryTest, WhitelistDecidesWhoImports) {
  LocalIpcRegistry r;
  auto object = std::make_shared<int>(7);
  const std::uint64_t id = r.publish(IpcKind::kMemory, 100, true, object);
  EXPECT_NE(id, 0u);
  IpcObject got;
  EXPECT_EQ(r.import(id, IpcKind::kMemory, 200, &got), IpcStatus::kNotPermitted);
  EXPECT_EQ(r.import(id, IpcKind::kMemory, 100, &got), IpcStatus::kNotPermitted);  // not implied
  EXPECT_EQ(r.allow(id, IpcKind::kMemory, 200, {200}), IpcStatus::kNotOwner);
  EXPECT_EQ(r.allow(id, IpcKind::kMemory, 100, {200, 300}), IpcStatus::kOk);
  EXPECT_EQ(r.import(id, IpcKind::kMemory, 200, &got), IpcStatus::kOk);
  EXPECT_EQ(*std::static_pointer_cast<int>(got), 7);
  EXPECT_EQ(r.import(id, IpcKind::kMemory, 400, &got), IpcStatus::kNotPermitted);
  EXPECT_EQ(r.import(id, IpcKind::kNotify, 200, &got), IpcStatus::kUnknownKey);  // other kind
  EXPECT_EQ(r.import(id + 1, IpcKind::kMemory, 200, &got), IpcStatus::kUnknownKey);

  const std::uint64_t open = r.publish(IpcKind::kNotify, 100, false, object);
  EXPECT_NE(open, id);
  EXPECT_EQ(r.import(open, IpcKind::kNotify, 12345, &got), IpcStatus::kOk);
}

TEST(IpcRegistryTest, ImportersCloseFirstThenTheExporterWithdraws) {
  LocalIpcRegistry r;
  const std::uint64_t id = r.publish(IpcKind::kMemory, 100, false, std::make_shared<int>(1));
  IpcObject got;
  ASSERT_EQ(r.import(id, IpcKind::kMemory, 200, &got), IpcStatus::kOk);
  ASSERT_EQ(r.import(id, IpcKind::kMemory, 200, &got), IpcStatus::kOk);
  EXPECT_EQ(r.imports(id), 2u);
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 300), IpcStatus::kNotOwner);  // neither importer nor owner
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 200), IpcStatus::kOk);
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 200), IpcStatus::kOk);
  EXPECT_EQ(r.imports(id), 0u);
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 200), IpcStatus::kNotOwner);
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 100), IpcStatus::kOk);  // the exporter: withdrawn
  EXPECT_EQ(r.import(id, IpcKind::kMemory, 200, &got), IpcStatus::kUnknownKey);
  EXPECT_EQ(r.close(id, IpcKind::kMemory, 100), IpcStatus::kUnknownKey);

  const std::uint64_t a = r.publish(IpcKind::kEvent, 100, false, std::make_shared<int>(2));
  const std::uint64_t b = r.publish(IpcKind::kEvent, 101, false, std::make_shared<int>(3));
  r.withdraw_all(100);
  EXPECT_EQ(r.import(a, IpcKind::kEvent, 5, &got), IpcStatus::kUnknownKey);
  EXPECT_EQ(r.import(b, IpcKind::kEvent, 5, &got), IpcStatus::kOk);
  r.withdraw(b);
  EXPECT_EQ(r.import(b, IpcKind::kEvent, 5, &got), IpcStatus::kUnknownKey);
}

// ---- Virtual memory ----

class VmmTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.num_devices = 2; }
  static aclrtPhysicalMemProp prop(uint32_t device = 0) {
    aclrtPhysicalMemProp p = {};
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = ACL_HBM_MEM_NORMAL;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = device;
    return p;
  }
  void* reserve_and_map(aclrtDrvMemHandle h, size_t size = kGran) {
    void* v = nullptr;
    EXPECT_EQ(aclrtReserveMemAddress(&v, size, 0, nullptr, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMapMem(v, size, 0, h, 0), ACL_SUCCESS);
    return v;
  }
  // Undoes reserve_and_map.
  static void unmap_and_release(void* v) {
    ASSERT_EQ(aclrtUnmapMem(v), ACL_SUCCESS);
    ASSERT_EQ(aclrtReleaseMemAddress(v), ACL_SUCCESS);
  }
  void write(void* dev, const std::vector<int>& values) {
    ASSERT_EQ(aclrtMemcpy(dev, values.size() * sizeof(int), values.data(),
                          values.size() * sizeof(int), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<int> read(const void* dev, size_t n) {
    std::vector<int> out(n, -1);
    EXPECT_EQ(aclrtMemcpy(out.data(), n * sizeof(int), dev, n * sizeof(int),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return out;
  }
};

TEST_F(VmmTest, GranularityIsTwoMebibytes) {
  aclrtPhysicalMemProp p = prop();
  size_t g = 0;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
            ACL_SUCCESS);
  EXPECT_EQ(g, kGran);
  g = 0;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g),
            ACL_SUCCESS);
  EXPECT_EQ(g, kGran);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr),
            ACL_ERROR_INVALID_PARAM);
  p.location.id = 7;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
            ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(VmmTest, TwoMappingsOfOnePhysicalAllocationShowTheSameBytes) {
  aclrtPhysicalMemProp p = prop();
  size_t free_before = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
  aclrtDrvMemHandle h = nullptr;
  EXPECT_EQ(aclrtMallocPhysical(&h, kGran + 1, &p, 0), ACL_ERROR_INVALID_PARAM);  // not aligned
  EXPECT_EQ(aclrtMallocPhysical(&h, kGran, &p, 1), ACL_ERROR_INVALID_PARAM);      // flags
  ASSERT_EQ(aclrtMallocPhysical(&h, 2 * kGran, &p, 0), ACL_SUCCESS);
  size_t free_after = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
  EXPECT_EQ(free_before - free_after, 2 * kGran);

  void* a = reserve_and_map(h, 2 * kGran);
  void* b = reserve_and_map(h, 2 * kGran);
  ASSERT_NE(a, b);
  aclrtMemAccessDesc desc = {};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = 0;
  EXPECT_EQ(aclrtMemSetAccess(a, 2 * kGran, &desc, 1), ACL_SUCCESS);
  aclrtMemLocation where = {};
  uint64_t flag = 0;
  EXPECT_EQ(aclrtMemGetAccess(a, &where, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_READWRITE));
  EXPECT_EQ(where.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  EXPECT_EQ(aclrtMemSetAccess(a, 2 * kGran, &desc, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

  // Written through one mapping (at the second granule), read through the other; a
  // device-to-device copy between the two mappings moves the same bytes again.
  char* a_hi = static_cast<char*>(a) + kGran;
  write(a_hi, {11, 22, 33, 44});
  EXPECT_EQ(read(static_cast<char*>(b) + kGran, 4), (std::vector<int>{11, 22, 33, 44}));
  ASSERT_EQ(aclrtMemcpy(b, 16, a_hi, 16, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(read(a, 4), (std::vector<int>{11, 22, 33, 44}));
  ASSERT_EQ(aclrtMemsetAsync(b, 16, 0, 8, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(a, 4), (std::vector<int>{0, 0, 33, 44}));

  aclrtPtrAttributes attr = {};
  ASSERT_EQ(aclrtPointerGetAttributes(a, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  aclrtPhysicalMemProp back = {};
  ASSERT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &back), ACL_SUCCESS);
  EXPECT_EQ(back.memAttr, ACL_HBM_MEM_NORMAL);
  EXPECT_EQ(back.location.id, 0u);

  EXPECT_EQ(aclrtFree(a), ACL_ERROR_RT_MEMORY_FREE);             // a mapping, not aclrtMalloc's
  EXPECT_EQ(aclrtReleaseMemAddress(a), ACL_ERROR_RT_PARAM_INVALID);  // still mapped
  EXPECT_EQ(aclrtMapMem(a, kGran, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);  // already mapped
  EXPECT_EQ(aclrtUnmapMem(a_hi), ACL_ERROR_RT_PARAM_INVALID);  // not a mapping's start
  ASSERT_EQ(aclrtUnmapMem(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnmapMem(a), ACL_ERROR_RT_PARAM_INVALID);
  // Unmapped: a device address with nothing behind it.
  int v = 5;
  EXPECT_EQ(aclrtMemcpy(a, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtReleaseMemAddress(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtReleaseMemAddress(a), ACL_ERROR_RT_PARAM_INVALID);

  // Freeing the handle keeps the pages while b still maps them; the capacity charge ends.
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
  EXPECT_EQ(free_after, free_before);
  EXPECT_EQ(read(b, 4), (std::vector<int>{0, 0, 33, 44}));
  unmap_and_release(b);
}

// Kernels see a mapping as device memory: checked and raw stores through one mapping are read
// through the other; once unmapped, the range faults the kernel, not the process.
TEST_F(VmmTest, KernelsUseMappedMemory) {
  aclrtPhysicalMemProp p = prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  void* a = reserve_and_map(h);
  void* b = reserve_and_map(h);
  ASSERT_EQ(FillDo(4, stream_, static_cast<int32_t*>(a), 10), ACL_SUCCESS);
  ASSERT_EQ(StoreCheckedDo(1, stream_, static_cast<char*>(a) + 64, 77), ACL_SUCCESS);
  ASSERT_EQ(AddOneDo(3, stream_, static_cast<int32_t*>(b)), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(a, 4), (std::vector<int>{13, 11, 12, 13}));
  EXPECT_EQ(read(static_cast<char*>(b) + 64, 1), (std::vector<int>{77}));
  ASSERT_EQ(aclrtUnmapMem(a), ACL_SUCCESS);
  ASSERT_EQ(StoreCheckedDo(1, stream_, a, 5), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_EQ(StoreRawDo(1, stream_, a, 0, 5), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(read(b, 1), (std::vector<int>{13}));
  ASSERT_EQ(aclrtUnmapMem(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

// Caching allocators hold thousands of 2 MiB physical allocations: more than a process may have
// files open, so they share one backing file; freed ranges are reused.
TEST_F(VmmTest, ThousandsOfPhysicalAllocations) {
  aclrtPhysicalMemProp p = prop();
  std::vector<aclrtDrvMemHandle> handles(3000, nullptr);
  for (auto& h : handles) ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  void* v = reserve_and_map(handles.back());
  write(v, {5});
  for (auto& h : handles) ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  EXPECT_EQ(read(v, 1), (std::vector<int>{5}));  // still mapped: its pages stay
  unmap_and_release(v);
  for (auto& h : handles) ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  for (auto& h : handles) ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

TEST_F(VmmTest, ReserveChecksItsArguments) {
  void* v = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&v, 0, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&v, kGran, 4096, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&v, kGran, 0, nullptr, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(nullptr, kGran, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  int here = 0;
  EXPECT_EQ(aclrtReserveMemAddress(&v, kGran, 0, &here, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  // A size that is not a multiple of the granularity is rounded up.
  ASSERT_EQ(aclrtReserveMemAddress(&v, 100, 0, nullptr, 0), ACL_SUCCESS);
  aclrtPhysicalMemProp p = prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMapMem(v, kGran, kGran, h, 0), ACL_ERROR_RT_PARAM_INVALID);  // past the end
  EXPECT_EQ(aclrtMapMem(v, 2 * kGran, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMapMem(v, 4096, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMapMem(&here, kGran, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);  // not reserved
  ASSERT_EQ(aclrtMapMem(v, kGran, 0, h, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtUnmapMem(v), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtMapMem(v, kGran, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);  // freed handle
  ASSERT_EQ(aclrtReleaseMemAddress(v), ACL_SUCCESS);
}

TEST_F(VmmTest, ShareableHandleFollowsTheWhitelist) {
  aclrtPhysicalMemProp p = prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  void* a = reserve_and_map(h);
  write(a, {123});
  uint64_t shareable = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 4, &shareable),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable),
            ACL_SUCCESS);
  EXPECT_NE(shareable, 0u);
  EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable),
            ACL_ERROR_RT_PARAM_INVALID);  // once

  int32_t me = 0;
  ASSERT_EQ(aclrtDeviceGetBareTgid(&me), ACL_SUCCESS);
  EXPECT_GT(me, 0);
  EXPECT_EQ(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtDrvMemHandle imported = nullptr;
  // Pid validation on: this process is not listed yet, then another pid is, then it is.
  EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 1, &imported),
            ACL_ERROR_RT_NO_PERMISSION);
  int32_t other = me + 1;
  ASSERT_EQ(aclrtMemSetPidToShareableHandle(shareable, &other, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 1, &imported),
            ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(shareable, &me, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(shareable + 1, &me, 1), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtMemSetPidToShareableHandle(shareable, &me, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 9, &imported),
            ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtMemImportFromShareableHandle(shareable, 1, &imported), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemExportToShareableHandle(imported, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable),
            ACL_ERROR_RT_PARAM_INVALID);  // only the allocating process exports
  void* b = reserve_and_map(imported);
  EXPECT_EQ(read(b, 1), (std::vector<int>{123}));
  write(b, {456});
  EXPECT_EQ(read(a, 1), (std::vector<int>{456}));

  // Freeing the allocating handle withdraws the export; made imports stay valid.
  unmap_and_release(a);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  aclrtDrvMemHandle late = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &late), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(read(b, 1), (std::vector<int>{456}));
  // A retained handle of the mapping at b: another handle of the same pages, freed on its own.
  aclrtDrvMemHandle retained = nullptr;
  EXPECT_EQ(aclrtMemRetainAllocationHandle(static_cast<char*>(b) + 4096, &retained),
            ACL_ERROR_RT_PARAM_INVALID);  // not a mapping's start
  ASSERT_EQ(aclrtMemRetainAllocationHandle(b, &retained), ACL_SUCCESS);
  ASSERT_NE(retained, imported);
  ASSERT_EQ(aclrtFreePhysical(imported), ACL_SUCCESS);
  void* c = reserve_and_map(retained);
  EXPECT_EQ(read(c, 1), (std::vector<int>{456}));
  unmap_and_release(c);
  unmap_and_release(b);
  ASSERT_EQ(aclrtFreePhysical(retained), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(retained), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmTest, ShareableHandleWithoutPidValidation) {
  aclrtPhysicalMemProp p = prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, kGran, &p, 0), ACL_SUCCESS);
  uint64_t shareable = 0;
  ASSERT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
                                            ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                            &shareable),
            ACL_SUCCESS);
  aclrtDrvMemHandle imported = nullptr;
  ASSERT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &imported), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemImportFromShareableHandle(12345, 0, &imported), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtFreePhysical(imported), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

// ---- IPC memory ----

TEST_F(VmmTest, IpcMemoryKeyWhitelistAndClose) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char* second = static_cast<char*>(dev) + 4096;
  char key[65] = {};
  EXPECT_EQ(aclrtIpcMemGetExportKey(dev, 4096, key, 64, 0), ACL_ERROR_INVALID_PARAM);  // len
  EXPECT_EQ(aclrtIpcMemGetExportKey(dev, 0, key, 65, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemGetExportKey(dev, 4096, key, 65, 7), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemGetExportKey(second, 8192, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  int host = 0;
  EXPECT_EQ(aclrtIpcMemGetExportKey(&host, 4, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtIpcMemGetExportKey(second, 4096, key, 65, 0), ACL_SUCCESS);
  EXPECT_GT(std::strlen(key), 0u);
  EXPECT_LT(std::strlen(key), 65u);

  void* imported = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_NO_PERMISSION);
  int32_t me = 0;
  ASSERT_EQ(aclrtDeviceGetBareTgid(&me), ACL_SUCCESS);
  int32_t others[2] = {me + 1, me + 2};
  ASSERT_EQ(aclrtIpcMemSetImportPid(key, others, 2), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(aclrtIpcMemSetImportPid("npusim-ipc-mem-nonsense", &me, 1), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtIpcMemSetImportPid(key, &me, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 5), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_SUCCESS);
  EXPECT_EQ(imported, second);  // one device address space in one process

  write(second, {7, 8, 9});
  EXPECT_EQ(read(imported, 3), (std::vector<int>{7, 8, 9}));

  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, "garbage", 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);  // the import
  ASSERT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);  // the exporter: withdrawn
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(VmmTest, IpcMemoryOfFreedMemoryCannotBeImported) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char key[65] = {};
  ASSERT_EQ(aclrtIpcMemGetExportKey(dev, 4096, key, 65,
                                    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  void* imported = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmTest, IpcMemoryOfAnotherDeviceNeedsPeerAccessOrTheImportFlag) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  write(dev, {42});
  char key[65] = {};
  ASSERT_EQ(aclrtIpcMemGetExportKey(dev, 4096, key, 65, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* imported = nullptr;
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_SUCCESS);
  int32_t status = -1;
  ASSERT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(read(imported, 1), (std::vector<int>{42}));
  ASSERT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
}

// ---- IPC events ----

class IpcEventTest : public VmmTest {
 protected:
  SimTime end_of(const char* name, int n = 0) {
    for (const auto& t : fake().tasks()) {
      if (t.name == name && n-- == 0) return t.record.end;
    }
    ADD_FAILURE() << "no task " << name;
    return 0;
  }
  const FakeBackend::TaskTrace* task(const char* name, int n = 0) {
    for (const auto& t : fake().tasks()) {
      if (t.name == name && n-- == 0) return &t;
    }
    return nullptr;
  }
};

TEST_F(IpcEventTest, OnlyExIpcEventsExport) {
  aclrtEvent plain = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(&plain, ACL_EVENT_IPC), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateEventExWithFlag(&plain, ACL_EVENT_SYNC), ACL_SUCCESS);
  aclrtIpcEventHandle handle;
  EXPECT_EQ(aclrtIpcGetEventHandle(plain, &handle), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcGetEventHandle(nullptr, &handle), ACL_ERROR_INVALID_PARAM);
  aclrtEvent opened = nullptr;
  std::memset(&handle, 0, sizeof handle);
  EXPECT_EQ(aclrtIpcOpenEventHandle(handle, &opened), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(IpcEventTest, OpenedEventOrdersAStreamOfAnotherDeviceWithoutPeerAccess) {
  aclrtEvent ipc = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC), ACL_SUCCESS);
  aclrtIpcEventHandle handle;
  ASSERT_EQ(aclrtIpcGetEventHandle(ipc, &handle), ACL_SUCCESS);
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 1 << 20), ACL_SUCCESS);

  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream consumer = nullptr;
  ASSERT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
  aclrtEvent opened = nullptr;
  ASSERT_EQ(aclrtIpcOpenEventHandle(handle, &opened), ACL_SUCCESS);
  ASSERT_NE(opened, ipc);

  // The producer (device 0) records after a copy; the consumer (device 1) waits, then fills.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 1 << 20, host, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ipc, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(consumer, opened), ACL_SUCCESS);
  void* dev1 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev1, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev1, 4096, 0, 64, consumer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  const SimTime recorded = end_of("EVENT_RECORD");
  EXPECT_GE(recorded, end_of("MEMCPY_H2D"));
  EXPECT_GE(end_of("EVENT_WAIT"), recorded);
  EXPECT_GE(end_of("MEMSET"), recorded);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_EQ(aclrtQueryEventStatus(opened, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  // The opener records the shared event too; the exporter sees it.
  ASSERT_EQ(aclrtRecordEvent(opened, consumer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(ipc), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(opened), ACL_SUCCESS);

  // Destroying the exported event withdraws its handle; the opened one keeps working.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(ipc), ACL_SUCCESS);
  aclrtEvent late = nullptr;
  EXPECT_EQ(aclrtIpcOpenEventHandle(handle, &late), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtQueryEventStatus(opened, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

// ---- IPC notifies ----

TEST_F(IpcEventTest, ImportedNotifySignalsTheExportersWait) {
  aclrtNotify notify = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
  char key[65] = {};
  EXPECT_EQ(aclrtNotifySetImportPid(notify, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  int32_t me = 0;
  ASSERT_EQ(aclrtDeviceGetBareTgid(&me), ACL_SUCCESS);
  EXPECT_EQ(aclrtNotifySetImportPid(notify, &me, 1), ACL_ERROR_RT_PARAM_INVALID);  // not exported
  EXPECT_EQ(aclrtNotifyGetExportKey(notify, key, 65, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtNotifyGetExportKey(notify, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT),
            ACL_SUCCESS);
  aclrtNotify imported = nullptr;
  EXPECT_EQ(aclrtNotifyImportByKey(&imported, key, 0), ACL_ERROR_RT_NO_PERMISSION);
  ASSERT_EQ(aclrtNotifySetImportPid(notify, &me, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtNotifyImportByKey(&imported, "npusim-ipc-notify-0000000000000000", 0),
            ACL_ERROR_RT_PARAM_INVALID);

  // The importer is on device 1 and records the notify of device 0: peer access by import flag.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream producer = nullptr;
  ASSERT_EQ(aclrtCreateStream(&producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordNotify(imported, producer), ACL_ERROR_RT_PARAM_INVALID);  // no peer access
  ASSERT_EQ(aclrtDestroyNotify(imported), ACL_SUCCESS);
  ASSERT_EQ(aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS),
            ACL_SUCCESS);
  uint32_t id = 99, original_id = 98;
  ASSERT_EQ(aclrtGetNotifyId(imported, &id), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetNotifyId(notify, &original_id), ACL_SUCCESS);
  EXPECT_EQ(id, original_id);

  // Device 0 waits first; device 1 copies, then records through the imported notify.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(notify, stream_, 0), ACL_SUCCESS);
  void* dev0 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev0, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev0, 4096, 0, 64, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* dev1 = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev1, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 1 << 20), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev1, 1 << 20, host, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, producer),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordNotify(imported, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_GE(end_of("NOTIFY_RECORD"), end_of("MEMCPY_H2D"));
  EXPECT_GE(end_of("NOTIFY_WAIT"), end_of("NOTIFY_RECORD"));
  EXPECT_GE(task("MEMSET")->record.start, end_of("NOTIFY_RECORD"));

  // Destroying the exported notify withdraws its key.
  ASSERT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
  aclrtNotify late = nullptr;
  EXPECT_EQ(aclrtNotifyImportByKey(&late, key, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDestroyNotify(imported), ACL_SUCCESS);
}

// The shape of the IPC notify samples with two host threads: one waits on its notify, the other
// (on another device) imports it by key and records it later.
TEST_F(IpcEventTest, ThreadsShareANotifyByKey) {
  aclrtNotify notify = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
  char key[65] = {};
  ASSERT_EQ(aclrtNotifyGetExportKey(notify, key, 65,
                                    ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  aclError wait_rc = -1, sync_rc = -1, import_rc = -1, record_rc = -1, done_rc = -1;
  std::thread waiter([&] {
    aclrtSetDevice(0);
    wait_rc = aclrtWaitAndResetNotify(notify, stream_, 0);
    sync_rc = aclrtSynchronizeStream(stream_);
  });
  std::thread recorder([&] {
    aclrtSetDevice(1);
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    aclrtNotify imported = nullptr;
    import_rc = aclrtNotifyImportByKey(&imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS);
    record_rc = aclrtRecordNotify(imported, s);
    done_rc = aclrtSynchronizeStream(s);
    aclrtDestroyNotify(imported);
    aclrtDestroyStream(s);
  });
  recorder.join();
  waiter.join();
  EXPECT_EQ(wait_rc, ACL_SUCCESS);
  EXPECT_EQ(sync_rc, ACL_SUCCESS);
  EXPECT_EQ(import_rc, ACL_SUCCESS);
  EXPECT_EQ(record_rc, ACL_SUCCESS);
  EXPECT_EQ(done_rc, ACL_SUCCESS);
  EXPECT_GE(end_of("NOTIFY_WAIT"), end_of("NOTIFY_RECORD"));
  ASSERT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
