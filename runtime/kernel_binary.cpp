// SPDX-License-Identifier: Apache-2.0
#include "runtime/kernel_binary.h"

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
#include "runtime/api_call.h"
#include "runtime/errors.h"
#include "runtime/kernel_launch.h"
#include "runtime/runtime.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr std::size_t kMaxParams = 128;  // aclrtKernelArgsAppend: at most 128 parameters
constexpr std::size_t kPointerSize = 8;

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
// search path (runtime/aicpu_kernel.h).
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

ArgsList& args_list(Call& call, const void* handle) {
  require_not_null(handle, "argsHandle");
  ArgsList* a = objects(call).args.find(handle);
  require(a != nullptr, ACL_ERROR_RT_PARAM_INVALID, "argsHandle is not a live argument list");
  return *a;
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
const kernel::KernelParam& next_param(Call& call, void* handle, ArgsList& args,
                                      bool placeholder, std::size_t size = 8) {
  require(args.slots.size() < kMaxParams, ACL_ERROR_RT_PARAM_INVALID,
          "an argument list holds at most 128 parameters");
  if (args.func->aicpu()) {
    require(size <= 0xFFFFFFFFu - args.params.size(), ACL_ERROR_RT_PARAM_INVALID,
            "the argument block is too large");
    const auto offset = static_cast<std::uint32_t>(align8(args.params.size()));
    args.cpu_layout.push_back(
        kernel::KernelParam{offset, static_cast<std::uint32_t>(size), placeholder});
    args.params.resize(offset + size, 0);
  } else {
    require(args.slots.size() < args.func->entry->num_params, ACL_ERROR_RT_PARAM_INVALID,
            "too many arguments: kernel " + args.func->name + " takes " +
                std::to_string(args.func->entry->num_params));
  }
  const kernel::KernelParam& p = args.func->aicpu() ? args.cpu_layout.back()
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
  const kernel::KernelParam& p =
      args.func->aicpu() ? args.cpu_layout[index] : args.func->entry->params[index];
  require(size <= p.size, ACL_ERROR_RT_PARAM_INVALID,
          "argument " + std::to_string(index) + " of kernel " + args.func->name + " has " +
              std::to_string(size) + " bytes; the parameter has " + std::to_string(p.size));
  std::memset(args.params.data() + p.offset, 0, p.size);
  std::memcpy(args.params.data() + p.offset, value, size);
}

// ---- Launch plumbing ----

KernelSpec spec_for(Call& call, void* handle, std::uint32_t block_dim,
                    const LaunchOptions& options) {
  Function& f = function(call, handle);
  KernelSpec spec;
  spec.name = f.name;
  spec.identity = f.entry;
  spec.block_dim = block_dim;
  spec.batch_mode = options.batch_mode;
  spec.engine = options.engine;
  spec.origin.func_handle = handle;
  spec.origin.binary_callback = f.binary->exception_callback;
  spec.origin.binary_user_data = f.binary->exception_user_data;
  spec.keep_alive = f.binary;  // the library stays open until the kernel retires
  return spec;
}

void check_args_size(const Function& f, std::size_t size) {
  require(size >= f.entry->args_size, ACL_ERROR_RT_PARAM_INVALID,
          "too few arguments: kernel " + f.name + " needs an argument block of " +
              std::to_string(f.entry->args_size) + " bytes, got " + std::to_string(size));
}

// Copies the host argument block to runtime-owned device memory, patches the placeholders and
// launches; the memory is freed when the kernel retires.
void launch_image(Call& call, KernelSpec spec, const Function& f, const void* image,
                  std::size_t size, const std::vector<PlaceholderPatch>& patches, void* stream) {
  call.stream(stream);  // a bad stream fails before memory is taken
  MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.allocate(MemKind::kDevice, call.context().device, size, 0);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for the argument block");
  auto* base = reinterpret_cast<std::uint8_t*>(a->base);
  if (size != 0) std::memcpy(base, image, size);
  for (const PlaceholderPatch& p : patches) {
    std::uint64_t address = a->base + p.data_offset;
    std::memcpy(base + p.addr_offset, &address, kPointerSize);
  }
  const kernel::KernelEntry* entry = f.entry;
  spec.body = [entry, base, size] { entry->invoke(base, size); };
  spec.origin.args = base;
  spec.origin.args_size = static_cast<std::uint32_t>(size);
  spec.on_retire = [&memory, base, serial = a->serial] { memory.release_if(base, serial); };
  try {
    submit_kernel(call, stream, std::move(spec));
  } catch (...) {
    memory.release_if(base, a->serial);
    throw;
  }
}

// The AI CPU launch of function `f` (its argument block still to be filled in).
AiCpuSpec cpu_spec(const Function& f, void* handle, std::uint32_t block_dim) {
  AiCpuSpec spec;
  spec.name = f.name;
  spec.block_dim = block_dim;
  spec.origin.func_handle = handle;
  spec.origin.binary_callback = f.binary->exception_callback;
  spec.origin.binary_user_data = f.binary->exception_user_data;
  spec.body = [entry = f.cpu_entry](void* args) { return entry(args); };
  spec.keep_alive = f.binary;  // the library stays open until the kernel retires
  return spec;
}

}  // namespace

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
  const auto* entry = static_cast<const kernel::KernelEntry*>(::dlsym(b.library, symbol.c_str()));
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
  const kernel::KernelParam& p = next_param(call, handle, a, true);
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

LaunchOptions parse_launch_config(const void* cfg_ptr) {
  LaunchOptions o;
  if (cfg_ptr == nullptr) return o;
  const auto* cfg = static_cast<const aclrtLaunchKernelCfg*>(cfg_ptr);
  require(cfg->numAttrs == 0 || cfg->attrs != nullptr, ACL_ERROR_INVALID_PARAM,
          "cfg->attrs is NULL");
  for (std::size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& a = cfg->attrs[i];
    switch (a.id) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        require(a.value.schemMode <= 1, ACL_ERROR_INVALID_PARAM, "schemMode must be 0 or 1");
        o.batch_mode = a.value.schemMode == 1;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        require(a.value.engineType == ACL_RT_ENGINE_TYPE_AIC ||
                    a.value.engineType == ACL_RT_ENGINE_TYPE_AIV,
                ACL_ERROR_INVALID_PARAM, "engineType must be AIC or AIV");
        o.engine = a.value.engineType;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        break;  // no effect on the simulated chip
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        sim::log_info("kernel execution timeouts are not simulated; the attribute is ignored");
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        require(a.value.blockDimOffset == 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "a non-zero blockDim offset is not supported");
        break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "unknown aclrtLaunchKernelAttrId");
    }
  }
  return o;
}

void launch_with_args_list(Call& call, void* func, std::uint32_t block_dim, void* stream,
                           const LaunchOptions& options, void* handle) {
  if (function(call, func).aicpu()) {
    const Function& f = function(call, func);
    ArgsList& a = args_list(call, handle);
    require(a.function == func, ACL_ERROR_RT_PARAM_INVALID,
            "argsHandle was initialised for another kernel function");
    require(a.finalized, ACL_ERROR_RT_PARAM_INVALID,
            "the argument list is not finalised (aclrtKernelArgsFinalize)");
    AiCpuSpec spec = cpu_spec(f, func, block_dim);
    spec.args = a.params;
    spec.args.resize(align8(spec.args.size()), 0);
    for (std::size_t i = 0; i < a.slots.size(); ++i) {
      const ArgsList::Slot& s = a.slots[i];
      if (!s.placeholder) continue;
      require(s.has_buffer, ACL_ERROR_RT_PARAM_INVALID,
              "placeholder " + std::to_string(i) +
                  " has no data (aclrtKernelArgsGetPlaceHolderBuffer)");
      spec.patches.emplace_back(a.cpu_layout[i].offset,
                                static_cast<std::uint32_t>(spec.args.size()));
      spec.args.insert(spec.args.end(), s.data.begin(), s.data.end());
      spec.args.resize(align8(spec.args.size()), 0);
    }
    submit_aicpu_kernel(call, stream, std::move(spec));
    return;
  }
  KernelSpec spec = spec_for(call, func, block_dim, options);
  ArgsList& a = args_list(call, handle);
  require(a.function == func, ACL_ERROR_RT_PARAM_INVALID,
          "argsHandle was initialised for another kernel function");
  require(a.finalized, ACL_ERROR_RT_PARAM_INVALID,
          "the argument list is not finalised (aclrtKernelArgsFinalize)");
  const Function& f = *a.func;
  require(a.slots.size() == f.entry->num_params, ACL_ERROR_RT_PARAM_INVALID,
          "too few arguments: kernel " + f.name + " takes " + std::to_string(f.entry->num_params) +
              ", " + std::to_string(a.slots.size()) + " were appended");
  std::vector<std::uint8_t> image(a.params);
  image.resize(align8(image.size()), 0);
  std::vector<PlaceholderPatch> patches;
  for (std::size_t i = 0; i < a.slots.size(); ++i) {
    const ArgsList::Slot& s = a.slots[i];
    if (!s.placeholder) continue;
    require(s.has_buffer, ACL_ERROR_RT_PARAM_INVALID,
            "placeholder " + std::to_string(i) +
                " has no data (aclrtKernelArgsGetPlaceHolderBuffer)");
    patches.push_back({f.entry->params[i].offset, static_cast<std::uint32_t>(image.size())});
    image.insert(image.end(), s.data.begin(), s.data.end());
    image.resize(align8(image.size()), 0);
  }
  launch_image(call, std::move(spec), f, image.data(), image.size(), patches, stream);
}

void launch_with_host_args(Call& call, void* func, std::uint32_t block_dim, void* stream,
                           const LaunchOptions& options, const void* args, std::size_t size,
                           const std::vector<PlaceholderPatch>& placeholders) {
  if (function(call, func).aicpu()) {
    require_not_null(args, "hostArgs");
    AiCpuSpec spec = cpu_spec(function(call, func), func, block_dim);
    const auto* bytes = static_cast<const std::uint8_t*>(args);
    spec.args.assign(bytes, bytes + size);
    for (const PlaceholderPatch& p : placeholders) {
      spec.patches.emplace_back(p.addr_offset, p.data_offset);
    }
    submit_aicpu_kernel(call, stream, std::move(spec));
    return;
  }
  KernelSpec spec = spec_for(call, func, block_dim, options);
  const Function& f = function(call, func);
  require_not_null(args, "hostArgs");
  check_args_size(f, size);
  for (const PlaceholderPatch& p : placeholders) {
    require(std::size_t{p.addr_offset} + kPointerSize <= size && p.data_offset < size,
            ACL_ERROR_RT_PARAM_INVALID, "a placeholder offset lies outside the argument block");
  }
  launch_image(call, std::move(spec), f, args, size, placeholders, stream);
}

void launch_with_device_args(Call& call, void* func, std::uint32_t block_dim, void* stream,
                             const LaunchOptions& options, const void* args, std::size_t size) {
  if (function(call, func).aicpu()) {
    require_not_null(args, "argsData");
    AiCpuSpec spec = cpu_spec(function(call, func), func, block_dim);
    spec.device_args = const_cast<void*>(args);
    spec.device_args_size = size;
    submit_aicpu_kernel(call, stream, std::move(spec));
    return;
  }
  KernelSpec spec = spec_for(call, func, block_dim, options);
  const Function& f = function(call, func);
  require_not_null(args, "argsData");
  check_args_size(f, size);
  const MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.find(args);
  require(a != nullptr && a->kind != MemKind::kHostPinned &&
              a->contains(reinterpret_cast<std::uintptr_t>(args), size),
          ACL_ERROR_RT_PARAM_INVALID, "argsData + argsSize is not inside device memory");
  const kernel::KernelEntry* entry = f.entry;
  spec.body = [entry, &memory, args, size, serial = a->serial, name = f.name] {
    if (!memory.alive(serial)) {
      throw kernel::KernelError(("the argument block of kernel " + name + " was freed").c_str());
    }
    entry->invoke(args, size);
  };
  spec.origin.args = const_cast<void*>(args);
  spec.origin.args_size = static_cast<std::uint32_t>(size);
  submit_kernel(call, stream, std::move(spec));
}

void launch_with_args_array(Call& call, void* func, std::uint32_t block_dim, void* stream,
                            const LaunchOptions& options, void** args) {
  if (objects(call).functions.find(func) == nullptr) {
    call.runtime().report_unsupported("aclrtLaunchKernelWithArgsArray(kernel symbol)");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "func must be an aclrtFuncHandle; launching by kernel symbol is not supported");
  }
  require(!function(call, func).aicpu(), ACL_ERROR_RT_PARAM_INVALID,
          "an AI CPU kernel has no parameter list: launch it with an argument list "
          "(aclrtKernelArgs*) or one argument block (aclrtLaunchKernelWithHostArgs)");
  KernelSpec spec = spec_for(call, func, block_dim, options);
  const Function& f = function(call, func);
  const kernel::KernelEntry& e = *f.entry;
  require(e.num_params == 0 || args != nullptr, ACL_ERROR_INVALID_PARAM, "args is NULL");
  std::vector<std::uint8_t> image(align8(e.args_size), 0);
  for (std::uint32_t i = 0; i < e.num_params; ++i) {
    require_not_null(args[i], "args[i]");
    std::memcpy(image.data() + e.params[i].offset, args[i], e.params[i].size);
  }
  launch_image(call, std::move(spec), f, image.data(), image.size(), {}, stream);
}

}  // namespace npusim::rt
