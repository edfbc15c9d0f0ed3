// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/op_simulator.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>
#include <utility>

#include "models/aicore/pipe_costs.h"
#include "sim/log.h"

namespace npusim::models {
namespace {

using ascendc::DType;
using ascendc::Op;
using ascendc::Pipe;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// A count from the environment; `fallback` (with a warning) when it is not a number.
std::uint64_t env_count(const char* name, std::uint64_t fallback) {
  const std::string v = env(name);
  if (v.empty()) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (end == v.c_str() || *end != '\0' || v[0] == '-') {
    sim::log_warn("npusim: " + std::string(name) + "=" + v + " is not a count; using " +
                  std::to_string(fallback));
    return fallback;
  }
  return n;
}

// msopprof's pipe names, in Pipe order.
const char* const kPipeNames[ascendc::kPipeCount] = {"SCALAR", "VECTOR", "CUBE", "MTE1",
                                                     "MTE2",   "MTE3",   "FIXP"};

const char* dtype_name(DType t) {
  static const char* const kNames[] = {"",         "bool",     "int8_t",  "uint8_t", "int16_t",
                                       "uint16_t", "int32_t",  "uint32_t", "int64_t", "uint64_t",
                                       "half",     "bfloat16_t", "float", "double"};
  const auto i = static_cast<std::size_t>(t);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "";
}

const char* label_of(const ascendc::Instr& in) {
  if (in.op == Op::kSyncSet) return "SyncSet";
  if (in.op == Op::kSyncWait) return "SyncWait";
  return instr_label(in);
}

bool vector_op(Op op) { return op >= Op::kAdd && op <= Op::kReduceMin; }

// Picoseconds as microseconds with all six decimals (exact, so the text is deterministic).
std::string us(sim::SimTime ps) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu.%06llu", static_cast<unsigned long long>(ps / 1000000),
                static_cast<unsigned long long>(ps % 1000000));
  return buf;
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A unit name's sort key: core<N>.<kind><M> by (N, kind, M).
std::tuple<unsigned, std::string, unsigned> unit_key(const std::string& name) {
  unsigned n = 0, m = 0;
  char kind[32] = {};
  if (std::sscanf(name.c_str(), "core%u.%31[a-z]%u", &n, kind, &m) == 3) return {n, kind, m};
  return {~0u, name, 0};
}

// "void AscendC::DataCopy<float>(AscendC::LocalTensor<float> const&, ...)" -> "AscendC::DataCopy".
std::string short_function(const std::string& f) {
  std::string out;
  int depth = 0;
  for (const char c : f) {
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (depth > 0) --depth;
    } else if (depth == 0) {
      if (c == '(') break;
      if (c == ' ') {
        out.clear();  // a return type before the name
      } else {
        out += c;
      }
    }
  }
  return out.empty() ? f : out;
}

// Code of npusim itself (the twin's headers and sources, the launch machinery) or of the system:
// not a kernel line.
bool npusim_or_system(const std::string& file) {
  static const char* const kParts[] = {"/include/ascendc/", "runtime/ascendc/", "runtime/core/",
                                       "/include/npusim/",  "/c++/",            "/bits/"};
  if (file.empty() || file[0] == '?' || file.rfind("/usr/", 0) == 0) return true;
  return std::any_of(std::begin(kParts), std::end(kParts),
                     [&](const char* p) { return file.find(p) != std::string::npos; });
}

struct Frame {
  std::string function;
  std::string file;  // "path:line" without addr2line's "(discriminator n)"
};

// An ELF file's e_type (2 = ET_EXEC, addresses absolute; 3 = ET_DYN, relative to the load base).
int elf_type(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[18] = {};
  if (!in.read(reinterpret_cast<char*>(h), sizeof h)) return 0;
  return h[16] | (h[17] << 8);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// addr2line -i for `pcs` of `module`: the inline chain of each (innermost first).
std::vector<std::vector<Frame>> addr2line(const std::string& module,
                                          const std::vector<std::uintptr_t>& pcs) {
  std::vector<std::vector<Frame>> out(pcs.size());
  std::string list = (std::filesystem::temp_directory_path() / "npusim-a2l-XXXXXX").string();
  const int fd = mkstemp(list.data());
  if (fd < 0) return out;
  std::string text;
  for (const std::uintptr_t pc : pcs) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx\n", static_cast<unsigned long long>(pc));
    text += buf;
  }
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (written) {
    const std::string cmd = "addr2line -a -C -f -i -e " + shell_quote(module) + " < " +
                            shell_quote(list) + " 2>/dev/null";
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      std::vector<std::string> lines;
      char buf[4096];
      while (std::fgets(buf, sizeof buf, p) != nullptr) {
        std::string l(buf);
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
        lines.push_back(std::move(l));
      }
      ::pclose(p);
      std::size_t at = 0;
      std::size_t i = 0;
      while (i < lines.size()) {
        if (lines[i].rfind("0x", 0) != 0) {
          ++i;
          continue;
        }
        ++i;
        while (i < lines.size() && lines[i].rfind("0x", 0) != 0) {
          Frame f;
          f.function = lines[i];
          std::string loc = i + 1 < lines.size() ? lines[i + 1] : "??:0";
          const std::size_t disc = loc.find(" (discriminator");
          if (disc != std::string::npos) loc.resize(disc);
          f.file = loc;
          if (at < out.size()) out[at].push_back(std::move(f));
          i += 2;
        }
        ++at;
      }
    } else {
      sim::log_warn("npusim: op simulator: cannot run addr2line: source lines are \"??:0\"");
    }
  }
  std::remove(list.c_str());
  return out;
}

}  // namespace

OpSimulatorOptions OpSimulatorOptions::from_env() {
  OpSimulatorOptions o;
  o.dir = env("NPUSIM_OP_SIMULATOR_DIR");
  o.kernel_filter = env("NPUSIM_OP_KERNEL_NAME");
  o.launch_count = env_count("NPUSIM_OP_LAUNCH_COUNT", 0);
  o.budget = env_count("NPUSIM_OP_INSTR_BUDGET", o.budget);
  return o;
}

OpSimulator::OpSimulator(OpSimulatorOptions options) : options_(std::move(options)) {}

OpSimulator* OpSimulator::process() {
  // Never destroyed: the runtime writes its outputs from an atexit hook registered earlier.
  static OpSimulator* const sim = [] {
    OpSimulatorOptions o = OpSimulatorOptions::from_env();
    return o.dir.empty() ? nullptr : new OpSimulator(std::move(o));
  }();
  return sim;
}

int OpSimulator::unit_id(const std::string& name, const std::string& label) {
  const auto it = std::find(units_.begin(), units_.end(), name);
  if (it != units_.end()) return static_cast<int>(it - units_.begin());
  units_.push_back(name);
  labels_.push_back(label);
  return static_cast<int>(units_.size() - 1);
}

int OpSimulator::begin_launch(const std::string& name, double freq_hz) {
  if (cut_) return -1;
  if (!options_.kernel_filter.empty() && name.find(options_.kernel_filter) == std::string::npos) {
    return -1;
  }
  if (options_.launch_count != 0 && matched_ >= options_.launch_count) return -1;
  ++matched_;
  launches_.push_back({name, freq_hz});
  return static_cast<int>(launches_.size() - 1);
}

void OpSimulator::begin_block(int launch, std::uint32_t block, const ascendc::BlockTrace& trace) {
  if (launch < 0) return;
  BlockState& b = blocks_[key(static_cast<std::uint32_t>(launch), block)];
  b.rec.assign(trace.instrs.size(), kNone);
  b.sites.clear();
  const std::size_t n = trace.site_frames.size() / ascendc::kSiteDepth;
  for (std::size_t s = 0; s < n; ++s) {
    const auto first =
        trace.site_frames.begin() + static_cast<std::ptrdiff_t>(s * ascendc::kSiteDepth);
    std::vector<std::uintptr_t> frames(first, first + ascendc::kSiteDepth);
    while (!frames.empty() && frames.back() == 0) frames.pop_back();
    const auto [it, fresh] = site_ids_.emplace(frames, static_cast<std::uint32_t>(sites_.size()));
    if (fresh) sites_.push_back(std::move(frames));
    b.sites.push_back(it->second);
  }
}

void OpSimulator::instr(int launch, std::uint32_t block, const ascendc::BlockTrace& trace,
                        std::uint32_t index, int unit, ascendc::Pipe pipe, sim::SimTime start,
                        sim::SimTime end) {
  if (launch < 0 || cut_ || index >= trace.instrs.size()) return;
  const auto l = static_cast<std::uint32_t>(launch);
  if (records_.size() >= options_.budget) {
    cut_ = true;
    cut_at_ = "kernel " + launches_[l].name + " block " + std::to_string(block) + " at " +
              us(start) + " us";
    sim::log_warn("npusim: op simulator: the instruction budget of " +
                  std::to_string(options_.budget) +
                  " instructions (NPUSIM_OP_INSTR_BUDGET) ran out in " + cut_at_ +
                  ": trace.json and the csv files of " + options_.dir + " stop there");
    return;
  }
  BlockState& b = blocks_[key(l, block)];
  if (b.rec.size() != trace.instrs.size()) b.rec.assign(trace.instrs.size(), kNone);
  const ascendc::Instr& in = trace.instrs[index];
  Record r{};
  r.start = start;
  r.end = end;
  r.label = label_of(in);
  r.bytes = in.bytes;
  r.count = in.count;
  r.launch = l;
  r.block = block;
  r.index = index;
  r.site = index < trace.sites.size() && trace.sites[index] < b.sites.size()
               ? b.sites[trace.sites[index]]
               : kNone;
  r.m = in.m;
  r.n = in.n;
  r.k = in.k;
  r.unit = static_cast<std::uint16_t>(unit);
  r.pipe = pipe;
  r.op = in.op;
  r.dtype = in.dtype;
  const auto id = static_cast<std::uint32_t>(records_.size());
  records_.push_back(r);
  b.rec[index] = id;
  for (std::uint32_t d = 0; d < in.dep_count; ++d) {
    const std::uint32_t dep = trace.deps[in.dep_begin + d];
    if (dep >= index || b.rec[dep] == kNone) continue;
    // Across cores: between units, or into a cross-core wait (a MIX block's AIV waiting for its
    // AIC, whose waits replay on the block's one scalar lane).
    const bool cross = records_[b.rec[dep]].unit != r.unit || in.op == Op::kSyncWait ||
                       trace.instrs[dep].op == Op::kSyncSet;
    flows_.push_back({b.rec[dep], id, cross});
  }
  if (in.op == Op::kSyncWait) {
    for (const ascendc::BlockDep& d : trace.block_deps) {
      if (d.instr != index) continue;
      const auto it = sync_sets_.find({key(l, d.block), d.other});
      if (it != sync_sets_.end()) flows_.push_back({it->second, id, true});
    }
  }
  if (in.op == Op::kSyncSet) sync_sets_[{key(l, block), index}] = id;
}

// Each site's kernel line and Ascend C call (see the header comment).
std::vector<OpSimulator::Site> OpSimulator::resolve() const {
  // Distinct return addresses, by module.
  struct Where {
    std::string module;
    std::uintptr_t pc = 0;
  };
  std::map<std::uintptr_t, Where> where;
  std::map<std::string, std::vector<std::uintptr_t>> by_module;
  std::map<std::string, int> types;
  for (const auto& frames : sites_) {
    for (const std::uintptr_t a : frames) {
      if (a == 0 || where.count(a) != 0) continue;
      Dl_info info{};
      Where w;
      if (dladdr(reinterpret_cast<void*>(a), &info) != 0 && info.dli_fname != nullptr) {
        w.module = info.dli_fname;
        if (w.module.find('/') == std::string::npos) {
          w.module = "/proc/self/exe";  // the main program, as dladdr may name it ("")
        }
        auto t = types.find(w.module);
        if (t == types.end()) t = types.emplace(w.module, elf_type(w.module)).first;
        const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
        w.pc = (t->second == 2 ? a : a - base) - 1;  // the call instruction, not the return
        by_module[w.module].push_back(w.pc);
      }
      where[a] = w;
    }
  }
  std::map<std::pair<std::string, std::uintptr_t>, std::vector<Frame>> chains;
  for (auto& [module, pcs] : by_module) {
    std::sort(pcs.begin(), pcs.end());
    pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
    std::vector<std::vector<Frame>> got = addr2line(module, pcs);
    for (std::size_t i = 0; i < pcs.size(); ++i) chains[{module, pcs[i]}] = std::move(got[i]);
  }
  std::vector<Site> out(sites_.size());
  for (std::size_t s = 0; s < sites_.size(); ++s) {
    const Frame* previous = nullptr;
    bool found = false;
    for (const std::uintptr_t a : sites_[s]) {
      const Where& w = where[a];
      const auto it = chains.find({w.module, w.pc});
      if (it == chains.end()) continue;
      for (const Frame& f : it->second) {
        if (!npusim_or_system(f.file)) {
          out[s].code = f.file;
          out[s].addr = w.pc;
          if (previous != nullptr) out[s].call = short_function(previous->function);
          found = true;
          break;
        }
        previous = &f;
      }
      if (found) break;
    }
  }
  return out;
}

std::map<std::string, std::string> OpSimulator::render() const {
  const std::vector<Site> sites = resolve();
  auto site = [&](std::uint32_t id) -> const Site& {
    static const Site kUnknown;
    return id < sites.size() ? sites[id] : kUnknown;
  };
  auto cycles = [&](const Record& r) {
    return static_cast<double>(r.end - r.start) * launches_[r.launch].freq_hz * 1e-12;
  };
  // Units in core order: pid = position + 1.
  std::vector<std::uint16_t> order(units_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint16_t>(i);
  std::sort(order.begin(), order.end(),
            [&](std::uint16_t a, std::uint16_t b) {
              return unit_key(units_[a]) < unit_key(units_[b]);
            });
  std::vector<int> pid(units_.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) pid[order[i]] = static_cast<int>(i) + 1;
  std::vector<std::array<bool, ascendc::kPipeCount>> used(units_.size());
  for (auto& u : used) u.fill(false);
  for (const Record& r : records_) used[r.unit][static_cast<int>(r.pipe)] = true;

  auto slice = [&](const Record& r, std::uint32_t id) {
    std::string e = "{\"name\":" + json_str(r.label) + ",\"ph\":\"X\",\"pid\":" +
                    std::to_string(pid[r.unit]) + ",\"tid\":" +
                    std::to_string(static_cast<int>(r.pipe)) + ",\"ts\":" + us(r.start) +
                    ",\"dur\":" + us(r.end - r.start) + ",\"args\":{\"kernel\":" +
                    json_str(launches_[r.launch].name) + ",\"launch\":" +
                    std::to_string(r.launch) + ",\"block\":" + std::to_string(r.block) +
                    ",\"instr\":" + std::to_string(r.index) + ",\"id\":" + std::to_string(id);
    char buf[64];
    std::snprintf(buf, sizeof buf, ",\"cycles\":%.0f", cycles(r));
    e += buf;
    if (r.op == Op::kMmad) {
      e += ",\"m\":" + std::to_string(r.m) + ",\"n\":" + std::to_string(r.n) +
           ",\"k\":" + std::to_string(r.k);
    } else {
      e += ",\"bytes\":" + std::to_string(r.bytes);
      if (vector_op(r.op)) {
        e += ",\"elements\":" + std::to_string(r.count) +
             ",\"repeat\":" + std::to_string((r.bytes + 255) / 256);
      } else if (r.pipe != Pipe::kScalar) {
        e += std::string(",\"") + (r.op == Op::kLoad2d ? "fractals" : "bursts") +
             "\":" + std::to_string(r.count);
      }
    }
    if (*dtype_name(r.dtype) != '\0') e += ",\"dtype\":" + json_str(dtype_name(r.dtype));
    const Site& s = site(r.site);
    e += ",\"call\":" + json_str(s.call) + ",\"code\":" + json_str(s.code) + "}}";
    return e;
  };
  auto trace_json = [&](int only) {  // only: a unit, or -1 for all
    std::vector<std::string> ev;
    for (std::size_t u = 0; u < units_.size(); ++u) {
      if (only >= 0 && static_cast<int>(u) != only) continue;
      if (std::none_of(used[u].begin(), used[u].end(), [](bool b) { return b; })) continue;
      const std::string p = std::to_string(pid[u]);
      ev.push_back("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + p +
                   ",\"args\":{\"name\":" + json_str(units_[u]) + "}}");
      if (!labels_[u].empty()) {
        ev.push_back("{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":" + p +
                     ",\"args\":{\"labels\":" + json_str(labels_[u]) + "}}");
      }
      ev.push_back("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + p +
                   ",\"args\":{\"sort_index\":" + p + "}}");
      for (int q = 0; q < ascendc::kPipeCount; ++q) {
        if (!used[u][q]) continue;
        const std::string t = std::to_string(q);
        ev.push_back("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + p + ",\"tid\":" + t +
                     ",\"args\":{\"name\":\"" + kPipeNames[q] + "\"}}");
        ev.push_back("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" + p + ",\"tid\":" +
                     t + ",\"args\":{\"sort_index\":" + t + "}}");
      }
    }
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (only >= 0 && records_[i].unit != only) continue;
      ev.push_back(slice(records_[i], static_cast<std::uint32_t>(i)));
    }
    std::uint64_t flow_id = 0;
    for (const Flow& f : flows_) {
      ++flow_id;
      const Record& a = records_[f.from];
      const Record& b = records_[f.to];
      if (only >= 0 && (a.unit != only || b.unit != only)) continue;
      const char* name = f.cross ? "CrossCoreSetFlag/WaitFlag" : "SetFlag/WaitFlag";
      const char* cat = f.cross ? "cross_core" : "flag";
      const std::string common = std::string("{\"name\":\"") + name + "\",\"cat\":\"" + cat +
                                 "\",\"id\":" + std::to_string(flow_id);
      ev.push_back(common + ",\"ph\":\"s\",\"pid\":" + std::to_string(pid[a.unit]) +
                   ",\"tid\":" + std::to_string(static_cast<int>(a.pipe)) + ",\"ts\":" +
                   us(a.start) + "}");
      ev.push_back(common + ",\"ph\":\"f\",\"bp\":\"e\",\"pid\":" + std::to_string(pid[b.unit]) +
                   ",\"tid\":" + std::to_string(static_cast<int>(b.pipe)) + ",\"ts\":" +
                   us(b.start) + "}");
    }
    std::string message;
    if (cut_) {
      message = "instruction budget of " + std::to_string(options_.budget) +
                " reached (NPUSIM_OP_INSTR_BUDGET): the trace is cut in " + cut_at_;
      sim::SimTime last = 0;
      for (const Record& r : records_) last = std::max(last, r.end);
      ev.push_back("{\"name\":" + json_str("trace cut: " + message) +
                   ",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":" + us(last) + "}");
    }
    std::string out = "{\"traceEvents\":[\n";
    for (std::size_t i = 0; i < ev.size(); ++i) out += ev[i] + (i + 1 < ev.size() ? ",\n" : "\n");
    out += "],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"npusim op simulator\","
           "\"time_unit\":\"simulated us\",\"instructions\":" +
           std::to_string(records_.size()) + ",\"budget\":" + std::to_string(options_.budget) +
           ",\"cut\":" + (cut_ ? "true" : "false") + ",\"message\":" + json_str(message) + "}}\n";
    return out;
  };

  std::map<std::string, std::string> files;
  files["trace.json"] = trace_json(-1);
  for (std::size_t u = 0; u < units_.size(); ++u) {
    struct Sum {
      std::uint64_t count = 0;
      double cycles = 0;
      sim::SimTime ps = 0;
    };
    std::map<std::string, Sum> by_code;
    std::map<std::tuple<std::string, int, std::string, std::uint32_t>, Sum> by_instr;
    bool any = false;
    for (const Record& r : records_) {
      if (r.unit != u) continue;
      any = true;
      const Site& s = site(r.site);
      for (Sum* sum : {&by_code[s.code], &by_instr[{r.label, static_cast<int>(r.pipe),
                                                    dtype_name(r.dtype), r.site}]}) {
        ++sum->count;
        sum->cycles += cycles(r);
        sum->ps += r.end - r.start;
      }
    }
    if (!any) continue;
    auto hottest = [](const auto& m) {
      std::vector<typename std::decay_t<decltype(m)>::const_pointer> v;
      for (const auto& e : m) v.push_back(&e);
      std::stable_sort(v.begin(), v.end(),
                       [](auto a, auto b) { return a->second.cycles > b->second.cycles; });
      return v;
    };
    char buf[64];
    std::string code = "code,call_count,cycles,running_time(us)\n";
    for (const auto* e : hottest(by_code)) {
      std::snprintf(buf, sizeof buf, ",%.0f,", e->second.cycles);
      code += csv_field(e->first) + "," + std::to_string(e->second.count) + buf +
              us(e->second.ps) + "\n";
    }
    std::string instr = "instr,addr,pipe,call_count,cycles,running_time(us),detail\n";
    for (const auto* e : hottest(by_instr)) {
      const auto& [label, pipe, dtype, sid] = e->first;
      const Site& s = site(sid);
      char addr[32];
      std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(s.addr));
      std::snprintf(buf, sizeof buf, ",%.0f,", e->second.cycles);
      std::string detail = std::string(dtype.empty() ? "" : "dtype=" + dtype + "; ") +
                           "call=" + s.call + "; code=" + s.code;
      instr += csv_field(label) + "," + addr + "," + kPipeNames[pipe] + "," +
               std::to_string(e->second.count) + buf + us(e->second.ps) + "," +
               csv_field(detail) + "\n";
    }
    const std::string& name = units_[u];
    files[name + "/" + name + "_code_exe.csv"] = code;
    files[name + "/" + name + "_instr_exe.csv"] = instr;
    files[name + "/trace.json"] = trace_json(static_cast<int>(u));
  }
  return files;
}

void OpSimulator::write() const {
  namespace fs = std::filesystem;
  const std::map<std::string, std::string> files = render();
  for (const auto& [rel, text] : files) {
    const fs::path path = fs::path(options_.dir) / rel;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (ec || !out) {
      sim::log_error("npusim: op simulator: cannot write " + path.string());
      return;
    }
  }
}

}  // namespace npusim::models
