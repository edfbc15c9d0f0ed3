// SPDX-License-Identifier: Apache-2.0
// C skin: process lifetime, versions, SoC identity, CANN attributes.
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/lifecycle.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

// Packages whose version npusim reports (the simulated stack has one version for all).
bool known_package(const char* name) {
  static const char* const kPackages[] = {"runtime",    "cann", "toolkit", "compiler", "opp",
                                          "opp_kernel", "hccl", "driver",  "firmware"};
  for (const char* p : kPackages) {
    if (std::strcmp(p, name) == 0) return true;
  }
  return false;
}

// "x.y.z" or "x.y.z-(alpha|beta|rc).n" → x*10^7 + y*10^5 + z*10^3 (9.1.0 → 90100000, as CANN);
// pre-releases sort just below their release: - 1000 + (alpha 1, beta 2, rc 3) * 100 + n.
std::int32_t version_number(const std::string& text) {
  int major = 0, minor = 0, patch = 0, n = 0;
  char kind[16] = {0};
  int fields = std::sscanf(text.c_str(), "%d.%d.%d-%15[a-z].%d", &major, &minor, &patch, kind, &n);
  require(fields >= 3, ACL_ERROR_INVALID_PARAM, "soc.version '" + text + "' is not x.y.z");
  std::int32_t value = major * 10000000 + minor * 100000 + patch * 1000;
  if (fields >= 4) {
    int rank = std::strcmp(kind, "alpha") == 0 ? 1 : std::strcmp(kind, "beta") == 0 ? 2 : 3;
    value += -1000 + rank * 100 + n;
  }
  return value;
}

void check_package(const char* pkg_name) {
  require_not_null(pkg_name, "pkgName");
  require(known_package(pkg_name), ACL_ERROR_INVALID_PARAM,
          std::string("no version information for package '") + pkg_name + "'");
}

// CANN features of the simulated chip (npusim/chip_arch.h); npusim has no operator compiler, so JIT
// compilation is never available.
bool cann_attribute(const npusim::models::ChipConfig& cfg, int attr) {
  switch (attr) {
    case ACL_CANN_ATTR_INF_NAN:
      return cfg.generation().inf_nan_mode;
    case ACL_CANN_ATTR_BF16:
      return cfg.generation().bf16;
    default:
      return false;
  }
}

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) {
  return api_any("aclInit", [&](Call& c) { initialize(c, configPath); });
}

aclError aclFinalize(void) {
  return api_any("aclFinalize", [&](Call& c) { finalize(c); });
}

aclError aclFinalizeReference(uint64_t* refCount) {
  return api_any("aclFinalizeReference", [&](Call& c) {
    require_not_null(refCount, "refCount");
    int& refs = c.runtime().init_references();
    require(c.runtime().initialized(), ACL_ERROR_REPEAT_FINALIZE, "aclInit has not been called");
    if (--refs == 0) finalize(c);
    *refCount = static_cast<uint64_t>(refs);
  });
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  return api_any("aclsysGetVersionStr", [&](Call& c) {
    check_package(pkgName);
    require_not_null(versionStr, "versionStr");
    std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", c.config().soc.version.c_str());
  });
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  return api_any("aclsysGetVersionNum", [&](Call& c) {
    check_package(pkgName);
    require_not_null(versionNum, "versionNum");
    *versionNum = version_number(c.config().soc.version);
  });
}

aclError aclsysGetCANNVersion(aclCANNPackageName name_arg, aclCANNPackageVersion* version) {
  const int name = as_int(name_arg);  // any value the caller passed
  return api_any("aclsysGetCANNVersion", [&](Call& c) {
    require(name >= ACL_PKG_NAME_CANN && name <= ACL_PKG_NAME_DRIVER, ACL_ERROR_INVALID_PARAM,
            "name is not an aclCANNPackageName");
    require_not_null(version, "version");
    const std::string& text = c.config().soc.version;
    int major = 0, minor = 0, patch = 0;
    std::sscanf(text.c_str(), "%d.%d.%d", &major, &minor, &patch);
    std::memset(version, 0, sizeof *version);
    std::snprintf(version->version, sizeof version->version, "%s", text.c_str());
    std::snprintf(version->majorVersion, sizeof version->majorVersion, "%d", major);
    std::snprintf(version->minorVersion, sizeof version->minorVersion, "%d", minor);
    std::snprintf(version->releaseVersion, sizeof version->releaseVersion, "%d", patch);
    std::snprintf(version->patchVersion, sizeof version->patchVersion, "0");
  });
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return api_any("aclrtGetVersion", [&](Call&) {
    require_not_null(majorVersion, "majorVersion");
    require_not_null(minorVersion, "minorVersion");
    require_not_null(patchVersion, "patchVersion");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
  });
}

const char* aclrtGetSocName(void) {
  return api_value<const char*>("aclrtGetSocName", Needs::kNothing, nullptr,
                                [&](Call& c) { return c.config().soc.name.c_str(); });
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  return api_any("aclGetCannAttributeList", [&](Call& c) {
    require_not_null(cannAttrList, "cannAttrList");
    require_not_null(num, "num");
    static const aclCannAttr kAll[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
    bool modern = cann_attribute(c.config(), ACL_CANN_ATTR_BF16);
    *cannAttrList = kAll;
    *num = modern ? 2 : 0;
  });
}

aclError aclGetCannAttribute(aclCannAttr cannAttr_arg, int32_t* value) {
  const int cannAttr = as_int(cannAttr_arg);  // any value the caller passed
  return api_any("aclGetCannAttribute", [&](Call& c) {
    require_not_null(value, "value");
    require(cannAttr >= ACL_CANN_ATTR_INF_NAN && cannAttr <= ACL_CANN_ATTR_JIT_COMPILE,
            ACL_ERROR_INVALID_PARAM, "cannAttr is not an aclCannAttr value");
    *value = cann_attribute(c.config(), cannAttr) ? 1 : 0;
  });
}

}  // extern "C"
