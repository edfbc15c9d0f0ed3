// SPDX-License-Identifier: Apache-2.0
// C skin: profiling (acl/acl_prof.h) and mstx (mstx/ms_tools_ext.h). State and outputs:
// profiler.h. Markers and ranges take the calling thread's simulated host clock at the call.
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/prof/profiler.h"
#include "sim/log.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

constexpr std::size_t kMaxPath = 4096;
constexpr std::size_t kMaxMessage = 128;  // stamp / marker message, bytes
constexpr std::size_t kMaxSetting = 256;
constexpr std::uint64_t kKnownDataTypes =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU |
    ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX |
    ACL_PROF_RUNTIME_API | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_OP_ATTR;

Profiler& prof(Call&) { return profiler(); }

void require_initialized(Call& c) {
  require(prof(c).initialized(), ACL_ERROR_PROF_NOT_RUN,
          std::string(c.name()) + ": profiling is not initialized (call aclprofInit first)");
}

ProfConfig& live_config(Call& c, const void* config) {
  require_not_null(config, "profilerConfig");
  ProfConfig* p = prof(c).configs().find(config);
  require(p != nullptr, ACL_ERROR_INVALID_PARAM, "profilerConfig is not a live profiling config");
  return *p;
}

ProfStamp& live_stamp(Call& c, const void* stamp) {
  require_not_null(stamp, "stamp");
  ProfStamp* s = prof(c).stamps().find(stamp);
  require(s != nullptr, ACL_ERROR_INVALID_PARAM, "stamp is not a live stamp");
  return *s;
}

std::string message_of(const char* msg, std::size_t len) {
  require_not_null(msg, "msg");
  require(len > 0 && len <= kMaxMessage, ACL_ERROR_INVALID_PARAM,
          "msgLen must be in [1, " + std::to_string(kMaxMessage) + "]");
  return std::string(msg, strnlen(msg, len));
}

// A stream argument of a marker: NULL is fine (no stream), others must be live.
void check_stream(Call& c, void* stream) {
  if (stream != nullptr) (void)c.stream(stream);
}

std::uint64_t start_range(Call& c, const char* kind, std::string domain, std::string message) {
  Profiler& p = prof(c);
  const std::size_t index =
      p.open_range(kind, c.thread().index, std::move(domain), std::move(message), c.clock());
  const std::uint64_t id = p.next_range_id();
  p.ranges()[id] = index;
  return id;
}

void end_range(Call& c, std::uint64_t id, const std::string* domain) {
  Profiler& p = prof(c);
  auto it = p.ranges().find(id);
  require(it != p.ranges().end(), ACL_ERROR_INVALID_PARAM,
          "range id " + std::to_string(id) + " is not an open range");
  require(domain == nullptr || p.records()[it->second].domain == *domain, ACL_ERROR_INVALID_PARAM,
          "range id " + std::to_string(id) + " was not started in domain " +
              (domain != nullptr ? *domain : std::string()));
  p.close_range(c.backend(), it->second, c.clock());
  p.ranges().erase(it);
}

// mstx functions return nothing: a failure is reported on stderr.
template <class F>
void mstx_call(const char* name, F&& body) {
  if (api(name, body) != ACL_SUCCESS) {
    npusim::sim::log_warn(std::string("npusim: ") + name + " ignored: " + aclGetRecentErrMsg());
  }
}

const std::string kDefaultDomain = "default";

std::string domain_name(Call& c, mstxDomainHandle_t domain) {
  require_not_null(domain, "domain");
  ProfDomain* d = prof(c).domains().find(domain);
  require(d != nullptr, ACL_ERROR_INVALID_PARAM, "domain is not a live mstx domain");
  return d->name;
}

std::string mstx_message(const char* message) {
  require_not_null(message, "message");
  return message;
}

}  // namespace

extern "C" {

// ---- Session ----

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  return api("aclprofInit", [&](Call& c) {
    require_not_null(profilerResultPath, "profilerResultPath");
    require(length > 0 && length <= kMaxPath, ACL_ERROR_INVALID_PARAM,
            "length must be in [1, " + std::to_string(kMaxPath) + "]");
    require(!prof(c).initialized(), ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit was already called");
    std::string path(profilerResultPath, strnlen(profilerResultPath, length));
    require(!path.empty(), ACL_ERROR_INVALID_PARAM, "profilerResultPath is empty");
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    require(!ec, ACL_ERROR_INVALID_PARAM,
            "cannot create profiling directory " + path + ": " + ec.message());
    prof(c).init(std::move(path));
  });
}

aclError aclprofFinalize(void) {
  return api("aclprofFinalize", [&](Call& c) {
    require_initialized(c);
    if (prof(c).started()) {
      npusim::sim::log_warn("aclprofFinalize: profiling was still started; it is stopped now");
      prof(c).stop(c.backend());
    }
    prof(c).finalize();
  });
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents,
                                   uint64_t dataTypeConfig) {
  return api_value("aclprofCreateConfig", Needs::kInit, static_cast<aclprofConfig*>(nullptr),
                   [&](Call& c) {
    require_not_null(deviceIdList, "deviceIdList");
    const std::size_t devices = c.runtime().devices().size();
    require(deviceNums > 0 && deviceNums <= devices, ACL_ERROR_INVALID_PARAM,
            "deviceNums must be in [1, " + std::to_string(devices) + "]");
    auto config = std::make_shared<ProfConfig>();
    std::set<std::uint32_t> seen;
    for (std::uint32_t i = 0; i < deviceNums; ++i) {
      require(deviceIdList[i] < devices, ACL_ERROR_INVALID_PARAM,
              "device id " + std::to_string(deviceIdList[i]) + " does not exist");
      require(seen.insert(deviceIdList[i]).second, ACL_ERROR_INVALID_PARAM,
              "device id " + std::to_string(deviceIdList[i]) + " is listed twice");
      config->devices.push_back(deviceIdList[i]);
    }
    const int metrics = as_int(aicoreMetrics);
    require((metrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && metrics <= ACL_AICORE_MEMORY_ACCESS) ||
                metrics == ACL_AICORE_NONE,
            ACL_ERROR_INVALID_PARAM, "aicoreMetrics " + std::to_string(metrics) + " is unknown");
    require(aicoreEvents == nullptr, ACL_ERROR_INVALID_PARAM,
            "aicoreEvents is reserved and must be NULL");
    require((dataTypeConfig & ~kKnownDataTypes) == 0, ACL_ERROR_INVALID_PARAM,
            "dataTypeConfig has unknown bits");
    config->aicore_metrics = metrics;
    config->data_types = dataTypeConfig;
    return static_cast<aclprofConfig*>(prof(c).configs().add(std::move(config)));
  });
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  return api("aclprofDestroyConfig", [&](Call& c) {
    (void)live_config(c, profilerConfig);
    require(prof(c).started_config() != profilerConfig, ACL_ERROR_PROF_ALREADY_RUN,
            "profilerConfig is in use: call aclprofStop first");
    prof(c).configs().remove(profilerConfig);
  });
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  return api("aclprofSetConfig", [&](Call& c) {
    const int type = as_int(configType);
    require(type > ACL_PROF_ARGS_MIN && type < ACL_PROF_ARGS_MAX, ACL_ERROR_INVALID_PARAM,
            "configType " + std::to_string(type) + " is unknown");
    require_not_null(config, "config");
    require(configLength > 0 && configLength <= kMaxSetting, ACL_ERROR_INVALID_PARAM,
            "configLength must be in [1, " + std::to_string(kMaxSetting) + "]");
    require(!prof(c).started(), ACL_ERROR_PROF_ALREADY_RUN,
            "aclprofSetConfig must be called before aclprofStart");
    std::string value(config, strnlen(config, configLength));
    const bool frequency = type == ACL_PROF_SYS_HARDWARE_MEM_FREQ || type == ACL_PROF_SYS_IO_FREQ ||
                           type == ACL_PROF_SYS_INTERCONNECTION_FREQ || type == ACL_PROF_DVPP_FREQ ||
                           type == ACL_PROF_HOST_SYS_USAGE_FREQ;
    if (frequency) {  // sampling frequencies: a positive whole number of Hz, at most 1000
      char* end = nullptr;
      const long hz = std::strtol(value.c_str(), &end, 10);
      require(!value.empty() && end != nullptr && *end == '\0' && hz >= 1 && hz <= 1000,
              ACL_ERROR_INVALID_PARAM, "config \"" + value + "\" is not a frequency in [1, 1000]");
    }
    prof(c).settings()[type] = std::move(value);
  });
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  return api("aclprofStart", [&](Call& c) {
    require_initialized(c);
    (void)live_config(c, profilerConfig);
    require(!prof(c).started(), ACL_ERROR_PROF_ALREADY_RUN, "profiling is already started");
    require(prof(c).subscriptions().empty(), ACL_ERROR_PROF_API_CONFLICT,
            "aclprofStart cannot be used while a model is subscribed");
    prof(c).start(c.backend(), profilerConfig, c.clock());
  });
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  return api("aclprofStop", [&](Call& c) {
    require_initialized(c);
    (void)live_config(c, profilerConfig);
    require(prof(c).started(), ACL_ERROR_PROF_NOT_RUN, "profiling is not started");
    require(prof(c).started_config() == profilerConfig, ACL_ERROR_INVALID_PARAM,
            "profilerConfig is not the config profiling was started with");
    c.catch_up();
    prof(c).stop(c.backend());
  });
}

// ---- Steps ----

aclprofStepInfo* aclprofCreateStepInfo(void) {
  return api_value("aclprofCreateStepInfo", Needs::kInit, static_cast<aclprofStepInfo*>(nullptr),
                   [&](Call& c) {
    return static_cast<aclprofStepInfo*>(prof(c).steps().add(std::make_shared<ProfStepInfo>()));
  });
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag,
                                 aclrtStream stream) {
  return api("aclprofGetStepTimestamp", [&](Call& c) {
    require_not_null(stepInfo, "stepInfo");
    ProfStepInfo* step = prof(c).steps().find(stepInfo);
    require(step != nullptr, ACL_ERROR_INVALID_PARAM, "stepInfo is not a live step info");
    const int t = as_int(tag);
    require(t == ACL_STEP_START || t == ACL_STEP_END, ACL_ERROR_INVALID_PARAM,
            "tag " + std::to_string(t) + " is unknown");
    (void)c.stream(stream);
    require(step->started != (t == ACL_STEP_START), ACL_ERROR_INVALID_PARAM,
            t == ACL_STEP_START ? "the step was already started" : "the step was not started");
    step->started = t == ACL_STEP_START;
    prof(c).mark(c.backend(), c.thread().index, kDefaultDomain,
                 t == ACL_STEP_START ? "Step Start" : "Step End", c.clock());
  });
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
  (void)api("aclprofDestroyStepInfo", [&](Call& c) {
    require_not_null(stepinfo, "stepinfo");
    require(prof(c).steps().remove(stepinfo) != nullptr, ACL_ERROR_INVALID_PARAM,
            "stepinfo is not a live step info");
  });
}

// ---- Stamps ----

void* aclprofCreateStamp(void) {
  return api_value("aclprofCreateStamp", Needs::kInit, static_cast<void*>(nullptr),
                   [&](Call& c) { return prof(c).stamps().add(std::make_shared<ProfStamp>()); });
}

void aclprofDestroyStamp(void* stamp) {
  (void)api("aclprofDestroyStamp", [&](Call& c) {
    (void)live_stamp(c, stamp);
    prof(c).stamps().remove(stamp);
  });
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  return api("aclprofSetStampTraceMessage", [&](Call& c) {
    ProfStamp& s = live_stamp(c, stamp);
    s.message = message_of(msg, msgLen);
  });
}

aclError aclprofMark(void* stamp) {
  return api("aclprofMark", [&](Call& c) {
    ProfStamp& s = live_stamp(c, stamp);
    prof(c).mark(c.backend(), c.thread().index, kDefaultDomain, s.message, c.clock());
  });
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  return api("aclprofMarkEx", [&](Call& c) {
    std::string message = message_of(msg, msgLen);
    check_stream(c, stream);
    prof(c).mark(c.backend(), c.thread().index, kDefaultDomain, std::move(message), c.clock());
  });
}

aclError aclprofPush(void* stamp) {
  return api("aclprofPush", [&](Call& c) {
    ProfStamp& s = live_stamp(c, stamp);
    Profiler& p = prof(c);
    p.push_stacks()[c.thread().index].push_back(
        p.open_range("push_pop", c.thread().index, kDefaultDomain, s.message, c.clock()));
  });
}

aclError aclprofPop(void) {
  return api("aclprofPop", [&](Call& c) {
    auto& stack = prof(c).push_stacks()[c.thread().index];
    require(!stack.empty(), ACL_ERROR_INVALID_PARAM,
            "aclprofPop without a matching aclprofPush on this thread");
    prof(c).close_range(c.backend(), stack.back(), c.clock());
    stack.pop_back();
  });
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  return api("aclprofRangeStart", [&](Call& c) {
    ProfStamp& s = live_stamp(c, stamp);
    require_not_null(rangeId, "rangeId");
    *rangeId = static_cast<uint32_t>(start_range(c, "start_end", kDefaultDomain, s.message));
  });
}

aclError aclprofRangeStop(uint32_t rangeId) {
  return api("aclprofRangeStop", [&](Call& c) { end_range(c, rangeId, nullptr); });
}

// ---- mstx ----

void mstxMarkA(const char* message, void* stream) {
  mstx_call("mstxMarkA", [&](Call& c) {
    std::string m = mstx_message(message);
    check_stream(c, stream);
    prof(c).mark(c.backend(), c.thread().index, kDefaultDomain, std::move(m), c.clock());
  });
}

mstxRangeId mstxRangeStartA(const char* message, void* stream) {
  mstxRangeId id = 0;
  mstx_call("mstxRangeStartA", [&](Call& c) {
    std::string m = mstx_message(message);
    check_stream(c, stream);
    id = start_range(c, "start_end", kDefaultDomain, std::move(m));
  });
  return id;
}

void mstxRangeEnd(mstxRangeId id) {
  mstx_call("mstxRangeEnd", [&](Call& c) { end_range(c, id, &kDefaultDomain); });
}

mstxDomainHandle_t mstxDomainCreateA(const char* name) {
  mstxDomainHandle_t handle = nullptr;
  mstx_call("mstxDomainCreateA", [&](Call& c) {
    require_not_null(name, "name");
    require(name[0] != '\0', ACL_ERROR_INVALID_PARAM, "name is empty");
    auto d = std::make_shared<ProfDomain>();
    d->name = name;
    handle = static_cast<mstxDomainHandle_t>(prof(c).domains().add(std::move(d)));
  });
  return handle;
}

void mstxDomainDestroy(mstxDomainHandle_t domain) {
  mstx_call("mstxDomainDestroy", [&](Call& c) {
    (void)domain_name(c, domain);
    prof(c).domains().remove(domain);
  });
}

void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, void* stream) {
  mstx_call("mstxDomainMarkA", [&](Call& c) {
    std::string d = domain_name(c, domain);
    std::string m = mstx_message(message);
    check_stream(c, stream);
    prof(c).mark(c.backend(), c.thread().index, std::move(d), std::move(m), c.clock());
  });
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, void* stream) {
  mstxRangeId id = 0;
  mstx_call("mstxDomainRangeStartA", [&](Call& c) {
    std::string d = domain_name(c, domain);
    std::string m = mstx_message(message);
    check_stream(c, stream);
    id = start_range(c, "start_end", std::move(d), std::move(m));
  });
  return id;
}

void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  mstx_call("mstxDomainRangeEnd", [&](Call& c) {
    const std::string d = domain_name(c, domain);
    end_range(c, id, &d);
  });
}

}  // extern "C"

// ---- Model subscription (profiler.h: subscriptions()) ----

namespace {

const OpDescRecord& op_record(const void* opInfo, size_t opInfoLen, uint32_t index) {
  require_not_null(opInfo, "opInfo");
  require(opInfoLen > 0 && opInfoLen % sizeof(OpDescRecord) == 0, ACL_ERROR_INVALID_PARAM,
          "opInfoLen must be a positive multiple of aclprofGetOpDescSize");
  require(index < opInfoLen / sizeof(OpDescRecord), ACL_ERROR_INVALID_PARAM,
          "index " + std::to_string(index) + " is past the last operator");
  const auto* r = static_cast<const OpDescRecord*>(opInfo) + index;
  require(r->magic == kOpDescMagic, ACL_ERROR_INVALID_PARAM, "opInfo holds no operator records");
  return *r;
}

void copy_text(const char* text, char* out, size_t outLen, const char* what) {
  require_not_null(out, what);
  const size_t need = strnlen(text, 257) + 1;
  require(outLen >= need, ACL_ERROR_INVALID_PARAM,
          std::string(what) + "Len must be at least " + std::to_string(need));
  std::memcpy(out, text, need);
}

// aclprofGetOpTypeLen, aclprofGetOpNameLen: the size (with its NUL) of the text `field` of
// record `index`.
template <std::size_t N>
aclError op_text_len(const char* name, const void* opInfo, size_t opInfoLen, uint32_t index,
                     char (OpDescRecord::*field)[N], size_t* len, const char* what) {
  return api_any(name, [&](Call&) {
    const OpDescRecord& r = op_record(opInfo, opInfoLen, index);
    require_not_null(len, what);
    *len = strnlen(r.*field, N - 1) + 1;
  });
}

}  // namespace

extern "C" {

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  return api("MsprofSetDeviceIdByGeModelIdx", [&](Call& c) {
           (void)c.device(deviceId);
           prof(c).model_devices()[geModelIdx] = deviceId;
         }) == ACL_SUCCESS
             ? 0
             : -1;
}

int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  return api("MsprofUnsetDeviceIdByGeModelIdx", [&](Call& c) {
           auto& m = prof(c).model_devices();
           auto it = m.find(geModelIdx);
           require(it != m.end() && it->second == deviceId, ACL_ERROR_INVALID_PARAM,
                   "model " + std::to_string(geModelIdx) + " is not bound to device " +
                       std::to_string(deviceId));
           m.erase(it);
         }) == ACL_SUCCESS
             ? 0
             : -1;
}

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void* fd) {
  return api_value("aclprofCreateSubscribeConfig", Needs::kInit,
                   static_cast<aclprofSubscribeConfig*>(nullptr), [&](Call& c) {
    require(timeInfoSwitch == 0 || timeInfoSwitch == 1, ACL_ERROR_INVALID_PARAM,
            "timeInfoSwitch must be 0 or 1");
    const int metrics = as_int(aicoreMetrics);
    require((metrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && metrics <= ACL_AICORE_MEMORY_ACCESS) ||
                metrics == ACL_AICORE_NONE,
            ACL_ERROR_INVALID_PARAM, "aicoreMetrics " + std::to_string(metrics) + " is unknown");
    require_not_null(fd, "fd");
    auto config = std::make_shared<ProfSubscribeConfig>();
    config->time_info = timeInfoSwitch;
    config->aicore_metrics = metrics;
    config->fd = *static_cast<const int*>(fd);
    require(config->fd >= 0, ACL_ERROR_INVALID_PARAM, "fd is not a file descriptor");
    return static_cast<aclprofSubscribeConfig*>(prof(c).subscribe_configs().add(std::move(config)));
  });
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  return api("aclprofDestroySubscribeConfig", [&](Call& c) {
    require_not_null(profSubscribeConfig, "profSubscribeConfig");
    require(prof(c).subscribe_configs().remove(profSubscribeConfig) != nullptr,
            ACL_ERROR_INVALID_PARAM, "profSubscribeConfig is not a live subscription config");
  });
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
  return api("aclprofModelSubscribe", [&](Call& c) {
    require_not_null(profSubscribeConfig, "profSubscribeConfig");
    ProfSubscribeConfig* config = prof(c).subscribe_configs().find(profSubscribeConfig);
    require(config != nullptr, ACL_ERROR_INVALID_PARAM,
            "profSubscribeConfig is not a live subscription config");
    require(!prof(c).started(), ACL_ERROR_PROF_API_CONFLICT,
            "model subscription cannot be used while aclprofStart collection runs");
    require(prof(c).model_devices().count(modelId) != 0, ACL_ERROR_INVALID_PARAM,
            "model " + std::to_string(modelId) + " is not loaded");
    require(prof(c).subscriptions().count(modelId) == 0, ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
            "model " + std::to_string(modelId) + " is already subscribed");
    prof(c).subscriptions()[modelId] = config->fd;
  });
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  return api("aclprofModelUnSubscribe", [&](Call& c) {
    auto& subs = prof(c).subscriptions();
    auto it = subs.find(modelId);
    require(it != subs.end(), ACL_ERROR_INVALID_PARAM,
            "model " + std::to_string(modelId) + " is not subscribed");
    ::close(it->second);  // the reader sees end of file
    subs.erase(it);
  });
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  return api_any("aclprofGetOpDescSize", [&](Call&) {
    require_not_null(opDescSize, "opDescSize");
    *opDescSize = sizeof(OpDescRecord);
  });
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  return api_any("aclprofGetOpNum", [&](Call&) {
    (void)op_record(opInfo, opInfoLen, 0);
    require_not_null(opNumber, "opNumber");
    *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpDescRecord));
  });
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opTypeLen) {
  return op_text_len("aclprofGetOpTypeLen", opInfo, opInfoLen, index, &OpDescRecord::type,
                     opTypeLen, "opTypeLen");
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType,
                          size_t opTypeLen) {
  return api_any("aclprofGetOpType", [&](Call&) {
    copy_text(op_record(opInfo, opInfoLen, index).type, opType, opTypeLen, "opType");
  });
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opNameLen) {
  return op_text_len("aclprofGetOpNameLen", opInfo, opInfoLen, index, &OpDescRecord::name,
                     opNameLen, "opNameLen");
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName,
                          size_t opNameLen) {
  return api_any("aclprofGetOpName", [&](Call&) {
    copy_text(op_record(opInfo, opInfoLen, index).name, opName, opNameLen, "opName");
  });
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api_value("aclprofGetOpStart", Needs::kNothing, uint64_t{0},
                   [&](Call&) { return op_record(opInfo, opInfoLen, index).start_ns; });
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api_value("aclprofGetOpEnd", Needs::kNothing, uint64_t{0},
                   [&](Call&) { return op_record(opInfo, opInfoLen, index).end_ns; });
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api_value("aclprofGetOpDuration", Needs::kNothing, uint64_t{0}, [&](Call&) {
    const OpDescRecord& r = op_record(opInfo, opInfoLen, index);
    return r.end_ns - r.start_ns;
  });
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return api_value("aclprofGetModelId", Needs::kNothing, size_t{0}, [&](Call&) {
    return static_cast<size_t>(op_record(opInfo, opInfoLen, index).model_id);
  });
}

}  // extern "C"
