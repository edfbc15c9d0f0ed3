// SPDX-License-Identifier: Apache-2.0
// C skin: streams and stream configuration handles.
#include <cstring>
#include <new>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/device_query.h"
#include "runtime/core/errors.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

aclrtStreamConfigHandle* live_config(Call& c, const aclrtStreamConfigHandle* handle) {
  return require_live(c.runtime().stream_configs(), handle, "handle", "stream config handle");
}

// Copies a `T` option value of exactly the expected size.
template <class T>
T option_value(const void* value, std::size_t size) {
  require_not_null(value, "attrValue");
  require(size == sizeof(T), ACL_ERROR_INVALID_PARAM, "valueSize does not match the attribute");
  T v;
  std::memcpy(&v, value, sizeof v);
  return v;
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  return api_out("aclrtCreateStream", stream, "stream",
                 [&](Call& c) { return create_stream(c, 0, 0); });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  return api_out("aclrtCreateStreamWithConfig", stream, "stream",
                 [&](Call& c) { return create_stream(c, priority, flag); });
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  return api_value<aclrtStreamConfigHandle*>("aclrtCreateStreamConfigHandle", Needs::kNothing,
                                             nullptr, [&](Call& c) {
                                               auto* handle = new aclrtStreamConfigHandle{};
                                               c.runtime().stream_configs().insert(handle);
                                               return handle;
                                             });
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  return api_any("aclrtDestroyStreamConfigHandle", [&](Call& c) {
    aclrtStreamConfigHandle* h = live_config(c, handle);
    c.runtime().stream_configs().erase(h);
    delete h;
  });
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr_arg,
                                 const void* attrValue, size_t valueSize) {
  const int attr = as_int(attr_arg);  // any value the caller passed
  return api_any("aclrtSetStreamConfigOpt", [&](Call& c) {
    aclrtStreamConfigHandle* h = live_config(c, handle);
    switch (attr) {
      case ACL_RT_STREAM_WORK_ADDR_PTR:
        h->workptr = option_value<void*>(attrValue, valueSize);
        break;
      case ACL_RT_STREAM_WORK_SIZE:
        h->workSize = option_value<size_t>(attrValue, valueSize);
        break;
      case ACL_RT_STREAM_FLAG:
        h->flag = option_value<uint32_t>(attrValue, valueSize);
        break;
      case ACL_RT_STREAM_PRIORITY:
        h->priority = option_value<uint32_t>(attrValue, valueSize);
        break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "attr is not an aclrtStreamConfigAttr value");
    }
  });
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  return api("aclrtCreateStreamV2", [&](Call& c) {
    require_not_null(stream, "stream");
    const aclrtStreamConfigHandle* h = live_config(c, handle);
    require(h->flag <= 0xFFFFFFFFu, ACL_ERROR_INVALID_PARAM, "unknown stream flag bits");
    *stream = create_stream(c, h->priority, static_cast<std::uint32_t>(h->flag));
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return api("aclrtDestroyStream", [&](Call& c) { destroy_stream(c, stream, false); });
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return api("aclrtDestroyStreamForce", [&](Call& c) { destroy_stream(c, stream, true); });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return api("aclrtSynchronizeStream", [&](Call& c) { synchronize_stream(c, stream, -1); });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  return api("aclrtSynchronizeStreamWithTimeout",
             [&](Call& c) { synchronize_stream(c, stream, timeout); });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  return api_out("aclrtStreamQuery", status, "status", [&](Call& c) {
    return stream_idle(c, stream) ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  });
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  return api_out("aclrtStreamGetId", streamId, "streamId",
                 [&](Call& c) { return static_cast<int32_t>(c.stream(stream).id); });
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  return api_out("aclrtStreamGetPriority", priority, "priority",
                 [&](Call& c) { return c.stream(stream).priority; });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  return api_out("aclrtStreamGetFlags", flags, "flags",
                 [&](Call& c) { return c.stream(stream).flags; });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return api("aclrtSetStreamFailureMode", [&](Call& c) {
    require(mode == ACL_CONTINUE_ON_FAILURE || mode == ACL_STOP_ON_FAILURE, ACL_ERROR_INVALID_PARAM,
            "mode must be ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE");
    Stream& s = c.stream(stream);
    require(!s.failure_mode_set, ACL_ERROR_RT_PARAM_INVALID,
            "the failure mode of a stream can be set only once");
    s.failure_mode = mode;
    s.failure_mode_set = true;
    if (mode == ACL_STOP_ON_FAILURE) s.context_fault->stop_on_failure = true;
  });
}

aclError aclrtStreamStop(aclrtStream stream) {
  return api("aclrtStreamStop", [&](Call& c) { stop_stream(c, stream); });
}

aclError aclrtStreamAbort(aclrtStream stream) {
  return api("aclrtStreamAbort", [&](Call& c) { abort_stream(c, stream); });
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType_arg,
                                 aclrtStreamAttrValue* value) {
  const int stmAttrType = as_int(stmAttrType_arg);  // any value the caller passed
  return api("aclrtSetStreamAttribute", [&](Call& c) {
    require_not_null(value, "value");
    Stream& s = c.stream(stream);
    switch (stmAttrType) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        require(value->failureMode <= ACL_STOP_ON_FAILURE, ACL_ERROR_INVALID_PARAM,
                "failureMode must be ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE");
        require(!s.failure_mode_set, ACL_ERROR_RT_PARAM_INVALID,
                "the failure mode of a stream can be set only once");
        s.failure_mode = value->failureMode;
        s.failure_mode_set = true;
        if (s.failure_mode == ACL_STOP_ON_FAILURE) s.context_fault->stop_on_failure = true;
        break;
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        require(value->overflowSwitch <= 1, ACL_ERROR_INVALID_PARAM, "overflowSwitch must be 0/1");
        s.overflow_switch = value->overflowSwitch;
        break;
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        s.user_tag = value->userCustomTag;
        break;
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        s.cache_op_info = value->cacheOpInfoSwitch;
        break;
      case ACL_STREAM_ATTR_PRIORITY:  // applies to the tasks submitted from now on
        s.priority = value->streamPriority > kMaxPriority ? kMaxPriority : value->streamPriority;
        break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "stmAttrType is not an aclrtStreamAttr value");
    }
  });
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType_arg,
                                 aclrtStreamAttrValue* value) {
  const int stmAttrType = as_int(stmAttrType_arg);  // any value the caller passed
  return api("aclrtGetStreamAttribute", [&](Call& c) {
    require_not_null(value, "value");
    const Stream& s = c.stream(stream);
    *value = {};
    switch (stmAttrType) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = s.failure_mode;
        break;
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        value->overflowSwitch = s.overflow_switch;
        break;
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        value->userCustomTag = s.user_tag;
        break;
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        value->cacheOpInfoSwitch = s.cache_op_info;
        break;
      case ACL_STREAM_ATTR_PRIORITY:
        value->streamPriority = s.priority;
        break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "stmAttrType is not an aclrtStreamAttr value");
    }
  });
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
  return api_out("aclrtGetStreamAvailableNum", streamCount, "streamCount",
                 [&](Call& c) { return available(c, Countable::kStream); });
}

}  // extern "C"
