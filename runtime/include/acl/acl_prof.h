// SPDX-License-Identifier: Apache-2.0
// npusim public header: the profiling API (aclprof*; lib64/libmsprofiler.so and libprofapi.so are
// the runtime library). Names, values and signatures follow CANN's acl_prof.h.
// npusim records in simulated time: markers (aclprofMark), ranges (aclprofPush/Pop,
// aclprofRangeStart/Stop) and step timestamps appear on the host track of the timeline and in
// msprof_tx.csv; aclprofStop writes the session's files under the aclprofInit path
// (runtime/prof/profiler.h says where). Model subscription works for models bound with
// MsprofSetDeviceIdByGeModelIdx (profiling/aprof_pub.h); npusim executes no aclmdl models, so a
// subscription delivers no operator records (profiler.h).
#ifndef NPUSIM_ACL_ACL_PROF_H
#define NPUSIM_ACL_ACL_PROF_H

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MSVP_PROF_API
#define MSVP_PROF_API ACL_FUNC_VISIBILITY
#endif

// Data types to collect (aclprofCreateConfig's dataTypeConfig, a bit set).
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL

#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65

typedef enum {
  ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
  ACL_AICORE_PIPE_UTILIZATION = 1,
  ACL_AICORE_MEMORY_BANDWIDTH = 2,
  ACL_AICORE_L0B_AND_WIDTH = 3,
  ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
  ACL_AICORE_MEMORY_UB = 5,
  ACL_AICORE_L2_CACHE = 6,
  ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
  ACL_AICORE_MEMORY_ACCESS = 8,
  ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum { ACL_STEP_START = 0, ACL_STEP_END = 1 } aclprofStepTag;

typedef enum {
  ACL_SUBSCRIBE_OP = 0,
  ACL_SUBSCRIBE_SUBGRAPH = 1,
  ACL_SUBSCRIBE_OP_THREAD = 2,
  ACL_SUBSCRIBE_NONE
} aclprofSubscribeOpFlag;

typedef enum { ACL_SUBSCRIBE_ATTRI_THREADID = 0, ACL_SUBSCRIBE_ATTRI_NONE } aclprofSubscribeOpAttri;

// aclprofSetConfig's parameters.
typedef enum {
  ACL_PROF_ARGS_MIN = 0,
  ACL_PROF_STORAGE_LIMIT,
  ACL_PROF_AIV_METRICS,
  ACL_PROF_SYS_HARDWARE_MEM_FREQ,
  ACL_PROF_LLC_MODE,
  ACL_PROF_SYS_IO_FREQ,
  ACL_PROF_SYS_INTERCONNECTION_FREQ,
  ACL_PROF_DVPP_FREQ,
  ACL_PROF_HOST_SYS,
  ACL_PROF_HOST_SYS_USAGE,
  ACL_PROF_HOST_SYS_USAGE_FREQ,
  ACL_PROF_ARGS_MAX
} aclprofConfigType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

// ---- Collection: aclprofInit → CreateConfig → (SetConfig) → Start … Stop → DestroyConfig →
// aclprofFinalize. Out of order: ACL_ERROR_PROF_NOT_RUN (not initialized / not started),
// ACL_ERROR_PROF_ALREADY_RUN (started twice, SetConfig while started), ACL_ERROR_REPEAT_INITIALIZE
// (aclprofInit twice); bad arguments: ACL_ERROR_INVALID_PARAM.
ACL_FUNC_VISIBILITY aclError aclprofInit(const char* profilerResultPath, size_t length);
ACL_FUNC_VISIBILITY aclError aclprofFinalize(void);
ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig* profilerConfig);
ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig* profilerConfig);
ACL_FUNC_VISIBILITY aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents* aicoreEvents,
                                                       uint64_t dataTypeConfig);
ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig);
ACL_FUNC_VISIBILITY aclError aclprofSetConfig(aclprofConfigType configType, const char* config,
                                              size_t configLength);
ACL_FUNC_VISIBILITY aclError aclprofGetSupportedFeatures(size_t* featuresSize, void** featuresData);

// ---- Model subscription: a subscribed model's operator records (aclprofGetOpDescSize bytes each)
// are written to the config's fd; aclprofModelUnSubscribe closes it. Model not bound: INVALID_PARAM;
// subscribed twice: ACL_ERROR_PROF_REPEAT_SUBSCRIBE; while aclprofStart runs:
// ACL_ERROR_PROF_API_CONFLICT. The aclprofGetOp* readers take a buffer of whole records
// (otherwise ACL_ERROR_INVALID_PARAM, 0 for the uint64_t/size_t ones); times are in ns.
ACL_FUNC_VISIBILITY aclError aclprofModelSubscribe(uint32_t modelId,
                                                   const aclprofSubscribeConfig* profSubscribeConfig);
ACL_FUNC_VISIBILITY aclError aclprofModelUnSubscribe(uint32_t modelId);
ACL_FUNC_VISIBILITY aclprofSubscribeConfig* aclprofCreateSubscribeConfig(
    int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void* fd);
ACL_FUNC_VISIBILITY aclError aclprofDestroySubscribeConfig(
    const aclprofSubscribeConfig* profSubscribeConfig);
ACL_FUNC_VISIBILITY aclError aclprofGetOpDescSize(size_t* opDescSize);
ACL_FUNC_VISIBILITY aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen,
                                             uint32_t* opNumber);
ACL_FUNC_VISIBILITY aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen,
                                                 uint32_t index, size_t* opTypeLen);
ACL_FUNC_VISIBILITY aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index,
                                              char* opType, size_t opTypeLen);
ACL_FUNC_VISIBILITY aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen,
                                                 uint32_t index, size_t* opNameLen);
ACL_FUNC_VISIBILITY aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index,
                                              char* opName, size_t opNameLen);
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen,
                                               uint32_t index);
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index);
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen,
                                                  uint32_t index);
ACL_FUNC_VISIBILITY size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index);

// ---- Steps and msproftx stamps. A stamp carries a message (at most 128 bytes) and marks an
// instant (aclprofMark), a per-thread nested range (aclprofPush … aclprofPop) or a range by id
// (aclprofRangeStart … aclprofRangeStop, ids from 1). Unknown stamp/id, NULL, Pop with nothing
// pushed: ACL_ERROR_INVALID_PARAM.
ACL_FUNC_VISIBILITY aclprofStepInfo* aclprofCreateStepInfo(void);
ACL_FUNC_VISIBILITY aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag,
                                                     aclrtStream stream);
ACL_FUNC_VISIBILITY void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo);
ACL_FUNC_VISIBILITY void* aclprofCreateStamp(void);
ACL_FUNC_VISIBILITY void aclprofDestroyStamp(void* stamp);
ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void* stamp, const char* msg,
                                                         uint32_t msgLen);
ACL_FUNC_VISIBILITY aclError aclprofMark(void* stamp);
ACL_FUNC_VISIBILITY aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclprofPush(void* stamp);
ACL_FUNC_VISIBILITY aclError aclprofPop(void);
ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void* stamp, uint32_t* rangeId);
ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_PROF_H
