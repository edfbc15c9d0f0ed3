// SPDX-License-Identifier: Apache-2.0
// aclmdlRI* (model run instances), labels and stream control flow: the C boundary of
// runtime/core/model_ri.h.
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/model_ri.h"
#include "sim/log.h"

using namespace npusim::rt;

aclError aclrtCreateLabel(aclrtLabel* label) {
  return api_out("aclrtCreateLabel", label, "label", [&](Call& c) { return create_label(c); });
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  return api("aclrtDestroyLabel", [&](Call& c) { destroy_label(c, label); });
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  return api("aclrtSetLabel", [&](Call& c) { set_label(c, label, stream); });
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
  return api_out("aclrtCreateLabelList", labelList, "labelList",
                 [&](Call& c) { return create_label_list(c, labels, num); });
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  return api("aclrtDestroyLabelList", [&](Call& c) { destroy_label_list(c, labelList); });
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList,
                                 aclrtStream stream) {
  return api("aclrtSwitchLabelByIndex",
             [&](Call& c) { switch_label_by_index(c, ptr, maxValue, labelList, stream); });
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  return api("aclrtActiveStream", [&](Call& c) { active_stream(c, activeStream, stream); });
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                           aclrtCompareDataType dataType, aclrtStream trueStream,
                           aclrtStream falseStream, aclrtStream stream) {
  return api("aclrtSwitchStream", [&](Call& c) {
    switch_stream(c, leftValue, as_int(cond), rightValue, as_int(dataType), trueStream,
                  falseStream, stream);
  });
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
  return api("aclrtPersistentTaskClean", [&](Call& c) { persistent_task_clean(c, stream); });
}

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  return api_out("aclmdlRIBuildBegin", modelRI, "modelRI",
                 [&](Call& c) { return build_begin(c, flag); });
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  return api("aclmdlRIBindStream", [&](Call& c) { bind_stream(c, modelRI, stream, flag); });
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  return api("aclmdlRIEndTask", [&](Call& c) { end_task(c, modelRI, stream); });
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
  return api("aclmdlRIBuildEnd", [&](Call& c) {
    require(reserve == nullptr, ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    build_end(c, modelRI);
  });
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  return api("aclmdlRIUnbindStream", [&](Call& c) { unbind_stream(c, modelRI, stream); });
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  return api("aclmdlRICaptureBegin", [&](Call& c) { capture_begin(c, stream, as_int(mode)); });
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  return api_out("aclmdlRICaptureEnd", modelRI, "modelRI",
                 [&](Call& c) { return capture_end(c, stream); });
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) {
  return api("aclmdlRICaptureGetInfo", [&](Call& c) {
    require_not_null(status, "status");
    require_not_null(modelRI, "modelRI");
    void* model = nullptr;
    *status = static_cast<aclmdlRICaptureStatus>(capture_info(c, stream, &model));
    *modelRI = model;
  });
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  return api("aclmdlRICaptureThreadExchangeMode", [&](Call& c) {
    require_not_null(mode, "mode");
    int m = as_int(*mode);
    exchange_capture_mode(c, &m);
    *mode = static_cast<aclmdlRICaptureMode>(m);
  });
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode) {
  return api("aclmdlRICaptureToModelRIBegin",
             [&](Call& c) { capture_to_model_begin(c, stream, modelRI, as_int(mode)); });
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle) {
  return api_out("aclmdlRICondHandleCreate", handle, "handle", [&](Call& c) {
    return cond_handle_create(c, modelRI, defaultLaunchValue, as_int(flag));
  });
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
  return api_out("aclmdlRICondHandleGetCondPtr", ptr, "ptr",
                 [&](Call& c) { return cond_handle_ptr(c, handle); });
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  return api("aclmdlRIAddCondTask", [&](Call& c) {
    add_cond_task(c, params.handle, as_int(params.type), params.size, params.modelRIArray,
                  stream, flags);
  });
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  return api("aclmdlRICaptureTaskGrpBegin", [&](Call& c) { task_group_begin(c, stream); });
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  return api_out("aclmdlRICaptureTaskGrpEnd", handle, "handle",
                 [&](Call& c) { return task_group_end(c, stream); });
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  return api("aclmdlRICaptureTaskUpdateBegin",
             [&](Call& c) { task_update_begin(c, stream, handle); });
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  return api("aclmdlRICaptureTaskUpdateEnd", [&](Call& c) { task_update_end(c, stream); });
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  return api("aclmdlRIExecuteAsync", [&](Call& c) { execute_async(c, modelRI, stream); });
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  return api("aclmdlRIExecute", [&](Call& c) { execute_sync(c, modelRI, timeout); });
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  return api("aclmdlRIDestroy", [&](Call& c) { destroy_model(c, modelRI); });
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  return api("aclmdlRISetName", [&](Call& c) { set_model_name(c, modelRI, name); });
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  return api("aclmdlRIGetName", [&](Call& c) { get_model_name(c, modelRI, maxLen, name); });
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  return api_out("aclmdlRIGetId", modelRIId, "modelRIId",
                 [&](Call& c) { return model_id(c, modelRI); });
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  return api("aclmdlRIDebugPrint",
             [&](Call& c) { npusim::sim::log_info(describe_model(c, modelRI, false)); });
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
  return api("aclmdlRIDebugJsonPrint", [&](Call& c) {
    require_not_null(path, "path");
    require(flags == ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY ||
                flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE,
            ACL_ERROR_INVALID_PARAM, "flags is not an ACL_MDLRI_DEBUG_JSON_PRINT_* value");
    std::string text = describe_model(c, modelRI, true);
    std::ofstream out(path);
    out << text;
    out.close();
    require(static_cast<bool>(out), ACL_ERROR_INVALID_FILE,
            std::string("cannot write ") + path);
  });
}
