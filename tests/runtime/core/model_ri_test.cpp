// SPDX-License-Identifier: Apache-2.0
// Model run instances (aclmdlRI*): capture and execution, events across the model boundary,
// capture modes, names and ids, task groups and misuse. Labels, stream switch / active and
// conditional sub-models: model_ri_control_test.cpp.
#include <cstring>
#include <thread>
#include <vector>

#include "tests/runtime/core/model_ri_support.h"

namespace npusim::rt::testing::model_ri_test {
namespace {

TEST_F(ModelRiTest, CaptureRecordsTheTasksAndEachExecutionRunsThemAgain) {
  std::memset(host_, 7, 64);
  ASSERT_EQ(aclrtMemcpy(at(0), 64, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI capturing = nullptr;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &capturing), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(capturing, nullptr);
  ASSERT_EQ(aclrtMemcpyAsync(at(1024), 64, at(0), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(model, capturing);
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &capturing), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(capturing, nullptr);

  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(count("MEMCPY_D2D"), 0);  // captured, not run
  EXPECT_EQ(*at(1024), 0);

  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*at(1024 + 63), 7);
  std::memset(host_, 9, 64);
  ASSERT_EQ(aclrtMemcpy(at(0), 64, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*at(1024 + 63), 9);  // the replay copies the bytes as they are now

  EXPECT_EQ(count("MEMCPY_D2D"), 2);
  EXPECT_EQ(count("MODEL_EXECUTE"), 2);
  EXPECT_EQ(count("MODEL_WAIT"), 2);
  // The model's tasks run on a stream of their own; the execute stream holds MODEL_WAIT until
  // the copy is over.
  const auto* copy = last("MEMCPY_D2D");
  const auto* wait = last("MODEL_WAIT");
  const auto* launch = last("MODEL_EXECUTE");
  EXPECT_NE(copy->stream, wait->stream);
  EXPECT_EQ(copy->record.submit, launch->record.end);  // handed over at MODEL_EXECUTE's end
  EXPECT_EQ(copy->record.start, launch->record.end);
  EXPECT_EQ(wait->record.start, copy->record.end);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(ModelRiTest, ExecutionsOfOneModelNeverOverlap) {
  aclrtStream other = new_stream();
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 4096, 1, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 4096, 2, 4096, stream_), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, other), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_MODEL_RUNNING);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  std::vector<const FakeBackend::TaskTrace*> sets;
  for (const auto& t : fake().tasks()) {
    if (t.name == "MEMSET" && t.stream < kSyncStream) sets.push_back(&t);  // not SetUp's
  }
  ASSERT_EQ(sets.size(), 4u);
  for (std::size_t i = 1; i < sets.size(); ++i) {
    EXPECT_GE(sets[i]->record.start, sets[i - 1]->record.end);
  }
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// 4_model_sync_external's shapes: a record made inside a model is visible outside, and a wait
// inside a model waits for a record made outside.
TEST_F(ModelRiTest, EventsCrossTheModelBoundary) {
  aclrtStream ext = new_stream();
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 4096, 5, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEventWithFlag(ev, stream_, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  aclmdlRI producer = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &producer), ACL_SUCCESS);
  // Capturing the record did not record the event.
  EXPECT_EQ(aclrtQueryEventStatus(ev, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_EQ(aclrtQueryEventStatus(ev, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);  // an Ex event never recorded

  ASSERT_EQ(aclmdlRIExecuteAsync(producer, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(ext, ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host_, 64, at(4000), 64, ACL_MEMCPY_DEVICE_TO_HOST, ext),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(ext), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(host_)[63], 5);  // waited for the model's record
  EXPECT_GE(last("MEMCPY_D2H")->record.start, last("EVENT_RECORD")->record.end);

  // A wait captured into a model waits for the event's latest record when the model is launched.
  aclrtStream cap = new_stream();
  ASSERT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEventWithFlag(cap, ev, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 64, 6, 64, cap), ACL_SUCCESS);
  aclmdlRI consumer = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(cap, &consumer), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(1000), 1024, 1, 1024, ext), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, ext), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(consumer, cap), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(cap), ACL_SUCCESS);
  EXPECT_GE(last("MEMSET")->record.start, last("EVENT_RECORD")->record.end);
  EXPECT_EQ(*at(0), 6);

  ASSERT_EQ(aclmdlRIDestroy(producer), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(consumer), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
}

TEST_F(ModelRiTest, ExecuteSyncRunsOnTheDefaultStream) {
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 64, 3, 64, stream_), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
  EXPECT_EQ(*at(0), 3);
  EXPECT_EQ(aclmdlRIExecute(model, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiTest, CaptureModeIsExchangedPerThread) {
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);  // the default
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(nullptr), ACL_ERROR_INVALID_PARAM);
}
TEST_F(ModelRiTest, NamesAndIds) {
  aclmdlRI a = nullptr, b = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&a, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildBegin(&b, 0), ACL_SUCCESS);
  uint32_t ida = 0, idb = 0;
  ASSERT_EQ(aclmdlRIGetId(a, &ida), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIGetId(b, &idb), ACL_SUCCESS);
  EXPECT_NE(ida, idb);
  char name[8] = "x";
  ASSERT_EQ(aclmdlRIGetName(a, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "");  // never named
  ASSERT_EQ(aclmdlRISetName(a, "first"), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRISetName(a, "resnet50-graph"), ACL_SUCCESS);  // the last one counts
  ASSERT_EQ(aclmdlRIGetName(a, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "resnet5");  // truncated to maxLen - 1
  EXPECT_EQ(aclmdlRIGetName(a, 0, name), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRISetName(a, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIGetId(a, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIDestroy(a), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIGetId(a, &ida), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclmdlRIDestroy(b), ACL_SUCCESS);
}

TEST_F(ModelRiTest, PersistentTaskCleanForgetsTheRecordedTasks) {
  aclrtStream ps = persistent();
  ASSERT_EQ(aclrtMemsetAsync(at(0), 64, 4, 64, ps), ACL_SUCCESS);
  ASSERT_EQ(aclrtPersistentTaskClean(ps), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, ps, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*at(0), 0);
  EXPECT_EQ(aclrtPersistentTaskClean(stream_), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);  // unbinds
}

TEST_F(ModelRiTest, MisuseIsRefused) {
  aclrtStream ps = persistent(), ps2 = persistent();
  aclmdlRI model = nullptr, other = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildBegin(&other, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBuildBegin(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIBuildBegin(&other, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIBindStream(model, stream_, ACL_MODEL_STREAM_FLAG_HEAD),
            ACL_ERROR_RT_PARAM_INVALID);  // not persistent
  EXPECT_EQ(aclmdlRIBindStream(model, ps, 5), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIBindStream(model, ps, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(other, ps, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclmdlRIEndTask(other, ps), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);  // not built
  EXPECT_EQ(aclmdlRIBuildEnd(other, nullptr), ACL_ERROR_RT_PARAM_INVALID);      // no stream
  EXPECT_EQ(aclmdlRIBuildEnd(model, &ps), ACL_ERROR_INVALID_PARAM);
  // Control flow exists only in a model; its operands are device memory.
  EXPECT_EQ(aclrtActiveStream(ps, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSwitchStream(at(0), ACL_RT_EQUAL, at(4), ACL_RT_SWITCH_INT32, ps, ps2, ps),
            ACL_ERROR_INVALID_PARAM);  // falseStream is reserved
  EXPECT_EQ(aclrtSwitchStream(host_, ACL_RT_EQUAL, at(4), ACL_RT_SWITCH_INT32, ps2, nullptr, ps),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSwitchStream(at(0), ACL_RT_EQUAL, at(4), ACL_RT_SWITCH_INT32, stream_, nullptr,
                              ps),
            ACL_ERROR_RT_PARAM_INVALID);  // trueStream not persistent
  aclrtLabel label = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetLabel(label, stream_), ACL_ERROR_RT_PARAM_INVALID);
  aclrtLabelList list = nullptr;
  EXPECT_EQ(aclrtCreateLabelList(&label, 0, &list), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateLabelList(&label, 1, &list), ACL_SUCCESS);
  EXPECT_EQ(aclrtSwitchLabelByIndex(at(0), 2, list, ps), ACL_ERROR_INVALID_PARAM);
  // A label never set makes the model fail to launch; a stream not in the model too.
  ASSERT_EQ(aclrtSwitchLabelByIndex(at(0), 1, list, ps), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetLabel(label, ps), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetLabel(label, ps), ACL_ERROR_RT_PARAM_INVALID);  // set twice
  ASSERT_EQ(aclrtActiveStream(ps2, ps), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);  // ps2 unbound
  ASSERT_EQ(aclmdlRIBindStream(model, ps2, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, ps), ACL_ERROR_RT_PARAM_INVALID);  // persistent
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // Capture misuse.
  aclmdlRI captured = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &captured), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclmdlRICaptureBegin(ps, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, static_cast<aclmdlRICaptureMode>(7)),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_ERROR_RT_STREAM_CAPTURED);
  aclmdlRICaptureStatus status;
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &captured), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(captured), ACL_ERROR_RT_MODEL_CAPTURED);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_PARAM_INVALID);  // capturing
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &captured), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(captured, ps2, ACL_MODEL_STREAM_FLAG_HEAD),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclmdlRIDestroy(captured), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(captured), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIDestroy(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRIUnbindStream(model, ps), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIUnbindStream(model, ps), ACL_ERROR_RT_STREAM_MODEL);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDestroyLabel(label), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(ModelRiTest, CaptureModesForbidUnsafeCalls) {
  std::memset(host_, 1, 64);
  auto sync_copy = [&] { return aclrtMemcpy(at(0), 64, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE); };
  auto from_other_thread = [&] {
    aclError r = ACL_SUCCESS;
    std::thread t([&] {
      aclrtSetDevice(0);
      r = sync_copy();
    });
    t.join();
    return r;
  };
  aclmdlRI model = nullptr;
  // GLOBAL: no thread in GLOBAL mode may make an unsafe call; RELAXED threads may.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(aclrtMemset(at(0), 64, 0, 64), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(from_other_thread(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  // THREAD_LOCAL: only the capturing thread is restricted.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
  EXPECT_EQ(from_other_thread(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  // RELAXED: nobody is.
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(sync_copy(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}
// Task groups (1_model_update's shape): the model waits on an event the update stream records
// after the update, so the execution launched before the update runs the updated group.
TEST_F(ModelRiTest, TaskUpdateReplacesTheGroupWhenTheDeviceReachesIt) {
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL), ACL_SUCCESS);
  aclrtStream upd = new_stream();
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(at(0), 1, 1, 1, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(stream_, ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetEvent(ev, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtTaskGrp group = nullptr;
  EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(stream_), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  ASSERT_EQ(aclrtMemsetAsync(at(1), 1, 2, 1, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(stream_, &group), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);

  for (int i = 0; i < 3; ++i) {
    std::memset(at(0), 0, 2);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    if (i == 1) {
      ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemsetAsync(at(1), 1, 7, 1, upd), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtRecordEvent(ev, upd), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(upd), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(*at(0), 1);
    EXPECT_EQ(*at(1), i == 0 ? 2 : 7) << "execution " << i;
  }
  EXPECT_EQ(count("MODEL_UPDATE"), 1);
  // An update must issue as many tasks as the group holds.
  ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(upd, group), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing::model_ri_test
