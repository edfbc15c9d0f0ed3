// SPDX-License-Identifier: Apache-2.0
// register/register.h: framework plugin registration (REGISTER_CUSTOM_OP ... FrameworkType,
// OriginOpType, ParseParamsByOperatorFn). npusim records what a plugin registers; it has no
// graph engine or model parser, so the parse functions are never called (a program that needs
// a parsed ONNX/TensorFlow model fails where it asks for one).
#pragma once

#include <string>
#include <vector>

#include "graph/operator.h"

namespace domi {

using std::string;

using Status = std::uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFFU;

enum FrameworkType { CAFFE = 0, MINDSPORE = 1, TENSORFLOW = 3, ANDROID_NN = 4, ONNX = 5 };
enum class ImplyType : unsigned int { BUILDIN = 0, TVM, CUSTOM, AI_CPU, CCE, GELU, HCCL, INVALID };

using ParseParamByOpFunc = Status (*)(const ge::Operator&, ge::Operator&);
inline Status AutoMappingByOpFn(const ge::Operator&, ge::Operator&) { return SUCCESS; }

class OpRegistrationData {
 public:
  explicit OpRegistrationData(const char* type) : type_(type) {}
  OpRegistrationData& FrameworkType(domi::FrameworkType t) { fmk_ = t; return *this; }
  OpRegistrationData& OriginOpType(const char* t) { origin_.emplace_back(t); return *this; }
  OpRegistrationData& OriginOpType(const std::vector<ge::AscendString>& t) {
    for (const auto& s : t) origin_.emplace_back(s.GetString());
    return *this;
  }
  OpRegistrationData& ParseParamsByOperatorFn(ParseParamByOpFunc f) { parse_ = f; return *this; }
  OpRegistrationData& ImplyType(domi::ImplyType t) { imply_ = t; return *this; }
  const std::string& type() const { return type_; }
  domi::FrameworkType framework() const { return fmk_; }
  const std::vector<std::string>& origin_types() const { return origin_; }

 private:
  std::string type_;
  domi::FrameworkType fmk_ = TENSORFLOW;
  std::vector<std::string> origin_;
  ParseParamByOpFunc parse_ = nullptr;
  domi::ImplyType imply_ = domi::ImplyType::TVM;
};

/// Keeps the registration (a plugin library's static object).
struct OpReceiver {
  OpReceiver(const OpRegistrationData& d) : data(d) {}  // NOLINT: implicit as in CANN
  OpRegistrationData data;
};

}  // namespace domi

#define NPUSIM_REG_CAT2(a, b) a##b
#define NPUSIM_REG_CAT(a, b) NPUSIM_REG_CAT2(a, b)
#define REGISTER_CUSTOM_OP(name)                                                          \
  static ::domi::OpReceiver NPUSIM_REG_CAT(g_npusim_custom_op_, __COUNTER__) __attribute__((unused)) = \
      ::domi::OpRegistrationData(name)
