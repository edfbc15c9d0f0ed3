// SPDX-License-Identifier: Apache-2.0
// The two phases of an aclnn operator call and the executor API (see op_api.h).
#include "runtime/aclnn/op_api.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "models/chip_config.h"
#include "runtime/aclnn/tensor_bounds.h"
#include "runtime/core/aicpu_kernel.h"
#include "runtime/core/api_call.h"
#include "runtime/dump/dump.h"
#include "runtime/dump/dump_file.h"
#include "runtime/core/errors.h"
#include "runtime/core/kernel_launch.h"

namespace npusim::aclnn {
namespace {

using rt::require;

// Executors handed out and not yet consumed (single-use) or destroyed (repeatable).
std::map<const aclOpExecutor*, std::shared_ptr<aclOpExecutor>>& executors() {
  static auto* map = new std::map<const aclOpExecutor*, std::shared_ptr<aclOpExecutor>>;
  return *map;  // under the API lock; never destroyed
}

const aclTensor& live_tensor(const aclTensor* t, const char* what) {
  require(t != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  require(is_live(t), ACLNN_ERR_PARAM_INVALID, std::string(what) + " is not a live aclTensor");
  return *t;
}

const aclTensor& add(std::deque<aclTensor>& list, const aclTensor* t) {
  if (t == nullptr) {
    list.emplace_back();  // placeholder: no data
    return list.back();
  }
  list.push_back(*t);
  return list.back();
}

// A NULL executor: ACLNN_ERR_PARAM_NULLPTR for the second phase, ACLNN_ERR_INNER_NULLPTR for the
// executor API (aclSetAclOpExecutorRepeatable's documented code).
std::shared_ptr<aclOpExecutor> live_executor(const aclOpExecutor* ex,
                                             int null_code = ACLNN_ERR_INNER_NULLPTR) {
  require(ex != nullptr, null_code, "executor is NULL");
  auto it = executors().find(ex);
  require(it != executors().end(), ACLNN_ERR_PARAM_INVALID,
          "executor is not a live aclOpExecutor (a single-use executor runs once)");
  return it->second;
}

// A launch of a repeatable executor is the same kernel with the same arguments when the executor,
// the launch and the resolved addresses are: the tiling its body captured was fixed in phase one.
std::string memo_key_of(const aclOpExecutor& ex, std::size_t launch, const Addrs& a) {
  std::string key;
  const std::uint64_t head[] = {ex.serial, launch, a.in.size(), a.out.size()};
  key.append(reinterpret_cast<const char*>(head), sizeof head);
  for (const auto* list : {&a.in, &a.out}) {
    key.append(reinterpret_cast<const char*>(list->data()), list->size() * sizeof(std::uint8_t*));
  }
  key.append(reinterpret_cast<const char*>(&a.workspace), sizeof a.workspace);
  return key;
}

// Every tensor of `ex` with an address lies inside its allocation; in phase two `device` (the
// stream's) must also reach it (tensor_bounds.h).
void check_tensors(rt::Call& c, const aclOpExecutor& ex, const char* api,
                   const std::uint32_t* device) {
  for (const auto* list : {&ex.inputs, &ex.outputs}) {
    const char* role = list == &ex.inputs ? "input" : "output";
    for (std::size_t i = 0; i < list->size(); ++i) {
      const aclTensor& t = (*list)[i];
      check_in_allocation(c, t, t.data, api, role, i);
      if (device != nullptr) check_reachable(c, t.data, *device, api);
    }
  }
}

std::string shape_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

// One side's op_summary columns (models/op_info.h): "4,1024;1024", "FLOAT16;FLOAT16", "ND;ND";
// an optional tensor not given is left out.
void describe(const std::deque<aclTensor>& list, std::string& shapes, std::string& types,
              std::string& formats) {
  bool first = true;
  for (const aclTensor& t : list) {
    if (t.data == nullptr) continue;
    const char* sep = first ? "" : ";";
    first = false;
    shapes += sep;
    for (std::size_t i = 0; i < t.dims.size(); ++i) {
      shapes += (i ? "," : "") + std::to_string(t.dims[i]);
    }
    types += sep + dtype_name(t.dtype);
    formats += sep + std::string(rt::dump::format_text(t.format));
  }
}

// What op_summary.csv shows of the executor's tensors (the Op Name is the launch's default).
models::OpInfo op_info_of(const aclOpExecutor& ex) {
  models::OpInfo info;
  describe(ex.inputs, info.input_shapes, info.input_types, info.input_formats);
  describe(ex.outputs, info.output_shapes, info.output_types, info.output_formats);
  return info;
}

}  // namespace

const aclTensor& Plan::input(const aclTensor* t, const char* what) {
  return add(ex_.inputs, &live_tensor(t, what));
}

const aclTensor& Plan::output(const aclTensor* t, const char* what) {
  return add(ex_.outputs, &live_tensor(t, what));
}

const aclTensor* Plan::optional_input(const aclTensor* t, const char* what) {
  if (t == nullptr) {
    add(ex_.inputs, nullptr);
    return nullptr;
  }
  return &add(ex_.inputs, &live_tensor(t, what));
}

const aclTensor* Plan::optional_output(const aclTensor* t, const char* what) {
  if (t == nullptr) {
    add(ex_.outputs, nullptr);
    return nullptr;
  }
  return &add(ex_.outputs, &live_tensor(t, what));
}

long double Plan::scalar(const aclScalar* s, const char* what) {
  rt::require(s != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  rt::require(is_live(s), ACLNN_ERR_PARAM_INVALID, std::string(what) + " is not a live aclScalar");
  return s->value;
}

int Plan::scalar_type(const aclScalar* s, const char* what) {
  scalar(s, what);
  return s->dtype;
}

std::vector<std::int64_t> Plan::int_array(const aclIntArray* a, const char* what) {
  rt::require(a != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  rt::require(is_live(a), ACLNN_ERR_PARAM_INVALID, std::string(what) + " is not a live aclIntArray");
  return a->values;
}

std::vector<bool> Plan::bool_array(const aclBoolArray* a, const char* what) {
  rt::require(a != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  rt::require(is_live(a), ACLNN_ERR_PARAM_INVALID, std::string(what) + " is not a live aclBoolArray");
  return a->values;
}

std::vector<const aclTensor*> Plan::input_list(const aclTensorList* l, const char* what) {
  rt::require(l != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  rt::require(is_live(l), ACLNN_ERR_PARAM_INVALID,
          std::string(what) + " is not a live aclTensorList");
  std::vector<const aclTensor*> out;
  for (const aclTensor* t : l->tensors) out.push_back(&input(t, what));
  return out;
}

void Plan::require(bool ok, const std::string& why) const {
  rt::require(ok, ACLNN_ERR_PARAM_INVALID, "aclnn" + ex_.op + ": " + why);
}

void Plan::require_dtype(const aclTensor& t, std::initializer_list<int> allowed,
                         const char* what) const {
  if (std::find(allowed.begin(), allowed.end(), t.dtype) != allowed.end()) return;
  std::string list;
  for (int d : allowed) list += (list.empty() ? "" : ", ") + dtype_name(d);
  require(false, std::string(what) + " has data type " + dtype_name(t.dtype) +
                     "; this operator takes " + list);
}

void Plan::require_shape(const aclTensor& t, const std::vector<std::int64_t>& dims,
                         const char* what) const {
  require(t.dims == dims, std::string(what) + " has shape " + shape_text(t.dims) + ", expected " +
                              shape_text(dims));
}

void Plan::require_contiguous(const aclTensor& t, const char* what) const {
  require(t.contiguous(),
          std::string(what) + " must be contiguous (non-contiguous views are not supported)");
}

std::uint32_t Plan::vector_cores() const {
  const bool split = cfg_.generation().split_cores && cfg_.aicore.vector_cores > 0;
  return static_cast<std::uint32_t>(split ? cfg_.aicore.vector_cores : cfg_.aicore.cube_cores);
}
std::uint32_t Plan::cube_cores() const {
  return static_cast<std::uint32_t>(cfg_.aicore.cube_cores);
}
std::uint64_t Plan::ub_bytes() const { return cfg_.aicore.ub.value; }
std::uint64_t Plan::l1_bytes() const { return cfg_.aicore.l1.value; }
std::uint64_t Plan::l0a_bytes() const { return cfg_.aicore.l0a.value; }
std::uint64_t Plan::l0b_bytes() const { return cfg_.aicore.l0b.value; }
std::uint64_t Plan::l0c_bytes() const { return cfg_.aicore.l0c.value; }

void Plan::launch(std::string name, const void* kernel, std::uint32_t block_dim, Core core,
                  std::function<void(const Addrs&)> body) {
  rt::require(block_dim >= 1 && block_dim <= rt::kMaxBlockDim, ACLNN_ERR_INNER_TILING_ERROR,
              "aclnn" + ex_.op + ": tiling gave " + std::to_string(block_dim) + " blocks");
  Launch l;
  l.name = std::move(name);
  l.identity = kernel;
  l.block_dim = block_dim;
  l.core = core;
  l.body = std::move(body);
  ex_.launches.push_back(std::move(l));
}

Split split_even(std::int64_t total, std::uint32_t max_blocks, std::int64_t align) {
  Split s;
  if (total <= 0 || max_blocks == 0) return s;
  align = std::max<std::int64_t>(align, 1);
  const std::int64_t units = (total + align - 1) / align;
  const std::int64_t blocks = std::min<std::int64_t>(units, max_blocks);
  const std::int64_t units_per_block = (units + blocks - 1) / blocks;
  s.per_block = units_per_block * align;
  s.blocks = static_cast<std::uint32_t>((total + s.per_block - 1) / s.per_block);
  return s;
}

aclnnStatus prepare(const char* api, const char* op, std::uint64_t* workspace_size,
                    aclOpExecutor** executor, rt::FunctionRef<void(Plan&)> build) {
  return rt::run_api(api, rt::Needs::kNothing, [&](rt::Call& c) {
    require(workspace_size != nullptr && executor != nullptr, ACLNN_ERR_PARAM_NULLPTR,
            "workspaceSize and executor must not be NULL");
    static std::uint64_t next_serial = 0;  // under the API lock
    auto ex = std::make_shared<aclOpExecutor>();
    ex->op = op;
    ex->serial = ++next_serial;
    Plan plan(*ex, c.config());
    build(plan);
    check_tensors(c, *ex, api, nullptr);
    require(!ex->launches.empty(), ACLNN_ERR_INNER, std::string(op) + " planned no kernel");
    *workspace_size = ex->workspace;
    *executor = ex.get();
    make_live(ex.get());
    executors().emplace(ex.get(), std::move(ex));
  });
}

namespace {

// What the dump library (runtime/dump/dump.h) reads of one run of `ex` at `addrs`.
rt::dump::OpDesc dump_desc(const aclOpExecutor& ex, const Addrs& addrs) {
  rt::dump::OpDesc d;
  d.type = ex.op;
  d.name = "aclnn" + ex.op;
  auto view = [](const aclTensor& t, const std::uint8_t* addr) {
    rt::dump::TensorView v;
    v.dtype = t.dtype;
    v.format = t.format;
    v.dims = t.dims;
    v.strides = t.strides;
    v.elem_size = element_size(t.dtype);
    v.addr = addr;
    return v;
  };
  for (std::size_t i = 0; i < ex.inputs.size(); ++i) d.inputs.push_back(view(ex.inputs[i], addrs.in[i]));
  for (std::size_t i = 0; i < ex.outputs.size(); ++i) {
    d.outputs.push_back(view(ex.outputs[i], addrs.out[i]));
  }
  return d;
}

void check_workspace(const aclOpExecutor& ex, const void* workspace,
                     std::uint64_t workspace_size) {
  require(ex.workspace == 0 || workspace != nullptr, ACLNN_ERR_PARAM_NULLPTR,
          "workspace is NULL; aclnn" + ex.op + " needs " + std::to_string(ex.workspace) +
              " bytes");
  require(workspace_size >= ex.workspace, ACLNN_ERR_PARAM_INVALID,
          "workspaceSize " + std::to_string(workspace_size) + " is less than the " +
              std::to_string(ex.workspace) + " bytes aclnn" + ex.op + " needs");
}

/// The device addresses the kernels get: the tensors' (NULL for a tensor without data) and the
/// workspace.
std::shared_ptr<Addrs> addrs_of(const aclOpExecutor& ex, void* workspace) {
  auto addrs = std::make_shared<Addrs>();
  for (const aclTensor& t : ex.inputs) addrs->in.push_back(t.data ? t.addr() : nullptr);
  for (const aclTensor& t : ex.outputs) addrs->out.push_back(t.data ? t.addr() : nullptr);
  addrs->workspace = static_cast<std::uint8_t*>(workspace);
  return addrs;
}

/// Launch `l` of `ex`, an AI CPU kernel, on `stream`.
void submit_aicpu(rt::Call& c, aclrtStream stream, const std::shared_ptr<aclOpExecutor>& ex,
                  const Launch& l, const std::shared_ptr<Addrs>& addrs,
                  const models::OpInfo& info) {
  rt::AiCpuSpec cpu;
  cpu.name = l.name;
  cpu.op_type = ex->op;
  cpu.info = info;
  cpu.block_dim = 1;
  cpu.body = [body = &l.body, addrs](void*) -> std::uint32_t {
    (*body)(*addrs);
    return 0;
  };
  cpu.keep_alive = ex;
  rt::submit_aicpu_kernel(c, stream, std::move(cpu));
}

/// Launch `i` of `ex`, an AI Core kernel, on `stream`.
void submit_launch(rt::Call& c, aclrtStream stream, const std::shared_ptr<aclOpExecutor>& ex,
                   std::size_t i, const std::shared_ptr<Addrs>& addrs,
                   const models::OpInfo& info) {
  const Launch& l = ex->launches[i];
  rt::KernelSpec spec;
  if (ex->repeatable) {  // the trace memo may serve a timing-only rerun (see memo_key_of)
    spec.memo_key = memo_key_of(*ex, i, *addrs);
  }
  spec.name = l.name;
  spec.info = info;
  spec.identity = l.identity;
  spec.block_dim = l.block_dim;
  spec.engine = l.core == Core::kVector ? ACL_RT_ENGINE_TYPE_AIV
                : l.core == Core::kCube ? ACL_RT_ENGINE_TYPE_AIC
                                        : rt::kEngineMix;
  spec.body = [body = &l.body, addrs] { (*body)(*addrs); };
  spec.keep_alive = ex;
  rt::submit_kernel(c, stream, std::move(spec));
}

}  // namespace

aclnnStatus execute(const char* api, void* workspace, std::uint64_t workspace_size,
                    aclOpExecutor* executor, aclrtStream stream) {
  return rt::run_api(api, rt::Needs::kInit, [&](rt::Call& c) {
    std::shared_ptr<aclOpExecutor> ex = live_executor(executor, ACLNN_ERR_PARAM_NULLPTR);
    if (!ex->repeatable) {  // consumed, launched or not
      executors().erase(executor);
      kill(executor);
    }
    check_workspace(*ex, workspace, workspace_size);
    const std::uint32_t device = c.stream(stream).device;
    check_tensors(c, *ex, api, &device);
    const std::shared_ptr<Addrs> addrs = addrs_of(*ex, workspace);
    std::shared_ptr<rt::dump::OpRun> dumped;  // dump of the run (runtime/dump/dump.h), if on
    if (rt::dump::op_dump_wanted()) dumped = rt::dump::before_op(c, stream, dump_desc(*ex, *addrs));
    const models::OpInfo info = op_info_of(*ex);
    for (std::size_t i = 0; i < ex->launches.size(); ++i) {
      if (ex->launches[i].core == Core::kAiCpu) {
        submit_aicpu(c, stream, ex, ex->launches[i], addrs, info);
      } else {
        submit_launch(c, stream, ex, i, addrs, info);
      }
    }
    rt::dump::after_op(c, stream, dumped);
  });
}

}  // namespace npusim::aclnn

using namespace npusim;
namespace nn = npusim::aclnn;

namespace {

int set_addr(const char* api, aclOpExecutor* executor, std::size_t index, aclTensor* tensor,
             void* addr, int which) {  // 0 inputs, 1 outputs, 2 inputs then outputs
  return rt::api_any(api, [&](rt::Call&) {
    std::shared_ptr<aclOpExecutor> ex = nn::live_executor(executor);
    (void)tensor;  // CANN passes the tensor for checking; the index decides
    std::deque<aclTensor>* list = which == 1 ? &ex->outputs : &ex->inputs;
    if (which == 2 && index >= ex->inputs.size()) {
      index -= ex->inputs.size();
      list = &ex->outputs;
    }
    rt::require(index < list->size(), ACLNN_ERR_PARAM_INVALID,
                "index " + std::to_string(index) + " is beyond the operator's " +
                    std::to_string(list->size()) + " tensors");
    (*list)[index].data = addr;
  });
}

}  // namespace

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  return rt::api_any("aclSetAclOpExecutorRepeatable", [&](rt::Call&) {
    nn::live_executor(executor)->repeatable = true;
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  return rt::api_any("aclDestroyAclOpExecutor", [&](rt::Call&) {
    std::shared_ptr<aclOpExecutor> ex = nn::live_executor(executor);
    rt::require(ex->repeatable, ACLNN_ERR_PARAM_INVALID,
                "only a repeatable executor is destroyed (a single-use one is freed when it runs)");
    nn::executors().erase(executor);  // queued launches keep it alive until they retire
    nn::kill(executor);
  });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return set_addr("aclSetInputTensorAddr", executor, index, tensor, addr, 0);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                   aclTensor* tensor, void* addr) {
  return set_addr("aclSetOutputTensorAddr", executor, index, tensor, addr, 1);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                             void* addr) {
  return set_addr("aclSetTensorAddr", executor, index, tensor, addr, 2);
}
