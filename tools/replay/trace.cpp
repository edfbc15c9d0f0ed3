// SPDX-License-Identifier: Apache-2.0
// The YAML trace loader (format: traces/README.md).
#include "tools/replay/trace.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "acl/acl_base.h"
#include "tools/replay/op_table.h"

namespace npusim::replay {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
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
  void parse_tensor(const YAML::Node& n, std::size_t index);
  Init parse_init(const YAML::Node& n, const std::string& what, const Tensor& t) const;
  Expect parse_expect(const YAML::Node& n, const std::string& what, const Tensor& t) const;
  void parse_ops(const YAML::Node& list, int repeat_index, const std::string& prefix);
  void parse_op(const YAML::Node& n, int repeat_index, const std::string& prefix);
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

Init Loader::parse_init(const YAML::Node& n, const std::string& what, const Tensor& t) const {
  Init init;
  if (n.IsScalar()) {
    const std::string kind = n.Scalar();
    if (kind == "random") {
      init.kind = Init::Kind::kRandom;
    } else if (kind == "zeros") {
      init.kind = Init::Kind::kZeros;
    } else if (kind == "none") {
      init.kind = Init::Kind::kNone;
    } else {
      fail(n, what + ": unknown init '" + kind + "' (random, zeros, none, or a map)");
    }
    return init;
  }
  if (!n.IsMap()) fail(n, what + ": expected random, zeros, none or a map");
  check_keys(n, {"random", "seed", "low", "high", "zeros", "value", "values", "file", "triu"},
             what);
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
    if (static_cast<std::int64_t>(init.values.size()) != t.elements()) {
      fail(n["values"], what + ".values: " + std::to_string(init.values.size()) + " values for " +
                            std::to_string(t.elements()) + " elements");
    }
  }
  if (n["file"]) {
    ++kinds;
    init.kind = Init::Kind::kFile;
    fs::path p = scalar<std::string>(n["file"], what + ".file");
    if (p.is_relative()) p = fs::path(file_).parent_path() / p;
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec) fail(n["file"], what + ".file: cannot read " + p.string() + ": " + ec.message());
    const auto want = static_cast<std::uintmax_t>(t.elements()) * dtype_size(t.dtype);
    if (size != want) {
      fail(n["file"], what + ".file: " + p.string() + " has " + std::to_string(size) +
                          " bytes, the tensor " + std::to_string(want));
    }
    init.file = p.string();
  }
  if (n["triu"]) {
    ++kinds;
    init.kind = Init::Kind::kTriu;
    init.diagonal = scalar<std::int64_t>(n["triu"], what + ".triu");
    if (t.shape.size() < 2) fail(n, what + ".triu: needs a tensor of at least 2 dimensions");
  }
  if (kinds != 1)
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
    if (static_cast<std::int64_t>(e.values.size()) != t.elements()) {
      fail(n["values"], what + ".values: " + std::to_string(e.values.size()) + " values for " +
                            std::to_string(t.elements()) + " elements");
    }
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
  t.shape = int_list(n["shape"], what + ".shape");
  for (std::int64_t d : t.shape) {
    if (d < 0) fail(n["shape"], what + ".shape: a dimension is negative");
  }
  if (t.shape.size() > 8) fail(n["shape"], what + ".shape: more than 8 dimensions");
  {
    long double count = 1;
    for (std::int64_t d : t.shape) count *= static_cast<long double>(d);
    if (count > static_cast<long double>(std::int64_t{1} << 40)) {
      fail(n["shape"], what + ".shape: more than 2^40 elements");
    }
  }
  if (!n["dtype"]) fail(n, what + ": missing key 'dtype'");
  t.dtype_name = scalar<std::string>(n["dtype"], what + ".dtype");
  t.dtype = parse_dtype(t.dtype_name);
  if (t.dtype < 0) fail(n["dtype"], what + ".dtype: unknown type '" + t.dtype_name + "'");
  const std::string role =
      n["role"] ? scalar<std::string>(n["role"], what + ".role") : "intermediate";
  if (role == "input") {
    t.role = Role::kInput;
  } else if (role == "weight") {
    t.role = Role::kWeight;
  } else if (role == "output") {
    t.role = Role::kOutput;
  } else if (role == "intermediate") {
    t.role = Role::kIntermediate;
  } else {
    fail(n["role"], what + ".role: '" + role + "' is not input, weight, output or intermediate");
  }
  if (n["format"]) {
    t.format = scalar<std::string>(n["format"], what + ".format");
    if (t.format != "ND" && t.format != "NCHW" && t.format != "NHWC") {
      fail(n["format"], what + ".format: '" + t.format + "' is not ND, NCHW or NHWC");
    }
  }
  const bool per_layer = n["per_layer"] && scalar<bool>(n["per_layer"], what + ".per_layer");
  if (n["view_of"]) {
    const std::string base = scalar<std::string>(n["view_of"], what + ".view_of");
    auto it = by_name_.find(base);
    if (it == by_name_.end()) {
      fail(n["view_of"], what + ".view_of: no earlier tensor named '" + base + "'");
    }
    t.view_of = it->second;
    const Tensor& b = trace_.tensors[static_cast<std::size_t>(t.view_of)];
    if (b.view_of >= 0) fail(n["view_of"], what + ".view_of: '" + base + "' is itself a view");
    if (b.dtype != t.dtype)
      fail(n["view_of"], what + ".view_of: dtype differs from '" + base + "'");
    if (per_layer_[static_cast<std::size_t>(t.view_of)] != per_layer) {
      fail(n["view_of"], what + ".view_of: a view is per_layer exactly when its base is");
    }
    if (n["offset"]) t.offset = scalar<std::int64_t>(n["offset"], what + ".offset");
    if (t.offset < 0 || t.offset + t.elements() > b.elements()) {
      fail(n["view_of"], what + ": offset " + std::to_string(t.offset) + " + " +
                             std::to_string(t.elements()) + " elements exceed '" + base + "' (" +
                             std::to_string(b.elements()) + " elements)");
    }
    if (n["init"]) fail(n["init"], what + ".init: a view has no init (its base has)");
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

void Loader::parse_op(const YAML::Node& n, int repeat_index, const std::string& prefix) {
  std::string what = prefix + "op " + std::to_string(trace_.ops.size());
  if (!n.IsMap()) fail(n, what + ": expected a map (type, inputs, outputs, attributes)");
  if (!n["type"]) fail(n, what + ": missing key 'type'");
  Op op;
  op.type = scalar<std::string>(n["type"], what + ".type");
  op.name = n["name"] ? scalar<std::string>(n["name"], what + ".name")
                      : op.type + "_" + std::to_string(trace_.ops.size());
  what += " (" + op.type + " '" + op.name + "')";
  op.where = what;
  const OpEntry* entry = find_op(op.type);
  if (entry == nullptr) {
    std::string known;
    for (const OpEntry& e : op_table()) known += std::string(known.empty() ? "" : ", ") + e.type;
    fail(n["type"], what + ": unknown op type '" + op.type + "' (known: " + known + ")");
  }
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (key == "type" || key == "name" || key == "inputs" || key == "outputs" || key == "stream") {
      continue;
    }
    auto spec = std::find_if(entry->attrs.begin(), entry->attrs.end(),
                             [&](const AttrSpec& a) { return key == a.name; });
    if (spec == entry->attrs.end()) {
      std::string known;
      for (const AttrSpec& a : entry->attrs)
        known += std::string(known.empty() ? "" : ", ") + a.name;
      fail(kv.first, what + ": unknown attribute '" + key + "' for " + op.type +
                         (known.empty() ? " (it takes none)" : " (it takes: " + known + ")"));
    }
    Attr attr;
    const YAML::Node& v = kv.second;
    const std::string akey = what + ": attribute '" + key + "'";
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
    // Type check now, so a bad attribute never reaches the run.
    const std::string text = attr.items.empty() ? "" : attr.items[0];
    auto bad = [&](const char* want) {
      fail(v, akey + ": expected " + want + ", got '" + text + "'");
    };
    switch (spec->type) {
      case AttrType::kInts:
        if (!attr.list) bad("a list of integers");
        break;
      case AttrType::kInt: {
        if (attr.list) bad("an integer");
        const auto it = params_.find(text);
        if (it != params_.end()) {
          attr.items[0] = std::to_string(it->second);
          break;
        }
        std::size_t used = 0;
        try {
          (void)std::stoll(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) bad("an integer");
        break;
      }
      case AttrType::kFloat: {
        if (attr.list) bad("a number");
        std::size_t used = 0;
        try {
          (void)std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) bad("a number");
        break;
      }
      case AttrType::kBool:
        if (attr.list || (text != "true" && text != "false")) bad("true or false");
        break;
      case AttrType::kString:
        if (attr.list) bad("a string");
        break;
    }
    op.attrs[key] = std::move(attr);
  }
  for (const AttrSpec& a : entry->attrs) {
    if (a.fallback == nullptr && !op.attrs.count(a.name)) {
      fail(n, what + ": missing attribute '" + std::string(a.name) + "'");
    }
  }
  auto operands = [&](const char* key, int lo, int hi, std::vector<int>& out) {
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
  };
  operands("inputs", entry->min_inputs, entry->max_inputs, op.inputs);
  operands("outputs", entry->min_outputs, entry->max_outputs, op.outputs);
  if (n["stream"]) {
    op.stream = static_cast<int>(count_of(n["stream"], what + ".stream"));
    if (op.stream < 0 || op.stream >= 64) fail(n["stream"], what + ".stream: must be 0..63");
  }
  trace_.streams = std::max(trace_.streams, op.stream + 1);
  trace_.ops.push_back(std::move(op));
}

void Loader::parse_ops(const YAML::Node& list, int repeat_index, const std::string& prefix) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node n = list[i];
    if (n.IsMap() && n["repeat"]) {
      const std::string what = prefix + "ops[" + std::to_string(i) + "] (repeat)";
      if (repeat_index >= 0) fail(n, what + ": repeat blocks do not nest");
      check_keys(n, {"repeat", "ops"}, what);
      const std::int64_t count = count_of(n["repeat"], what + ".repeat");
      if (count < 0 || count > 100000) fail(n["repeat"], what + ".repeat: must be 0..100000");
      if (!n["ops"] || !n["ops"].IsSequence()) fail(n, what + ": needs an 'ops' list");
      for (std::int64_t r = 0; r < count; ++r) {
        parse_ops(n["ops"], static_cast<int>(r), "layer " + std::to_string(r) + ": ");
      }
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
  if (!root.IsMap()) throw TraceError(file_ + ": a trace is a map (name, tensors, ops)");
  check_keys(root, {"name", "description", "seed", "params", "tensors", "ops"}, "trace");
  trace_.file = file_;
  trace_.name =
      root["name"] ? scalar<std::string>(root["name"], "name") : fs::path(file_).stem().string();
  if (root["description"])
    trace_.description = scalar<std::string>(root["description"], "description");
  if (root["seed"]) trace_.seed = scalar<std::uint64_t>(root["seed"], "seed");
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

std::int64_t Tensor::elements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

std::size_t dtype_size(int dtype) {
  switch (dtype) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
      return 8;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
      return 1;
    default:
      return 0;
  }
}

int parse_dtype(const std::string& text) {
  std::string s = lower(text);
  if (s.rfind("dt_", 0) == 0) s = s.substr(3);
  static const std::map<std::string, int> names = {
      {"float", ACL_FLOAT},     {"float32", ACL_FLOAT}, {"fp32", ACL_FLOAT},
      {"float16", ACL_FLOAT16}, {"fp16", ACL_FLOAT16},  {"half", ACL_FLOAT16},
      {"bfloat16", ACL_BF16},   {"bf16", ACL_BF16},     {"double", ACL_DOUBLE},
      {"float64", ACL_DOUBLE},  {"int8", ACL_INT8},     {"uint8", ACL_UINT8},
      {"int16", ACL_INT16},     {"uint16", ACL_UINT16}, {"int32", ACL_INT32},
      {"uint32", ACL_UINT32},   {"int64", ACL_INT64},   {"uint64", ACL_UINT64},
      {"bool", ACL_BOOL}};
  auto it = names.find(s);
  return it == names.end() ? -1 : it->second;
}

std::string dtype_name(int dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return "float32";
    case ACL_FLOAT16:
      return "float16";
    case ACL_BF16:
      return "bfloat16";
    case ACL_DOUBLE:
      return "double";
    case ACL_INT8:
      return "int8";
    case ACL_UINT8:
      return "uint8";
    case ACL_INT16:
      return "int16";
    case ACL_UINT16:
      return "uint16";
    case ACL_INT32:
      return "int32";
    case ACL_UINT32:
      return "uint32";
    case ACL_INT64:
      return "int64";
    case ACL_UINT64:
      return "uint64";
    case ACL_BOOL:
      return "bool";
    default:
      return "type " + std::to_string(dtype);
  }
}

const char* role_name(Role role) {
  switch (role) {
    case Role::kInput:
      return "input";
    case Role::kWeight:
      return "weight";
    case Role::kOutput:
      return "output";
    case Role::kIntermediate:
      return "intermediate";
  }
  return "?";
}

Trace load_yaml_trace(const std::string& path, const std::map<std::string, std::string>& params) {
  try {
    return Loader(path, params).load();
  } catch (const TraceError&) {
    throw;
  } catch (const YAML::Exception& e) {  // anything the checks above did not name
    throw TraceError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

Trace load_trace(const std::string& path, const std::map<std::string, std::string>& params) {
  const std::string ext = lower(fs::path(path).extension().string());
  if (ext == ".csv") {
    if (!params.empty()) throw TraceError(path + ": --param applies to YAML traces only");
    return load_msprof_csv(path);
  }
  return load_yaml_trace(path, params);
}

}  // namespace npusim::replay
