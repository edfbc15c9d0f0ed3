// SPDX-License-Identifier: Apache-2.0
// The aclrtc* C API (acl/acl_rt_compile.h) over rtc::Prog. It needs no aclInit: programs are
// compiled before the runtime starts (CANN 9's examples do). A handle is valid from
// aclrtcCreateProg to aclrtcDestroyProg; any other value is ACL_ERROR_RTC_INVALID_PROG.
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt_compile.h"
#include "runtime/rtc/rtc_prog.h"
#include "sim/log.h"

namespace {

using npusim::rtc::Prog;

std::mutex& progs_mutex() {
  static std::mutex m;
  return m;
}

std::set<Prog*>& progs() {
  static std::set<Prog*> s;
  return s;
}

// The live program behind a handle, or nullptr.
Prog* find(aclrtcProg handle) {
  const std::lock_guard<std::mutex> lock(progs_mutex());
  auto it = progs().find(static_cast<Prog*>(handle));
  return it != progs().end() ? *it : nullptr;
}

aclError fail(aclError code, const char* api, const std::string& why) {
  npusim::sim::log_error(std::string(api) + ": " + why + " (error " + std::to_string(code) + ")");
  return code;
}

aclError null_arg(const char* api, const char* what) {
  return fail(ACL_ERROR_RTC_INVALID_INPUT, api, std::string(what) + " is NULL or empty");
}

// The live program behind `handle` in `out`, else ACL_ERROR_RTC_INVALID_PROG.
aclError live(aclrtcProg handle, const char* api, Prog*& out) {
  out = find(handle);
  return out != nullptr ? ACL_SUCCESS : fail(ACL_ERROR_RTC_INVALID_PROG, api, "not a live program");
}

// The program behind `handle` in `out` — compiled when `need_binary` — and the output `arg`
// non-NULL; else the code for what is wrong (logged).
aclError checked(aclrtcProg handle, const char* api, bool need_binary, const void* arg,
                 const char* arg_name, Prog*& out) {
  out = find(handle);
  if (out == nullptr || (need_binary && !out->compiled())) {
    return fail(ACL_ERROR_RTC_INVALID_PROG, api,
                need_binary ? "not a compiled program" : "not a live program");
  }
  return arg != nullptr ? ACL_SUCCESS : null_arg(api, arg_name);
}

aclError headers_of(int n, const char** headers, const char** names,
                    std::vector<npusim::rtc::Header>& out) {
  if (n < 0) return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg", "numHeaders < 0");
  if (n > 0 && (headers == nullptr || names == nullptr)) {
    return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg",
                "numHeaders > 0 but headers or includeNames is NULL");
  }
  for (int i = 0; i < n; ++i) {
    if (headers[i] == nullptr || names[i] == nullptr ||
        !npusim::rtc::valid_include_name(names[i])) {
      return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg",
                  "header " + std::to_string(i) + ": NULL text or an include name that is not a "
                  "plain relative path");
    }
    out.push_back({names[i], headers[i]});
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders,
                          const char** headers, const char** includeNames) {
  if (prog == nullptr || src == nullptr) {
    return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg", "prog or src is NULL");
  }
  std::vector<npusim::rtc::Header> list;
  const aclError rc = headers_of(numHeaders, headers, includeNames, list);
  if (rc != ACL_SUCCESS) return rc;
  auto p = std::make_unique<Prog>(src, name != nullptr ? name : "", std::move(list));
  const std::lock_guard<std::mutex> lock(progs_mutex());
  progs().insert(p.get());
  *prog = p.release();
  return ACL_SUCCESS;
}

aclError aclrtcDestroyProg(aclrtcProg* prog) {
  if (prog == nullptr) return null_arg("aclrtcDestroyProg", "prog");
  Prog* p = static_cast<Prog*>(*prog);
  {
    const std::lock_guard<std::mutex> lock(progs_mutex());
    if (progs().erase(p) == 0) {
      return fail(ACL_ERROR_RTC_INVALID_PROG, "aclrtcDestroyProg", "not a live program");
    }
  }
  delete p;
  *prog = nullptr;
  return ACL_SUCCESS;
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  Prog* p = nullptr;
  if (const aclError rc = live(prog, "aclrtcCompileProg", p); rc != ACL_SUCCESS) return rc;
  if (numOptions < 0 || (numOptions > 0 && options == nullptr)) {
    return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCompileProg", "bad numOptions or options");
  }
  std::vector<std::string> opts;
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr) {
      return fail(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCompileProg",
                  "option " + std::to_string(i) + " is NULL");
    }
    opts.emplace_back(options[i]);
  }
  const aclError rc = p->compile(opts);
  if (rc != ACL_SUCCESS) {
    return fail(rc, "aclrtcCompileProg", "compilation failed; aclrtcGetCompileLog says why");
  }
  return ACL_SUCCESS;
}

aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet) {
  Prog* p = nullptr;
  const aclError rc =
      checked(prog, "aclrtcGetBinDataSize", true, binDataSizeRet, "binDataSizeRet", p);
  if (rc == ACL_SUCCESS) *binDataSizeRet = p->binary().size();
  return rc;
}

aclError aclrtcGetBinData(aclrtcProg prog, char* binData) {
  Prog* p = nullptr;
  const aclError rc = checked(prog, "aclrtcGetBinData", true, binData, "binData", p);
  if (rc == ACL_SUCCESS) std::memcpy(binData, p->binary().data(), p->binary().size());
  return rc;
}

aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression) {
  Prog* p = nullptr;
  if (const aclError rc = live(prog, "aclrtcAddNameExpr", p); rc != ACL_SUCCESS) return rc;
  if (nameExpression == nullptr || *nameExpression == '\0') {
    return null_arg("aclrtcAddNameExpr", "nameExpression");
  }
  const aclError rc = p->add_name_expr(nameExpression);
  if (rc != ACL_SUCCESS) return fail(rc, "aclrtcAddNameExpr", "the program is compiled already");
  return ACL_SUCCESS;
}

aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                              const char** loweredName) {
  Prog* p = nullptr;
  if (const aclError rc = live(prog, "aclrtcGetLoweredName", p); rc != ACL_SUCCESS) return rc;
  if (nameExpression == nullptr || loweredName == nullptr) {
    return null_arg("aclrtcGetLoweredName", "nameExpression or loweredName");
  }
  const aclError rc = p->lowered_name(nameExpression, loweredName);
  if (rc != ACL_SUCCESS) {
    return fail(rc, "aclrtcGetLoweredName", std::string("no lowered name for ") + nameExpression);
  }
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet) {
  Prog* p = nullptr;
  const aclError rc = checked(prog, "aclrtcGetCompileLogSize", false, logSizeRet, "logSizeRet", p);
  if (rc == ACL_SUCCESS) *logSizeRet = p->log().size() + 1;  // with the terminating NUL
  return rc;
}

aclError aclrtcGetCompileLog(aclrtcProg prog, char* log) {
  Prog* p = nullptr;
  const aclError rc = checked(prog, "aclrtcGetCompileLog", false, log, "log", p);
  if (rc == ACL_SUCCESS) std::memcpy(log, p->log().c_str(), p->log().size() + 1);
  return rc;
}

}  // extern "C"
