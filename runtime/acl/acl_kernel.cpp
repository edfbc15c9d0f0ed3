// SPDX-License-Identifier: Apache-2.0
// C skin: kernel binaries, functions, argument lists, launches, exception reports.
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/exception_info.h"
#include "runtime/core/kernel_binary.h"
#include "runtime/core/runtime.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

std::vector<PlaceholderPatch> patches_of(const aclrtPlaceHolderInfo* array, size_t n) {
  require(n == 0 || array != nullptr, ACL_ERROR_INVALID_PARAM, "placeHolderArray is NULL");
  std::vector<PlaceholderPatch> out;
  for (size_t i = 0; i < n; ++i) out.push_back({array[i].addrOffset, array[i].dataOffset});
  return out;
}

// The uint32 accessors: 0xFFFFFFFF for a NULL report.
uint32_t info_field(const char* name, const aclrtExceptionInfo* info,
                    uint32_t rtExceptionInfo::*field) {
  return api_value<uint32_t>(name, Needs::kNothing, 0xFFFFFFFFu, [&](Call&) {
    require_not_null(info, "info");
    return info->*field;
  });
}

}  // namespace

extern "C" {

// ---- Binaries and functions ----

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  return api_out("aclrtBinaryLoadFromFile", binHandle, "binHandle",
                 [&](Call& c) { return load_binary_file(c, binPath, options); });
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
  return api_out("aclrtBinaryLoadFromData", binHandle, "binHandle",
                 [&](Call& c) { return load_binary_data(c, data, length, options); });
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  return api("aclrtBinaryUnLoad", [&](Call& c) { unload_binary(c, binHandle); });
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
  return api_out("aclrtBinaryGetFunction", funcHandle, "funcHandle",
                 [&](Call& c) { return get_function(c, binHandle, kernelName); });
}

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback, void* userData) {
  return api("aclrtBinarySetExceptionCallback", [&](Call& c) {
    set_binary_exception_callback(c, binHandle, reinterpret_cast<BinaryExceptionCallback>(callback),
                                  userData);
  });
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
  return api_out("aclrtFunctionGetBinary", binHandle, "binHandle",
                 [&](Call& c) { return function(c, funcHandle).binary_handle; });
}

aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName,
                              const char* kernelName, aclrtFuncHandle* funcHandle) {
  return api_out("aclrtRegisterCpuFunc", funcHandle, "funcHandle",
                 [&](Call& c) { return register_cpu_function(c, handle, funcName, kernelName); });
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  return api("aclrtGetFunctionName", [&](Call& c) {
    require_not_null(name, "name");
    const std::string& n = function(c, funcHandle).name;
    require(maxLen > n.size(), ACL_ERROR_INVALID_PARAM, "maxLen is too small for the name");
    std::memcpy(name, n.c_str(), n.size() + 1);
  });
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  return api("aclrtFunctionGetParamCount", [&](Call& c) {
    require_not_null(paramCount, "paramCount");
    const Function& f = function(c, func);
    require(!f.aicpu(), ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU kernel " + f.name + " has no parameter metadata");
    *paramCount = f.entry->num_params;
  });
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize) {
  return api("aclrtFunctionGetParamInfo", [&](Call& c) {
    require_not_null(paramOffset, "paramOffset");
    require_not_null(paramSize, "paramSize");
    const Function& f = function(c, func);
    require(!f.aicpu(), ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU kernel " + f.name + " has no parameter metadata");
    const npusim::ascendc::KernelEntry& e = *f.entry;
    require(paramIndex < e.num_params, ACL_ERROR_INVALID_PARAM, "paramIndex is out of range");
    *paramOffset = e.params[paramIndex].offset;
    *paramSize = e.params[paramIndex].size;
  });
}

// ---- Argument lists ----

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  return api_out("aclrtKernelArgsInit", argsHandle, "argsHandle",
                 [&](Call& c) { return args_init(c, funcHandle); });
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
  return api_out("aclrtKernelArgsAppend", paramHandle, "paramHandle",
                 [&](Call& c) { return args_append(c, argsHandle, param, paramSize); });
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
  return api_out("aclrtKernelArgsAppendPlaceHolder", paramHandle, "paramHandle",
                 [&](Call& c) { return args_append_placeholder(c, argsHandle); });
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
  return api_out("aclrtKernelArgsGetPlaceHolderBuffer", bufferAddr, "bufferAddr", [&](Call& c) {
    return args_placeholder_buffer(c, argsHandle, paramHandle, dataSize);
  });
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void* param, size_t paramSize) {
  return api("aclrtKernelArgsParaUpdate",
             [&](Call& c) { args_update(c, argsHandle, paramHandle, param, paramSize); });
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  return api("aclrtKernelArgsFinalize", [&](Call& c) { args_finalize(c, argsHandle); });
}

// ---- Launches ----

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                           size_t argsSize, aclrtStream stream) {
  return api("aclrtLaunchKernel", [&](Call& c) {
    launch_with_device_args(c, funcHandle, numBlocks, stream, {}, argsData, argsSize);
  });
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  return api("aclrtLaunchKernelV2", [&](Call& c) {
    launch_with_device_args(c, funcHandle, numBlocks, stream, parse_launch_config(cfg), argsData,
                            argsSize);
  });
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
  return api("aclrtLaunchKernelWithConfig", [&](Call& c) {
    launch_with_args_list(c, funcHandle, numBlocks, stream, parse_launch_config(cfg), argsHandle);
  });
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) {
  return api("aclrtLaunchKernelWithHostArgs", [&](Call& c) {
    launch_with_host_args(c, funcHandle, numBlocks, stream, parse_launch_config(cfg), hostArgs,
                          argsSize, patches_of(placeHolderArray, placeHolderNum));
  });
}

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args) {
  return api("aclrtLaunchKernelWithArgsArray", [&](Call& c) {
    launch_with_args_array(c, func, numBlocks, stream, parse_launch_config(cfg), args);
  });
}

// ---- Exception reports ----

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  return api_any("aclrtSetExceptionInfoCallback",
                 [&](Call& c) { c.runtime().exception_callback() = callback; });
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  return api_any("aclrtExceptionInfoCallbackRegister", [&](Call& c) {
    require(callback != nullptr, ACL_ERROR_INVALID_PARAM, "callback is NULL");
    c.runtime().exception_callback() = callback;
  });
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  return api_any("aclrtExceptionInfoCallbackUnregister", [&](Call& c) {
    require(callback != nullptr, ACL_ERROR_INVALID_PARAM, "callback is NULL");
    require(c.runtime().exception_callback() == callback, ACL_ERROR_INVALID_PARAM,
            "callback is not the registered exception callback");
    c.runtime().exception_callback() = nullptr;
  });
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info_field("aclrtGetTaskIdFromExceptionInfo", info, &rtExceptionInfo::task_id);
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info_field("aclrtGetStreamIdFromExceptionInfo", info, &rtExceptionInfo::stream_id);
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info_field("aclrtGetThreadIdFromExceptionInfo", info, &rtExceptionInfo::thread_id);
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info_field("aclrtGetDeviceIdFromExceptionInfo", info, &rtExceptionInfo::device_id);
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info_field("aclrtGetErrorCodeFromExceptionInfo", info, &rtExceptionInfo::error_code);
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen) {
  return api_any("aclrtGetArgsFromExceptionInfo", [&](Call&) {
    require_not_null(info, "info");
    require_not_null(devArgsPtr, "devArgsPtr");
    require_not_null(devArgsLen, "devArgsLen");
    *devArgsPtr = info->args;
    *devArgsLen = info->args_size;
  });
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                             aclrtFuncHandle* func) {
  return api_any("aclrtGetFuncHandleFromExceptionInfo", [&](Call&) {
    require_not_null(info, "info");
    require_not_null(func, "func");
    *func = info->func_handle;
  });
}

}  // extern "C"
