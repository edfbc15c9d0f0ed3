// SPDX-License-Identifier: Apache-2.0
// The registry of operator-package definitions (register/op_def.h): OP_ADD and
// DEVICE_IMPL_OP_OPTILING in a package's libraries record their operators here when the library
// loads; the package's code generator and the aclnn runtime (opkg.cpp) read them.
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "register/op_def.h"

namespace {

struct Registry {
  std::mutex mu;
  std::vector<std::string> order;
  std::map<std::string, ops::OpDefFactory> factories;
  std::map<std::string, ops::TilingFunc> device_tiling;
};

Registry& registry() {
  static Registry* r = new Registry;  // outlives the libraries that register at exit
  return *r;
}

}  // namespace

#define NPUSIM_OPKG_API extern "C" __attribute__((visibility("default")))

NPUSIM_OPKG_API void npusim_opdef_add(const char* type, ops::OpDefFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type == nullptr || factory == nullptr) return;
  if (!r.factories.emplace(type, factory).second) {
    std::fprintf(stderr, "[npusim] OP_ADD(%s): the operator is already defined; the second "
                 "definition is ignored\n", type);
    return;
  }
  r.order.emplace_back(type);
}

NPUSIM_OPKG_API ops::OpDefFactory npusim_opdef_find(const char* type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.factories.find(type != nullptr ? type : "");
  return it == r.factories.end() ? nullptr : it->second;
}

NPUSIM_OPKG_API int npusim_opdef_count(void) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return static_cast<int>(r.order.size());
}

NPUSIM_OPKG_API const char* npusim_opdef_type(int i) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return i >= 0 && i < static_cast<int>(r.order.size()) ? r.order[i].c_str() : nullptr;
}

NPUSIM_OPKG_API void npusim_opdef_add_device_tiling(const char* type, ops::TilingFunc f) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type != nullptr) r.device_tiling[type] = f;
}

namespace {
std::map<std::string, void (*)()>& kernels() {
  static auto* k = new std::map<std::string, void (*)()>;
  return *k;
}
}  // namespace

/// A static package's kernel (its generated table registers each one): the function of a type.
NPUSIM_OPKG_API void npusim_opkg_add_kernel(const char* type, void (*fn)()) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type != nullptr) kernels()[type] = fn;
}

NPUSIM_OPKG_API void (*npusim_opkg_find_kernel(const char* type))() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = kernels().find(type != nullptr ? type : "");
  return it == kernels().end() ? nullptr : it->second;
}
