// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/op_profile.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace npusim::models {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string num(std::uint64_t v) { return std::to_string(v); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// {"key": value, ...} of the nonzero entries.
template <class Array, class Name>
std::string map_of(const Array& values, Name name) {
  std::string out = "{";
  bool first = true;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] == 0) continue;
    out += (first ? "" : ", ") + quoted(name(i)) + ": " + num(std::uint64_t{values[i]});
    first = false;
  }
  return out + "}";
}

std::string pipe_key(std::size_t p) { return ascendc::pipe_name(static_cast<ascendc::Pipe>(p)); }
std::string mem_key(std::size_t m) { return ascendc::mem_name(static_cast<ascendc::Mem>(m)); }
std::string type_key(std::size_t t) { return dtype_key(static_cast<ascendc::DType>(t)); }

std::string block_json(const BlockProfile& b) {
  std::string s = "{\"block\": " + num(std::uint64_t{b.block}) + ", \"core\": " + quoted(b.core) +
                  ", \"vector\": " + (b.vector ? "true" : "false") +
                  ", \"start_ps\": " + num(std::uint64_t{b.start}) +
                  ", \"end_ps\": " + num(std::uint64_t{b.end});
  s += ",\n       \"busy_ps\": " + map_of(b.busy, pipe_key);
  s += ", \"instrs\": " + map_of(b.instrs, pipe_key);
  s += ",\n       \"l2\": {";
  bool first = true;
  for (std::size_t p = 0; p < b.l2.size(); ++p) {
    const L2Traffic& t = b.l2[p];
    if (t.read_hit + t.read_miss + t.write_hit + t.write_miss == 0) continue;
    s += (first ? "" : ", ") + quoted(pipe_key(p)) + ": [" + num(t.read_hit) + ", " +
         num(t.read_miss) + ", " + num(t.write_hit) + ", " + num(t.write_miss) + "]";
    first = false;
  }
  s += "},\n       \"moved\": {";
  first = true;
  for (std::size_t from = 0; from < b.moved.size(); ++from) {
    for (std::size_t to = 0; to < b.moved[from].size(); ++to) {
      if (b.moved[from][to] == 0) continue;
      s += (first ? "" : ", ") + quoted(mem_key(from) + "->" + mem_key(to)) + ": " +
           num(b.moved[from][to]);
      first = false;
    }
  }
  s += "},\n       \"read\": " + map_of(b.read, mem_key) + ", \"written\": " + map_of(b.written, mem_key);
  s += ",\n       \"cube_cycles\": " + map_of(b.cube_cycles, type_key) +
       ", \"cube_instrs\": " + map_of(b.cube_instrs, type_key);
  s += ",\n       \"vec_cycles\": " + map_of(b.vec_cycles, type_key) +
       ", \"vec_instrs\": " + map_of(b.vec_instrs, type_key);
  s += ",\n       \"cube_fops\": " + num(b.cube_fops) + ", \"vec_fops\": " + num(b.vec_fops) +
       ", \"vec_ub_read\": " + num(b.vec_ub_read) + ", \"vec_ub_write\": " + num(b.vec_ub_write) +
       ", \"scalar_ub_read\": " + num(b.scalar_ub_read) +
       ", \"scalar_ub_write\": " + num(b.scalar_ub_write) + "}";
  return s;
}

}  // namespace

const char* dtype_key(ascendc::DType t) {
  static const char* const kNames[kDTypeCount] = {"other", "bool",   "int8",  "uint8", "int16",
                                                  "uint16", "int32", "uint32", "int64", "uint64",
                                                  "fp16",  "bf16",   "fp32",  "fp64"};
  return kNames[static_cast<int>(t)];
}

std::string op_profile_json(std::vector<KernelRecord> records, const OpProfileParams& params) {
  records.erase(std::remove_if(records.begin(), records.end(),
                               [](const KernelRecord& r) { return r.blocks.empty(); }),
                records.end());
  std::stable_sort(records.begin(), records.end(), [](const KernelRecord& a, const KernelRecord& b) {
    return std::tie(a.device, a.start, a.stream, a.task_id) <
           std::tie(b.device, b.start, b.stream, b.task_id);
  });
  std::string s = "{\"format\": \"npusim-op-profile\", \"version\": 1, \"soc\": " +
                  quoted(params.soc) + ", \"frequency_hz\": " + num(params.frequency_hz) +
                  ", \"cube_cores\": " + num(static_cast<std::uint64_t>(params.cube_cores)) +
                  ", \"vector_cores\": " + num(static_cast<std::uint64_t>(params.vector_cores)) +
                  ", \"coupled\": " + (params.coupled ? "true" : "false") + ",\n \"kernels\": [";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const KernelRecord& r = records[i];
    s += (i == 0 ? "\n  {" : ",\n  {");
    s += "\"launch\": " + num(std::uint64_t{i}) + ", \"name\": " + quoted(r.name) +
         ", \"op_type\": " + quoted(r.op_type.empty() ? r.name : r.op_type) +
         ", \"task_type\": " + quoted(r.task_type) + ", \"device\": " + num(std::uint64_t{r.device}) +
         ", \"stream\": " + num(std::uint64_t{r.stream}) +
         ", \"task_id\": " + num(std::uint64_t{r.task_id}) +
         ", \"block_dim\": " + num(std::uint64_t{r.block_dim}) +
         ", \"mix_block_dim\": " + num(std::uint64_t{r.mix_block_num}) +
         ", \"start_ps\": " + num(std::uint64_t{r.start}) + ", \"end_ps\": " + num(std::uint64_t{r.end}) +
         ", \"error\": " + std::to_string(r.error) + ",\n   \"blocks\": [";
    for (std::size_t b = 0; b < r.blocks.size(); ++b) {
      s += (b == 0 ? "\n      " : ",\n      ") + block_json(r.blocks[b]);
    }
    s += "]}";
  }
  return s + "]}\n";
}

}  // namespace npusim::models
