// SPDX-License-Identifier: Apache-2.0
// The summaries of a profiling session that come from its timeline (msprof_<stamp>.json, the
// msprof JSON array sim/trace.h writes), with msprof's column names (hw-params §3.3):
//
//   api_statistic: Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance
//     one row per host API: the "AscendCL@<API>" spans of the CANN process (Device_id "host",
//     Level "AscendCL"); Time = their total duration, Variance that of their durations (us^2);
//     rows by Time, largest first (then by name).
//   task_time: Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),
//              task_stop(us)
//     one row per device task: the spans with a "Task Type" on an "Ascend Hardware" process
//     (Device_id from its label "NPU <n>"); kernel_name is the task's name for compute tasks
//     (AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU) and N/A otherwise; kernel_type
//     KERNEL_AICORE (AI_CORE, MIX_AIC), KERNEL_AIVEC (AI_VECTOR_CORE, MIX_AIV), KERNEL_AICPU
//     (AI_CPU), else the Task Type itself (PCIE_DMA_SQE, EVENT_RECORD_SQE...); rows by device,
//     then start.
// Only spans that start at or after `from_us` count. Times in µs with 3 decimals. Plain C++.
#pragma once

#include <string>

namespace npusim::rt {

struct TimelineSummaries {
  std::string api_statistic;
  std::string task_time;
};

/// The summaries of `timeline` (its JSON text). Throws std::runtime_error when it is not a
/// JSON array.
TimelineSummaries summarize_timeline(const std::string& timeline, double from_us);

}  // namespace npusim::rt
