// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/kernel_binary.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/kernel_launch.h"
#include "runtime/core/runtime.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr std::size_t kMaxParams = 128;  // aclrtKernelArgsAppend: at most 128 parameters

std::size_t align8(std::size_t v) { return (v + 7) / 8 * 8; }

KernelObjects& objects(Call& call) { return call.runtime().kernels(); }

// Checks aclrtBinaryLoadOptions: lazy load (0/1) is accepted and has no effect; a magic number
// only applies to data. Returns the AI CPU kernel mode (0..2), or -1 when none is given.
int check_load_options(const void* opts, bool from_file) {
  int cpu_mode = -1;
  if (opts == nullptr) return cpu_mode;
  const auto* o = static_cast<const aclrtBinaryLoadOptions*>(opts);
  require(o->numOpt == 0 || o->options != nullptr, ACL_ERROR_INVALID_PARAM,
          "options->options is NULL");
  for (std::size_t i = 0; i < o->numOpt; ++i) {
    const aclrtBinaryLoadOption& opt = o->options[i];
    switch (opt.type) {
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
        require(opt.value.isLazyLoad <= 1, ACL_ERROR_RT_PARAM_INVALID, "isLazyLoad must be 0 or 1");
        break;
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        require(!from_file, ACL_ERROR_RT_PARAM_INVALID,
                "ACL_RT_BINARY_LOAD_OPT_MAGIC applies to aclrtBinaryLoadFromData only");
        break;
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        require(opt.value.cpuKernelMode >= 0 && opt.value.cpuKernelMode <= 2,
                ACL_ERROR_RT_PARAM_INVALID, "cpuKernelMode must be 0, 1 or 2");
        require(from_file == (opt.value.cpuKernelMode != 2), ACL_ERROR_RT_PARAM_INVALID,
                from_file ? "cpuKernelMode 2 applies to aclrtBinaryLoadFromData"
                          : "cpuKernelMode 0 and 1 apply to aclrtBinaryLoadFromFile (an operator "
                            "information .json)");
        cpu_mode = opt.value.cpuKernelMode;
        break;
      default:
        fail(ACL_ERROR_RT_PARAM_INVALID, "unknown aclrtBinaryLoadOptionType");
    }
  }
  return cpu_mode;
}

bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// dlopens an AI CPU kernel library: `dir`/`so`, then `dir`/`stem`.so, then `so` on the library
// search path (runtime/core/aicpu_kernel.h).
void* open_cpu_library(const std::string& dir, const std::string& so, const std::string& stem,
                       const std::string& json) {
  std::string tried;
  for (const std::string& candidate : {dir + "/" + so, dir + "/" + stem + ".so"}) {
    if (!is_file(candidate)) {
      tried += " " + candidate;
      continue;
    }
    void* lib = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* why = ::dlerror();
      fail(ACL_ERROR_RT_PARAM_INVALID, "AI CPU kernel library " + candidate +
                                           " cannot be loaded: " + (why ? why : "dlopen failed"));
    }
    return lib;
  }
  if (so.find('/') == std::string::npos) {
    if (void* lib = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
    ::dlerror();
  }
  fail(ACL_ERROR_RT_PARAM_INVALID, "AI CPU kernel library " + so + " named by " + json +
                                       " was not found (tried" + tried +
                                       " and the library search path)");
}

// dlopens an npusim kernel binary; fails with a message naming the path and the reason.
void* open_library(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    fail(ACL_ERROR_RT_PARAM_INVALID,
         "cannot open kernel binary " + path + ": " + std::strerror(errno));
  }
  require(S_ISREG(st.st_mode), ACL_ERROR_RT_PARAM_INVALID,
          "kernel binary " + path + " is not a regular file");
  // A path without '/' would make dlopen search the library path instead of the directory.
  std::string target = path.find('/') == std::string::npos ? "./" + path : path;
  void* lib = ::dlopen(target.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    fail(ACL_ERROR_RT_PARAM_INVALID,
         "kernel binary " + path + " is not an npusim kernel binary (built by "
         "ascendc_fatbin_library): " + (why != nullptr ? why : "dlopen failed"));
  }
  return lib;
}

void* add_binary(Call& call, void* library, std::string path) {
  auto b = std::make_shared<Binary>();
  b->library = library;
  b->path = std::move(path);
  return objects(call).binaries.add(std::move(b));
}

Binary& binary(Call& call, const void* handle) {
  require_not_null(handle, "binHandle");
  Binary* b = objects(call).binaries.find(handle);
  require(b != nullptr, ACL_ERROR_RT_PARAM_INVALID, "binHandle is not a loaded binary");
  return *b;
}


// The slot a parameter handle names, in `args`.
ArgsList::Slot& slot(Call& call, ArgsList& args, const void* args_handle, const void* param) {
  require_not_null(param, "paramHandle");
  const ParamRef* ref = objects(call).params.find(param);
  require(ref != nullptr && ref->args == args_handle && ref->index < args.slots.size(),
          ACL_ERROR_RT_PARAM_INVALID, "paramHandle does not belong to this argument list");
  return args.slots[ref->index];
}

// Appends a slot for the next parameter; its layout entry.
// AI CPU functions: `size` bytes (8 for a placeholder) at the next 8-byte-aligned offset.
const ascendc::KernelParam& next_param(Call& call, void* handle, ArgsList& args,
                                      bool placeholder, std::size_t size = 8) {
  require(args.slots.size() < kMaxParams, ACL_ERROR_RT_PARAM_INVALID,
          "an argument list holds at most 128 parameters");
  if (args.func->aicpu()) {
    require(size <= 0xFFFFFFFFu - args.params.size(), ACL_ERROR_RT_PARAM_INVALID,
            "the argument block is too large");
    const auto offset = static_cast<std::uint32_t>(align8(args.params.size()));
    args.cpu_layout.push_back(
        ascendc::KernelParam{offset, static_cast<std::uint32_t>(size), placeholder});
    args.params.resize(offset + size, 0);
  } else {
    require(args.slots.size() < args.func->entry->num_params, ACL_ERROR_RT_PARAM_INVALID,
            "too many arguments: kernel " + args.func->name + " takes " +
                std::to_string(args.func->entry->num_params));
  }
  const ascendc::KernelParam& p = args.func->aicpu() ? args.cpu_layout.back()
                                                    : args.func->entry->params[args.slots.size()];
  ArgsList::Slot s;
  s.placeholder = placeholder;
  s.handle = objects(call).params.add(std::make_shared<ParamRef>(
      ParamRef{handle, static_cast<std::uint32_t>(args.slots.size())}));
  args.slots.push_back(std::move(s));
  args.finalized = false;
  return p;
}

// Drops the slot just appended (its append failed).
void drop_last(Call& call, ArgsList& args) {
  objects(call).params.remove(args.slots.back().handle);
  args.slots.pop_back();
  if (args.func->aicpu()) {
    args.params.resize(args.cpu_layout.back().offset);
    args.cpu_layout.pop_back();
  }
}

void write_param(ArgsList& args, std::size_t index, const void* value, std::size_t size) {
  const ascendc::KernelParam& p =
      args.func->aicpu() ? args.cpu_layout[index] : args.func->entry->params[index];
  require(size <= p.size, ACL_ERROR_RT_PARAM_INVALID,
          "argument " + std::to_string(index) + " of kernel " + args.func->name + " has " +
              std::to_string(size) + " bytes; the parameter has " + std::to_string(p.size));
  std::memset(args.params.data() + p.offset, 0, p.size);
  std::memcpy(args.params.data() + p.offset, value, size);
}

}  // namespace

ArgsList& args_list(Call& call, const void* handle) {
  require_not_null(handle, "argsHandle");
  ArgsList* a = objects(call).args.find(handle);
  require(a != nullptr, ACL_ERROR_RT_PARAM_INVALID, "argsHandle is not a live argument list");
  return *a;
}

Binary::~Binary() {
  if (library != nullptr) ::dlclose(library);
  for (const auto& [name, lib] : cpu_libraries) ::dlclose(lib);
}

void KernelObjects::clear() {
  params.clear();
  args.clear();
  functions.clear();
  binaries.clear();
}

void* load_binary_file(Call& call, const char* path, const void* options) {
  require_not_null(path, "binPath");
  const int cpu_mode = check_load_options(options, true);
  const std::string p = path;
  if (cpu_mode < 0 && !ends_with(p, ".json")) return add_binary(call, open_library(path), path);
  // An AI CPU operator information file.
  require(is_file(p), ACL_ERROR_RT_PARAM_INVALID,
          "cannot open AI CPU operator information file " + p + ": " + std::strerror(errno));
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  require(static_cast<bool>(in), ACL_ERROR_RT_PARAM_INVALID,
          "cannot read AI CPU operator information file " + p);
  const std::vector<AiCpuOpInfo> ops = parse_aicpu_op_info(text.str(), p);
  const std::size_t slash = p.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : p.substr(0, slash);
  std::string stem = slash == std::string::npos ? p : p.substr(slash + 1);
  if (ends_with(stem, ".json")) stem.resize(stem.size() - 5);
  auto b = std::make_shared<Binary>();
  b->path = p;
  b->aicpu = true;
  for (const AiCpuOpInfo& op : ops) {
    if (b->cpu_libraries.count(op.kernel_so) == 0) {
      b->cpu_libraries[op.kernel_so] = open_cpu_library(dir, op.kernel_so, stem, p);
    }
    b->cpu_ops[op.op_type] = op;
  }
  return objects(call).binaries.add(std::move(b));
}

void* load_binary_data(Call& call, const void* data, std::size_t length, const void* options) {
  require_not_null(data, "data");
  require(length != 0, ACL_ERROR_INVALID_PARAM, "length is 0");
  const int cpu_mode = check_load_options(options, false);
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                     "/npusim_binary_XXXXXX";
  int fd = ::mkstemp(path.data());
  require(fd >= 0, ACL_ERROR_RT_INTERNAL_ERROR, "cannot create a temporary file for the binary");
  bool written = ::write(fd, data, length) == static_cast<ssize_t>(length);
  ::close(fd);
  void* lib = nullptr;
  try {
    require(written, ACL_ERROR_RT_INTERNAL_ERROR, "cannot write the binary to a temporary file");
    lib = open_library(path);
  } catch (...) {
    ::unlink(path.c_str());
    throw;
  }
  ::unlink(path.c_str());  // the mapping stays valid
  if (cpu_mode == 2) {  // an AI CPU kernel library; aclrtRegisterCpuFunc names its functions
    auto b = std::make_shared<Binary>();
    b->path = "<data>";
    b->aicpu = true;
    b->cpu_libraries["<data>"] = lib;
    return objects(call).binaries.add(std::move(b));
  }
  return add_binary(call, lib, "<data>");
}

void unload_binary(Call& call, void* handle) {
  Binary& b = binary(call, handle);
  KernelObjects& objs = objects(call);
  std::vector<void*> lists;
  objs.args.for_each([&](void* h, const ArgsList& a) {
    if (a.func && a.func->binary_handle == handle) lists.push_back(h);
  });
  for (void* h : lists) {
    for (const ArgsList::Slot& s : objs.args.find(h)->slots) objs.params.remove(s.handle);
    objs.args.remove(h);
  }
  for (const auto& [name, f] : b.functions) objs.functions.remove(f);
  objs.binaries.remove(handle);  // launched kernels keep the library open until they retire
}

void* get_function(Call& call, void* handle, const char* name) {
  Binary& b = binary(call, handle);
  require_not_null(name, "kernelName");
  auto it = b.functions.find(name);
  if (it != b.functions.end()) return it->second;
  if (b.aicpu) {
    auto op = b.cpu_ops.find(name);
    require(op != b.cpu_ops.end(), ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU operator " + std::string(name) + " is not in " + b.path);
    void* lib = b.cpu_libraries.at(op->second.kernel_so);
    void* fn = ::dlsym(lib, op->second.function_name.c_str());
    require(fn != nullptr, ACL_ERROR_RT_PARAM_INVALID,
            "AI CPU kernel function " + op->second.function_name + " of operator " + name +
                " is not in " + op->second.kernel_so);
    auto f = std::make_shared<Function>();
    f->binary = objects(call).binaries.get(handle);
    f->binary_handle = handle;
    f->name = name;
    f->cpu_entry = reinterpret_cast<AiCpuEntry>(fn);
    void* fh = objects(call).functions.add(std::move(f));
    b.functions.emplace(name, fh);
    return fh;
  }
  std::string symbol = std::string("npusim_kernel_") + name;
  const auto* entry = static_cast<const ascendc::KernelEntry*>(::dlsym(b.library, symbol.c_str()));
  require(entry != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "kernel " + std::string(name) + " is not in binary " + b.path);
  auto f = std::make_shared<Function>();
  f->binary = objects(call).binaries.get(handle);
  f->binary_handle = handle;
  f->entry = entry;
  f->name = name;
  void* fh = objects(call).functions.add(std::move(f));
  b.functions.emplace(name, fh);
  return fh;
}

void* register_cpu_function(Call& call, void* handle, const char* func_name,
                            const char* kernel_name) {
  Binary& b = binary(call, handle);
  require_not_null(func_name, "funcName");
  require_not_null(kernel_name, "kernelName");
  require(b.aicpu && b.cpu_libraries.count("<data>") != 0, ACL_ERROR_RT_PARAM_INVALID,
          "binHandle is not an AI CPU binary loaded from data (cpuKernelMode 2)");
  auto it = b.functions.find(kernel_name);
  if (it != b.functions.end()) return it->second;
  void* fn = ::dlsym(b.cpu_libraries.at("<data>"), func_name);
  require(fn != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "AI CPU kernel function " + std::string(func_name) + " is not in the binary");
  b.cpu_ops[kernel_name] = AiCpuOpInfo{kernel_name, "<data>", func_name, ""};
  return get_function(call, handle, kernel_name);
}

Function& function(Call& call, const void* handle) {
  require_not_null(handle, "funcHandle");
  Function* f = objects(call).functions.find(handle);
  require(f != nullptr, ACL_ERROR_RT_PARAM_INVALID, "funcHandle is not a live kernel function");
  return *f;
}

void set_binary_exception_callback(Call& call, void* handle, void (*callback)(void*, void*),
                                   void* user_data) {
  Binary& b = binary(call, handle);
  b.exception_callback = callback;
  b.exception_user_data = user_data;
}

void* args_init(Call& call, void* function_handle) {
  function(call, function_handle);
  auto a = std::make_shared<ArgsList>();
  a->function = function_handle;
  a->func = objects(call).functions.get(function_handle);
  a->params.assign(a->func->aicpu() ? 0 : a->func->entry->args_size, 0);
  return objects(call).args.add(std::move(a));
}

void* args_append(Call& call, void* handle, const void* param, std::size_t size) {
  ArgsList& a = args_list(call, handle);
  require_not_null(param, "param");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "paramSize is 0");
  next_param(call, handle, a, false, size);
  std::size_t index = a.slots.size() - 1;
  try {
    write_param(a, index, param, size);
  } catch (...) {
    drop_last(call, a);
    throw;
  }
  return a.slots.back().handle;
}

void* args_append_placeholder(Call& call, void* handle) {
  ArgsList& a = args_list(call, handle);
  const ascendc::KernelParam& p = next_param(call, handle, a, true);
  if (!p.is_pointer) {
    drop_last(call, a);
    fail(ACL_ERROR_RT_PARAM_INVALID, "parameter " + std::to_string(a.slots.size()) +
                                         " of kernel " + a.func->name +
                                         " is not a pointer: it cannot be a placeholder");
  }
  return a.slots.back().handle;
}

void* args_placeholder_buffer(Call& call, void* handle, void* param, std::size_t size) {
  ArgsList& a = args_list(call, handle);
  ArgsList::Slot& s = slot(call, a, handle, param);
  require(s.placeholder, ACL_ERROR_RT_PARAM_INVALID, "paramHandle is not a placeholder");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "dataSize is 0");
  s.data.assign(size, 0);
  s.has_buffer = true;
  a.finalized = false;
  return s.data.data();
}

void args_update(Call& call, void* handle, void* param, const void* value, std::size_t size) {
  ArgsList& a = args_list(call, handle);
  ArgsList::Slot& s = slot(call, a, handle, param);
  require_not_null(value, "param");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "paramSize is 0");
  require(!s.placeholder, ACL_ERROR_RT_PARAM_INVALID,
          "a placeholder is updated through its buffer, not aclrtKernelArgsParaUpdate");
  write_param(a, static_cast<std::size_t>(&s - a.slots.data()), value, size);
  a.finalized = false;
}

void args_finalize(Call& call, void* handle) { args_list(call, handle).finalized = true; }

}  // namespace npusim::rt
