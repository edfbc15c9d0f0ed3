// SPDX-License-Identifier: Apache-2.0
// Control flow in model run instances: persistent streams, labels, stream switch / active, a
// loop that never ends, and conditional sub-models (IF / WHILE / SWITCH).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "tests/runtime/core/model_ri_support.h"

namespace npusim::rt::testing::model_ri_test {
namespace {

// labels: switch(index) -> L0: X = 0x11; L1: Y = 0x22; L2: end.
class LabelTest : public ModelRiTest {
 protected:
  void SetUp() override {
    ModelRiTest::SetUp();
    ps_ = persistent();
    ASSERT_EQ(aclmdlRIBuildBegin(&model_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, ps_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    for (auto& l : labels_) ASSERT_EQ(aclrtCreateLabel(&l), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateLabelList(labels_, 3, &list_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSwitchLabelByIndex(at(0), 3, list_, ps_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetLabel(labels_[0], ps_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(at(64), 1, 0x11, 1, ps_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetLabel(labels_[1], ps_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(at(128), 1, 0x22, 1, ps_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetLabel(labels_[2], ps_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model_, ps_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model_, nullptr), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclmdlRIUnbindStream(model_, ps_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyLabelList(list_), ACL_SUCCESS);
    for (auto& l : labels_) EXPECT_EQ(aclrtDestroyLabel(l), ACL_SUCCESS);
    ModelRiTest::TearDown();
  }
  void run(std::uint32_t index) {
    *at(64) = *at(128) = 0;
    std::memcpy(host_, &index, 4);
    // The index reaches device memory by a copy queued just before the model: the switch reads
    // it when it runs on the device, not when the host launches the model.
    ASSERT_EQ(aclrtMemcpyAsync(at(0), 4, host_, 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model_, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  aclrtStream ps_ = nullptr;
  aclmdlRI model_ = nullptr;
  aclrtLabel labels_[3] = {};
  aclrtLabelList list_ = nullptr;
};

TEST_F(LabelTest, PersistentStreamKeepsItsTasksUntilTheModelRuns) {
  ASSERT_EQ(aclrtSynchronizeStream(ps_), ACL_SUCCESS);  // returns at once
  EXPECT_EQ(count("MEMSET"), 1);                        // SetUp's aclrtMemset only
  EXPECT_EQ(count("LABEL_SWITCH"), 0);
}

TEST_F(LabelTest, SwitchJumpsToTheLabelTheDeviceIndexNames) {
  run(1);
  EXPECT_EQ(*at(64), 0);
  EXPECT_EQ(*at(128), 0x22);
  EXPECT_EQ(count("LABEL_SET"), 2);  // L1, L2: L0 was jumped over
  run(0);
  EXPECT_EQ(*at(64), 0x11);
  EXPECT_EQ(*at(128), 0x22);
  run(2);
  EXPECT_EQ(*at(64), 0);
  EXPECT_EQ(*at(128), 0);
  run(9);  // past the list: the last label
  EXPECT_EQ(*at(64), 0);
  EXPECT_EQ(*at(128), 0);
  EXPECT_EQ(count("LABEL_SWITCH"), 4);
  EXPECT_EQ(count("MODEL_END"), 4);
}

TEST_F(LabelTest, DescribesTheModelAsJson) {
  const std::string path = ::testing::TempDir() + "model_ri.json";
  ASSERT_EQ(aclmdlRIDebugJsonPrint(model_, path.c_str(), 0), ACL_SUCCESS);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"LABEL_SWITCH\", \"LABEL_SET\", \"MEMSET\", \"LABEL_SET\", \"MEMSET\", "
                      "\"LABEL_SET\", \"MODEL_END\""),
            std::string::npos)
      << text;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclmdlRIDebugPrint(model_), ACL_SUCCESS);  // to the log
#pragma GCC diagnostic pop
  std::remove(path.c_str());
}

// The 2_model_switch shape: s1 (head) switches on *num to s3 (== 1) or s4 (== 2); s4 activates
// s2; s2 and s3 each write their byte and activate `end`, which writes its byte.
TEST_F(ModelRiTest, StreamSwitchAndActivateFollowTheDeviceValues) {
  aclrtStream s1 = persistent(), s2 = persistent(), s3 = persistent(), s4 = persistent(),
              end = persistent();
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, s1, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  for (aclrtStream s : {s2, s3, s4, end}) {
    ASSERT_EQ(aclmdlRIBindStream(model, s, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  }
  put32(16, 1);
  put32(32, 2);
  ASSERT_EQ(aclrtSwitchStream(at(0), ACL_RT_EQUAL, at(16), ACL_RT_SWITCH_INT32, s3, nullptr, s1),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchStream(at(0), ACL_RT_EQUAL, at(32), ACL_RT_SWITCH_INT32, s4, nullptr, s1),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(200), 1, 0xB2, 1, s2), ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(end, s2), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(300), 1, 0xB3, 1, s3), ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(end, s3), ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(s2, s4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(500), 1, 0xBE, 1, end), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIEndTask(model, end), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);

  auto run = [&](std::int32_t num) {
    *at(200) = *at(300) = *at(500) = 0;
    put32(0, num);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  };
  run(1);
  EXPECT_EQ(*at(200), 0);
  EXPECT_EQ(*at(300), 0xB3);
  EXPECT_EQ(*at(500), 0xBE);
  run(2);
  EXPECT_EQ(*at(200), 0xB2);
  EXPECT_EQ(*at(300), 0);
  EXPECT_EQ(*at(500), 0xBE);
  run(3);  // neither branch: s1 runs to its end, nothing else starts
  EXPECT_EQ(*at(200), 0);
  EXPECT_EQ(*at(300), 0);
  EXPECT_EQ(*at(500), 0);
  EXPECT_EQ(count("STREAM_SWITCH"), 1 + 2 + 2);  // a taken switch stops s1

  for (aclrtStream s : {s1, s2, s3, s4, end}) {
    ASSERT_EQ(aclmdlRIUnbindStream(model, s), ACL_SUCCESS);
  }
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiTest, SwitchOnInt64AndOrderings) {
  aclrtStream head = persistent(), yes = persistent();
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, yes, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchStream(at(0), ACL_RT_GREATER, at(8), ACL_RT_SWITCH_INT64, yes, nullptr,
                              head),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(100), 1, 1, 1, yes), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  auto run = [&](std::int64_t a, std::int64_t b) {
    *at(100) = 0;
    EXPECT_EQ(aclrtMemcpy(at(0), 8, &a, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(at(8), 8, &b, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return static_cast<int>(*at(100));
  };
  EXPECT_EQ(run(std::int64_t{1} << 40, 5), 1);
  EXPECT_EQ(run(-3, 5), 0);  // signed
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}
TEST_F(ModelRiTest, ALoopThatNeverEndsIsStopped) {
  aclrtStream ps = persistent();
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, ps, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  aclrtLabel top = nullptr;
  aclrtLabelList list = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&top), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateLabelList(&top, 1, &list), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetLabel(top, ps), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchLabelByIndex(at(0), 1, list, ps), ACL_SUCCESS);  // back to `top`, always
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_MODEL_EXECUTE);
  EXPECT_EQ(count("LABEL_SWITCH"), (1 << 20) + 1);  // the one past the limit stops it
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyLabel(top), ACL_SUCCESS);
}

// Conditional sub-models (3_cond_model's shapes, with memsets instead of aclnn operators).
class CondTest : public ModelRiTest {
 protected:
  void SetUp() override {
    ModelRiTest::SetUp();
    sub_ = new_stream();
  }
  // Captures `type` with one sub-model per element of `bodies` (each fills its byte range).
  aclmdlRI capture(aclmdlRICondTaskType type, int size, std::uint32_t flag, std::uint32_t dflt,
                   const std::function<void(int, aclrtStream)>& body) {
    aclmdlRI parent = nullptr;
    EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    aclmdlRICaptureStatus status;
    EXPECT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &parent), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICondHandleCreate(parent, dflt, static_cast<aclmdlRICondHandleFlag>(flag),
                                       &cond_),
              ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICondHandleGetCondPtr(cond_, &cond_ptr_), ACL_SUCCESS);
    std::vector<aclmdlRI> subs(size);
    aclmdlRICondTaskParams params;
    params.handle = cond_;
    params.type = type;
    params.size = static_cast<uint32_t>(size);
    params.modelRIArray = subs.data();
    EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemsetAsync(at(900), 1, 0xEE, 1, stream_), ACL_SUCCESS);  // after the COND
    for (int i = 0; i < size; ++i) {
      EXPECT_NE(subs[i], nullptr);
      EXPECT_EQ(
          aclmdlRICaptureToModelRIBegin(sub_, subs[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
          ACL_SUCCESS);
      body(i, sub_);
      aclmdlRI done = nullptr;
      EXPECT_EQ(aclmdlRICaptureEnd(sub_, &done), ACL_SUCCESS);
      EXPECT_EQ(done, subs[i]);
    }
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &parent), ACL_SUCCESS);
    return parent;
  }
  void run(aclmdlRI model, const std::uint64_t* cond) {
    std::memset(at(0), 0, 1024);
    if (cond != nullptr) {
      ASSERT_EQ(aclrtMemcpy(cond_ptr_, 8, cond, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  aclrtStream sub_ = nullptr;
  aclmdlRICondHandle cond_ = nullptr;
  uint64_t* cond_ptr_ = nullptr;
};

TEST_F(CondTest, IfRunsTheFirstSubModelWhenTheValueIsNonZeroElseTheSecond) {
  aclmdlRI model = capture(ACL_MODEL_RI_COND_TYPE_IF, 2, 0, 0, [&](int i, aclrtStream s) {
    ASSERT_EQ(aclrtMemsetAsync(at(0), 1, 0xA0 + i, 1, s), ACL_SUCCESS);
  });
  const std::uint64_t yes = 5, no = 0;
  run(model, &yes);
  EXPECT_EQ(*at(0), 0xA0);
  EXPECT_EQ(*at(900), 0xEE);
  // The parent's stream goes on when the sub-model has finished.
  const FakeBackend::TaskTrace* branch = nullptr;
  const FakeBackend::TaskTrace* after = nullptr;
  for (const auto& t : fake().tasks()) {
    if (t.name == "MEMSET" && t.stream < kSyncStream) (branch == nullptr ? branch : after) = &t;
  }
  ASSERT_NE(after, nullptr);
  EXPECT_GE(after->record.start, branch->record.end);
  EXPECT_NE(after->stream, branch->stream);
  run(model, &no);
  EXPECT_EQ(*at(0), 0xA1);
  EXPECT_EQ(count("COND"), 2);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);  // with its sub-models and condition
  EXPECT_EQ(aclmdlRICondHandleGetCondPtr(cond_, &cond_ptr_), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(CondTest, WhileRunsTheBodyWhileTheValueStaysNonZero) {
  // Body: mark the iteration, then cond <- next, next <- 0: with next = 1 it runs twice.
  aclmdlRI model = capture(ACL_MODEL_RI_COND_TYPE_WHILE, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT,
                           1, [&](int, aclrtStream s) {
    ASSERT_EQ(aclrtMemsetAsync(at(16), 1, 1, 1, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(cond_ptr_, 8, at(100), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(at(100), 8, at(108), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
              ACL_SUCCESS);
  });
  const std::uint64_t zero = 0;
  ASSERT_EQ(aclrtMemcpy(cond_ptr_, 8, &zero, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  const std::uint64_t one = 1;
  std::memset(at(0), 0, 1024);
  std::memcpy(at(100), &one, 8);
  // ASSIGN_DEFAULT: the condition is 1 when the model starts, whatever it held.
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*at(16), 1);
  EXPECT_EQ(*at(900), 0xEE);
  EXPECT_EQ(count("COND"), 3);  // true, true, false
  int marks = 0;
  for (const auto& t : fake().tasks()) marks += t.name == "MEMSET" && t.stream < kSyncStream;
  EXPECT_EQ(marks, 2 + 1);  // two iterations, then the parent's own memset
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CondTest, SwitchRunsTheSubModelTheValueNames) {
  aclmdlRI model = capture(ACL_MODEL_RI_COND_TYPE_SWITCH, 3, 0, 0, [&](int i, aclrtStream s) {
    ASSERT_EQ(aclrtMemsetAsync(at(0), 1, 0xC0 + i, 1, s), ACL_SUCCESS);
  });
  for (std::uint64_t v : {0, 1, 2}) {
    run(model, &v);
    EXPECT_EQ(*at(0), 0xC0 + v);
  }
  const std::uint64_t past = 3;
  run(model, &past);
  EXPECT_EQ(*at(0), 0);  // no such case: nothing runs, the stream goes on
  EXPECT_EQ(*at(900), 0xEE);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CondTest, MisuseIsRefused) {
  aclmdlRICondTaskParams params{};
  EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_ERROR_INVALID_PARAM);  // no handle
  aclmdlRI parent = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&parent, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond_),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(3), &cond_),
            ACL_ERROR_INVALID_PARAM);
  aclmdlRI subs[2] = {};
  params.handle = cond_;
  params.type = ACL_MODEL_RI_COND_TYPE_WHILE;
  params.size = 2;
  params.modelRIArray = subs;
  EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_ERROR_INVALID_PARAM);  // WHILE: 1
  params.size = 1;
  EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  // A sub-model must be captured before its parent runs.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRICaptureToModelRIBegin(sub_, model, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_ERROR_RT_PARAM_INVALID);  // built already
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(parent), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing::model_ri_test
