// SPDX-License-Identifier: Apache-2.0
// AxpyCustom's definition and tiling: 256-element blocks, at most 8.
#include "../op_kernel/axpy_custom/axpy_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus AxpyTilingFunc(gert::TilingContext* context) {
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
  if (total == 0 || total % 256 != 0) return ge::GRAPH_FAILED;
  uint32_t blocks = total / 256 < 8 ? total / 256 : 8;
  while (total % (blocks * 256) != 0) --blocks;
  AxpyTiling* t = context->GetTilingData<AxpyTiling>();
  t->total = total;
  t->perBlock = total / blocks;
  t->alpha = *context->GetAttrs()->GetAttrPointer<float>(0);
  context->SetBlockDim(blocks);
  context->GetWorkspaceSizes(1)[0] = 1024;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AxpyCustom : public OpDef {
 public:
  explicit AxpyCustom(const char* name) : OpDef(name) {
    Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    AICore().SetTiling(optiling::AxpyTilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(AxpyCustom);
}  // namespace ops
