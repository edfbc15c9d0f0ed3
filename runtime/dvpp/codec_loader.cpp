// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/codec_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "acl/acl_base.h"
#include "runtime/core/errors.h"
#include "sim/log.h"

namespace npusim::rt::dvpp {
namespace {

struct LoadState {
  std::mutex mutex;
  bool tried = false;
  const npusim_dvpp_codec_table* table = nullptr;
  std::string why;  // why `table` is null
};

LoadState& state() {
  static LoadState* s = new LoadState;  // never destroyed: DVPP tasks may run at exit
  return *s;
}

/// libacl_dvpp.so in the directory of the object (library or program) that holds this code.
std::string beside_runtime() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&codec_table), &info) == 0 || info.dli_fname == nullptr) {
    return "libacl_dvpp.so";
  }
  const std::string self = info.dli_fname;
  const std::size_t slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) +
         "/libacl_dvpp.so";
}

/// The path to load (see the header for the order).
std::string library_path() {
  if (const char* env = std::getenv(kCodecLibraryEnv); env != nullptr && *env != '\0') return env;
  std::string path = beside_runtime();
#ifdef NPUSIM_DVPP_BUILD_LIBRARY
  if (access(path.c_str(), F_OK) != 0) path = NPUSIM_DVPP_BUILD_LIBRARY;
#endif
  return path;
}

/// dlopens `path` and takes its table; nullptr and `why` on failure.
const npusim_dvpp_codec_table* open_library(const std::string& path, std::string* why) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* e = dlerror();
    *why = e != nullptr ? e : "dlopen failed";
    return nullptr;
  }
  auto entry = reinterpret_cast<npusim_dvpp_codecs_fn>(dlsym(handle, NPUSIM_DVPP_CODEC_ENTRY));
  if (entry == nullptr) {
    *why = "it has no " NPUSIM_DVPP_CODEC_ENTRY " (not npusim's DVPP codec library)";
    return nullptr;
  }
  const npusim_dvpp_codec_table* t = entry(NPUSIM_DVPP_CODEC_ABI_VERSION);
  if (t == nullptr || t->size < sizeof(npusim_dvpp_codec_table)) {
    *why = "it does not implement codec interface version " +
           std::to_string(NPUSIM_DVPP_CODEC_ABI_VERSION) + " (a library from another build)";
    return nullptr;
  }
  return t;
}

void load(LoadState& s) {
  s.tried = true;
  const std::string path = library_path();
  std::string why;
  s.table = open_library(path, &why);
  if (s.table != nullptr) return;
  s.why = "DVPP codec library " + path + " cannot be loaded: " + why;
  sim::log_error(s.why + "; JPEG/PNG/VDEC/VENC calls fail with ACL_ERROR_FEATURE_UNSUPPORTED");
}

}  // namespace

const npusim_dvpp_codec_table* codec_table(std::string* why) {
  LoadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.tried) load(s);
  if (s.table == nullptr && why != nullptr) *why = s.why;
  return s.table;
}

const npusim_dvpp_codec_table& require_codecs() {
  std::string why;
  const npusim_dvpp_codec_table* t = codec_table(&why);
  if (t == nullptr) fail(ACL_ERROR_FEATURE_UNSUPPORTED, why);
  return *t;
}

namespace testing {
void forget_codec_library() {
  LoadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.tried = false;
  s.table = nullptr;
  s.why.clear();
}
}  // namespace testing

}  // namespace npusim::rt::dvpp
