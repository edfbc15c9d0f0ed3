// SPDX-License-Identifier: Apache-2.0
// graph/operator.h: ge::Operator as framework plugins (ONNX, TensorFlow) see it: a type, a name
// and attributes by name. npusim has no graph engine: plugins build into the package and their
// registrations are recorded, but no model is parsed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graph/types.h"

namespace ge {

class Operator {
 public:
  Operator() = default;
  explicit Operator(const char* type) : type_(type) {}
  graphStatus GetAttr(const char* name, AscendString& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, float& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, std::int64_t& v) const { return get(name, v); }
  graphStatus GetAttr(const char* name, bool& v) const { return get(name, v); }
  Operator& SetAttr(const char* name, const AscendString& v) { return put(name, v); }
  Operator& SetAttr(const char* name, float v) { return put(name, v); }
  Operator& SetAttr(const char* name, std::int64_t v) { return put(name, v); }
  Operator& SetAttr(const char* name, bool v) { return put(name, v); }
  graphStatus GetOpType(AscendString& t) const { t = type_.c_str(); return GRAPH_SUCCESS; }

 private:
  struct Value {
    AscendString s;
    float f = 0.0f;
    std::int64_t i = 0;
    bool b = false;
  };
  template <typename T>
  graphStatus get(const char* name, T& v) const {
    auto it = attrs_.find(name);
    if (it == attrs_.end()) return GRAPH_FAILED;
    v = pick<T>(it->second);
    return GRAPH_SUCCESS;
  }
  template <typename T>
  Operator& put(const char* name, const T& v) {
    pick<T>(attrs_[name]) = v;
    return *this;
  }
  template <typename T>
  static T& pick(Value& v);
  template <typename T>
  static const T& pick(const Value& v) { return pick<T>(const_cast<Value&>(v)); }
  std::string type_;
  std::map<std::string, Value> attrs_;
};
template <> inline AscendString& Operator::pick<AscendString>(Value& v) { return v.s; }
template <> inline float& Operator::pick<float>(Value& v) { return v.f; }
template <> inline std::int64_t& Operator::pick<std::int64_t>(Value& v) { return v.i; }
template <> inline bool& Operator::pick<bool>(Value& v) { return v.b; }

}  // namespace ge
