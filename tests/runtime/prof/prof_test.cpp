// SPDX-License-Identifier: Apache-2.0
// Profiling (acl_prof.h) and mstx on FakeBackend: call-order and argument errors, markers and
// ranges at the calling thread's simulated host clock on the host track, and the files written
// (runtime/prof/profiler.h).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "runtime/core/runtime.h"
#include "runtime/prof/msprof_summaries.h"
#include "runtime/prof/profiler.h"
#include "tests/runtime/test_support.h"
#include "tests/test_util.h"

namespace npusim::rt::testing {
namespace {

namespace fs = std::filesystem;

using test_util::read_text;

// A fresh directory under the test temp dir.
fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("npusim_prof_" + name);
  fs::remove_all(dir);
  return dir;
}

class ProfTest : public DeviceTest {
 protected:
  aclprofConfig* make_config() {
    uint32_t devices[1] = {0};
    return aclprofCreateConfig(devices, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr,
                               ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  }
  void* stamp(const char* msg) {
    void* s = aclprofCreateStamp();
    EXPECT_NE(s, nullptr);
    EXPECT_EQ(aclprofSetStampTraceMessage(s, msg, static_cast<uint32_t>(std::strlen(msg))),
              ACL_SUCCESS);
    return s;
  }
  // The host spans that are markers/ranges (name, start, end), in recording order.
  std::vector<FakeBackend::ApiTrace> spans() const { return (*fake_)->host_spans(); }
};

TEST_F(ProfTest, CallOrderErrors) {
  aclprofConfig* config = make_config();
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);  // before aclprofInit
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
  const fs::path dir = fresh_dir("order");
  const std::string path = dir.string();
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(aclprofInit(path.c_str(), path.size()), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);  // not started
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_PROF_ALREADY_RUN);  // in use
  aclprofConfig* other = make_config();
  EXPECT_EQ(aclprofStop(other), ACL_ERROR_INVALID_PARAM);  // not the started config
  EXPECT_EQ(aclprofStop(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);  // destroyed
  EXPECT_EQ(aclprofDestroyConfig(other), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
  EXPECT_TRUE(fs::is_directory(dir / "PROF_000001_npusim" / "mindstudio_profiler_output"));
}

TEST_F(ProfTest, ArgumentErrors) {
  EXPECT_EQ(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit("/tmp", 0), ACL_ERROR_INVALID_PARAM);
  uint32_t dev0[1] = {0};
  uint32_t dev9[1] = {9};
  uint32_t twice[2] = {0, 0};
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);
  EXPECT_EQ(aclprofCreateConfig(dev0, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);
  EXPECT_EQ(aclprofCreateConfig(dev9, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);
  EXPECT_EQ(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);
  EXPECT_EQ(aclprofCreateConfig(dev0, 1, static_cast<aclprofAicoreMetrics>(42), nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, nullptr, 1ULL << 40), nullptr);
  EXPECT_EQ(aclGetRecentErrMsg() != nullptr, true);
  EXPECT_EQ(aclprofStart(nullptr), ACL_ERROR_PROF_NOT_RUN);  // order is checked first
  EXPECT_EQ(aclprofDestroyConfig(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "0", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "fast", 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);
  void* s = aclprofCreateStamp();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(aclprofSetStampTraceMessage(s, nullptr, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetStampTraceMessage(s, "abc", 0), ACL_ERROR_INVALID_PARAM);
  const std::string long_msg(129, 'x');
  EXPECT_EQ(aclprofSetStampTraceMessage(s, long_msg.c_str(), 129), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetStampTraceMessage(nullptr, "abc", 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofMark(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofPush(reinterpret_cast<void*>(0x1234)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofPop(), ACL_ERROR_INVALID_PARAM);  // nothing pushed
  uint32_t id = 0;
  EXPECT_EQ(aclprofRangeStart(s, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofRangeStop(77), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofRangeStart(s, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 1u);
  EXPECT_EQ(aclprofRangeStop(id), ACL_SUCCESS);
  EXPECT_EQ(aclprofRangeStop(id), ACL_ERROR_INVALID_PARAM);  // already stopped
  aclprofDestroyStamp(s);
  EXPECT_EQ(aclprofMark(s), ACL_ERROR_INVALID_PARAM);  // destroyed
  aclprofStepInfo* step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_END, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetStepTimestamp(step, static_cast<aclprofStepTag>(5), stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetStepTimestamp(nullptr, ACL_STEP_START, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, stream_), ACL_ERROR_INVALID_PARAM);
  aclprofDestroyStepInfo(step);
}

// A subscription needs a bound model; unsubscribing closes the fd (the reader sees end of file).
TEST_F(ProfTest, ModelSubscription) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]), nullptr);
  aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(aclprofModelSubscribe(3, config), ACL_ERROR_INVALID_PARAM);  // not bound
  EXPECT_EQ(MsprofSetDeviceIdByGeModelIdx(3, 1000), -1);  // no device 1000
  EXPECT_EQ(MsprofSetDeviceIdByGeModelIdx(3, 0), 0);
  EXPECT_EQ(aclprofModelSubscribe(3, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofModelSubscribe(3, config), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(3, config), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
  {  // aclprofStart collection and subscription exclude each other
    const fs::path dir = fresh_dir("conflict");
    const std::string path = dir.string();
    ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
    aclprofConfig* session = make_config();
    EXPECT_EQ(aclprofStart(session), ACL_ERROR_PROF_API_CONFLICT);
    ASSERT_EQ(aclprofModelUnSubscribe(3), ACL_SUCCESS);
    ASSERT_EQ(aclprofStart(session), ACL_SUCCESS);
    EXPECT_EQ(aclprofModelSubscribe(3, config), ACL_ERROR_PROF_API_CONFLICT);
    EXPECT_EQ(aclprofStop(session), ACL_SUCCESS);
    close(fds[0]);
    ASSERT_EQ(pipe(fds), 0);  // the unsubscribe closed the write end: a new pipe
    aclprofSubscribeConfig* again = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
    config = again;
    ASSERT_EQ(aclprofModelSubscribe(3, config), ACL_SUCCESS);
    EXPECT_EQ(aclprofDestroyConfig(session), ACL_SUCCESS);
    EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  }
  EXPECT_EQ(aclprofModelUnSubscribe(4), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofModelUnSubscribe(3), ACL_SUCCESS);
  char byte;
  EXPECT_EQ(read(fds[0], &byte, 1), 0);  // end of file: the write end was closed
  close(fds[0]);
  EXPECT_EQ(MsprofUnsetDeviceIdByGeModelIdx(3, 1), -1);
  EXPECT_EQ(MsprofUnsetDeviceIdByGeModelIdx(3, 0), 0);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ProfTest, OpRecordReaders) {
  size_t size = 0;
  ASSERT_EQ(aclprofGetOpDescSize(&size), ACL_SUCCESS);
  ASSERT_EQ(size, sizeof(OpDescRecord));
  OpDescRecord records[2] = {};
  records[0] = {kOpDescMagic, 5, 1000, 3500, "Add", "add_1"};
  records[1] = {kOpDescMagic, 5, 4000, 4100, "MatMul", "mm"};
  uint32_t n = 0;
  ASSERT_EQ(aclprofGetOpNum(records, sizeof records, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclprofGetOpNum(records, sizeof records - 1, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpNum(nullptr, sizeof records, &n), ACL_ERROR_INVALID_PARAM);
  size_t len = 0;
  ASSERT_EQ(aclprofGetOpTypeLen(records, sizeof records, 1, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 7u);  // "MatMul" + NUL
  char type[7];
  EXPECT_EQ(aclprofGetOpType(records, sizeof records, 1, type, 6), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofGetOpType(records, sizeof records, 1, type, 7), ACL_SUCCESS);
  EXPECT_STREQ(type, "MatMul");
  ASSERT_EQ(aclprofGetOpNameLen(records, sizeof records, 0, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 6u);
  char name[16];
  ASSERT_EQ(aclprofGetOpName(records, sizeof records, 0, name, sizeof name), ACL_SUCCESS);
  EXPECT_STREQ(name, "add_1");
  EXPECT_EQ(aclprofGetOpStart(records, sizeof records, 0), 1000u);
  EXPECT_EQ(aclprofGetOpEnd(records, sizeof records, 0), 3500u);
  EXPECT_EQ(aclprofGetOpDuration(records, sizeof records, 0), 2500u);
  EXPECT_EQ(aclprofGetModelId(records, sizeof records, 1), 5u);
  EXPECT_EQ(aclprofGetOpStart(records, sizeof records, 2), 0u);  // past the last
  EXPECT_EQ(aclprofGetOpTypeLen(records, sizeof records, 2, &len), ACL_ERROR_INVALID_PARAM);
}

// Markers are zero-length spans at the host clock of their call; a range runs from the clock of
// the call that opened it to the clock of the call that closed it; nested push/pop ranges close
// innermost first.
TEST_F(ProfTest, MarkersAndRangesAtHostClock) {
  void* outer = stamp("outer");
  void* inner = stamp("inner");
  void* mark = stamp("mark");
  const std::size_t before = spans().size();
  const SimTime t_mark = host_clock();
  ASSERT_EQ(aclprofMark(mark), ACL_SUCCESS);
  const SimTime t_push = host_clock();
  ASSERT_EQ(aclprofPush(outer), ACL_SUCCESS);
  const SimTime t_inner = host_clock();
  ASSERT_EQ(aclprofPush(inner), ACL_SUCCESS);
  const SimTime t_pop_inner = host_clock();
  ASSERT_EQ(aclprofPop(), ACL_SUCCESS);
  const SimTime t_pop_outer = host_clock();
  ASSERT_EQ(aclprofPop(), ACL_SUCCESS);
  EXPECT_LT(t_mark, t_push);  // every call takes host time
  auto s = spans();
  ASSERT_EQ(s.size(), before + 3);
  EXPECT_EQ(s[before].name, "mark");
  EXPECT_EQ(s[before].start, t_mark);
  EXPECT_EQ(s[before].end, t_mark);
  EXPECT_EQ(s[before + 1].name, "inner");
  EXPECT_EQ(s[before + 1].start, t_inner);
  EXPECT_EQ(s[before + 1].end, t_pop_inner);
  EXPECT_EQ(s[before + 2].name, "outer");
  EXPECT_EQ(s[before + 2].start, t_push);
  EXPECT_EQ(s[before + 2].end, t_pop_outer);
  for (void* p : {outer, inner, mark}) aclprofDestroyStamp(p);
}

TEST_F(ProfTest, MstxMarksRangesAndDomains) {
  const std::size_t before = spans().size();
  const SimTime t0 = host_clock();
  mstxMarkA("hello", stream_);
  const SimTime t1 = host_clock();
  mstxRangeId r = mstxRangeStartA("outer", nullptr);
  EXPECT_EQ(r, 1u);
  mstxDomainHandle_t d = mstxDomainCreateA("inner_domain");
  ASSERT_NE(d, nullptr);
  mstxDomainMarkA(d, "in domain", stream_);
  mstxRangeId dr = mstxDomainRangeStartA(d, "domain range", stream_);
  EXPECT_EQ(dr, 2u);
  mstxRangeEnd(dr);                 // wrong domain: ignored, the range stays open
  mstxDomainRangeEnd(d, dr);
  mstxRangeEnd(r);
  mstxDomainDestroy(d);
  EXPECT_EQ(mstxRangeStartA(nullptr, nullptr), 0u);  // bad argument: no range
  mstxDomainMarkA(d, "destroyed", nullptr);           // ignored
  EXPECT_EQ(mstxDomainCreateA(nullptr), nullptr);
  auto s = spans();
  ASSERT_EQ(s.size(), before + 4);
  EXPECT_EQ(s[before].name, "hello");
  EXPECT_EQ(s[before].start, t0);
  EXPECT_EQ(s[before + 1].name, "in domain");
  EXPECT_EQ(s[before + 2].name, "domain range");
  EXPECT_EQ(s[before + 3].name, "outer");
  EXPECT_EQ(s[before + 3].start, t1);
  EXPECT_LT(t0, t1);
  const std::string csv = profiler().tx_csv(0);
  EXPECT_NE(csv.find("marker,inner_domain,in domain,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("start_end,default,outer,0,"), std::string::npos) << csv;
}

// aclprofStop writes the session's files in msprof's layout; records before aclprofStart are not
// in it. FakeBackend records no timeline: only the markers, the devices and the README.
TEST_F(ProfTest, StopWritesSessionFiles) {
  const fs::path out = fresh_dir("out");
  fs::create_directories(out);
  fake().set_output_dir(out.string());
  const fs::path dir = fresh_dir("session");
  const std::string path = dir.string();
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  aclprofConfig* config = make_config();
  mstxMarkA("before", nullptr);
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
  const SimTime t = host_clock();
  ASSERT_EQ(aclprofMarkEx("during", 6, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
  const fs::path root = dir / "PROF_000001_npusim";
  const fs::path files = root / "mindstudio_profiler_output";
  char line[128];
  std::snprintf(line, sizeof line, "marker,default,during,0,%llu.%06llu,%llu.%06llu,0.000000\n",
                static_cast<unsigned long long>(t / 1000000),
                static_cast<unsigned long long>(t % 1000000),
                static_cast<unsigned long long>(t / 1000000),
                static_cast<unsigned long long>(t % 1000000));
  EXPECT_EQ(read_text(files / "msprof_tx_000001.csv"),
            std::string("event_type,domain,message,thread_id,start_time(us),end_time(us),"
                        "duration(us)\n") +
                line);
  const std::string info = read_text(root / "device_0" / "info.json");
  EXPECT_NE(info.find("\"device_id\": 0,"), std::string::npos) << info;
  EXPECT_NE(info.find("\"soc\": \""), std::string::npos) << info;
  EXPECT_FALSE(fs::exists(root / "device_1"));  // not profiled
  EXPECT_NE(read_text(files / "README.txt").find("op_statistic_<s>.csv"), std::string::npos);
  EXPECT_FALSE(fs::exists(files / "msprof_000001.json"));  // nothing recorded
  // The run's msprof_tx.csv has every record.
  profiler().write_outputs(fake());
  const std::string all = read_text(out / "msprof_tx.csv");
  EXPECT_NE(all.find("marker,default,before,"), std::string::npos) << all;
  EXPECT_NE(all.find("marker,default,during,"), std::string::npos) << all;
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
}

// api_statistic and task_time from a session's timeline (msprof_summaries.h): host API spans by
// name, device tasks with their kernel types, only what started at or after the session start.
TEST(MsprofSummaries, ApiStatisticAndTaskTime) {
  const std::string timeline = R"([
{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"CANN"}},
{"name":"process_labels","ph":"M","pid":1,"tid":0,"args":{"labels":"CPU"}},
{"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"Ascend Hardware"}},
{"name":"process_labels","ph":"M","pid":2,"tid":0,"args":{"labels":"NPU 3"}},
{"name":"process_name","ph":"M","pid":3,"tid":0,"args":{"name":"NPU 3 Units"}},
{"name":"AscendCL@aclrtMalloc","ph":"X","pid":1,"tid":0,"ts":1,"dur":5,"args":{}},
{"name":"AscendCL@aclrtMemcpy","ph":"X","pid":1,"tid":0,"ts":10,"dur":1,"args":{}},
{"name":"AscendCL@aclrtMemcpy","ph":"X","pid":1,"tid":0,"ts":12,"dur":3,"args":{}},
{"name":"AscendCL@aclnnAdd","ph":"X","pid":1,"tid":0,"ts":20,"dur":2,"args":{}},
{"name":"marker","ph":"X","pid":1,"tid":0,"ts":20,"dur":0,"args":{}},
{"name":"MEMCPY_H2D","ph":"X","pid":2,"tid":1,"ts":10.5,"dur":4,"args":{"Task Type":"PCIE_DMA_SQE","Stream Id":1,"Task Id":0}},
{"name":"Add","ph":"X","pid":2,"tid":1,"ts":22,"dur":1.25,"args":{"Task Type":"AI_VECTOR_CORE","Stream Id":1,"Task Id":1}},
{"name":"Add","ph":"X","pid":3,"tid":7,"ts":22,"dur":1,"args":{"block":0}}
])";
  const TimelineSummaries s = summarize_timeline(timeline, 2.0);  // the session began at 2 us
  EXPECT_EQ(s.api_statistic,
            "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
            "host,AscendCL,aclrtMemcpy,4.000,2,2.000,1.000,3.000,1.000\n"
            "host,AscendCL,aclnnAdd,2.000,1,2.000,2.000,2.000,0.000\n");
  EXPECT_EQ(s.task_time,
            "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
            "task_stop(us)\n"
            "3,N/A,PCIE_DMA_SQE,1,0,4.000,10.500,14.500\n"
            "3,Add,KERNEL_AIVEC,1,1,1.250,22.000,23.250\n");
  EXPECT_THROW(summarize_timeline("{}", 0), std::runtime_error);
}

}  // namespace
}  // namespace npusim::rt::testing
