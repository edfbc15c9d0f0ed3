// SPDX-License-Identifier: Apache-2.0
#include "tools/opprof/opprof.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace npusim::opprof {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kNa = "N/A";
// The pipes' keys in op_profile.json (npusim/ascendc/trace.h pipe_name).
constexpr const char* kScalar = "S";
constexpr const char* kVector = "V";
constexpr const char* kCube = "M";
constexpr const char* kMte1 = "MTE1";
constexpr const char* kMte2 = "MTE2";
constexpr const char* kMte3 = "MTE3";
constexpr const char* kFixpipe = "FIXP";

std::string fixed(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double get(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it == obj.end() || !it->is_number() ? 0.0 : it->get<double>();
}

double get(const json& obj, const char* map, const std::string& key) {
  const auto it = obj.find(map);
  if (it == obj.end() || !it->is_object()) return 0.0;
  return get(*it, key.c_str());
}

/// One row of the per-core files: a block on one core.
struct Row {
  const json* b = nullptr;
  std::uint64_t block = 0;
  std::string sub;      // cube0, vector0, vector1
  bool aic = false, aiv = false;  // the sides it fills (both: a coupled AI Core)
  double time_us = 0;   // the block's span on the core
  double cycles = 0;
  double freq = 1e9;

  double busy_us(const char* pipe) const { return get(*b, "busy_ps", pipe) / 1e6; }
  double ratio(const char* pipe) const {
    return time_us > 0 ? busy_us(pipe) / time_us : 0.0;
  }
  double num(const char* key) const { return get(*b, key); }
  double in(const char* map, const std::string& key) const { return get(*b, map, key); }
  /// Bytes per second over the row's time, in GB/s (1e9 bytes).
  std::string bw(double bytes) const { return time_us > 0 ? fixed(bytes / (time_us * 1e3)) : "0.000"; }
  std::string cycle_ratio(double c) const { return cycles > 0 ? fixed(c / cycles, 6) : "0.000000"; }
  double l2(const char* pipe, int field) const {
    const auto it = b->find("l2");
    if (it == b->end()) return 0.0;
    const auto p = it->find(pipe);
    return p == it->end() ? 0.0 : (*p)[static_cast<std::size_t>(field)].get<double>();
  }
};

/// A column: its header and its value in a row; `side` 'c' (aic), 'v' (aiv) or 0 (both).
struct Column {
  std::string name;
  char side;
  std::function<std::string(const Row&)> value;
};

std::vector<Row> rows_of(const json& profile, const json& kernel) {
  const double freq = get(profile, "frequency_hz");
  const bool coupled = profile.value("coupled", false);
  std::vector<Row> rows;
  std::map<std::uint64_t, std::array<int, 2>> seen;  // per block: cube and vector cores so far
  for (const json& b : kernel.at("blocks")) {
    Row r;
    r.b = &b;
    r.block = b.at("block").get<std::uint64_t>();
    const bool vector = b.value("vector", false);
    int& n = seen[r.block][vector ? 1 : 0];
    r.sub = (vector ? "vector" : "cube") + std::to_string(n++);
    r.aic = coupled || !vector;
    r.aiv = coupled || vector;
    const double ps = get(b, "end_ps") - get(b, "start_ps");
    r.time_us = ps / 1e6;
    r.cycles = ps * freq / 1e12;
    r.freq = freq;
    rows.push_back(std::move(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.block != b.block ? a.block < b.block : a.sub < b.sub;
  });
  return rows;
}

/// The first columns of every per-core file.
std::vector<Column> head() {
  return {
      {"block_id", 0, [](const Row& r) { return std::to_string(r.block); }},
      {"sub_block_id", 0, [](const Row& r) { return r.sub; }},
      {"aic_time(us)", 'c', [](const Row& r) { return fixed(r.time_us); }},
      {"aic_total_cycles", 'c', [](const Row& r) { return fixed(r.cycles, 0); }},
      {"aiv_time(us)", 'v', [](const Row& r) { return fixed(r.time_us); }},
      {"aiv_total_cycles", 'v', [](const Row& r) { return fixed(r.cycles, 0); }},
  };
}

std::string csv(const std::vector<Row>& rows, const std::vector<Column>& cols) {
  std::string out;
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + cols[i].name;
  out += "\n";
  for (const Row& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      const Column& c = cols[i];
      const bool mine = c.side == 0 || (c.side == 'c' && r.aic) || (c.side == 'v' && r.aiv);
      out += (i ? "," : "") + (mine ? c.value(r) : std::string(kNa));
    }
    out += "\n";
  }
  return out;
}

/// Columns "<side>_<what>_time(us)" and "<side>_<what>_ratio" of a pipe, both sides.
void pipe_columns(std::vector<Column>& cols, const char* side_name, char side, const char* what,
                  const char* pipe) {
  const std::string p = std::string(side_name) + "_" + what;
  cols.push_back({p + "_time(us)", side, [pipe](const Row& r) { return fixed(r.busy_us(pipe)); }});
  cols.push_back({p + "_ratio", side, [pipe](const Row& r) { return fixed(r.ratio(pipe), 6); }});
}

std::string pipe_utilization(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  pipe_columns(cols, "aic", 'c', "cube", kCube);
  pipe_columns(cols, "aic", 'c', "scalar", kScalar);
  pipe_columns(cols, "aic", 'c', "mte1", kMte1);
  pipe_columns(cols, "aic", 'c', "mte2", kMte2);
  pipe_columns(cols, "aic", 'c', "mte3", kMte3);
  pipe_columns(cols, "aic", 'c', "fixpipe", kFixpipe);
  pipe_columns(cols, "aiv", 'v', "vec", kVector);
  pipe_columns(cols, "aiv", 'v', "scalar", kScalar);
  pipe_columns(cols, "aiv", 'v', "mte2", kMte2);
  pipe_columns(cols, "aiv", 'v', "mte3", kMte3);
  return csv(rows, cols);
}

double sum_of(const json& b, const char* map, std::initializer_list<const char*> keys) {
  double s = 0;
  for (const char* k : keys) s += get(b, map, k);
  return s;
}

double total_of(const json& b, const char* map) {
  double s = 0;
  const auto it = b.find(map);
  if (it == b.end()) return 0;
  for (const auto& v : it->items()) s += v.value().get<double>();
  return s;
}

std::string arithmetic_utilization(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  const auto cube = [&cols](const std::string& name, std::function<double(const json&)> cycles) {
    cols.push_back({name, 'c', [cycles](const Row& r) { return r.cycle_ratio(cycles(*r.b)); }});
  };
  cube("aic_cube_ratio", [](const json& b) { return total_of(b, "cube_cycles"); });
  for (const char* t : {"fp16", "bf16", "fp32", "int8"}) {
    const std::string key = t;
    cube(std::string("aic_cube_") + t + "_ratio",
         [key](const json& b) { return get(b, "cube_cycles", key); });
  }
  cols.push_back({"aic_cube_fops", 'c', [](const Row& r) { return fixed(r.num("cube_fops"), 0); }});
  cols.push_back({"aic_cube_total_instr_number", 'c',
                  [](const Row& r) { return fixed(total_of(*r.b, "cube_instrs"), 0); }});
  cols.push_back({"aic_cube_fp_instr_number", 'c', [](const Row& r) {
                    return fixed(sum_of(*r.b, "cube_instrs", {"fp16", "bf16", "fp32"}), 0);
                  }});
  cols.push_back({"aic_cube_int_instr_number", 'c', [](const Row& r) {
                    return fixed(sum_of(*r.b, "cube_instrs", {"int8", "uint8", "int16", "int32"}), 0);
                  }});
  const auto vec = [&cols](const std::string& name, std::function<double(const json&)> cycles) {
    cols.push_back({name, 'v', [cycles](const Row& r) { return r.cycle_ratio(cycles(*r.b)); }});
  };
  vec("aiv_vec_ratio", [](const json& b) { return total_of(b, "vec_cycles"); });
  vec("aiv_vec_fp32_ratio", [](const json& b) { return get(b, "vec_cycles", "fp32"); });
  vec("aiv_vec_fp16_ratio", [](const json& b) { return get(b, "vec_cycles", "fp16"); });
  vec("aiv_vec_int32_ratio", [](const json& b) { return get(b, "vec_cycles", "int32"); });
  vec("aiv_vec_int16_ratio", [](const json& b) { return get(b, "vec_cycles", "int16"); });
  vec("aiv_vec_misc_ratio", [](const json& b) {
    return total_of(b, "vec_cycles") - sum_of(b, "vec_cycles", {"fp32", "fp16", "int32", "int16"});
  });
  cols.push_back({"aiv_vec_fops", 'v', [](const Row& r) { return fixed(r.num("vec_fops"), 0); }});
  return csv(rows, cols);
}

// l2 fields: 0 read hit, 1 read miss, 2 write hit, 3 write miss (bytes).
double l2_total(const Row& r, int field) {
  double s = 0;
  for (const char* p : {kScalar, kVector, kCube, kMte1, kMte2, kMte3, kFixpipe}) s += r.l2(p, field);
  return s;
}

std::string rate(double hit, double all) { return all > 0 ? fixed(hit / all * 100.0) : kNa; }

void l2_side(std::vector<Column>& cols, const std::string& s, char side) {
  cols.push_back({s + "_write_cache_hit(B)", side, [](const Row& r) { return fixed(l2_total(r, 2), 0); }});
  cols.push_back({s + "_write_cache_miss_allocate(B)", side,
                  [](const Row& r) { return fixed(l2_total(r, 3), 0); }});
  cols.push_back({s + "_read_cache_hit(B)", side, [](const Row& r) { return fixed(l2_total(r, 0), 0); }});
  cols.push_back({s + "_read_cache_miss_allocate(B)", side,
                  [](const Row& r) { return fixed(l2_total(r, 1), 0); }});
  cols.push_back({s + "_write_hit_rate(%)", side, [](const Row& r) {
                    return rate(l2_total(r, 2), l2_total(r, 2) + l2_total(r, 3));
                  }});
  cols.push_back({s + "_read_hit_rate(%)", side, [](const Row& r) {
                    return rate(l2_total(r, 0), l2_total(r, 0) + l2_total(r, 1));
                  }});
  cols.push_back({s + "_total_hit_rate(%)", side, [](const Row& r) {
                    const double hit = l2_total(r, 0) + l2_total(r, 2);
                    return rate(hit, hit + l2_total(r, 1) + l2_total(r, 3));
                  }});
  // By source: the pipe that issued the access.
  for (const auto& [name, pipe] : {std::pair<const char*, const char*>{"mte2", kMte2},
                                   {"scalar", kScalar}}) {
    const char* p = pipe;
    cols.push_back({s + "_" + name + "_read_hit_rate(%)", side,
                    [p](const Row& r) { return rate(r.l2(p, 0), r.l2(p, 0) + r.l2(p, 1)); }});
  }
  for (const auto& [name, pipe] : {std::pair<const char*, const char*>{"mte3", kMte3},
                                   {"fixpipe", kFixpipe}}) {
    const char* p = pipe;
    cols.push_back({s + "_" + name + "_write_hit_rate(%)", side,
                    [p](const Row& r) { return rate(r.l2(p, 2), r.l2(p, 2) + r.l2(p, 3)); }});
  }
}

std::string l2_cache(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  l2_side(cols, "aic", 'c');
  l2_side(cols, "aiv", 'v');
  return csv(rows, cols);
}

std::string kb(double bytes) { return fixed(bytes / 1024.0); }

std::string memory(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  const auto moved = [](const Row& r, const char* path) { return r.in("moved", path); };
  cols.push_back({"aiv_ub_to_gm_bw(GB/s)", 'v', [moved](const Row& r) { return r.bw(moved(r, "UB->GM")); }});
  cols.push_back({"aiv_gm_to_ub_bw(GB/s)", 'v', [moved](const Row& r) { return r.bw(moved(r, "GM->UB")); }});
  cols.push_back({"aic_l1_read_bw(GB/s)", 'c', [](const Row& r) { return r.bw(r.in("read", "L1")); }});
  cols.push_back({"aic_l1_write_bw(GB/s)", 'c', [](const Row& r) { return r.bw(r.in("written", "L1")); }});
  for (const auto& [s, side] : {std::pair<const char*, char>{"aic", 'c'}, {"aiv", 'v'}}) {
    const std::string p = s;
    cols.push_back({p + "_main_mem_read_bw(GB/s)", side, [](const Row& r) { return r.bw(r.in("read", "GM")); }});
    cols.push_back({p + "_main_mem_write_bw(GB/s)", side,
                    [](const Row& r) { return r.bw(r.in("written", "GM")); }});
    cols.push_back({p + "_ub_read_bw(GB/s)", side, [](const Row& r) { return r.bw(r.in("read", "UB")); }});
    cols.push_back({p + "_ub_write_bw(GB/s)", side, [](const Row& r) { return r.bw(r.in("written", "UB")); }});
  }
  const auto instrs = [&cols](const std::string& s, char side, const char* what, const char* pipe) {
    cols.push_back({s + "_" + what + "_instructions", side,
                    [pipe](const Row& r) { return fixed(r.in("instrs", pipe), 0); }});
    cols.push_back({s + "_" + what + "_ratio", side, [pipe](const Row& r) { return fixed(r.ratio(pipe), 6); }});
  };
  instrs("aic", 'c', "mte1", kMte1);
  instrs("aic", 'c', "mte2", kMte2);
  instrs("aic", 'c', "mte3", kMte3);
  instrs("aiv", 'v', "mte2", kMte2);
  instrs("aiv", 'v', "mte3", kMte3);
  cols.push_back({"read_main_memory_datas(KB)", 0, [](const Row& r) { return kb(r.in("read", "GM")); }});
  cols.push_back({"write_main_memory_datas(KB)", 0, [](const Row& r) { return kb(r.in("written", "GM")); }});
  for (const auto& [name, path] :
       {std::pair<const char*, const char*>{"GM_to_L1_datas(KB)", "GM->L1"},
        {"L1_to_GM_datas(KB)", "L1->GM"}, {"L0C_to_L1_datas(KB)", "L0C->L1"},
        {"L0C_to_GM_datas(KB)", "L0C->GM"}, {"GM_to_UB_datas(KB)", "GM->UB"},
        {"UB_to_GM_datas(KB)", "UB->GM"}, {"UB_to_L1_datas(KB)", "UB->L1"}}) {
    const char* p = path;
    cols.push_back({name, 0, [p](const Row& r) { return kb(r.in("moved", p)); }});
  }
  cols.push_back({"ub_read_datas(KB)", 0, [](const Row& r) { return kb(r.in("read", "UB")); }});
  cols.push_back({"ub_write_datas(KB)", 0, [](const Row& r) { return kb(r.in("written", "UB")); }});
  cols.push_back({"l1_read_datas(KB)", 0, [](const Row& r) { return kb(r.in("read", "L1")); }});
  cols.push_back({"l1_write_datas(KB)", 0, [](const Row& r) { return kb(r.in("written", "L1")); }});
  return csv(rows, cols);
}

std::string memory_l0(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  for (const auto& [name, mem] : {std::pair<const char*, const char*>{"l0a", "L0A"}, {"l0b", "L0B"}}) {
    const std::string n = name;
    const char* m = mem;
    cols.push_back({"aic_" + n + "_read_bw(GB/s)", 'c', [m](const Row& r) { return r.bw(r.in("read", m)); }});
    cols.push_back({"aic_" + n + "_write_bw(GB/s)", 'c', [m](const Row& r) { return r.bw(r.in("written", m)); }});
  }
  cols.push_back({"aic_l0c_read_bw(GB/s)", 'c', [](const Row& r) { return r.bw(r.in("read", "L0C")); }});
  cols.push_back({"aic_l0c_write_bw_cube(GB/s)", 'c',
                  [](const Row& r) { return r.bw(r.in("written", "L0C")); }});
  for (const auto& [name, mem] :
       {std::pair<const char*, const char*>{"l0a", "L0A"}, {"l0b", "L0B"}, {"l0c", "L0C"}}) {
    const std::string n = name;
    const char* m = mem;
    cols.push_back({"aic_" + n + "_read_datas(KB)", 'c', [m](const Row& r) { return kb(r.in("read", m)); }});
    cols.push_back({"aic_" + n + "_write_datas(KB)", 'c', [m](const Row& r) { return kb(r.in("written", m)); }});
  }
  return csv(rows, cols);
}

std::string memory_ub(const std::vector<Row>& rows, bool coupled) {
  std::vector<Column> cols = head();
  // UB belongs to the vector side (the one AI Core on coupled chips).
  const char side = coupled ? 0 : 'v';
  for (const auto& [what, key] : {std::pair<const char*, const char*>{"read_bw_vector", "vec_ub_read"},
                                  {"write_bw_vector", "vec_ub_write"},
                                  {"read_bw_scalar", "scalar_ub_read"},
                                  {"write_bw_scalar", "scalar_ub_write"}}) {
    const char* k = key;
    cols.push_back({std::string("aiv_ub_") + what + "(GB/s)", side,
                    [k](const Row& r) { return r.bw(r.num(k)); }});
  }
  for (const auto& [what, key] : {std::pair<const char*, const char*>{"vector_read", "vec_ub_read"},
                                  {"vector_write", "vec_ub_write"},
                                  {"scalar_read", "scalar_ub_read"},
                                  {"scalar_write", "scalar_ub_write"}}) {
    const char* k = key;
    cols.push_back({std::string("aiv_ub_") + what + "_datas(KB)", side,
                    [k](const Row& r) { return kb(r.num(k)); }});
  }
  return csv(rows, cols);
}

// UB banks are not modelled: every conflict column is N/A (never a made-up 0).
std::string resource_conflict(const std::vector<Row>& rows) {
  std::vector<Column> cols = head();
  const auto na = [](const Row&) { return std::string(kNa); };
  for (const char* name : {"aic_cube_wait_ratio", "aic_mte1_wait_ratio", "aic_mte2_wait_ratio",
                           "aic_mte3_wait_ratio"}) {
    cols.push_back({name, 'c', na});
  }
  for (const char* name :
       {"aiv_vec_total_cflt_ratio", "aiv_vec_bankgroup_cflt_ratio", "aiv_vec_bank_cflt_ratio",
        "aiv_vec_resc_cflt_ratio", "aiv_vec_mte_cflt_ratio", "aiv_vec_wait_ratio",
        "aiv_mte2_wait_ratio", "aiv_mte3_wait_ratio"}) {
    cols.push_back({name, 'v', na});
  }
  return csv(rows, cols);
}

std::string op_basic_info(const json& profile, const json& k) {
  const double mhz = get(profile, "frequency_hz") / 1e6;
  const std::string mix = k.value("task_type", "") == "MIX_AIC"
                              ? std::to_string(k.value("mix_block_dim", 0))
                              : std::string(kNa);
  std::string out =
      "Op Name,Op Type,Task Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,"
      "Current Freq,Rated Freq,Soc Version\n";
  out += k.value("name", "") + "," + k.value("op_type", "") + "," + k.value("task_type", "") + "," +
         fixed((get(k, "end_ps") - get(k, "start_ps")) / 1e6) + "," +
         std::to_string(k.value("block_dim", 0)) + "," + mix + "," +
         std::to_string(k.value("device", 0)) + "," + kNa + "," + fixed(mhz, 0) + "," +
         fixed(mhz, 0) + "," + profile.value("soc", "") + "\n";
  return out;
}

std::string now_utc(std::int64_t t) {
  const std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string safe_name(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    out += ok ? c : '_';
  }
  return out.empty() ? "kernel" : out;
}

}  // namespace

std::string run_dir_name(std::int64_t unix_seconds, std::int64_t pid) {
  char tag[16];
  std::snprintf(tag, sizeof tag, "%06llx", static_cast<unsigned long long>(pid) & 0xffffffULL);
  return "OPPROF_" + now_utc(unix_seconds) + "_" + tag;
}

bool preset_of_soc(const std::string& soc, std::string& preset, std::string& error) {
  std::string lower;
  for (char c : soc) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower.rfind("ascend910b", 0) == 0) {
    preset = "ascend910b";
    return true;
  }
  if (lower.rfind("ascend310p", 0) == 0) {
    preset = "ascend310p";
    return true;
  }
  error = "--soc-version " + soc +
          ": not a simulated SoC (Ascend910B1..Ascend910B4 -> ascend910b, Ascend310P* -> "
          "ascend310p; --config names any preset or YAML file)";
  return false;
}

bool split_command(const std::string& text, std::vector<std::string>& words, std::string& error) {
  words.clear();
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) {
    error = "--application: unterminated quote in '" + text + "'";
    return false;
  }
  if (in_word) words.push_back(word);
  if (words.empty()) {
    error = "--application: no program given";
    return false;
  }
  return true;
}

bool kernel_matches(const std::string& pattern, const std::string& name) {
  if (pattern.empty()) return true;
  if (pattern.find_first_of("*?[") != std::string::npos) {
    return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
  }
  return name.rfind(pattern, 0) == 0;
}

std::map<std::string, std::string> launch_files(const std::string& profile_json, int launch) {
  const json profile = json::parse(profile_json);
  if (profile.value("format", "") != "npusim-op-profile") {
    throw std::runtime_error("not an npusim op profile");
  }
  for (const json& k : profile.at("kernels")) {
    if (k.at("launch").get<int>() != launch) continue;
    const std::vector<Row> rows = rows_of(profile, k);
    const bool coupled = profile.value("coupled", false);
    return {{"OpBasicInfo.csv", op_basic_info(profile, k)},
            {"PipeUtilization.csv", pipe_utilization(rows)},
            {"ArithmeticUtilization.csv", arithmetic_utilization(rows)},
            {"L2Cache.csv", l2_cache(rows)},
            {"Memory.csv", memory(rows)},
            {"MemoryL0.csv", memory_l0(rows)},
            {"MemoryUB.csv", memory_ub(rows, coupled)},
            {"ResourceConflictRatio.csv", resource_conflict(rows)}};
  }
  throw std::runtime_error("no launch " + std::to_string(launch) + " in the profile");
}

int write_run(const std::string& run_dir, const Options& options, std::ostream& err) {
  const fs::path dir(run_dir);
  const fs::path profile_path = dir / "dump" / "op_profile.json";
  std::ifstream in(profile_path, std::ios::binary);
  if (!in) {
    err << "msopprof: the program wrote no " << profile_path.string()
        << " (did it run on npusim's runtime, libacl_rt.so, and call aclFinalize or exit?)\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    const json profile = json::parse(text.str());
    std::vector<std::pair<int, std::string>> chosen;  // launch, kernel name
    for (const json& k : profile.at("kernels")) {
      const std::string name = k.value("name", "");
      if (!kernel_matches(options.kernel_name, name)) continue;
      if (static_cast<int>(chosen.size()) >= options.launch_count) break;
      chosen.emplace_back(k.at("launch").get<int>(), name);
    }
    if (chosen.empty()) {
      err << "msopprof: no AI Core kernel launch"
          << (options.kernel_name.empty() ? "" : " matching --kernel-name=" + options.kernel_name)
          << " ran (" << profile.at("kernels").size() << " launches in " << profile_path.string()
          << ")\n";
      return 1;
    }
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      fs::path to = dir;
      if (chosen.size() > 1) {
        to /= std::to_string(i) + "_" + safe_name(chosen[i].second);
        fs::create_directories(to);
      }
      for (const auto& [file, contents] : launch_files(text.str(), chosen[i].first)) {
        write_file(to / file, contents);
      }
    }
    err << "msopprof: " << chosen.size() << " kernel launch" << (chosen.size() > 1 ? "es" : "")
        << " profiled in " << dir.string()
        << " (ResourceConflictRatio.csv: UB bank conflicts are not modelled, N/A)\n";
  } catch (const std::exception& e) {
    err << "msopprof: " << profile_path.string() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace npusim::opprof
