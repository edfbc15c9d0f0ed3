// SPDX-License-Identifier: Apache-2.0
// msprof op_summary CSV (or torch_npu kernel_details.csv) as a trace: one op per row, in row
// order, on the row's stream (Stream IDs numbered in order of first appearance). Each row gets
// tensors of its Input/Output Shapes and Data Types: inputs are random and shared, read-only,
// by every row with the same shape and type; outputs are per stream, shape and type (rows of
// one stream run in order, so sharing them adds no dependency). Attributes the CSV does not
// carry are inferred from the shapes (Softmax: last dim; Transpose: the permutation mapping the
// input shape to the output shape; Conv2D/pooling: stride and padding that give the output
// size; FlashAttentionScore: layout from the rank, heads from softmax_max). A row that cannot be
// replayed (OP Type without an entry, shapes that do not fit, 5HD formats) is kept by OP Type in
// Trace::unsupported with its count and the first reason.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "acl/acl_base.h"
#include "tools/replay/op_table.h"
#include "tools/replay/trace.h"

namespace npusim::replay {
namespace {

using Shape = std::vector<std::int64_t>;

// parse_csv's state: the rows so far and the cell being read.
struct CsvState {
  std::vector<std::vector<std::string>> rows = std::vector<std::vector<std::string>>(1);
  std::string cell;
  bool quoted = false, any = false;

  void end_cell() {
    rows.back().push_back(cell);
    cell.clear();
  }
  void end_row() {
    if (any || !cell.empty()) rows.back().push_back(cell);
    cell.clear();
    any = false;
    rows.emplace_back();
  }
};

// Character i of `text`, inside quotes: "" is a quote (i moves past both), " ends the quotes.
void quoted_char(CsvState& st, const std::string& text, std::size_t& i) {
  const char ch = text[i];
  if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
    st.cell += '"';
    ++i;
  } else if (ch == '"') {
    st.quoted = false;
  } else {
    st.cell += ch;
  }
}

}  // namespace

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  CsvState st;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (st.quoted) {
      quoted_char(st, text, i);
    } else if (ch == '"' || ch == ',') {
      if (ch == ',') st.end_cell();
      st.quoted = ch == '"';
      st.any = true;
    } else if (ch == '\n' || ch == '\r') {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      st.end_row();
    } else {
      st.cell += ch;
      st.any = true;
    }
  }
  if (st.any || !st.cell.empty()) st.rows.back().push_back(st.cell);
  while (!st.rows.empty() && st.rows.back().empty()) st.rows.pop_back();
  return st.rows;
}

namespace {

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\"");
  std::size_t b = s.find_last_not_of(" \t\"");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(trim(cur));
  return out;
}

// "1,1024;1024,1024" → {{1,1024},{1024,1024}}; "" (a scalar) → {}.
bool parse_shapes(const std::string& text, std::vector<Shape>& out) {
  out.clear();
  if (trim(text).empty() || trim(text) == "N/A") return true;
  for (const std::string& part : split(text, ';')) {
    Shape s;
    if (!part.empty()) {
      for (const std::string& d : split(part, ',')) {
        try {
          std::size_t used = 0;
          const long long v = std::stoll(d, &used);
          if (used != d.size() || v < 0 || v > (1LL << 40)) return false;
          s.push_back(v);
        } catch (const std::exception&) {
          return false;
        }
      }
    }
    long double count = 1;
    for (std::int64_t d : s) count *= static_cast<long double>(d);
    if (count > static_cast<long double>(std::int64_t{1} << 40)) return false;
    out.push_back(s);
  }
  return true;
}

struct Row {
  std::string type, name;
  std::vector<Shape> in_shapes, out_shapes;
  std::vector<std::string> in_types, out_types, in_formats;
  std::string stream;
  double duration = -1;
};

class Builder {
 public:
  explicit Builder(Trace& t) : t_(t) {}
  void add(const Row& row, int index);
  Op new_op(const Row& row, int index, const std::string& type);
  static bool fits(const OpEntry& entry, const Op& op, std::string& why);

 private:
  int tensor(const std::string& key, const Shape& shape, int dtype, Role role, int stream);
  void reject(const std::string& type, const std::string& reason) {
    auto& slot = t_.unsupported[type];
    if (slot.first++ == 0) slot.second = reason;
  }
  std::string operands(const Row& row, int index, Op& op);
  bool infer(const std::string& type, const Row& row, Op& op, std::string& why);
  bool infer_pool(const std::string& type, const std::vector<Shape>& in,
                  const std::vector<Shape>& out, Op& op, std::string& why);

  Trace& t_;
  std::map<std::string, int> tensors_;
  std::map<std::string, int> streams_;
};

int Builder::tensor(const std::string& key, const Shape& shape, int dtype, Role role, int stream) {
  std::string name = (role == Role::kInput ? "in:" : "out" + std::to_string(stream) + ":") +
                     dtype_name(dtype) + "[";
  for (std::size_t i = 0; i < shape.size(); ++i) name += (i ? "," : "") + std::to_string(shape[i]);
  name += "]" + key;
  auto it = tensors_.find(name);
  if (it != tensors_.end()) return it->second;
  Tensor t;
  t.name = name;
  t.shape = shape;
  t.dtype = dtype;
  t.dtype_name = dtype_name(dtype);
  t.role = role;
  t.where = "tensor '" + name + "'";
  if (role == Role::kInput) {
    t.init.kind = Init::Kind::kRandom;
    if (dtype == ACL_INT32 || dtype == ACL_INT64) t.init.low = 0, t.init.high = 2;  // valid indices
  }
  const int index = static_cast<int>(t_.tensors.size());
  t_.tensors.push_back(std::move(t));
  tensors_[name] = index;
  return index;
}

void set_int(Op& op, const char* key, std::int64_t v) {
  op.attrs[key] = Attr{{std::to_string(v)}, false};
}
void set_ints(Op& op, const char* key, const Shape& v) {
  Attr a;
  a.list = true;
  for (std::int64_t x : v) a.items.push_back(std::to_string(x));
  op.attrs[key] = a;
}
void set_bool(Op& op, const char* key, bool v) {
  op.attrs[key] = Attr{{v ? "true" : "false"}, false};
}

// Stride s and padding p with (in + 2p - k) / s + 1 == out (the smallest s, then p).
bool window(std::int64_t in, std::int64_t k, std::int64_t out, std::int64_t& s, std::int64_t& p) {
  for (s = 1; s <= 8; ++s) {
    for (p = 0; p <= k; ++p) {
      if (in + 2 * p >= k && (in + 2 * p - k) / s + 1 == out) return true;
    }
  }
  return false;
}

// Matmul/BatchMatMul: the transpose flags that make the stored shapes multiply to the output.
bool infer_matmul(const std::vector<Shape>& in, const std::vector<Shape>& out, Op& op,
                  std::string& why) {
  if (in.size() < 2 || in[0].size() < 2 || in[1].size() < 2 || out.empty()) {
    why = "needs two matrices";
    return false;
  }
  const Shape& a = in[0];
  const Shape& b = in[1];
  const std::int64_t m = out[0][out[0].size() - 2];
  const bool ta = a[a.size() - 2] != m;
  const std::int64_t k = ta ? a[a.size() - 2] : a.back();
  const bool tb = b[b.size() - 2] != k;
  set_bool(op, "transpose_a", ta);
  set_bool(op, "transpose_b", tb);
  op.inputs.resize(2);  // a bias input (MatMulV2) is not replayed
  return true;
}

// Permute (Transpose): the first permutation mapping the input shape to the output shape.
bool infer_permute(const std::vector<Shape>& in, const std::vector<Shape>& out, Op& op,
                   std::string& why) {
  if (in.empty() || out.empty() || in[0].size() != out[0].size()) {
    why = "input and output ranks differ";
    return false;
  }
  Shape perm(in[0].size());
  std::iota(perm.begin(), perm.end(), 0);
  do {
    bool ok = true;
    for (std::size_t d = 0; d < perm.size() && ok; ++d) {
      ok = in[0][static_cast<std::size_t>(perm[d])] == out[0][d];
    }
    if (ok) {
      set_ints(op, "dims", perm);
      op.inputs.resize(1);
      return true;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  why = "no permutation maps the input shape to the output shape";
  return false;
}

// ReduceSum/Mean/Amax: the reduced dimensions (those the output lacks or has as 1), keep_dim
// when the ranks are equal.
bool infer_reduction(const std::vector<Shape>& in, const std::vector<Shape>& out, Op& op) {
  if (in.empty() || out.empty()) return false;
  Shape dims;
  const bool keep = in[0].size() == out[0].size();
  for (std::size_t d = 0, o = 0; d < in[0].size(); ++d) {
    const bool kept = keep ? in[0][d] == out[0][d] : (o < out[0].size() && in[0][d] == out[0][o]);
    if (kept) {
      ++o;
    } else {
      dims.push_back(static_cast<std::int64_t>(d));
      if (keep) ++o;
    }
  }
  set_ints(op, "dims", dims);
  set_bool(op, "keep_dim", keep);
  op.inputs.resize(1);  // the axes input
  return true;
}

// Convolution (Conv2D): stride and padding per spatial dimension, groups from the channels.
bool infer_convolution(const std::vector<Shape>& in, const std::vector<Shape>& out, Op& op,
                       std::string& why) {
  if (in.size() < 2 || in[0].size() != 4 || in[1].size() != 4 || out.empty() ||
      out[0].size() != 4) {
    why = "needs NCHW input and weight (5HD/FRACTAL_Z shapes cannot be replayed)";
    return false;
  }
  std::int64_t sh, ph, sw, pw;
  if (!window(in[0][2], in[1][2], out[0][2], sh, ph) ||
      !window(in[0][3], in[1][3], out[0][3], sw, pw)) {
    why = "no stride/padding gives the output size";
    return false;
  }
  set_ints(op, "stride", {sh, sw});
  set_ints(op, "padding", {ph, pw});
  if (in[1][1] > 0 && in[0][1] % in[1][1] == 0) set_int(op, "groups", in[0][1] / in[1][1]);
  return true;
}

// FlashAttentionScore: heads from softmax_max [B,N,S,8], layout from the query's rank.
bool infer_attention(const std::vector<Shape>& in, const std::vector<Shape>& out, Op& op,
                     std::string& why) {
  if (in.size() < 3 || out.size() < 3 || out[0].size() != 4) {
    why = "needs query, key, value and softmax_max [B,N,S,8] (msprof's first output)";
    return false;
  }
  set_int(op, "head_num", out[0][1]);
  op.attrs["input_layout"] = Attr{{in[0].size() == 4 ? "BNSD" : "BSH"}, false};
  // msprof lists attention_out last; the trace lists it first.
  std::rotate(op.outputs.begin(), op.outputs.end() - 1, op.outputs.end());
  return true;
}

// MaxPool2d/AvgPool2d: ResNet's max pool (3, 2, 1) when it fits, else a global/even window.
bool Builder::infer_pool(const std::string& type, const std::vector<Shape>& in,
                         const std::vector<Shape>& out, Op& op, std::string& why) {
  if (in.empty() || in[0].size() != 4 || out.empty() || out[0].size() != 4) {
    why = "needs NCHW shapes";
    return false;
  }
  std::int64_t k = 3, s = 2, p = 1;  // ResNet's max pool, else a global/even window
  if (type == "AvgPool2d" || (in[0][2] + 2 - 3) / 2 + 1 != out[0][2]) {
    k = std::max<std::int64_t>(1, in[0][2] / std::max<std::int64_t>(1, out[0][2]));
    s = k;
    p = 0;
  }
  set_ints(op, "kernel_size", {k, k});
  set_ints(op, "stride", {s, s});
  set_ints(op, "padding", {p, p});
  op.inputs.resize(1);
  if (type == "MaxPool2d" &&
      op.outputs.size() == 1) {  // MaxPool: no argmax output; the call needs one
    op.outputs.push_back(tensor("#indices", out[0], ACL_INT32, Role::kOutput, op.stream));
  }
  return true;
}

bool Builder::infer(const std::string& type, const Row& row, Op& op, std::string& why) {
  const auto& in = row.in_shapes;
  const auto& out = row.out_shapes;
  if (type == "Matmul" || type == "BatchMatMul") return infer_matmul(in, out, op, why);
  if (type == "Permute") return infer_permute(in, out, op, why);
  if (type == "ReduceSum" || type == "Mean" || type == "Amax") return infer_reduction(in, out, op);
  if (type == "LayerNorm" && in.size() >= 2) {
    set_ints(op, "normalized_shape", in[1]);
    return true;
  }
  if (type == "Convolution") return infer_convolution(in, out, op, why);
  if (type == "MaxPool2d" || type == "AvgPool2d") return infer_pool(type, in, out, op, why);
  if (type == "FlashAttentionScore") return infer_attention(in, out, op, why);
  if (type == "Embedding") {  // GatherV2(x, indices, axis)
    op.inputs.resize(2);
    return true;
  }
  return true;
}

/// A row in a format the replay cannot lay out (5HD, fractal): the reason, or "".
std::string unsupported_format(const Row& row, int index) {
  for (const std::string& f : row.in_formats) {
    if (f.find("NC1HWC0") != std::string::npos || f.find("FRACTAL") != std::string::npos) {
      return "row " + std::to_string(index) + ": format " + f + " cannot be replayed";
    }
  }
  return "";
}

/// The row's input and output tensors; "" or why a data type is not supported.
std::string Builder::operands(const Row& row, int index, Op& op) {
  for (std::size_t i = 0; i < row.in_shapes.size(); ++i) {
    const int dt = i < row.in_types.size() ? parse_dtype(row.in_types[i]) : -1;
    if (dt < 0 || dtype_size(dt) == 0) {
      return "row " + std::to_string(index) + ": input data type '" +
             (i < row.in_types.size() ? row.in_types[i] : "") + "' not supported";
    }
    op.inputs.push_back(tensor("", row.in_shapes[i], dt, Role::kInput, op.stream));
  }
  for (std::size_t i = 0; i < row.out_shapes.size(); ++i) {
    const int dt = i < row.out_types.size() ? parse_dtype(row.out_types[i]) : -1;
    if (dt < 0 || dtype_size(dt) == 0) {
      return "row " + std::to_string(index) + ": output data type not supported";
    }
    op.outputs.push_back(
        tensor("#" + std::to_string(i), row.out_shapes[i], dt, Role::kOutput, op.stream));
  }
  return "";
}

// The op of row `index`, on the stream its Stream ID maps to, before its operands.
Op Builder::new_op(const Row& row, int index, const std::string& type) {
  auto [sit, fresh] = streams_.emplace(row.stream, static_cast<int>(streams_.size()));
  (void)fresh;
  Op op;
  op.type = type;
  op.stream = sit->second;
  op.name = row.name.empty() ? type + "_" + std::to_string(index) : row.name;
  op.where = "row " + std::to_string(index) + " (" + row.type + " '" + op.name + "')";
  op.captured_us = row.duration;
  return op;
}

// The op's operand counts are the ones its entry takes; `why` says it when not.
bool Builder::fits(const OpEntry& entry, const Op& op, std::string& why) {
  const int ni = static_cast<int>(op.inputs.size()), no = static_cast<int>(op.outputs.size());
  if (ni >= entry.min_inputs && ni <= entry.max_inputs && no >= entry.min_outputs &&
      no <= entry.max_outputs) {
    return true;
  }
  why = std::to_string(ni) + " inputs and " + std::to_string(no) + " outputs do not fit " +
        op.type;
  return false;
}

void Builder::add(const Row& row, int index) {
  const std::string type = op_type_from_msprof(row.type);
  const OpEntry* entry = type.empty() ? nullptr : find_op(type);
  if (entry == nullptr) {
    reject(row.type, "no op table entry for OP Type '" + row.type + "'");
    return;
  }
  if (const std::string why = unsupported_format(row, index); !why.empty()) {
    reject(row.type, why);
    return;
  }
  Op op = new_op(row, index, type);
  if (const std::string why = operands(row, index, op); !why.empty()) {
    reject(row.type, why);
    return;
  }
  std::string why;
  if (!infer(type, row, op, why) || !fits(*entry, op, why)) {
    reject(row.type, "row " + std::to_string(index) + ": " + why);
    return;
  }
  t_.streams = std::max(t_.streams, op.stream + 1);
  t_.ops.push_back(std::move(op));
}

/// The columns of an op_summary (or kernel_details) CSV; -1 for an optional one that is absent.
struct Columns {
  long type, in, in_t, out, out_t;  // required
  long in_f, name, stream, dur;
};

Columns find_columns(const std::vector<std::string>& header, const std::string& path) {
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) {
    std::string h = trim(header[i]);
    if (i == 0 && h.rfind("\xEF\xBB\xBF", 0) == 0) h = h.substr(3);  // UTF-8 BOM
    col[h] = i;
  }
  auto find = [&](std::initializer_list<const char*> names, bool required) -> long {
    for (const char* n : names) {
      auto it = col.find(n);
      if (it != col.end()) return static_cast<long>(it->second);
    }
    if (required) {
      throw TraceError(path + ":1: missing column '" + std::string(*names.begin()) +
                       "' (an msprof op_summary CSV has OP Type, Input Shapes, Input Data Types, "
                       "Output Shapes, Output Data Types...)");
    }
    return -1;
  };
  Columns c;
  c.type = find({"OP Type", "Type"}, true);
  c.in = find({"Input Shapes"}, true);
  c.in_t = find({"Input Data Types"}, true);
  c.out = find({"Output Shapes"}, true);
  c.out_t = find({"Output Data Types"}, true);
  c.in_f = find({"Input Formats"}, false);
  c.name = find({"Op Name", "Name"}, false);
  c.stream = find({"Stream ID"}, false);
  c.dur = find({"Task Duration(us)", "Duration(us)"}, false);
  return c;
}

/// Row `r` (1-based after the header) of the CSV; throws TraceError for shapes that are not
/// lists or an empty OP Type.
Row parse_row(const std::vector<std::string>& cells, const Columns& c, const std::string& path,
              std::size_t r) {
  auto cell = [&](long i) {
    return i >= 0 && static_cast<std::size_t>(i) < cells.size()
               ? trim(cells[static_cast<std::size_t>(i)])
               : std::string();
  };
  Row row;
  row.type = cell(c.type);
  row.name = cell(c.name);
  row.stream = cell(c.stream);
  const std::string line = path + ":" + std::to_string(r + 1);
  if (!parse_shapes(cell(c.in), row.in_shapes) || !parse_shapes(cell(c.out), row.out_shapes)) {
    throw TraceError(line + ": row " + std::to_string(r) + " (" + row.type +
                     "): Input/Output Shapes are not lists like \"1,1024;1024,1024\"");
  }
  if (!cell(c.in_t).empty()) row.in_types = split(cell(c.in_t), ';');
  if (!cell(c.out_t).empty()) row.out_types = split(cell(c.out_t), ';');
  if (!cell(c.in_f).empty()) row.in_formats = split(cell(c.in_f), ';');
  if (!cell(c.dur).empty()) {
    try {
      row.duration = std::stod(cell(c.dur));
    } catch (const std::exception&) {
      row.duration = -1;
    }
  }
  if (row.type.empty()) throw TraceError(line + ": row " + std::to_string(r) + ": empty OP Type");
  return row;
}

}  // namespace

Trace load_msprof_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  const auto rows = parse_csv(text.str());
  if (rows.empty()) throw TraceError(path + ": empty CSV");
  const Columns columns = find_columns(rows[0], path);
  Trace t;
  t.file = path;
  t.name = path;
  Builder b(t);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ++t.csv_rows;
    b.add(parse_row(rows[r], columns, path, r), static_cast<int>(r));
  }
  return t;
}

}  // namespace npusim::replay
