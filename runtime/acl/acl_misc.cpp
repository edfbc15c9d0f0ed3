// SPDX-License-Identifier: Apache-2.0
// C skin: last error, half-float helpers, data types, application log, data buffers.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/half_float.h"
#include "sim/log.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

// The opaque aclDataBuffer of the public headers: a caller-owned (pointer, size) pair.
struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

aclDataBuffer* live_buffer(Call& c, const aclDataBuffer* buffer) {
  return require_live(c.runtime().data_buffers(), buffer, "dataBuffer", "aclDataBuffer");
}

// aclDataTypeSize's answers (other types: 0).
struct TypeSize {
  int type;
  size_t size;
};
constexpr TypeSize kTypeSizes[] = {
    {ACL_INT8, 1},
    {ACL_UINT8, 1},
    {ACL_BOOL, 1},
    {ACL_HIFLOAT8, 1},
    {ACL_FLOAT8_E5M2, 1},
    {ACL_FLOAT8_E4M3FN, 1},
    {ACL_FLOAT8_E8M0, 1},
    {ACL_FLOAT16, 2},
    {ACL_BF16, 2},
    {ACL_INT16, 2},
    {ACL_UINT16, 2},
    {ACL_FLOAT, 4},
    {ACL_INT32, 4},
    {ACL_UINT32, 4},
    {ACL_COMPLEX32, 4},
    {ACL_INT64, 8},
    {ACL_UINT64, 8},
    {ACL_DOUBLE, 8},
    {ACL_COMPLEX64, 8},
    {ACL_COMPLEX128, 16},
};

}  // namespace

extern "C" {

// The last-error calls report, they do not record: they never overwrite the thread's error.
aclError aclrtGetLastError(aclrtLastErrLevel level_arg) {
  const int level = as_int(level_arg);  // any value the caller passed
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  ThreadState* t = nullptr;
  int error = 0;
  run_api("aclrtGetLastError", Needs::kNothing, [&](Call& c) { t = &c.thread(); });
  if (t != nullptr) std::swap(error, t->last_error);
  return error;
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level_arg) {
  const int level = as_int(level_arg);  // any value the caller passed
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  int error = 0;
  run_api("aclrtPeekAtLastError", Needs::kNothing, [&](Call& c) { error = c.thread().last_error; });
  return error;
}

const char* aclGetRecentErrMsg(void) {
  return api_value<const char*>("aclGetRecentErrMsg", Needs::kNothing, nullptr,
                                [&](Call& c) -> const char* {
                                  ThreadState& t = c.thread();
                                  if (!t.has_message) return nullptr;
                                  t.handed_out = std::move(t.message);
                                  t.message.clear();
                                  t.has_message = false;
                                  return t.handed_out.c_str();
                                });
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  return api("aclrtGetThreadLastTaskId", [&](Call& c) {
    require_not_null(taskId, "taskId");
    require(c.thread().has_task, ACL_ERROR_RT_PARAM_INVALID,
            "this thread has not issued a task on a stream yet");
    *taskId = c.thread().last_task_id;
  });
}

size_t aclDataTypeSize(aclDataType dataType_arg) {
  const int dataType = as_int(dataType_arg);  // any value the caller passed
  for (const TypeSize& t : kTypeSizes) {
    if (t.type == dataType) return t.size;
  }
  return 0;  // unknown, strings and sub-byte types
}

aclFloat16 aclFloatToFloat16(float value) { return float_to_half(value); }

float aclFloat16ToFloat(aclFloat16 value) { return half_to_float(value); }

void aclAppLog(aclLogLevel logLevel_arg, const char* func, const char* file, uint32_t line,
               const char* fmt, ...) {
  const int logLevel = as_int(logLevel_arg);  // any value the caller passed
  if (fmt == nullptr) return;
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  using npusim::sim::LogLevel;
  LogLevel level = logLevel >= ACL_ERROR     ? LogLevel::kError
                   : logLevel == ACL_WARNING ? LogLevel::kWarn
                   : logLevel == ACL_INFO    ? LogLevel::kInfo
                                             : LogLevel::kDebug;
  try {
    npusim::sim::log(level, std::string("[app] ") + (func != nullptr ? func : "?") + " (" +
                                (file != nullptr ? file : "?") + ":" + std::to_string(line) +
                                "): " + text);
  } catch (...) {  // nothing may cross the C boundary
  }
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  return api_value<aclDataBuffer*>("aclCreateDataBuffer", Needs::kNothing, nullptr, [&](Call& c) {
    require(data != nullptr || size == 0, ACL_ERROR_INVALID_PARAM,
            "data is NULL but size is not 0");
    auto* buffer = new aclDataBuffer{data, size};
    c.runtime().data_buffers().insert(buffer);
    return buffer;
  });
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  return api_any("aclDestroyDataBuffer", [&](Call& c) {
    aclDataBuffer* buffer = live_buffer(c, dataBuffer);
    c.runtime().data_buffers().erase(buffer);
    delete buffer;
  });
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  return api_any("aclUpdateDataBuffer", [&](Call& c) {
    aclDataBuffer* buffer = live_buffer(c, dataBuffer);
    require(data != nullptr || size == 0, ACL_ERROR_INVALID_PARAM,
            "data is NULL but size is not 0");
    buffer->data = data;
    buffer->size = size;
  });
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return api_value<void*>("aclGetDataBufferAddr", Needs::kNothing, nullptr,
                          [&](Call& c) { return live_buffer(c, dataBuffer)->data; });
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return api_value<uint32_t>("aclGetDataBufferSize", Needs::kNothing, 0, [&](Call& c) {
    return static_cast<uint32_t>(live_buffer(c, dataBuffer)->size);
  });
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return api_value<size_t>("aclGetDataBufferSizeV2", Needs::kNothing, 0,
                           [&](Call& c) { return live_buffer(c, dataBuffer)->size; });
}

}  // extern "C"
