// SPDX-License-Identifier: Apache-2.0
// `npusim check TARGETS RUN --update [--tolerance T]`: a good run becomes the targets file.
// An existing file is edited in place: only the text of each `expected:` value (and, with
// --tolerance, of each `tolerance:` value) is replaced, so its comments, order, names, metrics
// and directions stay as they were written. A new file gets default_targets().
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tools/check/check.h"
#include "tools/check/text.h"

namespace npusim::check {
namespace {

namespace fs = std::filesystem;

/// The shortest text of at most 12 significant digits that reads back as `v` (or as close to it
/// as 12 digits get: well inside the 1e-12 slack judge() allows), without an exponent for the
/// integers of counts, bytes and picoseconds.
std::string exact(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
    return buf;
  }
  for (int precision = 1; precision <= 12; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

/// The end of the YAML value that starts at `pos`: a flow collection to its closing bracket, a
/// quoted scalar to its closing quote, a plain scalar to the end of the line, a comment, or
/// (in a flow collection) a ',' / '}' / ']'.
std::size_t value_end(const std::string& text, std::size_t pos) {
  const char first = text[pos];
  if (first == '"' || first == '\'') {
    std::size_t i = pos + 1;
    while (i < text.size() && text[i] != first) i += text[i] == '\\' && first == '"' ? 2 : 1;
    return std::min(i + 1, text.size());
  }
  if (first == '{' || first == '[') {
    int depth = 0;
    for (std::size_t i = pos; i < text.size(); ++i) {
      depth += text[i] == '{' || text[i] == '[';
      depth -= text[i] == '}' || text[i] == ']';
      if (depth == 0) return i + 1;
    }
    return text.size();
  }
  std::size_t i = pos;
  while (i < text.size() && text[i] != '\n' && text[i] != ',' && text[i] != '}' &&
         text[i] != ']' && !(text[i] == '#' && i > pos && text[i - 1] == ' ')) {
    ++i;
  }
  while (i > pos && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
  return i;
}

struct Edit {
  std::size_t pos, end;
  std::string text;
};

/// The targets' values in the run; throws MetricError naming the target.
std::vector<double> measure(const std::vector<Target>& targets, RunOutputs& run,
                            const std::string& file) {
  std::vector<double> values;
  for (const Target& t : targets) {
    try {
      values.push_back(run.value(t.metric));
    } catch (const MetricError& e) {
      throw MetricError("target '" + t.name + "' (" + file + ":" + std::to_string(t.line) +
                        "): " + e.what());
    }
  }
  return values;
}

/// The file's text with every expected value (and tolerance, when `tolerance` is not empty)
/// replaced; checked by parsing it again. Throws TargetsError.
std::string rewrite(const std::string& text, const std::string& file,
                    const std::vector<Target>& targets, const std::vector<double>& values,
                    const std::string& tolerance) {
  std::vector<Edit> edits;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    edits.push_back({t.expected_pos, value_end(text, t.expected_pos), exact(values[i])});
    if (!tolerance.empty()) {
      edits.push_back({t.tolerance_pos, value_end(text, t.tolerance_pos), tolerance});
    }
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.pos > y.pos; });
  std::string out = text;
  for (const Edit& e : edits) out.replace(e.pos, e.end - e.pos, e.text);
  const std::vector<Target> again = parse_targets(out, file);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (again.size() != targets.size() ||
        std::fabs(again[i].expected - values[i]) > 1e-12 * std::fabs(values[i])) {
      throw TargetsError(file + ": could not rewrite target '" + targets[i].name +
                         "' in place (an unusual layout?); write its expected value by hand");
    }
  }
  return out;
}

/// A new file: each target's expected value and tolerance; an updated one: old and new values.
void print_targets(const std::vector<Target>& targets, const std::vector<double>& values,
                   RunOutputs& run, bool fresh, std::ostream& out) {
  Table table(fresh ? std::vector<std::string>{"target", "unit", "expected", "tolerance"}
                    : std::vector<std::string>{"target", "unit", "old expected", "new expected",
                                               "change"},
              {0, 1});
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    if (fresh) {
      table.add({t.name, run.unit(t.metric), num(values[i]), tolerance_yaml(t)});
    } else {
      table.add({t.name, run.unit(t.metric), num(t.expected), num(values[i]),
                 percent(rel_change(t.expected, values[i]))});
    }
  }
  table.print(out);
}

int update_existing(const std::string& file, RunOutputs& run, const std::string& tolerance,
                    std::ostream& out) {
  std::ifstream in(file);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  const std::vector<Target> targets = parse_targets(text, file);
  const std::vector<double> values = measure(targets, run, file);
  const std::string updated = rewrite(text, file, targets, values, tolerance);
  if (!write_file_atomically(file, updated)) throw TargetsError(file + ": cannot write it");
  out << "npusim check --update: " << file << ": " << targets.size()
      << " expected values from " << run.dir()
      << (tolerance.empty() ? " (tolerances kept)" : ", tolerances " + tolerance) << "\n\n";
  print_targets(targets, values, run, false, out);
  return 0;
}

int write_new(const std::string& file, RunOutputs& run, const std::string& tolerance,
              std::ostream& out) {
  std::vector<Target> targets = default_targets(run);
  if (targets.empty()) {
    throw MetricError(run.dir() + ": no stats.json, op_summary.csv or replay_summary.json to "
                      "take targets from");
  }
  const std::vector<double> values = measure(targets, run, file);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    targets[i].expected = values[i];
    parse_tolerance(tolerance, "--tolerance", targets[i]);
  }
  const std::string desc = "targets from " + run.dir() + " (npusim check --update)";
  if (!write_file_atomically(file, targets_yaml(targets, desc))) {
    throw TargetsError(file + ": cannot write it");
  }
  out << "npusim check --update: wrote " << file << ": " << targets.size()
      << " targets from " << run.dir() << ", tolerance " << tolerance << "\n\n";
  print_targets(targets, values, run, true, out);
  return 0;
}

Metric stats_metric(const std::string& path, const std::string& unit = "") {
  Metric m;
  m.path = path;
  m.unit = unit;
  return m;
}

Metric op_metric(const std::string& op_type, Metric::Agg agg) {
  Metric m;
  m.source = Metric::Source::kOpSummary;
  m.op_type = op_type;
  m.agg = agg;
  if (agg != Metric::Agg::kCount) m.column = "Task Duration(us)";
  return m;
}

void emit_metric(YAML::Emitter& e, const Metric& m) {
  static const char* kAgg[] = {"sum", "mean", "max", "min", "count", "span"};
  e << YAML::Flow << YAML::BeginMap;
  switch (m.source) {
    case Metric::Source::kStats: e << YAML::Key << "stats" << YAML::Value << m.path; break;
    case Metric::Source::kReplay: e << YAML::Key << "replay" << YAML::Value << m.path; break;
    case Metric::Source::kTimeline:
      e << YAML::Key << "timeline" << YAML::Value << YAML::BeginMap << YAML::Key << "event"
        << YAML::Value << m.event << YAML::Key << "agg" << YAML::Value
        << kAgg[static_cast<int>(m.agg)] << YAML::EndMap;
      break;
    case Metric::Source::kOpSummary:
      e << YAML::Key << "op_summary" << YAML::Value << YAML::BeginMap;
      if (!m.op.empty()) e << YAML::Key << "op" << YAML::Value << m.op;
      if (!m.op_type.empty()) e << YAML::Key << "op_type" << YAML::Value << m.op_type;
      if (!m.column.empty()) e << YAML::Key << "column" << YAML::Value << m.column;
      e << YAML::Key << "agg" << YAML::Value << kAgg[static_cast<int>(m.agg)] << YAML::EndMap;
      break;
  }
  if (!m.unit.empty()) e << YAML::Key << "unit" << YAML::Value << m.unit;
  e << YAML::EndMap;
}

}  // namespace

namespace {

Target target(const std::string& name, const Metric& m, Direction d = Direction::kNone) {
  Target t;
  t.name = name;
  t.metric = m;
  t.direction = d;
  return t;
}

/// kernels, and per OP Type (sorted) its kernels and their summed Task Duration.
void op_targets(RunOutputs& run, std::vector<Target>& out) {
  out.push_back(target("kernels", op_metric("", Metric::Agg::kCount)));
  std::set<std::string> types;
  const auto& rows = run.op_rows();
  const auto col = static_cast<std::size_t>(
      std::find(rows[0].begin(), rows[0].end(), "OP Type") - rows[0].begin());
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (col < rows[r].size()) types.insert(rows[r][col]);
  }
  for (const std::string& t : types) {
    out.push_back(target(t + " kernels", op_metric(t, Metric::Agg::kCount)));
    out.push_back(target(t + " time", op_metric(t, Metric::Agg::kSum), Direction::kLowerIsBetter));
  }
}

/// "chipN" when `path` is exactly "chip<digits>" + `suffix`, else "".
std::string chip_of(const std::string& path, const std::string& suffix) {
  if (path.size() <= suffix.size() + 4 || path.compare(0, 4, "chip") != 0) return "";
  const size_t end = path.size() - suffix.size();
  if (path.compare(end, std::string::npos, suffix) != 0) return "";
  for (size_t i = 4; i < end; ++i) {
    if (path[i] < '0' || path[i] > '9') return "";
  }
  return path.substr(0, end);
}

/// The host link's bytes, and each chip that completed a task: its tasks and HBM bytes.
void traffic_targets(const std::map<std::string, double>& leaves, std::vector<Target>& out) {
  const std::pair<const char*, const char*> kBytes[] = {
      {"system.root_complex.h2d.bytes", "host to device bytes"},
      {"system.root_complex.d2h.bytes", "device to host bytes"}};
  for (const auto& [path, name] : kBytes) {
    if (leaves.count(path)) out.push_back(target(name, stats_metric(path)));
  }
  const std::string kSuffix = ".scheduler.completed";
  for (const auto& [path, v] : leaves) {
    const std::string chip = chip_of(path, kSuffix);
    if (v <= 0 || chip.empty()) continue;
    out.push_back(target(chip + " tasks", stats_metric(path)));
    if (leaves.count(chip + ".hbm.bytes")) {
      out.push_back(target(chip + " HBM bytes", stats_metric(chip + ".hbm.bytes")));
    }
  }
}

}  // namespace

std::vector<Target> default_targets(RunOutputs& run) {
  std::vector<Target> out;
  const auto lower = Direction::kLowerIsBetter;
  std::map<std::string, double> leaves;
  if (fs::exists(fs::path(run.dir()) / "stats.json")) leaves = run.stats_leaves();
  if (leaves.count("sim_time")) {
    out.push_back(target("simulated time", stats_metric("sim_time", "us"), lower));
  }
  if (run.has_replay_summary()) {
    Metric m;
    m.source = Metric::Source::kReplay;
    m.path = "simulated_us";
    out.push_back(target("end to end", m, lower));
  }
  if (run.has_op_summary()) op_targets(run, out);
  traffic_targets(leaves, out);
  return out;
}

std::string targets_yaml(const std::vector<Target>& targets, const std::string& description) {
  YAML::Emitter e;
  e << YAML::BeginMap << YAML::Key << "description" << YAML::Value << description;
  e << YAML::Key << "targets" << YAML::Value << YAML::BeginSeq;
  for (const Target& t : targets) {
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name;
    e << YAML::Key << "metric" << YAML::Value;
    emit_metric(e, t.metric);
    e << YAML::Key << "expected" << YAML::Value << exact(t.expected);
    e << YAML::Key << "tolerance" << YAML::Value;
    if (t.absolute) {
      e << YAML::Flow << YAML::BeginMap << YAML::Key << "abs" << YAML::Value
        << exact(t.tolerance) << YAML::EndMap;
    } else {
      e << exact(t.tolerance * 100.0) + "%";
    }
    if (t.direction != Direction::kNone) {
      e << YAML::Key << "direction" << YAML::Value
        << (t.direction == Direction::kLowerIsBetter ? "lower_is_better" : "higher_is_better");
    }
    e << YAML::EndMap;
  }
  e << YAML::EndSeq << YAML::EndMap;
  return "# npusim check targets (docs/check.md); `npusim check THIS_FILE RUN --update` takes\n"
         "# the expected values from another run.\n" +
         std::string(e.c_str()) + "\n";
}

int run_update(const std::string& targets_file, const std::string& run_dir,
               const std::string& tolerance, std::ostream& out, std::ostream& err) {
  if (!fs::is_directory(run_dir)) {
    err << "npusim check: " << run_dir << ": not a directory (the --out directory of a run)\n";
    return 2;
  }
  RunOutputs run(run_dir);
  try {
    std::string tol;
    if (!tolerance.empty()) {
      Target t;
      parse_tolerance(tolerance, "--tolerance", t);
      tol = tolerance_yaml(t);
    }
    if (fs::exists(targets_file)) return update_existing(targets_file, run, tol, out);
    return write_new(targets_file, run, tol.empty() ? kDefaultTolerance : tol, out);
  } catch (const std::runtime_error& e) {  // TargetsError, MetricError
    err << "npusim check --update: " << e.what() << " (" << targets_file << " not changed)\n";
    return 2;
  }
}

}  // namespace npusim::check
