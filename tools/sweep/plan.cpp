// SPDX-License-Identifier: Apache-2.0
// The sweep file parser and its expansion into runs (format: docs/sweep.md). Every error names
// the file, the line, the key and the reason; unknown keys are errors.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "tools/check/metric_yaml.h"
#include "tools/sweep/sweep.h"

namespace fs = std::filesystem;

namespace npusim::sweep {
namespace {

/// A swept or fixed key naming a trace parameter: "param.NAME" (passed as --param NAME=value).
constexpr std::string_view kParamPrefix = "param.";
bool is_param(const std::string& key) { return key.compare(0, kParamPrefix.size(), kParamPrefix) == 0; }

class Parser {
 public:
  Parser(std::string file, std::string base_dir, const Validator& validate)
      : file_(std::move(file)), base_(std::move(base_dir)), validate_(validate) {}

  Plan parse(const YAML::Node& root, const std::string& text) {
    if (!root.IsMap()) fail(root, "expected a map (replay or run, grid and/or runs, ...)");
    check_keys(root, {"name", "description", "replay", "run", "args", "config", "set", "grid",
                      "runs", "metrics", "workdir", "timeout"});
    Plan plan;
    plan.file = file_;
    plan.text = text;
    parse_header(root, plan);
    const Workload workload = parse_workload(root, plan.replay);
    // The swept values: the grid's combinations, then the explicit runs.
    Combos combos;
    if (const YAML::Node g = root["grid"]) expand_grid(g, plan, combos);
    if (const YAML::Node rs = root["runs"]) add_runs(rs, plan, combos);
    if (combos.values.empty()) fail(root, "nothing to sweep: give 'grid' and/or 'runs'");
    if (combos.values.size() > kMaxRuns) {
      fail(root, std::to_string(combos.values.size()) + " runs (grid and runs) is more than the " +
                     std::to_string(kMaxRuns) + " runs a sweep may have");
    }
    std::map<std::vector<Assignment>, int> seen;
    for (std::size_t i = 0; i < combos.values.size(); ++i) {
      plan.runs.push_back(make_run(plan, workload, combos, i, seen));
    }
    parse_metrics(root, plan);
    return plan;
  }

 private:
  /// The part of every run's arguments that does not change.
  struct Workload {
    std::vector<std::string> head, tail;  // before and after the swept arguments
    std::string base_config;
    std::vector<Assignment> fixed;  // `set:`
  };
  /// Each run's swept values, and the node it comes from (for messages).
  struct Combos {
    std::vector<std::vector<Assignment>> values;
    std::vector<YAML::Node> origin;
  };

  void parse_header(const YAML::Node& root, Plan& plan) const {
    plan.name = root["name"] ? scalar(root["name"], "name") : fs::path(file_).stem().string();
    if (root["description"]) plan.description = scalar(root["description"], "description");
    if (root["replay"] && root["run"]) fail(root["run"], "give either 'replay' or 'run', not both");
    if (!root["replay"] && !root["run"]) {
      fail(root, "missing the workload: 'replay: TRACE' (a trace file) or 'run: [PROGRAM, args...]'");
    }
    plan.replay = bool(root["replay"]);
    plan.workdir = root["workdir"] ? absolute(scalar(root["workdir"], "workdir"))
                                   : fs::current_path().string();
    if (root["timeout"]) {
      plan.timeout_s = number(root["timeout"], "timeout");
      if (plan.timeout_s < 0) fail(root["timeout"], "timeout: must be >= 0 seconds (0: none)");
    }
  }

  /// `replay: TRACE` (+ `args`) or `run: [PROGRAM, args...]`.
  void parse_command(const YAML::Node& root, bool replay, Workload& w) const {
    if (replay) {
      w.head = {"replay", absolute(scalar(root["replay"], "replay"))};
      if (!fs::is_regular_file(w.head[1])) {
        fail(root["replay"], "replay: no such trace file: " + w.head[1]);
      }
    } else {
      const YAML::Node r = root["run"];
      std::vector<std::string> prog = r.IsSequence() ? strings(r, "run") : std::vector<std::string>{scalar(r, "run")};
      if (prog.empty()) fail(r, "run: empty (expected [PROGRAM, args...])");
      // A path with a slash is relative to the sweep file; a bare name is looked up on PATH.
      if (prog[0].find('/') != std::string::npos) prog[0] = absolute(prog[0]);
      w.head = {"run"};
      w.tail.push_back("--");
      w.tail.insert(w.tail.end(), prog.begin(), prog.end());
    }
    if (root["args"]) {
      if (!replay) fail(root["args"], "args: only for 'replay' (a program's arguments go in 'run')");
      for (const auto& a : strings(root["args"], "args")) w.tail.push_back(a);
    }
  }

  Workload parse_workload(const YAML::Node& root, bool replay) const {
    Workload w;
    parse_command(root, replay, w);
    if (root["config"]) w.base_config = config_path(scalar(root["config"], "config"));
    if (const YAML::Node s = root["set"]) {
      if (!s.IsMap()) fail(s, "set: expected a map of config keys to values");
      for (const auto& kv : s) {
        const std::string key = kv.first.as<std::string>();
        check_param(kv.first, key, replay, "set");
        w.fixed.emplace_back(key, scalar(kv.second, "set." + key));
      }
    }
    return w;
  }

  /// Every combination of the grid's values; the first key varies slowest.
  void expand_grid(const YAML::Node& g, Plan& plan, Combos& combos) const {
    if (!g.IsMap() || g.size() == 0) fail(g, "grid: expected a map of keys to lists of values");
    std::vector<std::pair<std::string, std::vector<std::string>>> axes;
    for (const auto& kv : g) {
      const std::string key = kv.first.as<std::string>();
      check_param(kv.first, key, plan.replay, "grid");
      if (!kv.second.IsSequence() || kv.second.size() == 0) {
        fail(kv.second, "grid." + key + ": expected a non-empty list of values");
      }
      add_param(plan, key);
      axes.emplace_back(key, strings(kv.second, "grid." + key));
    }
    check_grid_size(g, axes);
    std::vector<std::size_t> at(axes.size(), 0);
    for (;;) {  // the first key varies slowest (nested loops in file order)
      std::vector<Assignment> c;
      for (std::size_t a = 0; a < axes.size(); ++a) c.emplace_back(axes[a].first, axes[a].second[at[a]]);
      combos.values.push_back(std::move(c));
      combos.origin.push_back(g);
      std::size_t a = axes.size();
      while (a > 0 && ++at[a - 1] == axes[a - 1].second.size()) at[--a] = 0;
      if (a == 0) break;
    }
  }

  /// The grid's runs are counted before they are expanded: a grid of more than kMaxRuns runs is
  /// refused with its count (it would otherwise exhaust the host's memory while expanding).
  void check_grid_size(const YAML::Node& g,
                       const std::vector<std::pair<std::string, std::vector<std::string>>>& axes)
      const {
    double runs = 1;  // a double: 10^10 runs (or far more) must not wrap
    std::string product;
    for (const auto& axis : axes) {
      runs *= static_cast<double>(axis.second.size());
      product += (product.empty() ? "" : " x ") + std::to_string(axis.second.size());
    }
    if (runs <= static_cast<double>(kMaxRuns)) return;
    std::ostringstream n;
    n << std::setprecision(15) << runs;
    fail(g, "grid: " + n.str() + " runs (" + product + " values) is more than the " +
                std::to_string(kMaxRuns) + " runs a sweep may have; split it into several sweeps");
  }

  /// The explicit `runs:`, one map of key: value each.
  void add_runs(const YAML::Node& rs, Plan& plan, Combos& combos) const {
    if (!rs.IsSequence()) fail(rs, "runs: expected a list of maps (key: value)");
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const YAML::Node r = rs[i];
      const std::string ctx = "runs[" + std::to_string(i) + "]";
      if (!r.IsMap() || r.size() == 0) fail(r, ctx + ": expected a non-empty map (key: value)");
      std::vector<Assignment> c;
      for (const auto& kv : r) {
        const std::string key = kv.first.as<std::string>();
        check_param(kv.first, key, plan.replay, ctx);
        add_param(plan, key);
        c.emplace_back(key, scalar(kv.second, ctx + "." + key));
      }
      combos.values.push_back(std::move(c));
      combos.origin.push_back(r);
    }
  }

  /// Run i: its value of every swept key ("" where it sets none), refused when it repeats an
  /// earlier run or the validator rejects its configuration; then its npusim arguments.
  Run make_run(const Plan& plan, const Workload& w, const Combos& combos, std::size_t i,
               std::map<std::vector<Assignment>, int>& seen) const {
    Run run;
    run.index = static_cast<int>(i);
    for (const std::string& p : plan.params) {
      std::string v;
      for (const auto& [k, val] : combos.values[i]) {
        if (k == p) v = val;
      }
      run.values.emplace_back(p, v);
    }
    const auto [it, fresh] = seen.emplace(run.values, run.index);
    if (!fresh) {
      fail(combos.origin[i], "run " + std::to_string(i) + " (" + describe(run.values) +
                                 ") repeats run " + std::to_string(it->second));
    }
    run.args = arguments(w, run, combos.origin[i]);
    return run;
  }

  std::vector<std::string> arguments(const Workload& w, const Run& run,
                                     const YAML::Node& origin) const {
    std::string config = w.base_config;
    std::vector<std::string> sets, params;
    for (const auto& [k, v] : w.fixed) (is_param(k) ? params : sets).push_back(assign(k, v));
    for (const auto& [k, v] : run.values) {
      if (v.empty()) continue;  // not set by this run: the base value
      if (k == "config") {
        config = config_path(v);
      } else if (is_param(k)) {
        params.push_back(assign(k, v));
      } else {
        sets.push_back(assign(k, v));
      }
    }
    if (validate_) {
      const std::string why = validate_(config, sets);
      if (!why.empty()) {
        fail(origin,
             "run " + std::to_string(run.index) + " (" + describe(run.values) + "): " + why);
      }
    }
    std::vector<std::string> args = w.head;
    if (!config.empty()) args.insert(args.end(), {"--config", config});
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    for (const auto& p : params) args.insert(args.end(), {"--param", p.substr(kParamPrefix.size())});
    args.insert(args.end(), {"--out", "{out}"});
    args.insert(args.end(), w.tail.begin(), w.tail.end());
    return args;
  }

  /// The table's metric columns: `metrics:`, or the defaults.
  void parse_metrics(const YAML::Node& root, Plan& plan) const {
    const YAML::Node m = root["metrics"];
    if (!m) {
      plan.metrics = default_metrics(plan.replay);
      return;
    }
    if (!m.IsMap() || m.size() == 0) fail(m, "metrics: expected a map of column names to metrics");
    std::set<std::string> names(plan.params.begin(), plan.params.end());
    names.insert({"run", "status", "exit_code"});
    for (const auto& kv : m) {
      const std::string name = kv.first.as<std::string>();
      if (!names.insert(name).second) fail(kv.first, "metrics." + name + ": the column name is taken");
      try {
        plan.metrics.emplace_back(name, check::parse_metric(kv.second, file_, "metrics." + name));
      } catch (const check::TargetsError& e) {
        throw SweepError(e.what());
      }
    }
  }

  /// simulated (us, replays), sim_time (us), tasks (count), task_time (us).
  static std::vector<std::pair<std::string, check::Metric>> default_metrics(bool replay) {
    using check::Metric;
    std::vector<std::pair<std::string, Metric>> out;
    Metric m;
    if (replay) {
      m.source = Metric::Source::kReplay;
      m.path = "simulated_us";
      out.emplace_back("simulated", m);
    }
    m = Metric{};
    m.path = "sim_time";
    m.unit = "us";
    out.emplace_back("sim_time", m);
    m = Metric{};
    m.source = Metric::Source::kOpSummary;
    m.agg = Metric::Agg::kCount;
    out.emplace_back("tasks", m);
    m.agg = Metric::Agg::kSum;
    m.column = "Task Duration(us)";
    out.emplace_back("task_time", m);
    return out;
  }

  static std::string assign(const std::string& k, const std::string& v) { return k + "=" + v; }

  static void add_param(Plan& plan, const std::string& key) {
    for (const auto& p : plan.params) {
      if (p == key) return;
    }
    plan.params.push_back(key);
  }

  void check_param(const YAML::Node& at, const std::string& key, bool replay,
                   const std::string& ctx) const {
    if (key.empty()) fail(at, ctx + ": empty key");
    if (is_param(key)) {
      if (!replay) fail(at, ctx + "." + key + ": trace parameters (param.NAME) need 'replay'");
      if (key.size() == kParamPrefix.size()) fail(at, ctx + "." + key + ": expected param.NAME");
    }
    if (key == "run" || key == "status" || key == "exit_code") {
      fail(at, ctx + "." + key + ": '" + key + "' names a column of the table, not a parameter");
    }
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const {
    std::string place = file_;
    if (at.IsDefined() && at.Mark().line >= 0) place += ":" + std::to_string(at.Mark().line + 1);
    throw SweepError(place + ": " + what);
  }

  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed) const {
    for (const auto& kv : map) {
      const std::string key = kv.first.as<std::string>();
      if (allowed.count(key)) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(kv.first, "unknown key '" + key + "' (allowed: " + list + ")");
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& ctx) const {
    if (!n.IsScalar() || n.Scalar().empty()) fail(n, ctx + ": expected a non-empty value");
    return n.Scalar();
  }

  double number(const YAML::Node& n, const std::string& ctx) const {
    try {
      return n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, ctx + ": expected a number");
    }
  }

  std::vector<std::string> strings(const YAML::Node& n, const std::string& ctx) const {
    if (!n.IsSequence()) fail(n, ctx + ": expected a list");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n.size(); ++i) out.push_back(scalar(n[i], ctx + "[" + std::to_string(i) + "]"));
    return out;
  }

  std::string absolute(const std::string& p) const {
    fs::path path(p);
    if (path.is_relative()) path = fs::path(base_) / path;
    return fs::absolute(path).lexically_normal().string();
  }

  /// A config file (not a preset name) is relative to the sweep file, like the other paths.
  std::string config_path(const std::string& v) const {
    const std::string ext = fs::path(v).extension().string();
    return ext == ".yaml" || ext == ".yml" ? absolute(v) : v;
  }

  static std::string describe(const std::vector<Assignment>& values) {
    std::string out;
    for (const auto& [k, v] : values) {
      if (!v.empty()) out += (out.empty() ? "" : ", ") + k + "=" + v;
    }
    return out;
  }

  std::string file_, base_;
  const Validator& validate_;
};

}  // namespace

Plan parse_plan(const std::string& text, const std::string& file, const std::string& base_dir,
                const Validator& validate) {
  const YAML::Node root = check::load_yaml_file<SweepError>(text, file, "sweep");
  return Parser(file, base_dir, validate).parse(root, text);
}

Plan load_plan(const std::string& file, const Validator& validate) {
  std::ifstream in(file);
  if (!in) throw SweepError(file + ": cannot read the sweep file");
  std::stringstream text;
  text << in.rdbuf();
  const fs::path dir = fs::absolute(fs::path(file)).parent_path();
  return parse_plan(text.str(), file, dir.string(), validate);
}

}  // namespace npusim::sweep
