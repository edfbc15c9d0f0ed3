// SPDX-License-Identifier: Apache-2.0
// C skin: the dump API (acl/acl_dump.h) and the model dump configuration calls of acl_rt.h
// (aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump). State, layout and formats: dump.h.
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "runtime/core/api_call.h"
#include "runtime/dump/dump.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

aclError aclmdlInitDump(void) {
  return api("aclmdlInitDump", [&](Call& c) { dump::init_dump(c); });
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
  return api("aclmdlSetDump", [&](Call& c) { dump::set_dump(c, dumpCfgPath); });
}

aclError aclmdlFinalizeDump(void) {
  return api("aclmdlFinalizeDump", [&](Call& c) { dump::finalize_dump(c); });
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t),
                            int32_t flag) {
  return api("acldumpRegCallback",
             [&](Call& c) { dump::reg_callback(c, messageCallback, flag); });
}

void acldumpUnregCallback(void) {
  (void)api("acldumpUnregCallback", [&](Call& c) { dump::unreg_callback(c); });
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  return api("aclopStartDumpArgs", [&](Call& c) { dump::start_dump_args(c, dumpType, path); });
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  return api("aclopStopDumpArgs", [&](Call& c) { dump::stop_dump_args(c, dumpType); });
}

const char* acldumpGetPath(acldumpType dumpType) {
  return api_value<const char*>("acldumpGetPath", Needs::kInit, nullptr, [&](Call& c) {
    return dump::get_path(c, as_int(dumpType));
  });
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
  return api("acldumpGetExceptionInfoPath",
             [&](Call& c) { dump::get_exception_path(c, path, maxLen); });
}

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                  const acldumpTensorInfo* tensors, size_t tensorCount) {
  return api("acldumpSaveExceptionInfo", [&](Call& c) {
    dump::save_exception_info(c, fileName, userTag, tensors, tensorCount);
  });
}
