// SPDX-License-Identifier: Apache-2.0
// npusim public header: the ACL runtime API (aclrt*, plus the aclmdlRI* model runtime instance).
//
// npusim implements this API on top of a simulated NPU. Names, numeric values, parameter lists
// and struct layouts are those of CANN's runtime (public API version 1.17.0) so that unmodified
// CANN host programs compile against this header and link against npusim's libacl_rt.so.
// General conventions:
//   - every call returns ACL_SUCCESS (0) or an error code from acl_base_rt.h /
//     error_codes/rt_error_codes.h, unless its return type says otherwise;
//   - a NULL aclrtStream means the default stream of the calling thread's current context;
//   - "Async" calls only enqueue a task on the stream and return; errors of the task surface at
//     the next synchronising call.
#ifndef NPUSIM_ACL_ACL_RT_H
#define NPUSIM_ACL_ACL_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

// =================================================================================================
// Constants
// =================================================================================================

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

// Stream creation flags (aclrtCreateStreamWithConfig, ACL_RT_STREAM_FLAG), OR-able.
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U  // tasks are kept for model (aclmdlRI) building
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

// Stream failure modes (aclrtSetStreamFailureMode).
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

// Event creation flags, OR-able.
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

// Flags of aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag.
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

#define ACL_IPC_EVENT_HANDLE_SIZE 64U

// Comparison of aclrtValueWait: GEQ (signed difference >= 0), EQ, AND (bits in common),
// NOR (NOT(a OR b) != 0).
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

// Notify creation flags.
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

// aclrtGetDeviceCapability results.
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

// IPC export / import flags for notifies, memory keys and VMM handles.
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

// Link choice for imported IPC memory (aclrtIpcMemSetAttr, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK).
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

// aclrtHostRegisterV2 flags.
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

// aclrtMemAllocManaged flag.
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U

// Link index of aclrtMemMapSelectedLink.
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

// Memory type bits of aclrtCheckMemType.
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

// Values of ACL_DEV_ATTR_HD_CONNECT_TYPE.
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

// Values of ACL_DEV_ATTR_DEVICE_FORM_FACTOR.
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

// Bits of aclrtGetDevicesTopo.
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

// Magic numbers of operator binaries (ACL_RT_BINARY_LOAD_OPT_MAGIC).
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

// aclmdlRIDebugJsonPrint detail level.
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14

// =================================================================================================
// Handles and callback types
// =================================================================================================

typedef void* aclrtBinary;       // binary image created from memory (aclrtCreateBinary)
typedef void* aclrtBinHandle;    // loaded operator binary
typedef void* aclrtFuncHandle;   // one kernel inside a loaded binary
typedef void* aclrtArgsHandle;   // kernel argument list under construction
typedef void* aclrtParamHandle;  // one parameter slot inside an argument list
typedef void* aclrtDrvMemHandle; // physical memory allocation (VMM)
typedef void* aclmdlRI;          // model runtime instance (captured / built task graph)
typedef void* aclmdlRICondHandle;

typedef struct rtExceptionInfo aclrtExceptionInfo;  // read through the accessors only
typedef struct tagRtGroupInfo aclrtGroupInfo;
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

typedef void (*aclrtCallback)(void* userData);
typedef void (*aclrtHostFunc)(void* args);
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo* exceptionInfo);
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo* exceptionInfo, void* userData);

// =================================================================================================
// Devices, run mode, resource limits
// =================================================================================================

typedef enum aclrtRunMode {
  ACL_DEVICE,  // the program runs on the device's own CPU
  ACL_HOST,    // the program runs on a host attached to the device
} aclrtRunMode;

typedef enum aclrtTsId {
  ACL_TS_ID_AICORE = 0,
  ACL_TS_ID_AIVECTOR = 1,
  ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

typedef enum aclrtDeviceStatus {
  ACL_RT_DEVICE_STATUS_NORMAL = 0,
  ACL_RT_DEVICE_STATUS_ABNORMAL,
  ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

typedef struct aclrtUtilizationInfo {
  int32_t cubeUtilization;
  int32_t vectorUtilization;
  int32_t aicpuUtilization;
  int32_t memoryUtilization;
  aclrtUtilizationExtendInfo* utilizationExtend;
} aclrtUtilizationInfo;

// Attributes of aclrtGetDeviceInfo.
typedef enum {
  ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
  ACL_DEV_ATTR_WARP_SIZE = 202,
  ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
  ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE = 204,  // old name of UBUF_PER_VECTOR_CORE
  ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
  ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
  ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
  ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
  ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
  ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
  ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
  ACL_DEV_ATTR_SMP_ID = 401U,
  ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
  ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,  // misspelt alias kept for source compatibility
  ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
  ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
  ACL_DEV_ATTR_SUPER_POD_ID = 405U,
  ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
  ACL_DEV_ATTR_MAINBOARD_ID = 407U,
  ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
  ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
  ACL_DEV_ATTR_IS_VIRTUAL = 501U,
  ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

// Features of aclrtGetDeviceCapability.
typedef enum {
  ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
  ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

// Core caps used by later kernel launches (process, stream or thread level).
typedef enum {
  ACL_RT_DEV_RES_CUBE_CORE = 0,
  ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

typedef enum aclrtDeviceLimit {
  ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
  ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
  ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
  ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
  ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

typedef enum aclrtGroupAttr {
  ACL_GROUP_AICORE_INT,
  ACL_GROUP_AIV_INT,
  ACL_GROUP_AIC_INT,
  ACL_GROUP_SDMANUM_INT,
  ACL_GROUP_ASQNUM_INT,
  ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

typedef enum aclrtFloatOverflowMode {
  ACL_RT_OVERFLOW_MODE_SATURATION = 0,
  ACL_RT_OVERFLOW_MODE_INFNAN,
  ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

typedef enum {
  ACL_RT_DEVICE_STATE_SET_PRE = 0,
  ACL_RT_DEVICE_STATE_SET_POST,
  ACL_RT_DEVICE_STATE_RESET_PRE,
  ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;
typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void* args);

typedef enum {
  ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
  ACL_RT_DEVICE_TASK_ABORT_POST,
} aclrtDeviceTaskAbortStage;
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, aclrtDeviceTaskAbortStage stage,
                                                uint32_t timeout, void* args);

typedef struct aclrtUuid {
  char bytes[16];
} aclrtUuid;

// Hardware accelerator kinds of aclrtHostMemMapCapabilities.
typedef enum {
  ACL_RT_HAC_TYPE_STARS = 0,
  ACL_RT_HAC_TYPE_AICPU,
  ACL_RT_HAC_TYPE_AIC,
  ACL_RT_HAC_TYPE_AIV,
  ACL_RT_HAC_TYPE_PCIEDMA,
  ACL_RT_HAC_TYPE_RDMA,
  ACL_RT_HAC_TYPE_SDMA,
  ACL_RT_HAC_TYPE_DVPP,
  ACL_RT_HAC_TYPE_UDMA,
  ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

typedef enum {
  ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
  ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

// Atomic capability bits and operations (aclrtDeviceGet{Host,P2P}AtomicCapabilities).
typedef enum aclrtAtomicOperationCapability {
  ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
  ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
  ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2,  // misspelt alias of REDUCTION
  ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
  ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

typedef enum aclrtAtomicOperation {
  ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
  ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
  ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
  ACL_RT_ATOMIC_OPERATION_AND = 5,
  ACL_RT_ATOMIC_OPERATION_OR = 6,
  ACL_RT_ATOMIC_OPERATION_XOR = 7,
  ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
  ACL_RT_ATOMIC_OPERATION_CAS = 9,
  ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
  ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
  ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
  ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

// =================================================================================================
// Streams
// =================================================================================================

typedef enum aclrtStreamStatus {
  ACL_STREAM_STATUS_COMPLETE = 0,
  ACL_STREAM_STATUS_NOT_READY = 1,
  ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

// Keys of aclrtSetStreamConfigOpt.
typedef enum {
  ACL_RT_STREAM_WORK_ADDR_PTR = 0,
  ACL_RT_STREAM_WORK_SIZE,
  ACL_RT_STREAM_FLAG,
  ACL_RT_STREAM_PRIORITY,
} aclrtStreamConfigAttr;

// Builder record for aclrtCreateStreamV2 (filled through aclrtSetStreamConfigOpt).
typedef struct aclrtStreamConfigHandle {
  void* workptr;
  size_t workSize;
  size_t flag;
  uint32_t priority;
} aclrtStreamConfigHandle;

// Keys and values of aclrtSetStreamAttribute / aclrtGetStreamAttribute.
typedef enum {
  ACL_STREAM_ATTR_FAILURE_MODE = 1,
  ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
  ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
  ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
  ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

typedef union {
  uint64_t failureMode;
  uint32_t overflowSwitch;
  uint32_t userCustomTag;
  uint32_t cacheOpInfoSwitch;
  uint32_t streamPriority;
  uint32_t reserve[4];
} aclrtStreamAttrValue;

// Stream lifecycle notification (aclrtRegStreamStateCallback).
typedef enum {
  ACL_RT_STREAM_STATE_CREATE_POST = 1,
  ACL_RT_STREAM_STATE_DESTROY_PRE,
} aclrtStreamState;
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void* args);

// Blocking behaviour of aclrtLaunchCallback.
typedef enum aclrtCallbackBlockType {
  ACL_CALLBACK_NO_BLOCK,
  ACL_CALLBACK_BLOCK,
} aclrtCallbackBlockType;

// Operands of aclrtSwitchStream.
typedef enum {
  ACL_RT_EQUAL = 0,
  ACL_RT_NOT_EQUAL,
  ACL_RT_GREATER,
  ACL_RT_GREATER_OR_EQUAL,
  ACL_RT_LESS,
  ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

typedef enum {
  ACL_RT_SWITCH_INT32 = 0,
  ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

// =================================================================================================
// Events and notifies
// =================================================================================================

// Result of the deprecated aclrtQueryEvent.
typedef enum aclrtEventStatus {
  ACL_EVENT_STATUS_COMPLETE = 0,
  ACL_EVENT_STATUS_NOT_READY = 1,
  ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

// Result of aclrtQueryEventStatus. Note the order: NOT_READY is 0 here.
typedef enum aclrtEventRecordedStatus {
  ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum aclrtEventWaitStatus {
  ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
  ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
  ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

// Opaque cross-process event handle.
typedef struct aclrtIpcEventHandle {
  char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

// Counting notifies.
typedef enum {
  ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
  ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
  aclrtCntNotifyRecordMode mode;
  uint32_t value;
} aclrtCntNotifyRecordInfo;

typedef enum {
  ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

typedef struct {
  aclrtCntNotifyWaitMode mode;
  uint32_t value;
  uint32_t timeout;
  uint8_t isClear;
  uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

// =================================================================================================
// Memory
// =================================================================================================

// Direction of a copy. DEFAULT lets the runtime infer it from the addresses.
typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

// Page policy of aclrtMalloc; the high bits select memory type / access and may be OR-ed in.
typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
  ACL_MEM_MALLOC_HUGE1G_ONLY,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
  ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
  ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
  ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

// Memory pool selector of aclrtGetMemInfo (and physical memory properties).
typedef enum aclrtMemAttr {
  ACL_DDR_MEM,
  ACL_HBM_MEM,
  ACL_DDR_MEM_HUGE,
  ACL_DDR_MEM_NORMAL,
  ACL_HBM_MEM_HUGE,
  ACL_HBM_MEM_NORMAL,
  ACL_DDR_MEM_P2P_HUGE,
  ACL_DDR_MEM_P2P_NORMAL,
  ACL_HBM_MEM_P2P_HUGE,
  ACL_HBM_MEM_P2P_NORMAL,
  ACL_HBM_MEM_HUGE1G,
  ACL_HBM_MEM_P2P_HUGE1G,
  ACL_MEM_NORMAL,
  ACL_MEM_HUGE,
  ACL_MEM_HUGE1G,
  ACL_MEM_P2P_NORMAL,
  ACL_MEM_P2P_HUGE,
  ACL_MEM_P2P_HUGE1G,
} aclrtMemAttr;

enum aclrtMemPgType {
  NORMAL_PAGE_TYPE = 0U,
  HUGE_PAGE_TYPE,
  HUGE1G_PAGE_TYPE,
};

enum aclrtMemType {
  HBM_TYPE = 0U,
  DDR_TYPE,
  P2P_HBM_TYPE,
  P2P_DDR_TYPE,
};

// Extra allocation attributes (aclrtMallocWithCfg, aclrtMallocHostWithCfg).
typedef enum {
  ACL_RT_MEM_ATTR_RSV = 0,
  ACL_RT_MEM_ATTR_MODULE_ID,
  ACL_RT_MEM_ATTR_DEVICE_ID,
  ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

typedef union {
  uint16_t moduleId;
  uint32_t deviceId;
  uint32_t vaFlag;
  uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
  aclrtMallocAttrType attr;
  aclrtMallocAttrValue value;
} aclrtMallocAttribute;

typedef struct {
  aclrtMallocAttribute* attrs;
  size_t numAttrs;
} aclrtMallocConfig;

// Legacy host registration type (aclrtHostRegister); aclrtHostRegisterV2 takes ACL_HOST_REG_*.
typedef enum {
  ACL_HOST_REGISTER_MAPPED = 0,
  ACL_HOST_REGISTER_IOMEMORY = 0x04,
  ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

// Where a pointer lives (aclrtPointerGetAttributes, VMM properties, batch copies).
typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED,
  ACL_MEM_LOCATION_TYPE_MANAGED,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPtrAttributes {
  aclrtMemLocation location;
  uint32_t pageSize;
  uint32_t rsv[4];
} aclrtPtrAttributes;

typedef struct aclrtMemUsageInfo {
  char name[32];
  uint64_t curMemSize;
  uint64_t memPeakSize;
  size_t reserved[8];
} aclrtMemUsageInfo;

// Per-copy source/destination description of the batch copy calls.
typedef struct {
  aclrtMemLocation dstLoc;
  aclrtMemLocation srcLoc;
  uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

// Managed (unified) memory hints.
typedef enum aclrtMemManagedAdviseType {
  ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
  ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
  ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_SET_ACCESSED_BY,
  ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
  ACL_MEM_LOCATIONTYPE_INVALID = 0,
  ACL_MEM_LOCATIONTYPE_DEVICE,
  ACL_MEM_LOCATIONTYPE_HOST,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;

typedef struct aclrtMemManagedLocation {
  aclrtMemManagedLocationType type;
  int32_t id;
} aclrtMemManagedLocation;

typedef enum aclrtMemManagedRangeAttribute {
  ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;

// Cache maintenance operations (aclrtCmoAsync and friends).
typedef enum aclrtCmoType {
  ACL_RT_CMO_TYPE_PREFETCH = 0,
  ACL_RT_CMO_TYPE_WRITEBACK,
  ACL_RT_CMO_TYPE_INVALID,
  ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

typedef struct {
  aclrtCmoType cmoType;
  uint32_t barrierId;
} aclrtBarrierCmoInfo;

typedef struct {
  size_t barrierNum;
  aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

// Cross-server process list (aclrtIpcMemImportPidInterServer, aclrtNotifySetImportPidInterServer).
typedef struct {
  uint32_t sdid;
  int32_t* pid;
  size_t num;
} aclrtServerPid;

typedef enum {
  ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

// ---- Virtual memory management: physical allocations mapped into reserved address ranges ------

typedef enum aclrtMemAllocationType {
  ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
  ACL_MEM_HANDLE_TYPE_NONE = 0,
  ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef enum aclrtMemSharedHandleType {
  ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

typedef struct aclrtMemFabricHandle {
  uint8_t data[128];
} aclrtMemFabricHandle;

typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

typedef enum {
  ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
  ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
  ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

typedef struct {
  aclrtMemAccessFlags flags;
  aclrtMemLocation location;
  uint8_t rsv[12];
} aclrtMemAccessDesc;

typedef enum {
  ACL_RT_MEM_ACCESS_LINK_SIO = 0,
  ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
  ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
  ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

// =================================================================================================
// Errors and exception reports
// =================================================================================================

typedef enum aclrtLastErrLevel {
  ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

typedef struct aclrtMemUceInfo {
  void* addr;
  size_t len;
  size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct {
  size_t arraySize;
  aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef enum {
  ACL_RT_NO_ERROR = 0,
  ACL_RT_ERROR_MEMORY = 1,
  ACL_RT_ERROR_L2 = 2,
  ACL_RT_ERROR_AICORE = 3,
  ACL_RT_ERROR_LINK = 4,
  ACL_RT_ERROR_L3_PORT = 5,
  ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
  ACL_RT_AICORE_ERROR_UNKNOWN,
  ACL_RT_AICORE_ERROR_SW,
  ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

typedef union aclrtErrorInfoDetail {
  aclrtMemUceInfoArray uceInfo;
  aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

// Fault description filled by aclrtGetErrorVerbose.
typedef struct aclrtErrorInfo {
  uint8_t tryRepair;
  uint8_t hasDetail;
  uint8_t reserved[2];
  aclrtErrorType errorType;
  aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

// =================================================================================================
// Operator binaries, kernel arguments, launch configuration
// =================================================================================================

typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption* options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum {
  ACL_RT_ENGINE_TYPE_AIC = 0,
  ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

// Grid / block shape of the SIMT launch calls. Skipped when the device compiler (or a kernel
// environment that brings its own dim3) is active.
#if !defined(__BISHENG_CCEC__) && !defined(NPUSIM_HAVE_DIM3)
#define NPUSIM_HAVE_DIM3 1
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#if defined(__cplusplus) && __cplusplus >= 201103L
  constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#elif defined(__cplusplus)
  dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
} dim3;
#endif

// Per-launch attributes (aclrtLaunchKernelCfg).
typedef enum aclrtLaunchKernelAttrId {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,         // 0: start on any free core, 1: all at once
  ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE = 2,  // old name of DYN_UBUF_SIZE
  ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
  ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,     // seconds
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,  // microseconds, split in two 32-bit halves
  ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

typedef struct {
  uint32_t timeoutLow;
  uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  uint32_t localMemorySize;  // old name of dynUBufSize
  uint32_t dynUBufSize;
  aclrtEngineType engineType;
  uint32_t blockDimOffset;
  uint8_t isBlockTaskPrefetch;
  uint8_t isDataDump;
  uint16_t timeout;
  aclrtTimeoutUs timeoutUs;
  uint8_t enableProfiling;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr* attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

// Placeholder patch list of aclrtLaunchKernelWithHostArgs: the pointer slot at addrOffset gets
// the device address of the data found at dataOffset in the same host buffer.
typedef struct {
  uint32_t addrOffset;
  uint32_t dataOffset;
} aclrtPlaceHolderInfo;

typedef enum {
  ACL_FUNC_ATTR_KERNEL_TYPE = 1,
  ACL_FUNC_ATTR_KERNEL_RATIO = 2,
  ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

typedef enum {
  ACL_KERNEL_TYPE_AICORE = 0,
  ACL_KERNEL_TYPE_CUBE = 1,
  ACL_KERNEL_TYPE_VECTOR = 2,
  ACL_KERNEL_TYPE_MIX = 3,
  ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

// =================================================================================================
// Built-in tasks: reduction, random numbers, task update
// =================================================================================================

// Element-wise operation of aclrtReduceAsync (performed by the copy engine).
typedef enum {
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

// One scalar operand of a random-number task: an immediate value (isAddr = 0) or the device
// address of the value (isAddr = 1); size is the operand's byte width.
typedef struct {
  uint8_t isAddr;
  uint8_t valueOrAddr[8];
  uint8_t size;
  uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
  aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

typedef struct {
  aclrtRandomParaInfo min;
  aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
  aclrtRandomParaInfo mean;
  aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef enum {
  ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

typedef struct {
  aclrtRandomNumFuncType funcType;
  union {
    aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
    aclrtUniformDisInfo uniformDisInfo;
    aclrtNormalDisInfo normalDisInfo;
  } paramInfo;
} aclrtRandomNumFuncParaInfo;

// Full description of aclrtRandomNumAsync. randomCounterAddr is a 16-byte device counter.
typedef struct {
  aclDataType dataType;
  aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
  void* randomParaAddr;
  void* randomResultAddr;
  void* randomCounterAddr;
  aclrtRandomParaInfo randomSeed;
  aclrtRandomParaInfo randomNum;
  uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

// aclrtTaskUpdateAsync payloads.
typedef enum {
  ACL_RT_UPDATE_RANDOM_TASK = 1,
  ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

typedef struct {
  void* srcAddr;
  size_t size;
  uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
  void* binHandle;
  void* funcEntryAddr;
  void* blockDimAddr;
  uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
  aclrtRandomTaskUpdateAttr randomTaskAttr;
  aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
  aclrtUpdateTaskAttrId id;
  aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

// =================================================================================================
// Model runtime instances (aclmdlRI*): task graphs built or captured from streams
// =================================================================================================

typedef enum {
  ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
  ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

typedef enum {
  ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
  ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

typedef enum aclmdlRITaskType {
  ACL_MODEL_RI_TASK_DEFAULT,
  ACL_MODEL_RI_TASK_KERNEL,
  ACL_MODEL_RI_TASK_EVENT_RECORD,
  ACL_MODEL_RI_TASK_EVENT_WAIT,
  ACL_MODEL_RI_TASK_EVENT_RESET,
  ACL_MODEL_RI_TASK_VALUE_WRITE,
  ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
  aclrtFuncHandle funcHandle;
  aclrtLaunchKernelCfg* cfg;
  void* args;
  uint32_t isHostArgs;
  size_t argsSize;
  uint32_t numBlocks;
  uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
  void* devAddr;
  uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
  void* devAddr;
  uint64_t value;
  uint32_t flag;
} aclmdlRIValueWaitTaskParams;

// Task parameters read / written by aclmdlRITaskGetParams / aclmdlRITaskSetParams; the union
// member in use follows `type`.
typedef struct aclmdlRITaskParams {
  aclmdlRITaskType type;
  uint32_t rsv0[3];
  aclrtTaskGrp taskGrp;
  void* opInfoPtr;
  size_t opInfoSize;
  uint8_t rsv1[32];
  union {
    uint8_t rsv2[128];
    struct aclmdlRIKernelTaskParams kernelTaskParams;
    struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
    struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
    struct aclmdlRIEventResetTaskParams eventResetTaskParams;
    struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
    struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
  };
} aclmdlRITaskParams;

// Conditional sub-graphs.
typedef enum {
  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
  ACL_MODEL_RI_COND_TYPE_IF = 0,
  ACL_MODEL_RI_COND_TYPE_WHILE = 1,
  ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

typedef struct tagAclmdlRICondTaskParams {
  aclmdlRICondHandle handle;
  aclmdlRICondTaskType type;
  uint32_t size;
  aclmdlRI* modelRIArray;
} aclmdlRICondTaskParams;

// =================================================================================================
// Process-level registration, snapshots
// =================================================================================================

typedef enum aclRegisterCallbackType {
  ACL_REG_TYPE_ACL_MODEL,
  ACL_REG_TYPE_ACL_OP_EXECUTOR,
  ACL_REG_TYPE_ACL_OP_CBLAS,
  ACL_REG_TYPE_ACL_OP_COMPILER,
  ACL_REG_TYPE_ACL_TDT_CHANNEL,
  ACL_REG_TYPE_ACL_TDT_QUEUE,
  ACL_REG_TYPE_ACL_DVPP,
  ACL_REG_TYPE_ACL_RETR,
  ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

typedef aclError (*aclInitCallbackFunc)(const char* configStr, size_t len, void* userData);
typedef aclError (*aclFinalizeCallbackFunc)(void* userData);

typedef enum {
  ACL_RT_SNAPSHOT_LOCK_PRE = 0,
  ACL_RT_SNAPSHOT_BACKUP_PRE,
  ACL_RT_SNAPSHOT_BACKUP_POST,
  ACL_RT_SNAPSHOT_RESTORE_PRE,
  ACL_RT_SNAPSHOT_RESTORE_POST,
  ACL_RT_SNAPSHOT_UNLOCK_POST,
} aclrtSnapShotStage;

typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void* args);

typedef struct aclrtSnapShotBackupArgs {
  uint32_t backupFlags;
  char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
  uint32_t restoreFlags;
  char reserved[60];
} aclrtSnapShotRestoreArgs;

typedef enum aclrtProcessState {
  ACL_RT_PROCESS_STATE_RUNNING = 0,
  ACL_RT_PROCESS_STATE_LOCKED,
} aclrtProcessState;

//@@FUNCTIONS@@

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // NPUSIM_ACL_ACL_RT_H
