// SPDX-License-Identifier: Apache-2.0
#include "tools/merge/merge.h"

#include <cstdint>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

namespace npusim::tools {

namespace {

// Input i's process metadata: its label before process names, its processes sorted after the
// earlier inputs' ones.
void relabel_process(nlohmann::json& e, std::size_t i, const std::string& label) {
  if (e.value("ph", "") != "M" || !e.contains("args") || !e["args"].is_object()) return;
  nlohmann::json& args = e["args"];
  const std::string what = e.value("name", "");
  if (what == "process_name" && args.contains("name") && args["name"].is_string()) {
    args["name"] = label + ": " + args["name"].get<std::string>();
  } else if (what == "process_sort_index" && args.contains("sort_index") &&
             args["sort_index"].is_number_integer()) {
    args["sort_index"] =
        static_cast<std::int64_t>(i) * 1000 + args["sort_index"].get<std::int64_t>();
  }
}

// Appends input i's events to `merged`: pids renumbered apart from the other inputs' (from
// `next_pid` on), flow ids moved to input i's range. An error text, or empty.
std::string append_input(const MergeInput& in, std::size_t i, std::int64_t& next_pid,
                         nlohmann::json& merged) {
  std::ifstream file(in.path);
  if (!file) return in.path + ": cannot open";
  nlohmann::json events = nlohmann::json::parse(file, nullptr, false);
  if (events.is_discarded() || !events.is_array()) {
    return in.path + ": not a timeline (a JSON array of trace events)";
  }
  std::map<std::int64_t, std::int64_t> pids;  // this input's pid -> merged pid
  const std::uint64_t flow_base = static_cast<std::uint64_t>(i) << 40;
  for (nlohmann::json& e : events) {
    if (!e.is_object()) return in.path + ": an event is not an object";
    if (e.contains("pid") && e["pid"].is_number_integer()) {
      const auto [it, fresh] = pids.try_emplace(e["pid"].get<std::int64_t>(), next_pid);
      if (fresh) ++next_pid;
      e["pid"] = it->second;
    }
    if (e.contains("id") && e["id"].is_number_unsigned()) {
      e["id"] = flow_base + e["id"].get<std::uint64_t>();
    }
    relabel_process(e, i, in.label);
    merged.push_back(std::move(e));
  }
  return {};
}

}  // namespace

std::string merge_timelines(const std::vector<MergeInput>& inputs, const std::string& out_path) {
  nlohmann::json merged = nlohmann::json::array();
  std::int64_t next_pid = 1;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string error = append_input(inputs[i], i, next_pid, merged);
    if (!error.empty()) return error;
  }
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out << merged.dump();
  if (!out) return out_path + ": cannot write";
  return {};
}

}  // namespace npusim::tools
