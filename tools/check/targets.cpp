// SPDX-License-Identifier: Apache-2.0
// The targets file parser (format: docs/check.md). Every error names the file, the line, the
// target (index and name) and the key, and says why; unknown keys are errors.
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "tools/check/check.h"
#include "tools/check/metric_yaml.h"
#include "tools/check/units.h"

namespace npusim::check {
namespace {

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  Metric metric(const YAML::Node& n, const std::string& ctx) const { return parse_metric(n, ctx); }
  void tolerance(const YAML::Node& n, Target& t) const { parse_tolerance(n, "tolerance", t); }

  std::vector<Target> parse(const YAML::Node& root) {
    if (root.IsMap()) {
      check_keys(root, {"targets", "description"}, "top level", "");
      if (!root["targets"]) fail(root, "top level: missing key 'targets' (a list of targets)");
    }
    const YAML::Node list = root.IsMap() ? root["targets"] : root;
    if (!list.IsSequence()) {
      fail(list, "'targets' must be a list of targets (each a map with name, metric, expected, "
                 "tolerance)");
    }
    if (list.size() == 0) fail(list, "'targets' is empty: nothing to check");
    std::vector<Target> out;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
      Target t = parse_target(list[i], i);
      if (!names.insert(t.name).second) {
        fail(list[i]["name"], where(i, t.name) + "key 'name': duplicate target name");
      }
      out.push_back(std::move(t));
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const {
    std::string place = file_;
    if (at.IsDefined() && at.Mark().line >= 0) place += ":" + std::to_string(at.Mark().line + 1);
    throw TargetsError(place + ": " + what);
  }
  static std::string where(std::size_t index, const std::string& name) {
    return "target " + std::to_string(index) + (name.empty() ? "" : " ('" + name + "')") + ": ";
  }
  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                  const std::string& what, const std::string& prefix) const {
    for (const auto& kv : map) {
      const std::string key = kv.first.as<std::string>();
      if (allowed.count(key)) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(kv.first, prefix + what + ": unknown key '" + key + "' (allowed: " + list + ")");
    }
  }
  std::string text(const YAML::Node& n, const std::string& ctx) const {
    if (!n.IsScalar() || n.Scalar().empty()) fail(n, ctx + ": expected a non-empty string");
    return n.Scalar();
  }
  double number(const YAML::Node& n, const std::string& ctx) const {
    if (!n.IsScalar()) fail(n, ctx + ": expected a number");
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, ctx + ": '" + n.Scalar() + "' is not a number");
    }
    if (!std::isfinite(v)) fail(n, ctx + ": '" + n.Scalar() + "' is not a finite number");
    return v;
  }

  Target parse_target(const YAML::Node& n, std::size_t i) {
    if (!n.IsMap()) fail(n, where(i, "") + "expected a map (name, metric, expected, tolerance)");
    Target t;
    t.line = n.Mark().line + 1;
    if (n["name"]) t.name = text(n["name"], where(i, "") + "key 'name'");
    const std::string at = where(i, t.name);
    check_keys(n, {"name", "metric", "expected", "tolerance", "direction"}, "", at.substr(0, at.size() - 2));
    if (!n["name"]) fail(n, at + "missing key 'name'");
    if (!n["metric"]) fail(n, at + "missing key 'metric'");
    if (!n["expected"]) fail(n, at + "missing key 'expected'");
    if (!n["tolerance"]) fail(n, at + "missing key 'tolerance' (e.g. 0.05, \"5%\" or {abs: 10})");
    t.metric = parse_metric(n["metric"], at + "key 'metric'");
    t.expected = number(n["expected"], at + "key 'expected'");
    parse_tolerance(n["tolerance"], at + "key 'tolerance'", t);
    t.expected_pos = static_cast<std::size_t>(n["expected"].Mark().pos);
    t.tolerance_pos = static_cast<std::size_t>(n["tolerance"].Mark().pos);
    if (const YAML::Node d = n["direction"]) {
      const std::string s = text(d, at + "key 'direction'");
      if (s == "lower_is_better") {
        t.direction = Direction::kLowerIsBetter;
      } else if (s == "higher_is_better") {
        t.direction = Direction::kHigherIsBetter;
      } else {
        fail(d, at + "key 'direction': '" + s +
                    "' is not a direction (lower_is_better or higher_is_better)");
      }
    }
    return t;
  }

  void parse_tolerance(const YAML::Node& n, const std::string& ctx, Target& t) const {
    const char* forms = " (a relative fraction like 0.05, a percentage like \"5%\", or an "
                        "absolute amount {abs: 10} / \"abs:10\")";
    double v = 0;
    if (n.IsMap()) {
      if (n.size() != 1) fail(n, ctx + ": expected exactly one of 'abs' or 'rel'" + forms);
      const auto kv = *n.begin();
      const std::string key = kv.first.as<std::string>();
      if (key != "abs" && key != "rel") fail(kv.first, ctx + ": unknown key '" + key + "'" + forms);
      t.absolute = key == "abs";
      v = number(kv.second, ctx + "." + key);
    } else if (n.IsScalar()) {
      std::string s = n.Scalar();
      double scale = 1;
      if (s.rfind("abs:", 0) == 0) {
        t.absolute = true;
        s = s.substr(4);
      } else if (!s.empty() && s.back() == '%') {
        s.pop_back();
        scale = 0.01;
      }
      std::istringstream in(s);
      in >> v;
      if (in.fail() || !(in >> std::ws).eof() || !std::isfinite(v)) {
        fail(n, ctx + ": '" + n.Scalar() + "' is not a tolerance" + forms);
      }
      v *= scale;
    } else {
      fail(n, ctx + ": expected a tolerance" + forms);
    }
    if (v < 0) fail(n, ctx + ": a tolerance cannot be negative");
    t.tolerance = v;
  }

  Metric::Agg parse_agg(const YAML::Node& n, const std::string& ctx, bool span) const {
    if (!n) return Metric::Agg::kSum;
    const std::string agg = text(n, ctx);
    static const std::map<std::string, Metric::Agg> kAggs = {
        {"sum", Metric::Agg::kSum}, {"mean", Metric::Agg::kMean},   {"max", Metric::Agg::kMax},
        {"min", Metric::Agg::kMin}, {"count", Metric::Agg::kCount}, {"span", Metric::Agg::kSpan}};
    const auto it = kAggs.find(agg);
    if (it == kAggs.end() || (!span && it->second == Metric::Agg::kSpan)) {
      fail(n, ctx + ": '" + agg + "' is not an aggregate (sum, mean, max, min, count" +
                  (span ? ", span)" : ")"));
    }
    return it->second;
  }

  Metric parse_metric(const YAML::Node& n, const std::string& ctx) const {
    const char* forms = " (one of: stats: <path in stats.json>, replay: <field of "
                        "replay_summary.json>, op_summary: {op, op_type, column, agg}, timeline: "
                        "{event, agg}; and optionally unit: <unit>)";
    if (!n.IsMap()) fail(n, ctx + ": expected a map with exactly one source" + forms);
    check_keys(n, {"stats", "op_summary", "replay", "timeline", "unit"}, "", ctx);
    const std::size_t sources = n.size() - (n["unit"] ? 1 : 0);
    if (sources != 1) fail(n, ctx + ": expected a map with exactly one source" + forms);
    for (const auto& kv : n) {
      if (kv.first.as<std::string>() == "unit") continue;
      Metric m = parse_source(kv.first.as<std::string>(), kv.second, ctx);
      if (const YAML::Node u = n["unit"]) m.unit = unit(u, ctx + ".unit");
      return m;
    }
    return Metric{};  // not reached: one source
  }

  std::string unit(const YAML::Node& n, const std::string& ctx) const {
    const std::string u = canonical_unit(text(n, ctx));
    if (u.empty()) fail(n, ctx + ": '" + n.Scalar() + "' is not a unit (" + known_units() + ")");
    return u;
  }

  Metric parse_source(const std::string& key, const YAML::Node& value, const std::string& ctx) const {
    Metric m;
    const std::string sub = ctx + "." + key;
    if (key == "stats" || key == "replay") {
      m.source = key == "stats" ? Metric::Source::kStats : Metric::Source::kReplay;
      m.path = text(value, sub);
      if (m.path.front() == '.' || m.path.back() == '.' || m.path.find("..") != std::string::npos) {
        fail(value, sub + ": '" + m.path + "' is not a dotted path (e.g. chip0.hbm.bytes)");
      }
      return m;
    }
    if (key == "timeline") {
      m.source = Metric::Source::kTimeline;
      const YAML::Node o = value;
      if (!o.IsMap()) fail(o, sub + ": expected a map {event, agg}");
      check_keys(o, {"event", "agg"}, "", sub);
      if (!o["event"]) fail(o, sub + ": missing key 'event' (e.g. AscendCL@aclrtSynchronizeStream)");
      m.event = text(o["event"], sub + ".event");
      m.agg = parse_agg(o["agg"], sub + ".agg", true);
      return m;
    }
    m.source = Metric::Source::kOpSummary;
    const YAML::Node o = value;
    if (!o.IsMap()) fail(o, sub + ": expected a map {op, op_type, column, agg}");
    check_keys(o, {"op", "op_type", "column", "agg"}, "", sub);
    if (o["op"]) m.op = text(o["op"], sub + ".op");
    if (o["op_type"]) m.op_type = text(o["op_type"], sub + ".op_type");
    m.agg = parse_agg(o["agg"], sub + ".agg", false);
    if (o["column"]) {
      m.column = text(o["column"], sub + ".column");
    } else if (m.agg != Metric::Agg::kCount) {
      fail(o, sub + ": missing key 'column' (e.g. \"Task Duration(us)\"; only agg: count needs none)");
    }
    return m;
  }

  std::string file_;
};

}  // namespace

std::vector<Target> parse_targets(const std::string& text, const std::string& file) {
  return Parser(file).parse(load_yaml_file<TargetsError>(text, file, "targets"));
}

Metric parse_metric(const YAML::Node& node, const std::string& file, const std::string& context) {
  return Parser(file).metric(node, context);
}

void parse_tolerance(const std::string& text, const std::string& what, Target& t) {
  YAML::Node n;
  try {
    n = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw TargetsError(what + ": '" + text + "' is not a tolerance: " + e.msg);
  }
  Parser(what).tolerance(n, t);
}

std::string tolerance_yaml(const Target& t) {
  std::ostringstream s;
  s.precision(15);
  if (t.absolute) {
    s << "{abs: " << t.tolerance << "}";
  } else {
    s << t.tolerance * 100.0 << "%";
  }
  return s.str();
}

std::vector<Target> load_targets(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TargetsError(path + ": cannot read the targets file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_targets(text.str(), path);
}

namespace {
std::string in_unit(const std::string& unit) { return unit.empty() ? "" : " in " + unit; }
}  // namespace

std::string Metric::describe() const {
  static const char* kAgg[] = {"sum", "mean", "max", "min", "count", "span"};
  switch (source) {
    case Source::kStats:
      return "stats.json " + path + in_unit(unit);
    case Source::kReplay:
      return "replay_summary.json " + path + in_unit(unit);
    case Source::kTimeline:
      return std::string("timeline.json ") + kAgg[static_cast<int>(agg)] + "(" +
             (agg == Agg::kSum || agg == Agg::kMean || agg == Agg::kMax || agg == Agg::kMin
                  ? "dur of "
                  : "") +
             event + ")" + in_unit(unit);
    case Source::kOpSummary: {
      std::string s = std::string("op_summary.csv ") + kAgg[static_cast<int>(agg)] + "(" +
                      (agg == Agg::kCount ? "rows" : column) + ")";
      if (!op.empty()) s += " op=" + op;
      if (!op_type.empty()) s += " op_type=" + op_type;
      return s + in_unit(unit);
    }
  }
  return "";
}

}  // namespace npusim::check
