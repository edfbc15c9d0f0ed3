// SPDX-License-Identifier: Apache-2.0
// The runtime's host-callback operations (aclrtLaunchCallback, aclrtLaunchHostFunc, the
// subscriptions and the report loop of the threads that run them). Model and timing: callback.h.
#pragma once

#include <cstdint>

#include "runtime/core/callback.h"

namespace npusim::rt {

class Call;

/// Queues a callback on `stream`: a host task that delivers the report to the stream's subscribed
/// thread (kCallback: 107015 when there is none; kHostFunc: the runtime's own thread when there is
/// none), followed, when `block`, by a wait that holds the stream until the report is processed.
/// `api_allowed`: a media callback (Report::api_allowed).
void launch_report(Call& call, void* stream, ReportKind kind, void (*fn)(void*), void* arg,
                   bool block, bool api_allowed = false);
/// aclrtSubscribeReport / aclrtSubscribeHostFunc: `thread` (pthread id) runs the stream's reports.
void subscribe_reports(Call& call, ReportKind kind, std::uint64_t thread, void* stream);
/// aclrtUnSubscribeReport / aclrtUnSubscribeHostFunc; reports still queued for it never run.
void unsubscribe_reports(Call& call, ReportKind kind, std::uint64_t thread, void* stream);
/// aclrtProcessReport / aclrtProcessHostFunc on the calling thread: runs the oldest report queued
/// for it, or waits up to `timeout_ms` (-1 forever) for one (507012 when none came). Only a call
/// that ran a callback costs host time and shows on the timeline.
void process_reports(Call& call, ReportKind kind, std::int32_t timeout_ms);

}  // namespace npusim::rt
