// SPDX-License-Identifier: Apache-2.0
// ops::OpDef: an operator's definition in a custom operator package (inputs, outputs and
// attributes with their data types and formats, shape/type inference, the AI Core tiling function
// and the SoCs it is built for). OP_ADD(Name) registers the class with npusim's registry
// (libregister = libacl_rt.so), which the package's code generator and the aclnn runtime read.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "register/tiling_context.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope { ALL = 0, TILING = 1 };
enum class AttrKind { kNone, kFloat, kInt, kBool, kString, kListInt, kListFloat };

using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

class OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option o) { param_type_ = o; return *this; }
  OpParamDef& DataType(std::vector<ge::DataType> t) { dtypes_ = std::move(t); return *this; }
  OpParamDef& DataTypeList(std::vector<ge::DataType> t) { return DataType(std::move(t)); }
  OpParamDef& Format(std::vector<ge::Format> f) { formats_ = std::move(f); return *this; }
  OpParamDef& FormatList(std::vector<ge::Format> f) { return Format(std::move(f)); }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> f) { return Format(std::move(f)); }
  OpParamDef& ValueDepend(Option o, DependScope s = DependScope::ALL) {
    value_depend_ = o;
    depend_scope_ = s;
    return *this;
  }
  OpParamDef& AutoContiguous() { return *this; }     // npusim's aclnn takes strided views
  OpParamDef& IgnoreContiguous() { return *this; }

  const std::string& name() const { return name_; }
  Option param_type() const { return param_type_; }
  const std::vector<ge::DataType>& dtypes() const { return dtypes_; }
  const std::vector<ge::Format>& formats() const { return formats_; }
  Option value_depend() const { return value_depend_; }

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> dtypes_;
  std::vector<ge::Format> formats_;
  Option value_depend_ = IGNORE;
  DependScope depend_scope_ = DependScope::ALL;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option o) { attr_type_ = o; return *this; }
  OpAttrDef& Float(float v) { kind_ = AttrKind::kFloat; f_ = v; return *this; }
  OpAttrDef& Int(std::int64_t v) { kind_ = AttrKind::kInt; i_ = v; return *this; }
  OpAttrDef& Bool(bool v) { kind_ = AttrKind::kBool; b_ = v; return *this; }
  OpAttrDef& String(const char* v) { kind_ = AttrKind::kString; s_ = v; return *this; }
  OpAttrDef& Float() { kind_ = AttrKind::kFloat; return *this; }
  OpAttrDef& Int() { kind_ = AttrKind::kInt; return *this; }
  OpAttrDef& Bool() { kind_ = AttrKind::kBool; return *this; }
  OpAttrDef& String() { kind_ = AttrKind::kString; return *this; }
  OpAttrDef& ListInt(std::vector<std::int64_t> v = {}) {
    kind_ = AttrKind::kListInt;
    li_ = std::move(v);
    return *this;
  }
  OpAttrDef& ListFloat(std::vector<float> v = {}) {
    kind_ = AttrKind::kListFloat;
    lf_ = std::move(v);
    return *this;
  }

  const std::string& name() const { return name_; }
  Option attr_type() const { return attr_type_; }
  AttrKind kind() const { return kind_; }
  float default_float() const { return f_; }
  std::int64_t default_int() const { return i_; }
  bool default_bool() const { return b_; }
  const std::string& default_string() const { return s_; }

 private:
  std::string name_;
  Option attr_type_ = REQUIRED;
  AttrKind kind_ = AttrKind::kNone;
  float f_ = 0.0f;
  std::int64_t i_ = 0;
  bool b_ = false;
  std::string s_;
  std::vector<std::int64_t> li_;
  std::vector<float> lf_;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char* /*soc*/) {}
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
};

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(TilingFunc f) { tiling_ = f; return *this; }
  OpAICoreDef& AddConfig(const char* soc) { socs_.emplace_back(soc); return *this; }
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig&) { return AddConfig(soc); }
  TilingFunc tiling() const { return tiling_; }
  const std::vector<std::string>& socs() const { return socs_; }

 private:
  TilingFunc tiling_ = nullptr;
  std::vector<std::string> socs_;
};

class OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  virtual ~OpDef() = default;
  OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
  OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
  OpAttrDef& Attr(const char* name) { attrs_.emplace_back(name); return attrs_.back(); }
  OpDef& SetInferShape(InferShapeFunc f) { infer_shape_ = f; return *this; }
  OpDef& SetInferDataType(InferDataTypeFunc f) { infer_dtype_ = f; return *this; }
  OpAICoreDef& AICore() { return aicore_; }

  const std::string& type() const { return type_; }
  const std::deque<OpParamDef>& inputs() const { return inputs_; }
  const std::deque<OpParamDef>& outputs() const { return outputs_; }
  const std::deque<OpAttrDef>& attrs() const { return attrs_; }
  const OpAICoreDef& aicore() const { return aicore_; }
  InferShapeFunc infer_shape() const { return infer_shape_; }
  InferDataTypeFunc infer_dtype() const { return infer_dtype_; }

 private:
  std::string type_;
  std::deque<OpParamDef> inputs_, outputs_;
  std::deque<OpAttrDef> attrs_;
  OpAICoreDef aicore_;
  InferShapeFunc infer_shape_ = nullptr;
  InferDataTypeFunc infer_dtype_ = nullptr;
};

using OpDefFactory = OpDef* (*)(const char* type);

}  // namespace ops

// npusim's registry of operator definitions (libacl_rt.so, linked as `register`).
extern "C" {
/// Records a definition's factory under its type (a second definition of a type is ignored
/// with a warning).
void npusim_opdef_add(const char* type, ops::OpDefFactory factory);
/// The factory of a type, or nullptr.
ops::OpDefFactory npusim_opdef_find(const char* type);
/// The registered types, in registration order: count, and the i-th type.
int npusim_opdef_count(void);
const char* npusim_opdef_type(int i);
/// Device tiling functions (DEVICE_IMPL_OP_OPTILING), by type.
void npusim_opdef_add_device_tiling(const char* type, ops::TilingFunc f);
/// Kernels linked into the program (static packages): register and find by operator type.
void npusim_opkg_add_kernel(const char* type, void (*fn)());
void (*npusim_opkg_find_kernel(const char* type))();
}

namespace npusim_opdef {
struct Registrar {
  Registrar(const char* type, ops::OpDefFactory f) { npusim_opdef_add(type, f); }
};

/// AddCustom -> add_custom: an operator type's snake-case name, which names its kernel function
/// and its generated aclnn_<name>.h; the code generator and the runtime must agree on it.
inline std::string snake_name(const std::string& type) {
  std::string out;
  for (std::size_t i = 0; i < type.size(); ++i) {
    const char c = type[i];
    const bool upper = c >= 'A' && c <= 'Z';
    if (upper && i > 0) {
      const char prev = type[i - 1];
      const bool next_lower = i + 1 < type.size() && type[i + 1] >= 'a' && type[i + 1] <= 'z';
      if ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9') ||
          (prev >= 'A' && prev <= 'Z' && next_lower))
        out += '_';
    }
    out += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}
}  // namespace npusim_opdef

#define NPUSIM_OPDEF_CAT2(a, b) a##b
#define NPUSIM_OPDEF_CAT(a, b) NPUSIM_OPDEF_CAT2(a, b)
#define OP_ADD(opType, ...)                                                              \
  static ::npusim_opdef::Registrar NPUSIM_OPDEF_CAT(g_npusim_op_add_, opType)(          \
      #opType, [](const char* t) -> ::ops::OpDef* { return new opType(t); })
