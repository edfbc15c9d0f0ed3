// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/op_table.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace npusim::replay {
namespace {

using T = const aclTensor*;
using O = aclTensor*;
using IA = const aclIntArray*;
using S = const aclScalar*;
constexpr AttrType kInt = AttrType::kInt;
constexpr AttrType kFloat = AttrType::kFloat;
constexpr AttrType kBool = AttrType::kBool;
constexpr AttrType kString = AttrType::kString;
constexpr AttrType kInts = AttrType::kInts;

// self (, other) -> out element-wise entries.
aclnnStatus unary(Call& c) { return c.run<T, O>(c.in(0), c.out(0)); }
aclnnStatus binary(Call& c) { return c.run<T, T, O>(c.in(0), c.in(1), c.out(0)); }
aclnnStatus binary_alpha(Call& c) {
  return c.run<T, T, S, O>(c.in(0), c.in(1), c.scalar(c.attr_float("alpha")), c.out(0));
}

aclnnStatus matmul(Call& c) {
  return c.run<T, T, O, std::int8_t>(c.in_transposed(0, c.attr_bool("transpose_a")),
                                     c.in_transposed(1, c.attr_bool("transpose_b")), c.out(0),
                                     static_cast<std::int8_t>(c.attr_int("cube_math_type")));
}

// Reductions over `dims` (all dimensions when empty).
std::vector<std::int64_t> reduce_dims(Call& c) {
  std::vector<std::int64_t> dims = c.attr_ints("dims");
  if (dims.empty()) {
    for (std::size_t d = 0; d < c.in_shape(0).size(); ++d) dims.push_back(static_cast<int64_t>(d));
  }
  return dims;
}
aclnnStatus reduce_typed(Call& c) {
  return c.run<T, IA, bool, aclDataType, O>(c.in(0), c.int_array(reduce_dims(c)),
                                            c.attr_bool("keep_dim"), c.out_dtype(0), c.out(0));
}

aclnnStatus permute(Call& c) {
  return c.run<T, IA, O>(c.in(0), c.int_array(c.attr_ints("dims")), c.out(0));
}
aclnnStatus transpose(Call& c) {  // swap two dimensions: a Permute
  const auto rank = static_cast<std::int64_t>(c.in_shape(0).size());
  std::vector<std::int64_t> dims(static_cast<std::size_t>(rank));
  for (std::int64_t d = 0; d < rank; ++d) dims[static_cast<std::size_t>(d)] = d;
  std::int64_t a = c.attr_int("dim0"), b = c.attr_int("dim1");
  if (a < 0) a += rank;
  if (b < 0) b += rank;
  if (a >= 0 && a < rank && b >= 0 && b < rank) {
    std::swap(dims[static_cast<std::size_t>(a)], dims[static_cast<std::size_t>(b)]);
  }
  return c.run<T, IA, O>(c.in(0), c.int_array(dims), c.out(0));
}

aclnnStatus layer_norm(Call& c) {
  std::vector<std::int64_t> shape = c.attr_ints("normalized_shape");
  if (shape.empty() && !c.in_shape(0).empty()) shape.push_back(c.in_shape(0).back());
  return c.run<T, IA, T, T, double, O, O, O>(c.in(0), c.int_array(shape), c.in(1), c.in(2),
                                             c.attr_float("eps"), c.out(0), c.out(1), c.out(2));
}

aclnnStatus conv(Call& c) {
  return c.run<T, T, T, IA, IA, IA, bool, IA, std::int64_t, O, std::int8_t>(
      c.in(0), c.in(1), c.in(2), c.int_array(c.attr_ints("stride")),
      c.int_array(c.attr_ints("padding")), c.int_array(c.attr_ints("dilation")),
      c.attr_bool("transposed"), c.int_array(c.attr_ints("output_padding")), c.attr_int("groups"),
      c.out(0), static_cast<std::int8_t>(c.attr_int("cube_math_type")));
}

std::vector<std::int64_t> pool_stride(Call& c) {
  std::vector<std::int64_t> s = c.attr_ints("stride");
  return s.empty() ? c.attr_ints("kernel_size") : s;  // PyTorch: stride defaults to the kernel
}
aclnnStatus max_pool(Call& c) {
  return c.run<T, IA, IA, IA, IA, bool, O, O>(
      c.in(0), c.int_array(c.attr_ints("kernel_size")), c.int_array(pool_stride(c)),
      c.int_array(c.attr_ints("padding")), c.int_array(c.attr_ints("dilation")),
      c.attr_bool("ceil_mode"), c.out(0), c.out(1));
}
aclnnStatus avg_pool(Call& c) {
  return c.run<T, IA, IA, IA, bool, bool, std::int64_t, std::int8_t, O>(
      c.in(0), c.int_array(c.attr_ints("kernel_size")), c.int_array(pool_stride(c)),
      c.int_array(c.attr_ints("padding")), c.attr_bool("ceil_mode"),
      c.attr_bool("count_include_pad"), c.attr_int("divisor_override"),
      static_cast<std::int8_t>(c.attr_int("cube_math_type")), c.out(0));
}

aclnnStatus batch_norm(Call& c) {
  return c.run<T, T, T, O, O, bool, double, double, O, O, O>(
      c.in(0), c.in(1), c.in(2), c.in(3), c.in(4), c.attr_bool("training"),
      c.attr_float("momentum"), c.attr_float("eps"), c.out(0), c.out(1), c.out(2));
}

aclnnStatus flash_attention(Call& c) {
  std::string& layout = const_cast<std::string&>(c.attr_string("input_layout"));
  // CANN's order: softmaxMax, softmaxSum, softmaxOut, attentionOut; the trace lists the
  // attention output first.
  return c.run<T, T, T, T, T, T, T, IA, double, double, std::int64_t, std::int64_t, std::int64_t,
               char*, std::int64_t, std::int64_t, T, T, T, T>(
      c.in(0), c.in(1), c.in(2), c.in(3), c.in(4), c.in(5), c.in(6),
      c.int_array(c.attr_ints("prefix"), true), c.attr_float("scale"), c.attr_float("keep_prob"),
      c.attr_int("pre_tokens"), c.attr_int("next_tokens"), c.attr_int("head_num"), layout.data(),
      c.attr_int("inner_precise"), c.attr_int("sparse_mode"), c.out(1), c.out(2), c.out(3),
      c.out(0));
}

// Element-wise: arithmetic, Cast, activations.
void add_elementwise(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  const char* un = "(const aclTensor* self, aclTensor* out)";
  const char* bin = "(const aclTensor* self, const aclTensor* other, aclTensor* out)";
  const char* bin_alpha =
      "(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out)";
  const std::vector<AttrSpec> alpha = {{"alpha", kFloat, "1"}};
  // clang-format off
  add({"Add", "Add", 2, 2, 1, 1, alpha, binary_alpha, bin_alpha,
       "self, other -> out (out = self + alpha*other)", false, false, true});
  add({"Sub", "Sub", 2, 2, 1, 1, alpha, binary_alpha, bin_alpha,
       "self, other -> out (out = self - alpha*other)", false, false, true});
  add({"Mul", "Mul", 2, 2, 1, 1, {}, binary, bin, "self, other -> out"});
  add({"Div", "Div", 2, 2, 1, 1, {}, binary, bin, "self, other -> out"});
  add({"Cast", "Cast", 1, 1, 1, 1, {},
       [](Call& c) { return c.run<T, aclDataType, O>(c.in(0), c.out_dtype(0), c.out(0)); },
       "(const aclTensor* self, aclDataType dtype, aclTensor* out)",
       "self -> out (dtype = out's dtype)"});
  add({"Relu", "Relu", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  add({"Gelu", "Gelu", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  add({"Silu", "Silu", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  add({"Sigmoid", "Sigmoid", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  add({"Tanh", "Tanh", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  add({"Exp", "Exp", 1, 1, 1, 1, {}, unary, un, "self -> out"});
  // clang-format on
}

// Softmax and the normalizations of a row.
void add_normalizations(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  // clang-format off
  add({"Softmax", "Softmax", 1, 1, 1, 1, {{"dim", kInt, "-1"}},
       [](Call& c) { return c.run<T, std::int64_t, O>(c.in(0), c.attr_int("dim"), c.out(0)); },
       "(const aclTensor* self, int64_t dim, aclTensor* out)", "self -> out"});
  add({"LayerNorm", "LayerNorm", 1, 3, 1, 3,
       {{"normalized_shape", kInts, "[]"}, {"eps", kFloat, "1e-5"}}, layer_norm,
       "(const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* "
       "weightOptional, const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* "
       "meanOutOptional, aclTensor* rstdOutOptional)",
       "input, weight?, bias? -> out, mean?, rstd? (normalized_shape defaults to the last dim)",
       false, true});
  add({"RmsNorm", "RmsNorm", 2, 2, 2, 2, {{"eps", kFloat, "1e-6"}},
       [](Call& c) {
         return c.run<T, T, double, T, T>(c.in(0), c.in(1), c.attr_float("eps"), c.out(0),
                                          c.out(1));
       },
       "(const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut, "
       "const aclTensor* rstdOut)",
       "x, gamma -> y, rstd (rstd: FLOAT, x's shape with the gamma dims 1)"});
  // clang-format on
}

// Reductions over dims, and dimension reorders (Permute, Transpose).
void add_reductions_and_layout(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  const char* red =
      "(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, "
      "aclTensor* out)";
  const std::vector<AttrSpec> red_attrs = {{"dims", kInts, "[]"}, {"keep_dim", kBool, "false"}};
  // clang-format off
  add({"ReduceSum", "ReduceSum", 1, 1, 1, 1, red_attrs, reduce_typed, red,
       "self -> out (dtype = out's dtype)", false, true});
  add({"Mean", "Mean", 1, 1, 1, 1, red_attrs, reduce_typed, red,
       "self -> out (dtype = out's dtype)", false, true});
  add({"Amax", "Amax", 1, 1, 1, 1, red_attrs,
       [](Call& c) {
         return c.run<T, IA, bool, O>(c.in(0), c.int_array(reduce_dims(c)),
                                      c.attr_bool("keep_dim"), c.out(0));
       },
       "(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out)",
       "self -> out", false, true});
  add({"Permute", "Permute", 1, 1, 1, 1, {{"dims", kInts, nullptr}}, permute,
       "(const aclTensor* self, const aclIntArray* dims, aclTensor* out)", "self -> out", false,
       true});
  add({"Transpose", "Permute", 1, 1, 1, 1, {{"dim0", kInt, "-2"}, {"dim1", kInt, "-1"}},
       transpose, "(const aclTensor* self, const aclIntArray* dims, aclTensor* out)",
       "self -> out (swaps dim0 and dim1: an aclnnPermute)", false, true});
  // clang-format on
}

// Matrix products.
void add_matmul(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  const char* mm =
      "(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType)";
  const std::vector<AttrSpec> mm_attrs = {{"transpose_a", kBool, "false"},
                                          {"transpose_b", kBool, "false"},
                                          {"cube_math_type", kInt, "0"}};
  // clang-format off
  add({"Matmul", "Matmul", 2, 2, 1, 1, mm_attrs, matmul, mm,
       "self, mat2 -> out (transpose_a/b: the input is stored transposed, passed as a strided "
       "view)"});
  add({"BatchMatMul", "BatchMatMul", 2, 2, 1, 1, mm_attrs, matmul, mm,
       "self [B,M,K], mat2 [B,K,N] -> out [B,M,N] (transpose flags as Matmul)"});
  // clang-format on
}

// Convolution and the batch normalization that follows it in CNNs (NCHW).
void add_convolution(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  // clang-format off
  add({"Convolution", "Convolution", 2, 3, 1, 1,
       {{"stride", kInts, "[1, 1]"}, {"padding", kInts, "[0, 0]"}, {"dilation", kInts, "[1, 1]"},
        {"transposed", kBool, "false"}, {"output_padding", kInts, "[0, 0]"},
        {"groups", kInt, "1"}, {"cube_math_type", kInt, "0"}},
       conv,
       "(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const "
       "aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool "
       "transposed, const aclIntArray* outputPadding, int64_t groups, aclTensor* output, int8_t "
       "cubeMathType)",
       "input [N,C,H,W], weight [Cout,C/groups,kh,kw], bias? -> output", true, true});
  add({"BatchNorm", "BatchNorm", 1, 5, 1, 3,
       {{"training", kBool, "false"}, {"momentum", kFloat, "0.1"}, {"eps", kFloat, "1e-5"}},
       batch_norm,
       "(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* "
       "runningMean, aclTensor* runningVar, bool training, double momentum, double eps, "
       "aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd)",
       "input, weight?, bias?, running_mean?, running_var? -> output, save_mean?, save_invstd?",
       true});
  // clang-format on
}

// The attributes of 2-D pooling: kernel_size, stride, padding, then `more`.
std::vector<AttrSpec> pool_attrs(std::initializer_list<AttrSpec> more) {
  std::vector<AttrSpec> a = {
      {"kernel_size", kInts, nullptr}, {"stride", kInts, "[]"}, {"padding", kInts, "[0, 0]"}};
  a.insert(a.end(), more);
  return a;
}

// 2-D pooling (NCHW).
void add_pooling(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  // clang-format off
  add({"MaxPool2d", "MaxPool2dWithIndices", 1, 1, 2, 2,
       pool_attrs({{"dilation", kInts, "[1, 1]"}, {"ceil_mode", kBool, "false"}}), max_pool,
       "(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const "
       "aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out, "
       "aclTensor* indices)",
       "self -> out, indices (stride defaults to kernel_size)", true, true});
  add({"AvgPool2d", "AvgPool2d", 1, 1, 1, 1,
       pool_attrs({{"ceil_mode", kBool, "false"}, {"count_include_pad", kBool, "true"},
                   {"divisor_override", kInt, "0"}, {"cube_math_type", kInt, "0"}}),
       avg_pool,
       "(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* strides, "
       "const aclIntArray* paddings, bool ceilMode, bool countIncludePad, int64_t "
       "divisorOverride, int8_t cubeMathType, aclTensor* out)",
       "self -> out (stride defaults to kernel_size)", true, true});
  // clang-format on
}

// Embedding lookups and rotary position embedding.
void add_embeddings(std::vector<OpEntry>& t) {
  auto add = [&](OpEntry e) { t.push_back(std::move(e)); };
  // clang-format off
  add({"Embedding", "Embedding", 2, 2, 1, 1, {},
       [](Call& c) { return c.run<T, T, T>(c.in(0), c.in(1), c.out(0)); },
       "(const aclTensor* weight, const aclTensor* indices, const aclTensor* out)",
       "weight [V,H], indices (INT32/INT64) -> out [..., H]"});
  add({"RotaryPositionEmbedding", "RotaryPositionEmbedding", 3, 3, 1, 1, {{"mode", kInt, "0"}},
       [](Call& c) {
         return c.run<T, T, T, std::int64_t, O>(c.in(0), c.in(1), c.in(2), c.attr_int("mode"),
                                                c.out(0));
       },
       "(const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode, "
       "aclTensor* out)",
       "x [B,S,N,D], cos, sin -> out (mode 0: rotate half)"});
  // clang-format on
}

// Fused attention.
void add_attention(std::vector<OpEntry>& t) {
  // clang-format off
  t.push_back({"FlashAttentionScore", "FlashAttentionScore", 3, 7, 3, 4,
       {{"head_num", kInt, nullptr}, {"input_layout", kString, "BSH"}, {"scale", kFloat, "1"},
        {"keep_prob", kFloat, "1"}, {"pre_tokens", kInt, "2147483647"},
        {"next_tokens", kInt, "2147483647"}, {"inner_precise", kInt, "0"},
        {"sparse_mode", kInt, "0"}, {"prefix", kInts, "[]"}},
       flash_attention,
       "(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* "
       "realShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* "
       "paddingMaskOptional, const aclTensor* attenMaskOptional, const aclIntArray* "
       "prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t "
       "nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t "
       "sparseMode, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut, const "
       "aclTensor* softmaxOutOut, const aclTensor* attentionOutOut)",
       "query, key, value, real_shift?, drop_mask?, padding_mask?, atten_mask? -> "
       "attention_out, softmax_max [B,N,Sq,8] FLOAT, softmax_sum (same), softmax_out?",
       false, true});
  // clang-format on
}

/// The table; error messages list the known types in this order.
std::vector<OpEntry> make_table() {
  std::vector<OpEntry> t;
  add_elementwise(t);
  add_normalizations(t);
  add_reductions_and_layout(t);
  add_matmul(t);
  add_convolution(t);
  add_pooling(t);
  add_embeddings(t);
  add_attention(t);
  return t;
}

}  // namespace

const std::vector<OpEntry>& op_table() {
  static const std::vector<OpEntry> table = make_table();
  return table;
}

const OpEntry* find_op(const std::string& type) {
  for (const OpEntry& e : op_table()) {
    if (type == e.type) return &e;
  }
  return nullptr;
}

std::string missing_symbol(const OpEntry& entry,
                           const std::function<void*(const std::string&)>& lookup) {
  const std::string name = std::string("aclnn") + entry.aclnn;
  if (lookup(name + "GetWorkspaceSize") == nullptr || lookup(name) == nullptr) {
    return name + " is not in this npusim build";
  }
  auto both = [&](const char* create, const char* destroy) {
    return lookup(create) != nullptr && lookup(destroy) != nullptr;
  };
  if (!both("aclCreateTensor", "aclDestroyTensor")) {
    return "aclCreateTensor is not in this npusim build";
  }
  if (entry.int_arrays && !both("aclCreateIntArray", "aclDestroyIntArray")) {
    return "aclCreateIntArray is not in this npusim build (" + name + " needs it)";
  }
  if (entry.scalars && !both("aclCreateScalar", "aclDestroyScalar")) {
    return "aclCreateScalar is not in this npusim build (" + name + " needs it)";
  }
  return "";
}

namespace {

// msprof's operator types (lower case) and the operators they are here.
struct MsprofName {
  const char* msprof;
  const char* op;
};
constexpr MsprofName kMsprofNames[] = {
    {"add", "Add"},
    {"addv2", "Add"},
    {"sub", "Sub"},
    {"mul", "Mul"},
    {"div", "Div"},
    {"realdiv", "Div"},
    {"cast", "Cast"},
    {"relu", "Relu"},
    {"gelu", "Gelu"},
    {"fastgelu", "Gelu"},
    {"silu", "Silu"},
    {"swish", "Silu"},
    {"sigmoid", "Sigmoid"},
    {"tanh", "Tanh"},
    {"exp", "Exp"},
    {"softmax", "Softmax"},
    {"softmaxv2", "Softmax"},
    {"layernorm", "LayerNorm"},
    {"layernormv3", "LayerNorm"},
    {"layernormv4", "LayerNorm"},
    {"rmsnorm", "RmsNorm"},
    {"reducesum", "ReduceSum"},
    {"reducesumd", "ReduceSum"},
    {"reducemean", "Mean"},
    {"reducemeand", "Mean"},
    {"reducemax", "Amax"},
    {"reducemaxd", "Amax"},
    {"transpose", "Permute"},
    {"transposed", "Permute"},
    {"matmul", "Matmul"},
    {"matmulv2", "Matmul"},
    {"matmulv3", "Matmul"},
    {"batchmatmul", "BatchMatMul"},
    {"batchmatmulv2", "BatchMatMul"},
    {"batchmatmulv3", "BatchMatMul"},
    {"conv2d", "Convolution"},
    {"bninfer", "BatchNorm"},
    {"batchnorm", "BatchNorm"},
    {"bninferenced", "BatchNorm"},
    {"maxpool", "MaxPool2d"},
    {"maxpoolv3", "MaxPool2d"},
    {"maxpoolwithargmaxv1", "MaxPool2d"},
    {"maxpoolwithargmaxv2", "MaxPool2d"},
    {"avgpool", "AvgPool2d"},
    {"avgpoolv2", "AvgPool2d"},
    {"gatherv2", "Embedding"},
    {"embedding", "Embedding"},
    {"rotarypositionembedding", "RotaryPositionEmbedding"},
    {"flashattentionscore", "FlashAttentionScore"},
};

}  // namespace

std::string op_type_from_msprof(const std::string& msprof_type) {
  std::string key;
  for (char ch : msprof_type)
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const MsprofName& n : kMsprofNames) {
    if (key == n.msprof) return n.op;
  }
  return std::string();
}

}  // namespace npusim::replay
