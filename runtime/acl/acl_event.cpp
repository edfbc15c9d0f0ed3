// SPDX-License-Identifier: Apache-2.0
// C skin: events.
#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/device_query.h"
#include "runtime/core/errors.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  return api_out("aclrtCreateEvent", event, "event",
                 [&](Call& c) { return create_event(c, ACL_EVENT_SYNC, false); });
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return api_out("aclrtCreateEventWithFlag", event, "event",
                 [&](Call& c) { return create_event(c, flag, false); });
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  return api_out("aclrtCreateEventExWithFlag", event, "event",
                 [&](Call& c) { return create_event(c, flag, true); });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  return api("aclrtDestroyEvent", [&](Call& c) { destroy_event(c, event); });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return api("aclrtRecordEvent", [&](Call& c) { record_event(c, event, stream); });
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  return api("aclrtRecordEventWithFlag", [&](Call& c) {
    require(flag == ACL_EVENT_RECORD_DEFAULT || flag == ACL_EVENT_RECORD_EXTERNAL,
            ACL_ERROR_INVALID_PARAM, "flag is not an ACL_EVENT_RECORD_* value");
    // EXTERNAL makes a record inside a model visible outside it; npusim's replayed records
    // always are (runtime/core/model_ri.h), so it records as DEFAULT does.
    record_event(c, event, stream);
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return api("aclrtResetEvent", [&](Call& c) { reset_event(c, event, stream); });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return api("aclrtStreamWaitEvent", [&](Call& c) { stream_wait_event(c, stream, event); });
}

// Waits with a limit (seconds) are not modelled yet: only "no limit" (0) is accepted.
aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag) {
  return api("aclrtStreamWaitEventWithFlag", [&](Call& c) {
    require(flag == ACL_EVENT_WAIT_DEFAULT || flag == ACL_EVENT_WAIT_EXTERNAL,
            ACL_ERROR_INVALID_PARAM, "flag is not an ACL_EVENT_WAIT_* value");
    // EXTERNAL waits inside a model for a record made outside it: a replayed wait takes the
    // event's latest record when the model is launched (runtime/core/model_ri.h), as DEFAULT does.
    require(timeout == 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "wait timeouts are not supported yet");
    stream_wait_event(c, stream, event);
  });
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  return api("aclrtStreamWaitEventWithTimeout", [&](Call& c) {
    require(timeout >= 0, ACL_ERROR_INVALID_PARAM, "timeout must be >= 0 seconds");
    require(timeout == 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "wait timeouts are not supported yet");
    stream_wait_event(c, stream, event);
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  return api_out("aclrtQueryEvent", status, "status", [&](Call& c) {
    return query_event(c, event) == EventQuery::kComplete ? ACL_EVENT_STATUS_COMPLETE
                                                          : ACL_EVENT_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  return api_out("aclrtQueryEventStatus", status, "status", [&](Call& c) {
    return query_event(c, event) == EventQuery::kComplete ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                                          : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  return api_out("aclrtQueryEventWaitStatus", status, "status", [&](Call& c) {
    return query_event(c, event) == EventQuery::kComplete ? ACL_EVENT_WAIT_STATUS_COMPLETE
                                                          : ACL_EVENT_WAIT_STATUS_NOT_READY;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return api("aclrtSynchronizeEvent", [&](Call& c) { synchronize_event(c, event, -1); });
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return api("aclrtSynchronizeEventWithTimeout",
             [&](Call& c) { synchronize_event(c, event, timeout); });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return api_out("aclrtEventElapsedTime", ms, "ms",
                 [&](Call& c) { return event_elapsed_ms(c, startEvent, endEvent); });
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  return api_out("aclrtEventGetTimestamp", timestamp, "timestamp",
                 [&](Call& c) { return event_timestamp_us(c, event); });
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  return api_out("aclrtGetEventId", eventId, "eventId", [&](Call& c) { return c.event(event).id; });
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
  return api_out("aclrtGetEventAvailNum", eventCount, "eventCount",
                 [&](Call& c) { return available(c, Countable::kEvent); });
}

}  // extern "C"
