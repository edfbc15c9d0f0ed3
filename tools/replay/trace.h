// SPDX-License-Identifier: Apache-2.0
// A workload trace: the tensors of an operator graph and its operators in issue order, as
// `npusim replay` runs them (tools/replay/runner.h). Two sources (format: traces/README.md):
//   - a YAML op-graph trace (load_yaml_trace), with `repeat:` blocks expanded and per-layer
//     tensors instantiated, every name resolved to a tensor index;
//   - an msprof op_summary CSV (load_msprof_csv): one operator per row, fresh tensors of the
//     row's shapes and types; rows whose OP Type has no entry are kept by name in `unsupported`.
// Plain C++ (yaml-cpp); no ACL call. A bad trace throws TraceError whose message names the file,
// the tensor or op (index, and the key) and the reason; nothing here aborts.
#ifndef NPUSIM_TOOLS_REPLAY_TRACE_H_
#define NPUSIM_TOOLS_REPLAY_TRACE_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim::replay {

class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Role { kInput, kWeight, kOutput, kIntermediate };

/// How a tensor's device memory is filled before the timed run.
struct Init {
  enum class Kind { kNone, kRandom, kZeros, kValue, kValues, kFile, kTriu };
  Kind kind = Kind::kNone;
  std::uint64_t seed = 0;      // kRandom (0: derived from the trace seed and the tensor name)
  double low = -1, high = 1;   // kRandom: uniform in [low, high) (integers: [low, high))
  double value = 0;            // kValue: every element
  std::vector<double> values;  // kValues: element by element (count = element count)
  std::string file;            // kFile: raw little-endian elements, path resolved
  std::int64_t diagonal = 1;   // kTriu: 1 where column - row >= diagonal (last two dims)
};

/// Expected contents of a tensor after the run (checked element by element).
struct Expect {
  bool present = false;
  std::vector<double> values;  // or, with `value`, one value for every element
  bool single = false;
  double atol = 1e-5, rtol = 1e-5;
};

struct Tensor {
  std::string name;
  std::vector<std::int64_t> shape;
  int dtype = 0;           // aclDataType value
  std::string dtype_name;  // as written (for messages)
  Role role = Role::kIntermediate;
  std::string format;  // "" (ND unless the op wants NCHW), "ND", "NCHW", "NHWC"
  Init init;
  Expect expect;
  int view_of = -1;         // index of the tensor whose memory this one views
  std::int64_t offset = 0;  // in elements, into the viewed tensor
  std::string where;        // "tensor 3 ('x')" for messages

  std::int64_t elements() const;
};

/// One attribute as written: a scalar or a list of scalars (kept as text, typed on use).
struct Attr {
  std::vector<std::string> items;
  bool list = false;
};

struct Op {
  std::string type;
  std::string name;         // given, or "<type>_<index>"
  std::vector<int> inputs;  // tensor indices; -1 = absent (an optional input left out)
  std::vector<int> outputs;
  std::map<std::string, Attr> attrs;
  int stream = 0;
  std::string where;        // "op 7 (Softmax 'attn_softmax')" for messages
  double captured_us = -1;  // msprof CSV: the row's Task Duration(us)
};

struct Trace {
  std::string file;
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  std::vector<Tensor> tensors;
  std::vector<Op> ops;
  int streams = 1;
  /// msprof CSV rows that cannot be replayed, by OP Type: count and the first reason.
  std::map<std::string, std::pair<int, std::string>> unsupported;
  int csv_rows = 0;
};

/// Element size of an aclDataType value the replay supports (0 if not).
std::size_t dtype_size(int dtype);
/// "float16"/"fp16"/"FLOAT16"/"DT_FLOAT16"... → aclDataType value; -1 if unknown.
int parse_dtype(const std::string& text);
std::string dtype_name(int dtype);
const char* role_name(Role role);

/// Loads a YAML trace. `params` override the trace's `params:` (e.g. layers=2).
Trace load_yaml_trace(const std::string& path, const std::map<std::string, std::string>& params);
/// Loads an msprof op_summary (or kernel_details) CSV.
Trace load_msprof_csv(const std::string& path);
/// RFC 4180 CSV text → rows of cells (quotes removed).
std::vector<std::vector<std::string>> parse_csv(const std::string& text);
/// By extension: .csv → msprof, else YAML.
Trace load_trace(const std::string& path, const std::map<std::string, std::string>& params);

}  // namespace npusim::replay

#endif  // NPUSIM_TOOLS_REPLAY_TRACE_H_
