// SPDX-License-Identifier: Apache-2.0
// What both trace formats (tools/replay/trace.h) share: a tensor's element count, element types
// by name and size, role names, and the choice of loader by the file's extension.
#include <cctype>
#include <filesystem>
#include <iterator>

#include "acl/acl_base.h"
#include "tools/replay/trace.h"

namespace npusim::replay {
namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The element types traces use: their size and the name they print with.
struct DtypeInfo {
  int dtype;
  std::size_t size;
  const char* name;
};
constexpr DtypeInfo kDtypes[] = {
    {ACL_FLOAT, 4, "float32"},
    {ACL_FLOAT16, 2, "float16"},
    {ACL_BF16, 2, "bfloat16"},
    {ACL_DOUBLE, 8, "double"},
    {ACL_INT8, 1, "int8"},
    {ACL_UINT8, 1, "uint8"},
    {ACL_INT16, 2, "int16"},
    {ACL_UINT16, 2, "uint16"},
    {ACL_INT32, 4, "int32"},
    {ACL_UINT32, 4, "uint32"},
    {ACL_INT64, 8, "int64"},
    {ACL_UINT64, 8, "uint64"},
    {ACL_BOOL, 1, "bool"},
};

const DtypeInfo* dtype_info(int dtype) {
  for (const DtypeInfo& d : kDtypes) {
    if (d.dtype == dtype) return &d;
  }
  return nullptr;
}

}  // namespace

std::int64_t Tensor::elements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

std::size_t dtype_size(int dtype) {
  const DtypeInfo* d = dtype_info(dtype);
  return d != nullptr ? d->size : 0;
}

int parse_dtype(const std::string& text) {
  std::string s = lower(text);
  if (s.rfind("dt_", 0) == 0) s = s.substr(3);
  static const std::map<std::string, int> names = {
      {"float", ACL_FLOAT},     {"float32", ACL_FLOAT}, {"fp32", ACL_FLOAT},
      {"float16", ACL_FLOAT16}, {"fp16", ACL_FLOAT16},  {"half", ACL_FLOAT16},
      {"bfloat16", ACL_BF16},   {"bf16", ACL_BF16},     {"double", ACL_DOUBLE},
      {"float64", ACL_DOUBLE},  {"int8", ACL_INT8},     {"uint8", ACL_UINT8},
      {"int16", ACL_INT16},     {"uint16", ACL_UINT16}, {"int32", ACL_INT32},
      {"uint32", ACL_UINT32},   {"int64", ACL_INT64},   {"uint64", ACL_UINT64},
      {"bool", ACL_BOOL}};
  auto it = names.find(s);
  return it == names.end() ? -1 : it->second;
}

std::string dtype_name(int dtype) {
  const DtypeInfo* d = dtype_info(dtype);
  return d != nullptr ? d->name : "type " + std::to_string(dtype);
}

const char* role_name(Role role) {
  static const char* const kNames[] = {"input", "weight", "output", "intermediate"};
  const auto i = static_cast<std::size_t>(role);
  return i < std::size(kNames) ? kNames[i] : "?";
}

Trace load_trace(const std::string& path, const std::map<std::string, std::string>& params) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".csv") {
    if (!params.empty()) throw TraceError(path + ": --param applies to YAML traces only");
    return load_msprof_csv(path);
  }
  return load_yaml_trace(path, params);
}

}  // namespace npusim::replay
