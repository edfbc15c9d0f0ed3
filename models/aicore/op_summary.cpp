// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/op_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace npusim::models {
namespace {

using ascendc::Pipe;

const char* const kFixedColumns[] = {
    "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State",
    "Task Type", "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num",
    "Mix Block Num", "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats",
    "Output Shapes", "Output Data Types", "Output Formats", "Context ID"};

struct PipeColumn {
  const char* name;  // "mac" -> aic_mac_time(us), aic_mac_ratio
  Pipe pipe;
};
const PipeColumn kAicPipes[] = {{"mac", Pipe::kCube},    {"scalar", Pipe::kScalar},
                                {"mte1", Pipe::kMte1},   {"mte2", Pipe::kMte2},
                                {"fixpipe", Pipe::kFixpipe}};
const PipeColumn kAivPipes[] = {{"vec", Pipe::kVector},
                                {"scalar", Pipe::kScalar},
                                {"mte2", Pipe::kMte2},
                                {"mte3", Pipe::kMte3}};

constexpr const char* kNa = "N/A";

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}
std::string us(sim::SimTime ps) { return fmt(static_cast<double>(ps) / 1e6, 3); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

template <std::size_t N>
void side_columns(std::string& line, const PipeColumn (&pipes)[N], const KernelSide* side,
                  double freq) {
  const bool na = side == nullptr || !side->used || side->total == 0;
  const double total_cycles = na ? 0 : static_cast<double>(side->total) * freq / 1e12;
  const double time_us =
      na ? 0 : total_cycles / freq * 1e6 / std::max<std::uint32_t>(side->blocks, 1);
  line += "," + (na ? kNa : fmt(time_us, 3));
  line += "," + (na ? kNa : fmt(total_cycles, 0));
  for (const PipeColumn& c : pipes) {
    const double ratio =
        na ? 0 : static_cast<double>(side->busy[static_cast<int>(c.pipe)]) / side->total;
    line += "," + (na ? kNa : fmt(ratio * time_us, 3));
    line += "," + (na ? kNa : fmt(ratio, 3));
  }
}

std::string or_na(const std::string& s) { return s.empty() ? kNa : csv_field(s); }

const std::string& op_type_of(const KernelRecord& r) {
  return r.op_type.empty() ? r.name : r.op_type;
}

/// op_statistic's rows before sorting: (device, OP Type, Core Type) and the rows' durations.
struct OpGroup {
  std::uint64_t count = 0;
  sim::SimTime total = 0, min = 0, max = 0;
  void add(sim::SimTime d) {
    min = count == 0 ? d : std::min(min, d);
    max = std::max(max, d);
    total += d;
    ++count;
  }
};
using OpGroupKey = std::tuple<std::uint32_t, std::string, std::string>;

std::string row(const KernelRecord& r, sim::SimTime wait, const OpSummaryParams& p) {
  const double freq = p.frequency_hz;
  const OpInfo& i = r.info;
  std::string line = std::to_string(r.device) + ",4294967295," + std::to_string(r.task_id) + "," +
                     std::to_string(r.stream) + "," +
                     csv_field(i.op_name.empty() ? r.name : i.op_name) + "," +
                     csv_field(op_type_of(r)) + "," + kNa + "," + r.task_type + "," +
                     us(r.start) + "," + us(r.end - r.start) + "," + us(wait) + "," +
                     std::to_string(r.block_dim) + "," + std::to_string(r.mix_block_num) + "," +
                     kNa;  // HF32 Eligible
  for (const std::string* t : {&i.input_shapes, &i.input_types, &i.input_formats,
                               &i.output_shapes, &i.output_types, &i.output_formats}) {
    line += "," + or_na(*t);
  }
  line += std::string(",") + kNa;  // Context ID
  side_columns(line, kAicPipes, &r.aic, freq);
  side_columns(line, kAivPipes, r.coupled ? &r.aic : &r.aiv, freq);
  const double duration_s = static_cast<double>(r.end - r.start) / 1e12;
  if (r.aic.used && duration_s > 0) {
    const double cycles = static_cast<double>(r.aic.total) * freq / 1e12;
    line += "," + fmt(cycles / (freq * static_cast<double>(p.cube_cores) * duration_s) * 100, 3);
  } else {
    line += std::string(",") + kNa;
  }
  return line + "\n";
}

}  // namespace

std::string op_summary_header() {
  std::string h;
  for (const char* c : kFixedColumns) h += (h.empty() ? "" : ",") + std::string(c);
  h += ",aicore_time(us),aic_total_cycles";
  for (const PipeColumn& c : kAicPipes) {
    h += ",aic_" + std::string(c.name) + "_time(us),aic_" + c.name + "_ratio";
  }
  h += ",aiv_time(us),aiv_total_cycles";
  for (const PipeColumn& c : kAivPipes) {
    h += ",aiv_" + std::string(c.name) + "_time(us),aiv_" + c.name + "_ratio";
  }
  return h + ",cube_utilization(%)\n";
}

std::string op_summary_csv(std::vector<KernelRecord> records, const OpSummaryParams& params) {
  const auto earlier = [](const KernelRecord& a, const KernelRecord& b) {
    return std::tie(a.device, a.start, a.stream, a.task_id) <
           std::tie(b.device, b.start, b.stream, b.task_id);
  };
  std::stable_sort(records.begin(), records.end(), earlier);
  std::string csv = op_summary_header();
  sim::SimTime prev_end = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const KernelRecord& r = records[i];
    const bool first = i == 0 || records[i - 1].device != r.device;
    if (first) prev_end = r.start;
    csv += row(r, r.start > prev_end ? r.start - prev_end : 0, params);
    prev_end = std::max(prev_end, r.end);
  }
  return csv;
}

std::string op_statistic_csv(const std::vector<KernelRecord>& records) {
  std::map<OpGroupKey, OpGroup> groups;
  std::map<std::uint32_t, sim::SimTime> device_total;  // every row of the device
  for (const KernelRecord& r : records) {
    groups[{r.device, op_type_of(r), r.task_type}].add(r.end - r.start);
    device_total[r.device] += r.end - r.start;
  }
  std::vector<std::pair<OpGroupKey, OpGroup>> rows(groups.begin(), groups.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    const std::uint32_t da = std::get<0>(a.first), db = std::get<0>(b.first);
    return da != db ? da < db : a.second.total > b.second.total;
  });
  std::string csv = "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),"
                    "Max Time(us),Ratio(%)\n";
  for (const auto& [key, g] : rows) {
    const auto& [device, type, core] = key;
    const double all = static_cast<double>(device_total[device]);
    csv += std::to_string(device) + "," + csv_field(type) + "," + core + "," +
           std::to_string(g.count) + "," + us(g.total) + "," + us(g.min) + "," +
           fmt(static_cast<double>(g.total) / 1e6 / static_cast<double>(g.count), 3) + "," +
           us(g.max) + "," + fmt(all > 0 ? static_cast<double>(g.total) / all * 100 : 0, 3) +
           "\n";
  }
  return csv;
}

}  // namespace npusim::models
