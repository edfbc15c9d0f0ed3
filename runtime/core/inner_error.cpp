// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/inner_error.h"

#include "acl/acl_rt.h"  // the rt error codes

namespace npusim::rt {

const char* device_failure_reason(int code) {
  switch (code) {
    case ACL_ERROR_RT_AICORE_EXCEPTION: return "aicore exception";
    case ACL_ERROR_RT_AICORE_TRAP_EXCEPTION: return "aicore trap exception";
    case ACL_ERROR_RT_AICORE_TIMEOUT: return "aicore timeout";
    case ACL_ERROR_RT_VECTOR_CORE_EXCEPTION: return "vector core exception";
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION: return "vector core trap exception";
    case ACL_ERROR_RT_VECTOR_CORE_TIMEOUT: return "vector core timeout";
    case ACL_ERROR_RT_AICPU_EXCEPTION: return "aicpu exception";
    case ACL_ERROR_RT_AICPU_TIMEOUT: return "aicpu timeout";
    default: return nullptr;
  }
}

std::string inner_error_text(int code, SyncKind kind, bool with_timeout, int device,
                             const std::string& detail) {
  const char* reason = device_failure_reason(code);
  const bool stream = kind == SyncKind::kStream;
  std::string text = "EZ9999: Inner Error!\n";
  text += "EZ9999: The error from device(chipId:" + std::to_string(device) + ", dieId:0), " +
          detail + "\n";
  text += "        TraceBack (most recent call last):\n";
  text += std::string("        ") + (stream ? "rtStreamSynchronize" : "rtDeviceSynchronize") +
          (with_timeout ? "WithTimeout" : "") + " execution failed, reason=" +
          (reason != nullptr ? reason : "unknown") + "\n";
  text += std::string("        synchronize ") + (stream ? "stream" : "device") +
          " failed, runtime result = " + std::to_string(code);
  return text;
}

}  // namespace npusim::rt
