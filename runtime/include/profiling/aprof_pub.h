// SPDX-License-Identifier: Apache-2.0
// npusim public header: the part of CANN's profiling library interface (libprofapi.so, the
// runtime library in npusim) that programs call: binding a model id to the device it runs on, as
// a model load does, so the model can be subscribed (aclprofModelSubscribe).
#ifndef NPUSIM_PROFILING_APROF_PUB_H
#define NPUSIM_PROFILING_APROF_PUB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MSVP_PROF_API
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

/// Binds model `geModelIdx` to device `deviceId`: 0, or -1 when the device does not exist (or
/// aclInit was not called).
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                    const uint32_t deviceId);
/// Removes the binding: 0, or -1 when the model was not bound to that device.
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                      const uint32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_PROFILING_APROF_PUB_H
