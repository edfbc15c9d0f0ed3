// SPDX-License-Identifier: Apache-2.0
// The binary launch path's launches (kernel_binary.h, "Launches"): aclrtLaunchKernelWithConfig,
// aclrtLaunchKernelWithHostArgs, ...; each builds a KernelSpec (AI Core) or an AiCpuSpec
// (AI CPU) from a function and its arguments and submits it.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/kernel_binary.h"
#include "runtime/core/kernel_launch.h"
#include "runtime/core/runtime.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr std::size_t kPointerSize = 8;

std::size_t align8(std::size_t v) { return (v + 7) / 8 * 8; }

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
  const ascendc::KernelEntry* entry = f.entry;
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

// The AI Core launch of `func` with the `size`-byte argument block `args` (named `what`), its
// block checked against the kernel's parameters.
KernelSpec spec_with_args(Call& call, void* func, std::uint32_t block_dim,
                          const LaunchOptions& options, const void* args, std::size_t size,
                          const char* what) {
  KernelSpec spec = spec_for(call, func, block_dim, options);
  require_not_null(args, what);
  check_args_size(function(call, func), size);
  return spec;
}

}  // namespace

namespace {

void set_schem_mode(std::uint8_t mode, LaunchOptions& o) {
  require(mode <= 1, ACL_ERROR_INVALID_PARAM, "schemMode must be 0 or 1");
  o.batch_mode = mode == 1;
}

void set_engine(aclrtEngineType engine, LaunchOptions& o) {
  require(engine == ACL_RT_ENGINE_TYPE_AIC || engine == ACL_RT_ENGINE_TYPE_AIV,
          ACL_ERROR_INVALID_PARAM, "engineType must be AIC or AIV");
  o.engine = engine;
}

// One attribute of aclrtLaunchKernelCfg.
void apply_launch_attr(const aclrtLaunchKernelAttr& a, LaunchOptions& o) {
  switch (a.id) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE: return set_schem_mode(a.value.schemMode, o);
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: return set_engine(a.value.engineType, o);
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: return;  // no effect on the simulated chip
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
      return sim::log_info("kernel execution timeouts are not simulated; the attribute is ignored");
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
      return require(a.value.blockDimOffset == 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "a non-zero blockDim offset is not supported");
    default: fail(ACL_ERROR_INVALID_PARAM, "unknown aclrtLaunchKernelAttrId");
  }
}

}  // namespace

LaunchOptions parse_launch_config(const void* cfg_ptr) {
  LaunchOptions o;
  if (cfg_ptr == nullptr) return o;
  const auto* cfg = static_cast<const aclrtLaunchKernelCfg*>(cfg_ptr);
  require(cfg->numAttrs == 0 || cfg->attrs != nullptr, ACL_ERROR_INVALID_PARAM,
          "cfg->attrs is NULL");
  for (std::size_t i = 0; i < cfg->numAttrs; ++i) apply_launch_attr(cfg->attrs[i], o);
  return o;
}

namespace {

// The argument list of `handle`, finalised for `func`.
ArgsList& finalized_args(Call& call, void* func, void* handle) {
  ArgsList& a = args_list(call, handle);
  require(a.function == func, ACL_ERROR_RT_PARAM_INVALID,
          "argsHandle was initialised for another kernel function");
  require(a.finalized, ACL_ERROR_RT_PARAM_INVALID,
          "the argument list is not finalised (aclrtKernelArgsFinalize)");
  return a;
}

void require_all_params(const ArgsList& a, const Function& f) {
  require(a.slots.size() == f.entry->num_params, ACL_ERROR_RT_PARAM_INVALID,
          "too few arguments: kernel " + f.name + " takes " + std::to_string(f.entry->num_params) +
              ", " + std::to_string(a.slots.size()) + " were appended");
}

// The argument image of a list: its parameters, then each placeholder's data (8-byte aligned).
// `patches` receives (where the placeholder's address sits per `layout`, where its data starts).
std::vector<std::uint8_t> args_image(
    const ArgsList& a, const ascendc::KernelParam* layout,
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& patches) {
  std::vector<std::uint8_t> image(a.params);
  image.resize(align8(image.size()), 0);
  for (std::size_t i = 0; i < a.slots.size(); ++i) {
    const ArgsList::Slot& s = a.slots[i];
    if (!s.placeholder) continue;
    require(s.has_buffer, ACL_ERROR_RT_PARAM_INVALID,
            "placeholder " + std::to_string(i) +
                " has no data (aclrtKernelArgsGetPlaceHolderBuffer)");
    patches.emplace_back(layout[i].offset, static_cast<std::uint32_t>(image.size()));
    image.insert(image.end(), s.data.begin(), s.data.end());
    image.resize(align8(image.size()), 0);
  }
  return image;
}

}  // namespace

void launch_with_args_list(Call& call, void* func, std::uint32_t block_dim, void* stream,
                           const LaunchOptions& options, void* handle) {
  if (function(call, func).aicpu()) {
    const Function& f = function(call, func);
    ArgsList& a = finalized_args(call, func, handle);
    AiCpuSpec spec = cpu_spec(f, func, block_dim);
    spec.args = args_image(a, a.cpu_layout.data(), spec.patches);
    submit_aicpu_kernel(call, stream, std::move(spec));
    return;
  }
  KernelSpec spec = spec_for(call, func, block_dim, options);
  ArgsList& a = finalized_args(call, func, handle);
  const Function& f = *a.func;
  require_all_params(a, f);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> offsets;
  std::vector<std::uint8_t> image = args_image(a, f.entry->params, offsets);
  std::vector<PlaceholderPatch> patches;
  for (const auto& [addr, data] : offsets) patches.push_back({addr, data});
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
  KernelSpec spec = spec_with_args(call, func, block_dim, options, args, size, "hostArgs");
  const Function& f = function(call, func);
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
  KernelSpec spec = spec_with_args(call, func, block_dim, options, args, size, "argsData");
  const Function& f = function(call, func);
  const MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.find(args);
  require(a != nullptr && a->kind != MemKind::kHostPinned &&
              a->contains(reinterpret_cast<std::uintptr_t>(args), size),
          ACL_ERROR_RT_PARAM_INVALID, "argsData + argsSize is not inside device memory");
  const ascendc::KernelEntry* entry = f.entry;
  spec.body = [entry, &memory, args, size, serial = a->serial, name = f.name] {
    if (!memory.alive(serial)) {
      throw ascendc::KernelError(("the argument block of kernel " + name + " was freed").c_str());
    }
    entry->invoke(args, size);
  };
  spec.origin.args = const_cast<void*>(args);
  spec.origin.args_size = static_cast<std::uint32_t>(size);
  submit_kernel(call, stream, std::move(spec));
}

void launch_with_args_array(Call& call, void* func, std::uint32_t block_dim, void* stream,
                            const LaunchOptions& options, void** args) {
  if (call.runtime().kernels().functions.find(func) == nullptr) {
    call.runtime().report_unsupported("aclrtLaunchKernelWithArgsArray(kernel symbol)");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "func must be an aclrtFuncHandle; launching by kernel symbol is not supported");
  }
  require(!function(call, func).aicpu(), ACL_ERROR_RT_PARAM_INVALID,
          "an AI CPU kernel has no parameter list: launch it with an argument list "
          "(aclrtKernelArgs*) or one argument block (aclrtLaunchKernelWithHostArgs)");
  KernelSpec spec = spec_for(call, func, block_dim, options);
  const Function& f = function(call, func);
  const ascendc::KernelEntry& e = *f.entry;
  require(e.num_params == 0 || args != nullptr, ACL_ERROR_INVALID_PARAM, "args is NULL");
  std::vector<std::uint8_t> image(align8(e.args_size), 0);
  for (std::uint32_t i = 0; i < e.num_params; ++i) {
    require_not_null(args[i], "args[i]");
    std::memcpy(image.data() + e.params[i].offset, args[i], e.params[i].size);
  }
  launch_image(call, std::move(spec), f, image.data(), image.size(), {}, stream);
}

}  // namespace npusim::rt
