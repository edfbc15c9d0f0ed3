// SPDX-License-Identifier: Apache-2.0
// npusim/opkg_aclnn.h: the call the aclnn sources an operator package's code generator writes
// make (aclnn<Op>GetWorkspaceSize): the operator's type, its tensors and attributes in the
// definition's order, and an address inside the package's libcust_opapi.so, from which the
// runtime finds the package (its tiling library and kernels). The second phase is aclnn's
// usual execute (npusim_opkg_execute).
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"

extern "C" {

enum NpusimOpkgAttrKind { NPUSIM_OPKG_FLOAT = 1, NPUSIM_OPKG_INT = 2, NPUSIM_OPKG_BOOL = 3,
                         NPUSIM_OPKG_STRING = 4 };

struct NpusimOpkgAttr {
  int kind;
  double f;
  std::int64_t i;
  bool b;
  const char* s;
};

struct NpusimOpkgCall {
  const char* api;                       // "aclnnAddCustomGetWorkspaceSize"
  const char* op_type;                   // "AddCustom"
  const void* anchor;                    // an address in the package's op_api library
  const aclTensor* const* inputs;
  int input_count;
  const aclTensor* const* outputs;
  int output_count;
  const NpusimOpkgAttr* attrs;
  int attr_count;
};

aclnnStatus npusim_opkg_prepare(const NpusimOpkgCall* call, uint64_t* workspace_size,
                                aclOpExecutor** executor);
aclnnStatus npusim_opkg_execute(const char* api, void* workspace, uint64_t workspace_size,
                                aclOpExecutor* executor, aclrtStream stream);
}
