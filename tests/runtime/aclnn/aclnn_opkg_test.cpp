// SPDX-License-Identifier: Apache-2.0
// Operator packages' aclnn runtime (runtime/aclnn/opkg.cpp) and definition registry
// (opkg_registry.cpp), in process: a definition registered with OP_ADD and a kernel registered as
// a static package registers it, called through npusim_opkg_prepare / npusim_opkg_execute as the
// generated aclnn<Op> functions call them. The package flow itself (npu_op_package, the .run,
// a deployed package) is the e2e test op_package.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"
#include "npusim/opkg_aclnn.h"
#include "register/op_def_registry.h"
#include "tests/runtime/test_support.h"

namespace {

struct ScaleTiling {
  std::uint32_t n;
  float scale;
};

int g_tiling_mode = 0;  // 0 normal, 1 fail, 2 template selection, 3 no block count

ge::graphStatus ScaleTilingFunc(gert::TilingContext* ctx) {
  if (g_tiling_mode == 1) return ge::GRAPH_FAILED;
  if (g_tiling_mode == 2) ASCENDC_TPL_SEL_PARAM(ctx, 1, 2);
  auto* t = ctx->GetTilingData<ScaleTiling>();
  t->n = static_cast<std::uint32_t>(ctx->GetInputShape(0)->GetOriginShape().GetShapeSize());
  t->scale = *ctx->GetAttrs()->GetAttrPointer<float>(0);
  if (g_tiling_mode != 3) ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(2)[1] = 64;
  return ge::GRAPH_SUCCESS;
}

// The kernel: y = scale * x (plain host code; no Ascend C calls).
extern "C" void npusim_opkg_test_scale(std::uint8_t* x, std::uint8_t* y, std::uint8_t* ws,
                                       std::uint8_t* tiling) {
  ScaleTiling t;
  std::memcpy(&t, tiling, sizeof t);
  auto* in = reinterpret_cast<float*>(x);
  auto* out = reinterpret_cast<float*>(y);
  for (std::uint32_t i = 0; i < t.n; ++i) out[i] = t.scale * in[i];
  (void)ws;
}

}  // namespace

namespace ops {
class OpkgTestScale : public OpDef {
 public:
  explicit OpkgTestScale(const char* name) : OpDef(name) {
    Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    AICore().SetTiling(ScaleTilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(OpkgTestScale);
}  // namespace ops

namespace npusim::rt::testing {
namespace {

class OpkgTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    g_tiling_mode = 0;
    void (*fn)() = nullptr;
    auto* k = &npusim_opkg_test_scale;
    std::memcpy(&fn, &k, sizeof fn);
    npusim_opkg_add_kernel("OpkgTestScale", fn);
    ASSERT_EQ(aclrtMalloc(&dx_, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dy_, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    x_ = tensor(dx_, ACL_FLOAT);
    y_ = tensor(dy_, ACL_FLOAT);
  }
  void TearDown() override {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    aclrtFree(dx_);
    aclrtFree(dy_);
    DeviceTest::TearDown();
  }
  aclTensor* tensor(void* data, aclDataType t) {
    const std::int64_t n = 256;
    aclTensor* a = aclCreateTensor(&n, 1, t, nullptr, 0, ACL_FORMAT_ND, &n, 1, data);
    tensors_.push_back(a);
    return a;
  }
  aclnnStatus prepare(const char* type, const aclTensor* x, double scale, std::uint64_t* ws,
                      aclOpExecutor** ex) {
    const aclTensor* ins[] = {x};
    const aclTensor* outs[] = {y_};
    const NpusimOpkgAttr attrs[] = {{NPUSIM_OPKG_FLOAT, scale, 0, false, nullptr}};
    const NpusimOpkgCall call = {"aclnnTestGetWorkspaceSize", type, nullptr, ins, 1, outs, 1,
                                 attrs, 1};
    return npusim_opkg_prepare(&call, ws, ex);
  }
  static std::string message() { return aclGetRecentErrMsg(); }
  void* dx_ = nullptr;
  void* dy_ = nullptr;
  aclTensor* x_ = nullptr;
  aclTensor* y_ = nullptr;
  std::vector<aclTensor*> tensors_;
};

TEST_F(OpkgTest, RegistryKeepsTheFirstDefinitionOfAType) {
  ASSERT_NE(npusim_opdef_find("OpkgTestScale"), nullptr);
  const int before = npusim_opdef_count();
  npusim_opdef_add("OpkgTestScale", [](const char* t) -> ops::OpDef* { return new ops::OpDef(t); });
  EXPECT_EQ(npusim_opdef_count(), before);
  std::unique_ptr<ops::OpDef> def(npusim_opdef_find("OpkgTestScale")("OpkgTestScale"));
  ASSERT_EQ(def->inputs().size(), 1U);
  EXPECT_EQ(def->inputs()[0].name(), "x");
  EXPECT_EQ(def->attrs()[0].kind(), ops::AttrKind::kFloat);
  EXPECT_EQ(npusim_opdef_find("NoSuchOp"), nullptr);
}

TEST_F(OpkgTest, TilingContextHoldsTheTilingDataAndWorkspaces) {
  gert::TilingContext ctx;
  auto* t = ctx.GetTilingData<ScaleTiling>();
  t->n = 7;
  EXPECT_EQ(ctx.GetRawTilingData()->GetDataSize(), sizeof(ScaleTiling));
  std::size_t* ws = ctx.GetWorkspaceSizes(3);
  ws[2] = 5;
  EXPECT_EQ(ctx.GetWorkspaceNum(), 3U);
  EXPECT_EQ(ctx.workspaces_[2], 5U);
  gert::RuntimeAttrs attrs;
  const float f = 2.5f;
  attrs.Append(&f, sizeof f);
  EXPECT_EQ(*attrs.GetAttrPointer<float>(0), 2.5f);
  EXPECT_EQ(attrs.GetAttrPointer<float>(1), nullptr);
  EXPECT_EQ(gert::Shape({2, 3, 4}).GetShapeSize(), 24);
}

TEST_F(OpkgTest, RunsTheTilingAndTheKernelWithTheAttribute) {
  std::vector<float> x(256), y(256, 0.0f);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<float>(i);
  ASSERT_EQ(aclrtMemcpy(dx_, 1024, x.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(prepare("OpkgTestScale", x_, 3.0, &ws, &ex), ACLNN_SUCCESS) << message();
  EXPECT_EQ(ws, 64U);  // the sum of the tiling's workspace sizes
  void* dws = nullptr;
  ASSERT_EQ(aclrtMalloc(&dws, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(npusim_opkg_execute("aclnnTest", dws, ws, ex, nullptr), ACLNN_SUCCESS) << message();
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(y.data(), 1024, dy_, 1024, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(y[i], 3.0f * x[i]) << i;
  aclrtFree(dws);
}

TEST_F(OpkgTest, RefusesWhatTheDefinitionOrTheTilingDoesNotAllow) {
  std::uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(prepare("OpkgTestScale", tensor(dx_, ACL_FLOAT16), 1.0, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("input x has a data type"), std::string::npos) << message();
  EXPECT_EQ(prepare("OpkgTestScale", nullptr, 1.0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  g_tiling_mode = 1;
  EXPECT_EQ(prepare("OpkgTestScale", x_, 1.0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("its tiling function failed"), std::string::npos) << message();
  g_tiling_mode = 2;
  EXPECT_EQ(prepare("OpkgTestScale", x_, 1.0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("ASCENDC_TPL_SEL_PARAM"), std::string::npos) << message();
  g_tiling_mode = 3;
  EXPECT_EQ(prepare("OpkgTestScale", x_, 1.0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("no block count"), std::string::npos) << message();
  // An operator neither linked in nor in a package the caller comes from.
  EXPECT_EQ(prepare("NoSuchOp", x_, 1.0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("cannot locate the operator package"), std::string::npos) << message();
}

}  // namespace
}  // namespace npusim::rt::testing
