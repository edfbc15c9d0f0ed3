// SPDX-License-Identifier: Apache-2.0
// The replay runner's parts (tools/replay/runner.h), shared by its files and used nowhere else:
//   runner.cpp          the run from start to end (aclInit, device, streams, the summary),
//   runner_setup.cpp    resolving the operators, the cross-stream dependency plan, device
//                       memory and the fills,
//   runner_execute.cpp  issuing the ops (OpCall: one op's aclnn arguments), events, timing,
//   runner_outputs.cpp  checks, --dump, replay_summary.json and the printed results.
#ifndef NPUSIM_TOOLS_REPLAY_RUNNER_INTERNAL_H_
#define NPUSIM_TOOLS_REPLAY_RUNNER_INTERNAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "tools/replay/op_table.h"
#include "tools/replay/runner.h"
#include "tools/replay/trace.h"

namespace npusim::replay {

// The aclnn base API, resolved at run time like the operators (CANN's aclnn/acl_meta.h).
using CreateTensorFn = aclTensor* (*)(const int64_t*, uint64_t, aclDataType, const int64_t*,
                                      int64_t, aclFormat, const int64_t*, uint64_t, void*);
using DestroyTensorFn = aclnnStatus (*)(const aclTensor*);
using CreateScalarFn = aclScalar* (*)(void*, aclDataType);
using DestroyScalarFn = aclnnStatus (*)(const aclScalar*);
using CreateIntArrayFn = aclIntArray* (*)(const int64_t*, uint64_t);
using DestroyIntArrayFn = aclnnStatus (*)(const aclIntArray*);
using Phase2Fn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

/// A function of the loaded libraries by name (nullptr if none).
void* symbol(const std::string& name);
/// ": <aclGetRecentErrMsg>" or "" when there is none.
std::string recent_error();
/// Microseconds with three decimals.
std::string fmt_us(double us);

/// One op of one iteration in issue order.
struct Step {
  int op;
  std::vector<int> waits;  // steps whose events this step's stream waits for
  bool record = false;
};

/// What one run produced, for the summary.
struct Outcome {
  int ops_run = 0;
  double simulated_us = 0;
  double run_wall_s = 0;  // wall time of execute()
  int checks_failed = 0;
  bool ran = false;  // every op was issued and the streams finished: the times mean something
};

class Runner;

class OpCall final : public Call {
 public:
  OpCall(Runner& r, int op_index, aclrtStream stream) : r_(r), index_(op_index), stream_(stream) {}
  aclTensor* in(std::size_t i) override { return operand(true, i, false); }
  aclTensor* out(std::size_t i) override { return operand(false, i, false); }
  aclTensor* in_transposed(std::size_t i, bool t) override { return operand(true, i, t); }
  const std::vector<std::int64_t>& in_shape(std::size_t i) const override;
  const std::vector<std::int64_t>& out_shape(std::size_t i) const override;
  aclDataType out_dtype(std::size_t i) const override;
  std::int64_t attr_int(const char* name) const override { return std::stoll(text(name)); }
  double attr_float(const char* name) const override { return std::stod(text(name)); }
  bool attr_bool(const char* name) const override { return text(name) == "true"; }
  const std::string& attr_string(const char* name) override {
    strings_.push_back(std::make_unique<std::string>(text(name)));
    return *strings_.back();
  }
  std::vector<std::int64_t> attr_ints(const char* name) const override;
  bool rejected = false;  // phase 1 refused the arguments (nothing was queued)
  aclIntArray* int_array(const std::vector<std::int64_t>& values, bool null_if_empty) override;
  aclScalar* scalar(double value) override;
  std::string error;

 protected:
  void* phase1() override;
  aclnnStatus phase2(aclnnStatus st, std::uint64_t workspace, aclOpExecutor* executor) override;

 private:
  const Op& op() const;
  const Tensor* tensor(const std::vector<int>& list, std::size_t i) const;
  aclTensor* operand(bool input, std::size_t i, bool transposed);
  std::string text(const char* name) const;

  Runner& r_;
  int index_;
  aclrtStream stream_;
  std::vector<std::unique_ptr<std::string>> strings_;
};

class Runner {
 public:
  explicit Runner(const Options& o) : o_(o) {}
  int run();

  // For OpCall.
  const Trace& trace() const { return t_; }
  const OpEntry& entry(int op) const { return *entries_[static_cast<std::size_t>(op)]; }
  aclTensor* make_tensor(int tensor, bool transposed, const OpEntry& e);
  void* device(int tensor) const;
  void* workspace(int op, std::uint64_t bytes, std::string& error);
  CreateIntArrayFn create_int_array = nullptr;
  CreateScalarFn create_scalar = nullptr;
  std::vector<aclIntArray*> arrays;
  std::vector<aclScalar*> scalars;
  std::vector<std::pair<void*, void*>> fns;  // per op: phase 1, phase 2

 private:
  /// Walking the ops in issue order: per allocation the last writer and the readers since, per
  /// stream a vector clock (the latest step of every stream it has waited for).
  struct PlanState;
  /// The run's events: start and end on stream 0, per step (the steps others wait for), joins.
  struct Events {
    aclrtEvent start = nullptr, end = nullptr;
    std::vector<aclrtEvent> steps;
    std::vector<aclrtEvent> joins;
  };

  // runner.cpp
  int prepare();
  int set_up_device();
  int execute_timed(Outcome& outcome);
  // runner_setup.cpp
  bool resolve_ops();
  void resolve_base_api();
  void resolve_op(std::size_t i);
  bool report_unsupported() const;
  void plan();
  int root(int tensor) const;
  std::vector<int> dependencies(const Op& op, const PlanState& st) const;
  void add_waits(Step& step, const std::vector<int>& deps, std::size_t stream, PlanState& st);
  void note_accesses(const Op& op, int step, PlanState& st) const;
  bool allocate_and_fill();
  std::vector<bool> used_tensors() const;
  bool allocate(const std::vector<bool>& used);
  void point_views();
  bool fill(int tensor);
  bool generate(const Tensor& t, std::vector<char>& host) const;
  // runner_execute.cpp
  int execute(double& simulated_us, int& ops_run);
  int create_events(Events& ev);
  int issue(std::size_t g, const std::vector<aclrtEvent>& events, int& ops_run);
  int finish(Events& ev, double& simulated_us);
  void cleanup();
  // runner_outputs.cpp
  int check_and_dump();
  bool read_back(std::size_t tensor, std::vector<char>& host) const;
  bool dump_dir_writable() const;
  bool dump(const Tensor& t, const std::vector<char>& host) const;
  bool check(const Tensor& t, const std::vector<char>& host);
  void report_rejected() const;
  void write_summary(int ops_run, double simulated_us, int checks_failed);
  void print_results(const Outcome& outcome, double wall_s) const;
  void print_counts(int ops_run) const;
  void print_times(double simulated_us) const;

  Options o_;
  Trace t_;
  std::vector<const OpEntry*> entries_;
  std::vector<bool> skip_;
  std::map<std::string, std::pair<int, std::string>> missing_;   // op type → count, what
  std::map<std::string, std::pair<int, std::string>> rejected_;  // refused in phase 1 (runs)
  std::vector<Step> steps_;
  std::vector<void*> dev_;  // per tensor; views point into their base
  std::vector<void*> allocations_;
  std::map<int, std::pair<void*, std::uint64_t>> workspaces_;
  std::vector<aclrtStream> streams_;
  std::vector<aclTensor*> tensors_;
  CreateTensorFn create_tensor_ = nullptr;
  DestroyTensorFn destroy_tensor_ = nullptr;
  DestroyScalarFn destroy_scalar_ = nullptr;
  DestroyIntArrayFn destroy_int_array_ = nullptr;
  int checks_passed_ = 0;
  int checks_skipped_ = 0;
};

/// The runtime's op_summary.csv in `out_dir` (msprof columns), summed per OP Type, longest
/// first, printed to stdout.
void print_op_types(const std::string& out_dir);

}  // namespace npusim::replay

#endif  // NPUSIM_TOOLS_REPLAY_RUNNER_INTERNAL_H_
