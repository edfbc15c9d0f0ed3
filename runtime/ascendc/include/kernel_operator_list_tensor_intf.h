// SPDX-License-Identifier: Apache-2.0
// CANN's include name for ListTensorDesc / TensorDesc: see npusim/ascendc/list_tensor.h.
#pragma once

#include "kernel_operator.h"
#include "npusim/ascendc/list_tensor.h"
