// SPDX-License-Identifier: Apache-2.0
// How the runtime reports a failed API call. Inside the runtime a failure is an ApiError carrying
// the aclError to return and the text aclGetRecentErrMsg will show; the C skin (api_call.h)
// catches it at the boundary, records it as the thread's last error and returns the code. No
// exception ever leaves an exported function. The text is recorded as "<function> failed (<code>):
// <message>", except a verbatim one (fail_verbatim: CANN's own wording, inner_error.h), which is
// recorded as it is.
#pragma once

#include <exception>
#include <string>

#include "acl/acl_base.h"  // the aclError values

namespace npusim::rt {

class ApiError : public std::exception {
 public:
  ApiError(int code, std::string message, bool verbatim = false)
      : code_(code), message_(std::move(message)), verbatim_(verbatim) {}
  int code() const { return code_; }
  bool verbatim() const { return verbatim_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  int code_;
  std::string message_;
  bool verbatim_ = false;
};

/// Throws ApiError(code, message).
[[noreturn]] void fail(int code, std::string message);

/// Throws ApiError(code, message) whose message aclGetRecentErrMsg returns as it is.
[[noreturn]] void fail_verbatim(int code, std::string message);

/// Fails with `code` and `message` unless `ok`.
inline void require(bool ok, int code, const char* message) {
  if (!ok) fail(code, message);
}
inline void require(bool ok, int code, const std::string& message) {
  if (!ok) fail(code, message);
}

/// ACL_ERROR_INVALID_PARAM (100000) naming the NULL argument.
inline void require_not_null(const void* p, const char* name) {
  if (p == nullptr) fail(ACL_ERROR_INVALID_PARAM, std::string(name) + " is NULL");
}

/// `p` as one of the live objects of `set` (the handles the runtime handed out), else
/// ACL_ERROR_INVALID_PARAM: "<name> is NULL" or "<name> is not a live <kind>".
template <class T, class Set>
T* require_live(const Set& set, const T* p, const char* name, const char* kind) {
  require_not_null(p, name);
  require(set.count(p) != 0, ACL_ERROR_INVALID_PARAM, std::string(name) + " is not a live " + kind);
  return const_cast<T*>(p);
}

/// Prints "npusim: <function> is not supported yet" to stderr, once per function per process.
void report_unsupported(const char* function);

}  // namespace npusim::rt
