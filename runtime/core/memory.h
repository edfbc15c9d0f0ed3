// SPDX-License-Identifier: Apache-2.0
// Memory API: allocation (device and pinned host memory, both real process memory registered in
// the MemoryRegistry), copies and fills as tasks (synchronous ones on the thread's synchronous
// stream, asynchronous ones on a user stream), capacity queries, and the 64-bit value write/wait
// tasks. The functional effect of a task (the bytes moving) happens when the simulated engine
// finishes it; an effect whose memory was freed meanwhile fails instead of touching it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npusim::rt {

class Call;

/// aclrtMalloc family. `pad` adds the A2/A3 extra 32 bytes (aclrtMallocAlign32 does not).
void* malloc_device(Call& call, std::size_t size, int policy, bool pad);
void free_device(Call& call, void* ptr);
/// aclrtGetHardwareSyncAddr: the current device's cube/vector synchronisation area (A2/A3 only,
/// else ACL_ERROR_RT_FEATURE_NOT_SUPPORT). The runtime reserves it, zeroed, on the device's
/// first call (kHardwareSyncBytes of device memory, not charged to the program) and returns the
/// same address until aclFinalize; kernels pass it to AscendC::SetSyncBaseAddr. The twin's
/// cross-core synchronisation keeps its state in the simulator, not in this memory, so nothing
/// reads or writes it.
void* hardware_sync_addr(Call& call);
inline constexpr std::size_t kHardwareSyncBytes = 4096;
void* malloc_host(Call& call, std::size_t size);
void free_host(Call& call, void* ptr);

/// aclrtHostRegisterV2: makes [ptr, ptr + size) (4 KiB-aligned start) visible to kernels;
/// `flags` = ACL_HOST_REG_* bits (MAPPED, PINNED; IOMEMORY and READONLY are not supported).
void host_register(Call& call, void* ptr, std::uint64_t size, std::uint32_t flags);
/// aclrtHostGetDevicePointer: the device alias of a MAPPED registered host address (the address
/// itself: host and simulated device share the process's address space).
void* host_device_pointer(Call& call, void* host, std::uint32_t flag);
void host_unregister(Call& call, void* ptr);
/// aclrtMemAllocManaged: unified memory (size rounded up to 2 MiB) usable by host code and
/// kernels; freed with aclrtFree.
void* malloc_managed(Call& call, std::uint64_t size, std::uint32_t flag);

void memcpy_sync(Call& call, void* dst, std::size_t dest_max, const void* src, std::size_t count,
                 int kind);
void memcpy_async(Call& call, void* dst, std::size_t dest_max, const void* src, std::size_t count,
                  int kind, void* stream);
void memset_sync(Call& call, void* ptr, std::size_t max_count, int value, std::size_t count);
void memset_async(Call& call, void* ptr, std::size_t max_count, int value, std::size_t count,
                  void* stream);

/// aclrtMemcpy2d(Async): `height` rows of `width` bytes between pitched buffers.
void memcpy_2d(Call& call, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
               std::size_t width, std::size_t height, int kind, void* stream, bool async);
/// aclrtMemsetD32(Async): fills `n` 32-bit words with `value`.
void memset_d32(Call& call, void* ptr, std::size_t mem_size, std::uint32_t value, std::size_t n,
                void* stream, bool async);

/// aclrtGetMemInfo for the current device.
void get_mem_info(Call& call, int attr, std::size_t* free, std::size_t* total);

void value_write(Call& call, void* address, std::uint64_t value, std::uint32_t flag, void* stream);
void value_wait(Call& call, void* address, std::uint64_t value, std::uint32_t flag, void* stream);

}  // namespace npusim::rt
