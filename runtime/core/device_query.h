// SPDX-License-Identifier: Apache-2.0
// Device queries answered from the chip configuration (aclrtGetDeviceInfo, capabilities,
// compatibility), and the resource-limit, saturation-mode and overflow-status bookkeeping.
#pragma once

#include <cstdint>

namespace npusim::rt {

class Call;

/// Checks a device id against the configured device count (works before aclInit).
void check_device_id(Call& call, std::int64_t device);
std::int64_t device_info(Call& call, std::int64_t device, int attr);
/// aclrtCheckArchCompatibility: 1 when kernels built for `soc` run on the simulated chip.
bool arch_compatible(Call& call, const char* soc);

/// Core limit in force for `type` (ACL_RT_DEV_RES_*): thread's stream, else process, else chip.
std::uint32_t resource_limit_in_thread(Call& call, int type);
std::uint32_t hardware_cores(Call& call, int type);
void set_resource_limit(Call& call, std::int64_t device, int type, std::uint32_t value);
std::uint32_t resource_limit(Call& call, std::int64_t device, int type);
void set_stream_resource_limit(Call& call, void* stream, int type, std::uint32_t value);
std::uint32_t stream_resource_limit(Call& call, void* stream, int type);

enum class Countable { kStream, kEvent };
/// How many more streams (events) the current context's device can create: its scheduler limit
/// less those alive, at least 0.
std::uint32_t available(Call& call, Countable what);

void set_sat_mode(Call& call, int mode);
/// Async tasks that copy the 64-byte overflow status to device memory, or clear it.
void get_overflow_status(Call& call, void* output, std::uint64_t size, void* stream);
void reset_overflow_status(Call& call, void* stream);

}  // namespace npusim::rt
