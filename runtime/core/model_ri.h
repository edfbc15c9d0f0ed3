// SPDX-License-Identifier: Apache-2.0
// Model run instances (aclmdlRI*), labels and device-side stream control flow.
//
// Recording. A stream that records — a persistent stream (ACL_STREAM_PERSISTENT) or a stream
// between aclmdlRICaptureBegin and aclmdlRICaptureEnd — keeps the tasks submitted to it in a
// Recording instead of running them (submit_to_stream's hook). Each entry is a TaskMaker: a
// closure that builds the task afresh, so a model can run any number of times (kernel launches
// share their KernelWork; event records and waits take their generation when the model is
// launched, as an eager record/wait does when it is issued; a wait in a model on an event never
// recorded waits for its next record). Control entries (label set/switch, stream switch/active,
// model end, condition) are recorded by the functions below. Known limit: a binary-path launch
// whose argument block the runtime allocated (placeholder arguments) releases it when the first
// run retires, so it does not replay correctly.
//
// Control flow (CANN's semantics): LABEL_SWITCH reads a uint32 index (past the list: the last
// label) and continues at that label's position on the label's stream, this stream stopping;
// STREAM_SWITCH compares two int32/int64 device values and, when the condition holds, starts
// trueStream from its first task, this stream stopping (else it goes on); STREAM_ACTIVE starts
// a stream and goes on. Starting a stream that is running does nothing.
//
// A model (Model) is a list of model streams, each a Recording, some of them heads. A captured
// model has one head: the captured stream's recording (run on a stream id of its own, so the
// captured stream stays usable). A built model's streams are the bound persistent streams (run on
// their own ids); ACL_MODEL_STREAM_FLAG_HEAD streams start when the model starts, the others
// when a control task activates them.
//
// Execution. aclmdlRIExecuteAsync(model, stream) puts two scheduler tasks on `stream`:
// MODEL_EXECUTE (a wait: holds the stream until the model's previous execution has finished, so
// executions of one model never interleave) and MODEL_WAIT (holds the stream until this
// execution has finished; its error is the first error of a model task). At the launch call the
// runtime instantiates every recorded task (host side, in recording order). On the device the
// execution is a small interpreter driven by models::Task::follow: MODEL_EXECUTE's follow hands
// the scheduler the first task of each head stream; each model task's follow hands over the next
// task of its stream, or, for control tasks, whatever the control decided. The decision is made
// by the control task's effect at its simulated completion, from device memory as it is then
// (labels: the uint32 index at ptr; stream switch: the int32/int64 comparison) — never evaluated
// on the host. The execution finishes when no model stream runs any more. An execution that
// takes more than 2^20 control-flow decisions stops with ACL_ERROR_RT_MODEL_EXECUTE (a loop that
// never ends must not hang the process); one whose MODEL_WAIT is discarded (the execute stream
// force-destroyed, the device reset) hands nothing more over.
//
// Timing (see README "How a model replays"): the host pays one launch_call for ExecuteAsync and
// MODEL_EXECUTE pays one doorbell; the model's tasks are resident on the device (no doorbell, no
// host call each) and pay scheduler.dispatch and scheduler.completion like any task, so a stream
// of a model runs back to back as an eagerly issued stream would with an infinitely fast host.
// Control tasks are scheduler tasks (scheduler.sync_task each).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/backend.h"

namespace npusim::rt {

class Call;
struct Stream;

/// Builds one task as the API call that recorded it would have submitted it.
using TaskMaker = std::function<Task()>;

struct Recording;

/// aclrtLabel: where aclrtSetLabel put it (a recording and an entry index).
struct Label {
  std::weak_ptr<Recording> recording;
  std::size_t position = 0;
  bool set = false;
};

/// aclrtLabelList.
struct LabelList {
  std::vector<std::shared_ptr<Label>> labels;
};

enum class Control : std::uint8_t {
  kNone,          // an ordinary task
  kLabelSet,      // LABEL_SET: a jump target
  kLabelSwitch,   // LABEL_SWITCH: jump to labels[min(*(uint32*)ptr, n - 1)]
  kStreamSwitch,  // STREAM_SWITCH: if (*left cond *right) run `target`, this stream stops
  kStreamActive,  // STREAM_ACTIVE: start `target`, this stream goes on
  kModelEnd,      // MODEL_END (aclmdlRIEndTask)
  kCond,          // COND: runs a sub-model chosen by the uint64 at `left` (IF / WHILE / SWITCH)
};

struct Entry {
  std::uint64_t seq = 0;  // recording order across all recordings (instantiation order)
  Control control = Control::kNone;
  TaskMaker make;    // kNone
  std::string name;  // kNone: the task's name (descriptions)
  // Control operands.
  void* left = nullptr;   // label index / left value (device memory)
  void* right = nullptr;  // right value (device memory)
  std::uint64_t left_serial = 0, right_serial = 0;  // their allocations
  int cond = 0;           // aclrtCondition
  bool wide = false;      // ACL_RT_SWITCH_INT64
  std::vector<std::shared_ptr<Label>> labels;
  std::weak_ptr<Recording> target;
  bool grouped = false;               // in a task group: made when the device reaches it
  int cond_type = 0;                  // kCond: ACL_MODEL_RI_COND_TYPE_*
  std::vector<void*> children;        // kCond: the sub-models (handles)
};

/// The tasks a recording stream kept.
struct Recording {
  std::vector<Entry> entries;
  bool ended = false;  // aclmdlRIEndTask was called on it
};

/// Records `make` (a task called `name`) instead of running it when `s` records; false when it
/// does not.
bool record_if_recording(Call& call, Stream& s, const TaskMaker& make, const std::string& name);

/// The persistent-stream set-up new_stream needs (a fresh recording).
void make_persistent(Stream& s);

// ---- Labels and control flow (aclrt*) ----
void* create_label(Call& call);
void destroy_label(Call& call, void* label);
void set_label(Call& call, void* label, void* stream);
void* create_label_list(Call& call, void** labels, std::size_t num);
void destroy_label_list(Call& call, void* list);
void switch_label_by_index(Call& call, void* ptr, std::uint32_t max, void* list, void* stream);
void active_stream(Call& call, void* target, void* stream);
void switch_stream(Call& call, void* left, int cond, void* right, int dtype, void* true_stream,
                   void* false_stream, void* stream);
void persistent_task_clean(Call& call, void* stream);

// ---- Model run instances (aclmdlRI*) ----
void* build_begin(Call& call, std::uint32_t flag);
void bind_stream(Call& call, void* model, void* stream, std::uint32_t flag);
void unbind_stream(Call& call, void* model, void* stream);
void end_task(Call& call, void* model, void* stream);
void build_end(Call& call, void* model);
void capture_begin(Call& call, void* stream, int mode);
void* capture_end(Call& call, void* stream);
/// status: ACL_MODEL_RI_CAPTURE_STATUS_*; the model under capture (or NULL).
int capture_info(Call& call, void* stream, void** model);
/// Swaps the calling thread's capture mode with *mode (GLOBAL until changed).
void exchange_capture_mode(Call& call, int* mode);
/// Unsafe calls (synchronous copies and memsets, asynchronous copies of pageable memory) fail
/// with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT while a capture forbids them: a capture begun by
/// this thread in GLOBAL or THREAD_LOCAL mode, or by another thread in GLOBAL mode when this
/// thread's mode is GLOBAL; a thread in RELAXED mode may always call them.
void require_capture_safe(Call& call);
void execute_async(Call& call, void* model, void* stream);
void execute_sync(Call& call, void* model, std::int32_t timeout_ms);
void destroy_model(Call& call, void* model);
// Conditional sub-models (experimental in CANN): a condition handle is a uint64 of device
// memory (ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT: set to the default value when the model
// starts); a COND task captured on a stream runs one of its sub-models, each captured with
// aclmdlRICaptureToModelRIBegin: IF runs [0] when the value is non-zero, else [1] (if any);
// WHILE runs [0] again and again while the value is non-zero; SWITCH runs [value] (none when
// value >= size). The stream goes on when the sub-model has finished.
void* cond_handle_create(Call& call, void* model, std::uint32_t value, int flag);
std::uint64_t* cond_handle_ptr(Call& call, void* handle);
/// Records the COND task; fills `models` with `size` new sub-models.
void add_cond_task(Call& call, void* handle, int type, std::uint32_t size, void** models,
                   void* stream, std::uint32_t flags);
void capture_to_model_begin(Call& call, void* stream, void* model, int mode);

// Task groups: tasks captured between TaskGrpBegin and TaskGrpEnd can be replaced later. Tasks
// issued to a stream between TaskUpdateBegin(stream, group) and TaskUpdateEnd(stream) are not
// run; TaskUpdateEnd queues an update task (MODEL_UPDATE) on that stream which, when the device
// reaches it, makes them the group's tasks: every model task of a group is taken from the group
// when the device reaches it, so an execution already launched sees the update if it reaches the
// group after the update task ran.
void task_group_begin(Call& call, void* stream);
void* task_group_end(Call& call, void* stream);
void task_update_begin(Call& call, void* stream, void* group);
void task_update_end(Call& call, void* stream);

/// aclmdlRISetName (the last name given, at most 512 bytes) / aclmdlRIGetName (truncated to
/// maxLen - 1 bytes and a NUL; empty when never named) / aclmdlRIGetId (process-unique).
void set_model_name(Call& call, void* model, const char* name);
void get_model_name(Call& call, void* model, std::uint32_t max_len, char* name);
std::uint32_t model_id(Call& call, void* model);

/// A readable description of the model (aclmdlRIDebugPrint / DebugJsonPrint).
std::string describe_model(Call& call, void* model, bool json);

}  // namespace npusim::rt
