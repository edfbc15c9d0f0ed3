// SPDX-License-Identifier: Apache-2.0
#include "runtime/prof/msprof_summaries.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim::rt {
namespace {

using nlohmann::json;

std::string us3(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

double number(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) return std::strtod(j.get<std::string>().c_str(), nullptr);
  return NAN;
}

struct ApiTimes {
  std::vector<double> durations;
  double total = 0;
};

struct TaskRow {
  int device;
  double start, dur;
  std::string name, type;
  double stream, task;
};

const char* kernel_type(const std::string& task_type) {
  if (task_type == "AI_CORE" || task_type == "MIX_AIC") return "KERNEL_AICORE";
  if (task_type == "AI_VECTOR_CORE" || task_type == "MIX_AIV") return "KERNEL_AIVEC";
  if (task_type == "AI_CPU") return "KERNEL_AICPU";
  return nullptr;
}

std::string api_statistic(const std::map<std::string, ApiTimes>& apis) {
  std::vector<const std::pair<const std::string, ApiTimes>*> rows;
  for (const auto& kv : apis) rows.push_back(&kv);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* a, const auto* b) { return a->second.total > b->second.total; });
  std::string csv = "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n";
  for (const auto* r : rows) {
    const std::vector<double>& d = r->second.durations;
    const double n = static_cast<double>(d.size()), mean = r->second.total / n;
    double var = 0;
    for (double x : d) var += (x - mean) * (x - mean) / n;
    csv += "host,AscendCL," + r->first + "," + us3(r->second.total) + "," +
           std::to_string(d.size()) + "," + us3(mean) + "," +
           us3(*std::min_element(d.begin(), d.end())) + "," +
           us3(*std::max_element(d.begin(), d.end())) + "," + us3(var) + "\n";
  }
  return csv;
}

std::string task_time(std::vector<TaskRow> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const TaskRow& a, const TaskRow& b) {
    return std::tie(a.device, a.start) < std::tie(b.device, b.start);
  });
  std::string csv = "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
                    "task_start(us),task_stop(us)\n";
  for (const TaskRow& r : rows) {
    const char* kind = kernel_type(r.type);
    char ids[64];
    std::snprintf(ids, sizeof ids, "%.0f,%.0f", r.stream, r.task);
    csv += std::to_string(r.device) + "," + (kind != nullptr ? r.name : "N/A") + "," +
           (kind != nullptr ? kind : r.type) + "," + ids + "," + us3(r.dur) + "," +
           us3(r.start) + "," + us3(r.start + r.dur) + "\n";
  }
  return csv;
}

/// pid -> (process name, device of its "NPU <n>" label or -1).
std::map<long, std::pair<std::string, int>> processes(const json& events) {
  std::map<long, std::pair<std::string, int>> out;
  for (const json& e : events) {
    if (!e.is_object() || e.value("ph", "") != "M" || !e.contains("args")) continue;
    const long pid = e.value("pid", 0L);
    const std::string what = e.value("name", "");
    if (what == "process_name") out[pid].first = e["args"].value("name", "");
    if (what != "process_labels") continue;
    const std::string label = e["args"].value("labels", "");
    out[pid].second = label.rfind("NPU ", 0) == 0 ? std::atoi(label.c_str() + 4) : -1;
  }
  return out;
}

}  // namespace

TimelineSummaries summarize_timeline(const std::string& timeline, double from_us) {
  const json events = json::parse(timeline, nullptr, false);
  if (!events.is_array()) throw std::runtime_error("the timeline is not a JSON array");
  const auto procs = processes(events);
  std::map<std::string, ApiTimes> apis;
  std::vector<TaskRow> tasks;
  for (const json& e : events) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    const double ts = number(e.value("ts", json())), dur = number(e.value("dur", json()));
    const auto p = procs.find(e.value("pid", 0L));
    if (!(ts >= from_us) || std::isnan(dur) || p == procs.end()) continue;
    const std::string name = e.value("name", "");
    const json args = e.value("args", json::object());
    if (p->second.first == "CANN" && name.rfind("AscendCL@", 0) == 0) {
      ApiTimes& a = apis[name.substr(9)];
      a.durations.push_back(dur);
      a.total += dur;
    } else if (p->second.first == "Ascend Hardware" && args.contains("Task Type")) {
      tasks.push_back({p->second.second, ts, dur, name, args.value("Task Type", ""),
                       number(args.value("Stream Id", json(e.value("tid", 0)))),
                       number(args.value("Task Id", json(0)))});
    }
  }
  return {api_statistic(apis), task_time(std::move(tasks))};
}

}  // namespace npusim::rt
