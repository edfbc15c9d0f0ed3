// SPDX-License-Identifier: Apache-2.0
// npusim public header: the dump API (acldump*, aclopStartDumpArgs; lib64/libascend_dump.so is the
// runtime library). Names, values, struct layouts and signatures follow CANN's acl_dump.h; the
// model dump configuration calls (aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump) are
// declared in acl_rt.h. What npusim dumps, where, and in which format: runtime/dump/dump.h.
#ifndef NPUSIM_ACL_ACL_DUMP_H
#define NPUSIM_ACL_ACL_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Longest file name a dump chunk carries (bytes, with the terminating NUL).
#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

// One piece of a dump file, handed to the acldumpRegCallback callback instead of being written.
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];  // absolute path the file would have been written to
  uint32_t bufLen;                               // bytes in dataBuf
  uint32_t isLastChunk;                          // 1 for the file's last chunk, else 0
  int64_t offset;                                // where dataBuf goes in the file (-1: append)
  int32_t flag;                                  // reserved (0)
  uint8_t dataBuf[0];                            // the bytes (bufLen of them)
} acldumpChunk;

// Receive dump data through `messageCallback` (its second argument is the chunk's total length,
// sizeof(acldumpChunk) + bufLen) instead of files. flag must be 0 (no files besides).
ACL_FUNC_VISIBILITY aclError acldumpRegCallback(
    int32_t (*const messageCallback)(const acldumpChunk*, int32_t), int32_t flag);
ACL_FUNC_VISIBILITY void acldumpUnregCallback(void);

// aclopStartDumpArgs / aclopStopDumpArgs dump types.
#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

// Operator information files (type, attributes, input/output format, data type and shape; one
// file per operator and shape) for the single-operator API calls run between start and stop.
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
  AIC_ERR_BRIEF_DUMP = 1,   // exception dump, light
  AIC_ERR_NORM_DUMP = 2,    // exception dump with shapes, data types, formats, attributes
  AIC_ERR_DETAIL_DUMP = 3,  // exception dump with AI Core memories and registers
  DATA_DUMP = 4,            // model / single-operator data dump
  OVERFLOW_DUMP = 5         // overflow operator dump
} acldumpType;

// The directory dumps of `dumpType` go to; NULL when that dump is not enabled.
ACL_FUNC_VISIBILITY const char* acldumpGetPath(acldumpType dumpType);

// Most dimensions an acldumpTensorInfo shape holds.
#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT = 1,
  ACL_DUMP_TENSOR_WORKSPACE = 2
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
  ACL_DUMP_ADDR_PTR = 0,      // the address holds the data address
  ACL_DUMP_ADDR_PTR_PTR = 1,  // the address holds the address of the data address
  ACL_DUMP_ADDR_RAW = 2       // the address is the data address
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST = 1,
  ACL_DUMP_PLACEMENT_END = 2  // bound of the enumeration, not a placement
} acldumpTensorPlacement;

typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;  // bytes
  int32_t format;     // aclFormat
  int32_t dataType;   // aclDataType
  int64_t* tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;      // position in the operator's arguments
  uint32_t shapeNum;        // valid entries of shape (<= ACL_DUMP_MAX_SHAPE_NUM)
  uint32_t originShapeNum;  // valid entries of originShape (<= ACL_DUMP_MAX_SHAPE_NUM)
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

// Writes `tensors` (device data, raw addresses) and `userTag` to
// <exception dump root>/<fileName>.custom.<timestamp>. Exception dump must be enabled.
ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                                      const acldumpTensorInfo* tensors,
                                                      size_t tensorCount);

// The exception dump root, <dump path>/extra-info/data-dump/<device id>/, into path[maxLen].
ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_DUMP_H
