// SPDX-License-Identifier: Apache-2.0
// Recording, labels and device-side control flow of model run instances (model_ri.h).
#include <memory>
#include <string>

#include "runtime/core/errors.h"
#include "runtime/core/model_ri_execution.h"

namespace npusim::rt {

using namespace model_detail;  // NOLINT: the model files share these internals

bool record_if_recording(Call& call, Stream& s, const TaskMaker& make, const std::string& name) {
  if (!s.recording) return false;
  Entry& e = append(call, s, Control::kNone);
  e.make = make;
  e.name = name;
  return true;
}

void make_persistent(Stream& s) { s.recording = std::make_shared<Recording>(); }

// ---- Labels and control flow ----

void* create_label(Call& call) {
  call.context();
  return registry(call).labels.add(std::make_shared<Label>());
}

void destroy_label(Call& call, void* label) {
  require_not_null(label, "label");
  require(registry(call).labels.remove(label) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "label is not a live label");
}

void set_label(Call& call, void* label, void* stream) {
  require_not_null(label, "label");
  std::shared_ptr<Label> l = registry(call).labels.get(label);
  require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID, "label is not a live label");
  Stream& s = explicit_stream(call, stream, "stream");
  require(!l->set, ACL_ERROR_RT_PARAM_INVALID, "the label is already set on a stream");
  append(call, s, Control::kLabelSet);
  l->recording = s.recording;
  l->position = s.recording->entries.size() - 1;
  l->set = true;
}

void* create_label_list(Call& call, void** labels, std::size_t num) {
  require_not_null(labels, "labels");
  require(num > 0, ACL_ERROR_INVALID_PARAM, "num must be at least 1");
  auto list = std::make_shared<LabelList>();
  for (std::size_t i = 0; i < num; ++i) {
    std::shared_ptr<Label> l = registry(call).labels.get(labels[i]);
    require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID,
            "labels[" + std::to_string(i) + "] is not a live label");
    list->labels.push_back(std::move(l));
  }
  return registry(call).lists.add(std::move(list));
}

void destroy_label_list(Call& call, void* list) {
  require_not_null(list, "labelList");
  require(registry(call).lists.remove(list) != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "labelList is not a live label list");
}

void switch_label_by_index(Call& call, void* ptr, std::uint32_t max, void* list, void* stream) {
  std::uint64_t serial = device_operand(call, ptr, sizeof(std::uint32_t), "ptr");
  require_not_null(list, "labelList");
  LabelList* l = registry(call).lists.find(list);
  require(l != nullptr, ACL_ERROR_RT_PARAM_INVALID, "labelList is not a live label list");
  require(max >= 1 && max <= l->labels.size(), ACL_ERROR_INVALID_PARAM,
          "maxValue must be between 1 and the number of labels in the list");
  Stream& s = explicit_stream(call, stream, "stream");
  Entry& e = append(call, s, Control::kLabelSwitch);
  e.left = ptr;
  e.left_serial = serial;
  e.labels.assign(l->labels.begin(), l->labels.begin() + max);
}

void active_stream(Call& call, void* target, void* stream) {
  Stream& t = explicit_stream(call, target, "activeStream");
  Stream& s = explicit_stream(call, stream, "stream");
  require(static_cast<bool>(t.recording) && (t.flags & ACL_STREAM_PERSISTENT) != 0,
          ACL_ERROR_RT_PARAM_INVALID, "activeStream is not a persistent stream");
  Entry& e = append(call, s, Control::kStreamActive);
  e.target = t.recording;
}

void switch_stream(Call& call, void* left, int cond, void* right, int dtype, void* true_stream,
                   void* false_stream, void* stream) {
  require(cond >= ACL_RT_EQUAL && cond <= ACL_RT_LESS_OR_EQUAL, ACL_ERROR_INVALID_PARAM,
          "cond is not an aclrtCondition");
  require(dtype == ACL_RT_SWITCH_INT32 || dtype == ACL_RT_SWITCH_INT64, ACL_ERROR_INVALID_PARAM,
          "dataType is not an aclrtCompareDataType");
  require(false_stream == nullptr, ACL_ERROR_INVALID_PARAM,
          "falseStream is reserved and must be NULL");
  const std::size_t bytes = dtype == ACL_RT_SWITCH_INT64 ? 8 : 4;
  std::uint64_t ls = device_operand(call, left, bytes, "leftValue");
  std::uint64_t rs = device_operand(call, right, bytes, "rightValue");
  Stream& t = explicit_stream(call, true_stream, "trueStream");
  Stream& s = explicit_stream(call, stream, "stream");
  require(static_cast<bool>(t.recording) && (t.flags & ACL_STREAM_PERSISTENT) != 0,
          ACL_ERROR_RT_PARAM_INVALID, "trueStream is not a persistent stream");
  Entry& e = append(call, s, Control::kStreamSwitch);
  e.left = left;
  e.right = right;
  e.left_serial = ls;
  e.right_serial = rs;
  e.cond = cond;
  e.wide = bytes == 8;
  e.target = t.recording;
}

void persistent_task_clean(Call& call, void* stream) {
  Stream& s = explicit_stream(call, stream, "stream");
  require((s.flags & ACL_STREAM_PERSISTENT) != 0, ACL_ERROR_RT_PARAM_INVALID,
          "the stream is not a persistent stream");
  if (s.model != nullptr) {
    if (Model* m = registry(call).models.find(s.model)) require_not_running(*m);
  }
  s.recording->entries.clear();
  s.recording->ended = false;
}

}  // namespace npusim::rt
