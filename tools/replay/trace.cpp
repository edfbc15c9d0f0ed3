// SPDX-License-Identifier: Apache-2.0
// The YAML trace loader (format: traces/README.md): the header and its `params:`, the tensors,
// and the ops (`repeat:` blocks expanded, per-layer tensors instantiated per iteration), each
// checked as it is read so that an error names the file, the line, the tensor or op and the key.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "tools/replay/op_table.h"
#include "tools/replay/trace.h"

namespace npusim::replay {
namespace {

namespace fs = std::filesystem;

/// True when `parse` (std::stoll, std::stod...) reads all of `text`.
template <class Parse>
bool parses_fully(const std::string& text, Parse parse) {
  std::size_t used = 0;
  try {
    (void)parse(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used != 0 && used == text.size();
}

bool is_integer(const std::string& s) {
  return parses_fully(s, [](const std::string& t, std::size_t* n) { return std::stoll(t, n); });
}
bool is_number(const std::string& s) {
  return parses_fully(s, [](const std::string& t, std::size_t* n) { return std::stod(t, n); });
}
bool is_bool(const std::string& s) { return s == "true" || s == "false"; }
bool any_text(const std::string&) { return true; }

// What an attribute of each type must be: a list or a scalar, and its text.
struct AttrRule {
  AttrType type;
  bool list;
  bool (*valid)(const std::string& text);
  const char* want;
};
constexpr AttrRule kAttrRules[] = {
    {AttrType::kInts, true, any_text, "a list of integers"},
    {AttrType::kInt, false, is_integer, "an integer"},
    {AttrType::kFloat, false, is_number, "a number"},
    {AttrType::kBool, false, is_bool, "true or false"},
    {AttrType::kString, false, any_text, "a string"},
};

/// "a, b, c" from the names.
template <class List, class Name>
std::string names_of(const List& list, Name name) {
  std::string out;
  for (const auto& x : list) out += std::string(out.empty() ? "" : ", ") + name(x);
  return out;
}

class Loader {
 public:
  Loader(std::string file, std::map<std::string, std::string> params)
      : file_(std::move(file)), cli_params_(std::move(params)) {}

  Trace load();

 private:
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const {
    std::string where = file_;
    if (at.IsDefined() && at.Mark().line >= 0) where += ":" + std::to_string(at.Mark().line + 1);
    throw TraceError(where + ": " + what);
  }
  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                  const std::string& what) const {
    for (const auto& kv : map) {
      const std::string key = kv.first.as<std::string>();
      if (!allowed.count(key)) fail(kv.first, what + ": unknown key '" + key + "'");
    }
  }
  template <class V>
  V scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + ": expected a scalar");
    try {
      return n.as<V>();
    } catch (const YAML::Exception&) {
      fail(n, what + ": '" + n.Scalar() + "' is not a valid value");
    }
  }
  std::int64_t count_of(const YAML::Node& n, const std::string& what) const;
  std::vector<std::int64_t> int_list(const YAML::Node& n, const std::string& what) const;
  std::vector<double> number_list(const YAML::Node& n, const std::string& what) const;
  void check_count(const YAML::Node& n, std::size_t count, const std::string& what,
                   const Tensor& t) const;
  // The header.
  void parse_header(const YAML::Node& root);
  void parse_params(const YAML::Node& root);
  // Tensors.
  void parse_tensor(const YAML::Node& n, std::size_t index);
  std::vector<std::int64_t> parse_shape(const YAML::Node& n, const std::string& what) const;
  Role parse_role(const YAML::Node& n, const std::string& what) const;
  void parse_view(const YAML::Node& n, const std::string& what, bool per_layer, Tensor& t) const;
  Init parse_init(const YAML::Node& n, const std::string& what, const Tensor& t) const;
  Init::Kind init_kind(const YAML::Node& n, const std::string& what) const;
  int parse_init_map(const YAML::Node& n, const std::string& what, const Tensor& t,
                     Init& init) const;
  std::string init_file(const YAML::Node& n, const std::string& what, const Tensor& t) const;
  Expect parse_expect(const YAML::Node& n, const std::string& what, const Tensor& t) const;
  // Ops.
  void parse_ops(const YAML::Node& list, int repeat_index, const std::string& prefix);
  void parse_repeat(const YAML::Node& n, int repeat_index, const std::string& what);
  void parse_op(const YAML::Node& n, int repeat_index, const std::string& prefix);
  const OpEntry& op_entry(const YAML::Node& n, const Op& op) const;
  void parse_attrs(const YAML::Node& n, const OpEntry& entry, Op& op) const;
  Attr parse_attr(const YAML::Node& v, const AttrSpec& spec, const std::string& what) const;
  void parse_operands(const YAML::Node& n, const char* key, int lo, int hi, int repeat_index,
                      const Op& op, std::vector<int>& out);
  int resolve(const YAML::Node& name_node, int repeat_index, const std::string& what);
  int instantiate(int decl, int repeat_index);

  std::string file_;
  std::map<std::string, std::string> cli_params_;
  std::map<std::string, std::int64_t> params_;
  Trace trace_;
  std::map<std::string, int> by_name_;  // declared names (and instances "name@i")
  std::vector<bool> per_layer_;         // by declaration index (decls first)
  std::size_t declared_ = 0;
};

std::int64_t Loader::count_of(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + ": expected an integer or a parameter name");
  const std::string text = n.Scalar();
  auto it = params_.find(text);
  if (it != params_.end()) return it->second;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  fail(n, what + ": '" + text + "' is neither an integer nor a parameter of this trace");
}

std::vector<std::int64_t> Loader::int_list(const YAML::Node& n, const std::string& what) const {
  if (!n.IsSequence()) fail(n, what + ": expected a list of integers");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < n.size(); ++i) out.push_back(count_of(n[i], what));
  return out;
}

std::vector<double> Loader::number_list(const YAML::Node& n, const std::string& what) const {
  if (!n.IsSequence()) fail(n, what + ": expected a list of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < n.size(); ++i) out.push_back(scalar<double>(n[i], what));
  return out;
}

/// A `values:` list has one value per element of the tensor.
void Loader::check_count(const YAML::Node& n, std::size_t count, const std::string& what,
                         const Tensor& t) const {
  if (static_cast<std::int64_t>(count) != t.elements()) {
    fail(n, what + ": " + std::to_string(count) + " values for " + std::to_string(t.elements()) +
                " elements");
  }
}

// ---- the header ----

void Loader::parse_header(const YAML::Node& root) {
  if (!root.IsMap()) throw TraceError(file_ + ": a trace is a map (name, tensors, ops)");
  check_keys(root, {"name", "description", "seed", "params", "tensors", "ops"}, "trace");
  trace_.file = file_;
  trace_.name =
      root["name"] ? scalar<std::string>(root["name"], "name") : fs::path(file_).stem().string();
  if (root["description"])
    trace_.description = scalar<std::string>(root["description"], "description");
  if (root["seed"]) trace_.seed = scalar<std::uint64_t>(root["seed"], "seed");
}

/// The trace's `params:`, then the --param overrides (only of parameters the trace has).
void Loader::parse_params(const YAML::Node& root) {
  if (root["params"]) {
    if (!root["params"].IsMap()) fail(root["params"], "params: expected a map of integers");
    for (const auto& kv : root["params"]) {
      const std::string key = kv.first.as<std::string>();
      params_[key] = scalar<std::int64_t>(kv.second, "params." + key);
    }
  }
  for (const auto& [key, value] : cli_params_) {
    if (!params_.count(key)) {
      throw TraceError(file_ + ": --param " + key + ": the trace has no parameter '" + key + "'");
    }
    try {
      std::size_t used = 0;
      params_[key] = std::stoll(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw TraceError(file_ + ": --param " + key + "=" + value + ": not an integer");
    }
  }
}

// ---- tensors ----

std::vector<std::int64_t> Loader::parse_shape(const YAML::Node& n, const std::string& what) const {
  std::vector<std::int64_t> shape = int_list(n, what + ".shape");
  for (std::int64_t d : shape) {
    if (d < 0) fail(n, what + ".shape: a dimension is negative");
  }
  if (shape.size() > 8) fail(n, what + ".shape: more than 8 dimensions");
  long double count = 1;
  for (std::int64_t d : shape) count *= static_cast<long double>(d);
  if (count > static_cast<long double>(std::int64_t{1} << 40)) {
    fail(n, what + ".shape: more than 2^40 elements");
  }
  return shape;
}

Role Loader::parse_role(const YAML::Node& n, const std::string& what) const {
  const std::string role = n ? scalar<std::string>(n, what + ".role") : "intermediate";
  if (role == "input") return Role::kInput;
  if (role == "weight") return Role::kWeight;
  if (role == "output") return Role::kOutput;
  if (role == "intermediate") return Role::kIntermediate;
  fail(n, what + ".role: '" + role + "' is not input, weight, output or intermediate");
}

/// `view_of` and `offset`: a view of an earlier tensor's memory.
void Loader::parse_view(const YAML::Node& n, const std::string& what, bool per_layer,
                        Tensor& t) const {
  const YAML::Node at = n["view_of"];
  const std::string base = scalar<std::string>(at, what + ".view_of");
  auto it = by_name_.find(base);
  if (it == by_name_.end()) fail(at, what + ".view_of: no earlier tensor named '" + base + "'");
  t.view_of = it->second;
  const Tensor& b = trace_.tensors[static_cast<std::size_t>(t.view_of)];
  if (b.view_of >= 0) fail(at, what + ".view_of: '" + base + "' is itself a view");
  if (b.dtype != t.dtype) fail(at, what + ".view_of: dtype differs from '" + base + "'");
  if (per_layer_[static_cast<std::size_t>(t.view_of)] != per_layer) {
    fail(at, what + ".view_of: a view is per_layer exactly when its base is");
  }
  if (n["offset"]) t.offset = scalar<std::int64_t>(n["offset"], what + ".offset");
  if (t.offset < 0 || t.offset + t.elements() > b.elements()) {
    fail(at, what + ": offset " + std::to_string(t.offset) + " + " +
                 std::to_string(t.elements()) + " elements exceed '" + base + "' (" +
                 std::to_string(b.elements()) + " elements)");
  }
  if (n["init"]) fail(n["init"], what + ".init: a view has no init (its base has)");
}

void Loader::parse_tensor(const YAML::Node& n, std::size_t index) {
  std::string what = "tensor " + std::to_string(index);
  if (!n.IsMap()) fail(n, what + ": expected a map (name, shape, dtype, role...)");
  check_keys(n,
             {"name", "shape", "dtype", "role", "init", "expect", "format", "view_of", "offset",
              "per_layer"},
             what);
  Tensor t;
  if (!n["name"]) fail(n, what + ": missing key 'name'");
  t.name = scalar<std::string>(n["name"], what + ".name");
  what += " ('" + t.name + "')";
  t.where = what;
  if (t.name.empty() || t.name.find('@') != std::string::npos) {
    fail(n["name"], what + ".name: must be non-empty and without '@'");
  }
  if (by_name_.count(t.name)) fail(n["name"], what + ": name already used by another tensor");
  if (!n["shape"]) fail(n, what + ": missing key 'shape'");
  t.shape = parse_shape(n["shape"], what);
  if (!n["dtype"]) fail(n, what + ": missing key 'dtype'");
  t.dtype_name = scalar<std::string>(n["dtype"], what + ".dtype");
  t.dtype = parse_dtype(t.dtype_name);
  if (t.dtype < 0) fail(n["dtype"], what + ".dtype: unknown type '" + t.dtype_name + "'");
  t.role = parse_role(n["role"], what);
  if (n["format"]) {
    t.format = scalar<std::string>(n["format"], what + ".format");
    if (t.format != "ND" && t.format != "NCHW" && t.format != "NHWC") {
      fail(n["format"], what + ".format: '" + t.format + "' is not ND, NCHW or NHWC");
    }
  }
  const bool per_layer = n["per_layer"] && scalar<bool>(n["per_layer"], what + ".per_layer");
  if (n["view_of"]) {
    parse_view(n, what, per_layer, t);
  } else if (n["offset"]) {
    fail(n["offset"], what + ".offset: only for a view (view_of)");
  }
  if (n["init"]) t.init = parse_init(n["init"], what + ".init", t);
  if (t.view_of < 0 && !n["init"] && (t.role == Role::kInput || t.role == Role::kWeight)) {
    t.init.kind = Init::Kind::kRandom;
  }
  if (n["expect"]) t.expect = parse_expect(n["expect"], what + ".expect", t);
  by_name_[t.name] = static_cast<int>(trace_.tensors.size());
  per_layer_.push_back(per_layer);
  trace_.tensors.push_back(std::move(t));
}

/// `init: random | zeros | none`.
Init::Kind Loader::init_kind(const YAML::Node& n, const std::string& what) const {
  const std::string kind = n.Scalar();
  if (kind == "random") return Init::Kind::kRandom;
  if (kind == "zeros") return Init::Kind::kZeros;
  if (kind == "none") return Init::Kind::kNone;
  fail(n, what + ": unknown init '" + kind + "' (random, zeros, none, or a map)");
}

/// `init: {file: PATH}`: raw elements, exactly the tensor's size; relative to the trace.
std::string Loader::init_file(const YAML::Node& n, const std::string& what,
                              const Tensor& t) const {
  fs::path p = scalar<std::string>(n, what + ".file");
  if (p.is_relative()) p = fs::path(file_).parent_path() / p;
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  if (ec) fail(n, what + ".file: cannot read " + p.string() + ": " + ec.message());
  const auto want = static_cast<std::uintmax_t>(t.elements()) * dtype_size(t.dtype);
  if (size != want) {
    fail(n, what + ".file: " + p.string() + " has " + std::to_string(size) + " bytes, the tensor " +
                std::to_string(want));
  }
  return p.string();
}

/// An init map; returns how many kinds it gives (exactly one is valid).
int Loader::parse_init_map(const YAML::Node& n, const std::string& what, const Tensor& t,
                           Init& init) const {
  int kinds = 0;
  if (n["random"] || n["seed"] || n["low"] || n["high"]) {
    ++kinds;
    init.kind = Init::Kind::kRandom;
    if (n["seed"]) init.seed = scalar<std::uint64_t>(n["seed"], what + ".seed");
    if (n["low"]) init.low = scalar<double>(n["low"], what + ".low");
    if (n["high"]) init.high = scalar<double>(n["high"], what + ".high");
    if (!(init.low < init.high)) fail(n, what + ": low must be below high");
  }
  if (n["zeros"]) ++kinds, init.kind = Init::Kind::kZeros;
  if (n["value"]) {
    ++kinds;
    init.kind = Init::Kind::kValue;
    init.value = scalar<double>(n["value"], what + ".value");
  }
  if (n["values"]) {
    ++kinds;
    init.kind = Init::Kind::kValues;
    init.values = number_list(n["values"], what + ".values");
    check_count(n["values"], init.values.size(), what + ".values", t);
  }
  if (n["file"]) {
    ++kinds;
    init.kind = Init::Kind::kFile;
    init.file = init_file(n["file"], what, t);
  }
  if (n["triu"]) {
    ++kinds;
    init.kind = Init::Kind::kTriu;
    init.diagonal = scalar<std::int64_t>(n["triu"], what + ".triu");
    if (t.shape.size() < 2) fail(n, what + ".triu: needs a tensor of at least 2 dimensions");
  }
  return kinds;
}

Init Loader::parse_init(const YAML::Node& n, const std::string& what, const Tensor& t) const {
  Init init;
  if (n.IsScalar()) {
    init.kind = init_kind(n, what);
    return init;
  }
  if (!n.IsMap()) fail(n, what + ": expected random, zeros, none or a map");
  check_keys(n, {"random", "seed", "low", "high", "zeros", "value", "values", "file", "triu"},
             what);
  if (parse_init_map(n, what, t, init) != 1)
    fail(n, what + ": give exactly one of random/seed, zeros, value, values, file, triu");
  return init;
}

Expect Loader::parse_expect(const YAML::Node& n, const std::string& what, const Tensor& t) const {
  Expect e;
  e.present = true;
  if (!n.IsMap()) fail(n, what + ": expected a map (values or value, atol, rtol)");
  check_keys(n, {"values", "value", "atol", "rtol"}, what);
  if (n["values"] && n["value"]) fail(n, what + ": give values or value, not both");
  if (n["values"]) {
    e.values = number_list(n["values"], what + ".values");
    check_count(n["values"], e.values.size(), what + ".values", t);
  } else if (n["value"]) {
    e.values = {scalar<double>(n["value"], what + ".value")};
    e.single = true;
  } else {
    fail(n, what + ": needs values or value");
  }
  if (n["atol"]) e.atol = scalar<double>(n["atol"], what + ".atol");
  if (n["rtol"]) e.rtol = scalar<double>(n["rtol"], what + ".rtol");
  return e;
}

// A per-layer tensor's instance for one repeat iteration: "name@i", made on first use (views
// of per-layer tensors view the same iteration's base).
int Loader::instantiate(int decl, int repeat_index) {
  const Tensor d = trace_.tensors[static_cast<std::size_t>(decl)];
  const std::string name = d.name + "@" + std::to_string(repeat_index);
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  Tensor t = d;
  t.name = name;
  t.where = d.where + " of layer " + std::to_string(repeat_index);
  if (t.init.kind == Init::Kind::kRandom && t.init.seed != 0) {
    t.init.seed += static_cast<std::uint64_t>(repeat_index) * 1000003u;
  }
  if (d.view_of >= 0) t.view_of = instantiate(d.view_of, repeat_index);
  const int index = static_cast<int>(trace_.tensors.size());
  by_name_[name] = index;
  trace_.tensors.push_back(std::move(t));
  return index;
}

int Loader::resolve(const YAML::Node& n, int repeat_index, const std::string& what) {
  if (n.IsNull()) return -1;
  const std::string name = scalar<std::string>(n, what);
  if (name == "~" || name.empty()) return -1;
  auto it = by_name_.find(name);
  if (it == by_name_.end() || static_cast<std::size_t>(it->second) >= declared_) {
    fail(n, what + ": unknown tensor '" + name + "'");
  }
  if (!per_layer_[static_cast<std::size_t>(it->second)]) return it->second;
  if (repeat_index < 0) {
    fail(n, what + ": '" + name + "' is per_layer and can only be used inside a repeat block");
  }
  return instantiate(it->second, repeat_index);
}

// ---- ops ----

const OpEntry& Loader::op_entry(const YAML::Node& n, const Op& op) const {
  const OpEntry* entry = find_op(op.type);
  if (entry == nullptr) {
    const std::string known = names_of(op_table(), [](const OpEntry& e) { return e.type; });
    fail(n["type"], op.where + ": unknown op type '" + op.type + "' (known: " + known + ")");
  }
  return *entry;
}

/// One attribute as written, type-checked now so that a bad attribute never reaches the run.
Attr Loader::parse_attr(const YAML::Node& v, const AttrSpec& spec, const std::string& akey) const {
  Attr attr;
  if (v.IsSequence()) {
    attr.list = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
      attr.items.push_back(std::to_string(count_of(v[i], akey)));
    }
  } else if (v.IsScalar()) {
    attr.items.push_back(v.Scalar());
  } else {
    fail(v, akey + ": expected a scalar or a list");
  }
  const std::string text = attr.items.empty() ? "" : attr.items[0];
  for (const AttrRule& rule : kAttrRules) {
    if (rule.type != spec.type) continue;
    const bool param = rule.type == AttrType::kInt && !attr.list && params_.count(text) != 0;
    if (param) attr.items[0] = std::to_string(params_.at(text));  // a trace parameter's value
    if (attr.list != rule.list || (!param && !rule.valid(text))) {
      fail(v, akey + ": expected " + rule.want + ", got '" + text + "'");
    }
  }
  return attr;
}

/// Every key but type/name/inputs/outputs/stream is an attribute of the op's entry; the ones
/// without a fallback are required.
void Loader::parse_attrs(const YAML::Node& n, const OpEntry& entry, Op& op) const {
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (key == "type" || key == "name" || key == "inputs" || key == "outputs" || key == "stream") {
      continue;
    }
    auto spec = std::find_if(entry.attrs.begin(), entry.attrs.end(),
                             [&](const AttrSpec& a) { return key == a.name; });
    if (spec == entry.attrs.end()) {
      const std::string known = names_of(entry.attrs, [](const AttrSpec& a) { return a.name; });
      fail(kv.first, op.where + ": unknown attribute '" + key + "' for " + op.type +
                         (known.empty() ? " (it takes none)" : " (it takes: " + known + ")"));
    }
    op.attrs[key] = parse_attr(kv.second, *spec, op.where + ": attribute '" + key + "'");
  }
  for (const AttrSpec& a : entry.attrs) {
    if (a.fallback == nullptr && !op.attrs.count(a.name)) {
      fail(n, op.where + ": missing attribute '" + std::string(a.name) + "'");
    }
  }
}

/// `inputs` or `outputs`: lo..hi tensor names; null (~) for an optional one left out.
void Loader::parse_operands(const YAML::Node& n, const char* key, int lo, int hi,
                            int repeat_index, const Op& op, std::vector<int>& out) {
  const std::string& what = op.where;
  const YAML::Node list = n[key];
  if (!list) fail(n, what + ": missing key '" + key + "'");
  if (!list.IsSequence()) fail(list, what + "." + key + ": expected a list of tensor names");
  const int count = static_cast<int>(list.size());
  if (count < lo || count > hi) {
    fail(list,
         what + "." + key + ": " + op.type + " takes " +
             (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
             ", got " + std::to_string(count));
  }
  for (int i = 0; i < count; ++i) {
    const std::string w = what + "." + key + "[" + std::to_string(i) + "]";
    const int t = resolve(list[static_cast<std::size_t>(i)], repeat_index, w);
    if (t < 0 && i < lo) fail(list[static_cast<std::size_t>(i)], w + ": required, not optional");
    out.push_back(t);
  }
}

void Loader::parse_op(const YAML::Node& n, int repeat_index, const std::string& prefix) {
  std::string what = prefix + "op " + std::to_string(trace_.ops.size());
  if (!n.IsMap()) fail(n, what + ": expected a map (type, inputs, outputs, attributes)");
  if (!n["type"]) fail(n, what + ": missing key 'type'");
  Op op;
  op.type = scalar<std::string>(n["type"], what + ".type");
  op.name = n["name"] ? scalar<std::string>(n["name"], what + ".name")
                      : op.type + "_" + std::to_string(trace_.ops.size());
  op.where = what + " (" + op.type + " '" + op.name + "')";
  const OpEntry& entry = op_entry(n, op);
  parse_attrs(n, entry, op);
  parse_operands(n, "inputs", entry.min_inputs, entry.max_inputs, repeat_index, op, op.inputs);
  parse_operands(n, "outputs", entry.min_outputs, entry.max_outputs, repeat_index, op,
                 op.outputs);
  if (n["stream"]) {
    op.stream = static_cast<int>(count_of(n["stream"], op.where + ".stream"));
    if (op.stream < 0 || op.stream >= 64) fail(n["stream"], op.where + ".stream: must be 0..63");
  }
  trace_.streams = std::max(trace_.streams, op.stream + 1);
  trace_.ops.push_back(std::move(op));
}

/// `{repeat: N, ops: [...]}`: the ops N times, as layers 0..N-1 (no nesting).
void Loader::parse_repeat(const YAML::Node& n, int repeat_index, const std::string& what) {
  if (repeat_index >= 0) fail(n, what + ": repeat blocks do not nest");
  check_keys(n, {"repeat", "ops"}, what);
  const std::int64_t count = count_of(n["repeat"], what + ".repeat");
  if (count < 0 || count > 100000) fail(n["repeat"], what + ".repeat: must be 0..100000");
  if (!n["ops"] || !n["ops"].IsSequence()) fail(n, what + ": needs an 'ops' list");
  for (std::int64_t r = 0; r < count; ++r) {
    parse_ops(n["ops"], static_cast<int>(r), "layer " + std::to_string(r) + ": ");
  }
}

void Loader::parse_ops(const YAML::Node& list, int repeat_index, const std::string& prefix) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node n = list[i];
    if (n.IsMap() && n["repeat"]) {
      parse_repeat(n, repeat_index, prefix + "ops[" + std::to_string(i) + "] (repeat)");
    } else {
      parse_op(n, repeat_index, prefix);
    }
  }
}

Trace Loader::load() {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file_);
  } catch (const YAML::BadFile&) {
    throw TraceError(file_ + ": cannot read the file");
  } catch (const YAML::ParserException& e) {
    throw TraceError(file_ + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  parse_header(root);
  parse_params(root);
  if (!root["tensors"] || !root["tensors"].IsSequence()) {
    fail(root, "trace: needs a 'tensors' list");
  }
  const YAML::Node tensors = root["tensors"];
  for (std::size_t i = 0; i < tensors.size(); ++i) parse_tensor(tensors[i], i);
  declared_ = trace_.tensors.size();
  if (!root["ops"] || !root["ops"].IsSequence()) fail(root, "trace: needs an 'ops' list");
  parse_ops(root["ops"], -1, "");
  return std::move(trace_);
}

}  // namespace

Trace load_yaml_trace(const std::string& path, const std::map<std::string, std::string>& params) {
  try {
    return Loader(path, params).load();
  } catch (const TraceError&) {
    throw;
  } catch (const YAML::Exception& e) {  // anything the checks above did not name
    throw TraceError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

}  // namespace npusim::replay
