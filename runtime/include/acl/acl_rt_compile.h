// SPDX-License-Identifier: Apache-2.0
// npusim public header: runtime compilation of Ascend C kernels (aclrtc*; lib64/libacl_rtc.so is
// the runtime library). Names, error codes and signatures follow CANN 9's acl_rt_compile.h. The
// program compiles with the install tree's npusim-asc into a shared object, which
// aclrtBinaryLoadFromData loads; what npusim does at each step: runtime/rtc/rtc_prog.h.
#ifndef NPUSIM_ACL_ACL_RT_COMPILE_H
#define NPUSIM_ACL_ACL_RT_COMPILE_H

#include <stddef.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtcProg;

#define ACL_ERROR_RTC_INVALID_PROG 176000
#define ACL_ERROR_RTC_INVALID_INPUT 176001
#define ACL_ERROR_RTC_INVALID_OPTION 176002
#define ACL_ERROR_RTC_COMPILATION 176003
#define ACL_ERROR_RTC_LINKING 176004
#define ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION 176005
#define ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION 176006
#define ACL_ERROR_RTC_NAME_EXPR_NOT_VALID 176007
#define ACL_ERROR_RTC_PROG_CREATION_FAILURE 276000
#define ACL_ERROR_RTC_OUT_OF_MEMORY 276001
#define ACL_ERROR_RTC_FAILURE 576000

ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name,
                                              int numHeaders, const char** headers,
                                              const char** includeNames);
ACL_FUNC_VISIBILITY aclError aclrtcCompileProg(aclrtcProg prog, int numOptions,
                                               const char** options);
ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg* prog);
ACL_FUNC_VISIBILITY aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetBinData(aclrtcProg prog, char* binData);
ACL_FUNC_VISIBILITY aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression);
ACL_FUNC_VISIBILITY aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                                                  const char** loweredName);
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLog(aclrtcProg prog, char* log);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_RT_COMPILE_H
