// SPDX-License-Identifier: Apache-2.0
// register/op_def_registry.h: what an operator package's op_host sources include: the OpDef
// builder and OP_ADD (register/op_def.h), gert's tiling and inference contexts
// (register/tiling_context.h) and ge's types.
#pragma once

#include "graph/types.h"
#include "register/op_def.h"
#include "register/tiling_context.h"
