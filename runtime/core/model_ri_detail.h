// SPDX-License-Identifier: Apache-2.0
// The model run instances' internals (model_ri.h is the interface): the registry of models,
// labels, condition handles and task groups, and the helpers the model files share. Included
// only by runtime/core/model_ri*.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/handle_table.h"
#include "runtime/core/model_ri.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"

namespace npusim::rt::model_detail {

constexpr std::uint32_t kHeadFlag = ACL_MODEL_STREAM_FLAG_HEAD;
constexpr std::uint32_t kDefaultFlag = ACL_MODEL_STREAM_FLAG_DEFAULT;

class Execution;

// Control-flow decisions one execution may take (label switches, stream switches and
// activations, condition tests, sub-model runs included); past it the execution stops with
// ACL_ERROR_RT_MODEL_EXECUTE, so a device-side loop that never ends cannot hang the process.
constexpr std::uint64_t kMaxControlSteps = std::uint64_t{1} << 20;

struct ModelStream {
  std::shared_ptr<Recording> recording;
  bool head = false;
  std::uint32_t id = 0;    // the scheduler stream its tasks run on
  void* bound = nullptr;   // the persistent stream (built models)
};

struct CondHandle {
  void* ptr = nullptr;  // the uint64 condition value (device memory)
  std::uint64_t serial = 0;
  std::uint64_t default_value = 0;
  bool assign_default = false;
};

struct TaskGroup {
  std::weak_ptr<Recording> recording;
  std::size_t begin = 0, end = 0;  // entries [begin, end)
};

struct Model {
  std::uint32_t device = 0;
  void* context = nullptr;
  std::uint32_t id = 0;
  bool captured = false;
  bool built = false;             // BuildEnd called, or the capture ended: executable
  void* capture_stream = nullptr; // while capturing
  int capture_mode = 0;
  std::uint32_t capture_thread = 0;  // the host thread that began the capture
  std::vector<ModelStream> streams;
  std::vector<std::uint32_t> owned_ids;  // stream ids taken for captured recordings
  std::shared_ptr<Execution> last;       // the latest execution
  std::uint64_t executions = 0;
  std::string name;                      // aclmdlRISetName (at most 512 bytes)
  bool child = false;                    // a sub-model of a COND task (owned by its parent)
  std::vector<void*> children;           // sub-models, destroyed with this model
  std::vector<void*> conds;              // condition handles, destroyed with this model
};

struct Registry {
  std::uint64_t epoch = ~std::uint64_t{0};
  HandleTable<Model> models{0x10};
  HandleTable<Label> labels{0x11};
  HandleTable<LabelList> lists{0x12};
  HandleTable<CondHandle> conds{0x13};
  HandleTable<TaskGroup> groups{0x14};
  std::map<void*, std::size_t> group_begin;                 // capturing stream -> group start
  std::map<void*, std::shared_ptr<TaskGroup>> updating;     // stream -> group being updated
  std::map<std::uint32_t, int> thread_modes;  // host thread index -> capture mode
  std::uint64_t seq = 0;
  std::uint32_t next_model_id = 0;
  int capturing = 0;  // captures in progress
};

// ---- Helpers shared by the model files (model_ri_build.cpp) ----
/// The registry of the current backend (a new aclInit starts empty).
Registry& registry(Call& call);
Model& model_of(Call& call, void* handle);
/// Whether `m` is being captured; a capture whose stream was destroyed is over (the model keeps
/// what it recorded but can never be finished).
bool capturing(Call& call, Model& m);
/// A live stream given explicitly (NULL is refused: model streams are never the default one).
Stream& explicit_stream(Call& call, void* handle, const char* what);
/// `bytes` of device memory at `p`; returns the allocation's serial.
std::uint64_t device_operand(Call& call, void* p, std::size_t bytes, const char* what);
Entry& append(Call& call, Stream& s, Control control);
const char* control_name(Control c);
std::uint32_t take_stream_id(Device& dev);
/// Builds the execution of `m`: every recorded task instantiated now (host side), in recording
/// order across the model's streams.
std::shared_ptr<Execution> instantiate(Call& call, Model& m, std::uint32_t priority);
void require_not_running(const Model& m);
ModelStream* bound_entry(Model& m, void* stream);

}  // namespace npusim::rt::model_detail
