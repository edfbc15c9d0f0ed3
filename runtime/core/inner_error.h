// SPDX-License-Identifier: Apache-2.0
// The text CANN's runtime gives for a task that failed on the device (an AI Core or vector core
// exception or timeout, an AI CPU exception), as aclGetRecentErrMsg returns it after the
// synchronize that reports the failure:
//
//   EZ9999: Inner Error!
//   EZ9999: The error from device(chipId:<device>, dieId:0), <npusim's account of the failure>
//           TraceBack (most recent call last):
//           rtDeviceSynchronize execution failed, reason=aicore exception
//           synchronize device failed, runtime result = 507015
//
// The first line and the traceback lines are CANN's wording (the devkit's 09_log example checks
// them); the second carries what npusim knows: the kernel, the block and why it failed.
#pragma once

#include <string>

namespace npusim::rt {

/// The reason CANN gives for a device task's error code ("aicore exception", "vector core
/// exception", "aicore timeout", ...), or nullptr when `code` is no device task error.
const char* device_failure_reason(int code);

/// What the synchronize is, in the traceback's words.
enum class SyncKind { kDevice, kStream };

/// The text above for a synchronize (`kind`, `with_timeout`) that reports `code` on `device`,
/// with `detail` on the second line. `code` must have a device_failure_reason.
std::string inner_error_text(int code, SyncKind kind, bool with_timeout, int device,
                             const std::string& detail);

}  // namespace npusim::rt
