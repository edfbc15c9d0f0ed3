// SPDX-License-Identifier: Apache-2.0
// The binary launch path: loaded kernel binaries, kernel functions, argument lists.
//
// A kernel binary is the host shared object ascendc_fatbin_library installs as
// `<prefix>/fatbin/<name>/<name>.o`. aclrtBinaryLoadFromFile dlopens it (RTLD_NOW | RTLD_LOCAL;
// aclrtBinaryLoadFromData writes the bytes to a temporary file first); aclrtBinaryGetFunction
// finds kernel K as the exported KernelEntry `npusim_kernel_K` (npusim/ascendc/launch.h), which
// gives the parameter layout and the function that decodes an argument block and runs one block.
// The library is closed when the binary is unloaded and no launched kernel still needs it.
//
// Argument lists (aclrtKernelArgs*): parameter i is written at KernelEntry::params[i].offset
// (each parameter aligned to its own size, pointers 8 bytes); a placeholder is a pointer
// parameter whose data (aclrtKernelArgsGetPlaceHolderBuffer) follows all parameters, 8-byte
// aligned, in the order of the placeholders. At launch the whole block (parameters + placeholder
// data) is copied to runtime-owned device memory and each placeholder slot is patched with the
// device address of its data; the block is freed when the kernel retires.
//
// Errors (as the CANN runtime reports them, docs/sources.md §4): NULL arguments → 100000; a missing
// or unloadable binary, an unknown kernel name, a bad handle, too few or too many arguments or an
// argument block shorter than the kernel's parameters → ACL_ERROR_RT_PARAM_INVALID (107000).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npusim/ascendc/launch.h"
#include "runtime/core/aicpu_kernel.h"
#include "runtime/core/handle_table.h"

namespace npusim::rt {

class Call;

struct Binary {
  void* library = nullptr;  // dlopen handle
  std::string path;
  std::map<std::string, void*> functions;  // kernel name → function handle
  /// An AI CPU binary (runtime/core/aicpu_kernel.h): its operators (from the .json; empty for mode 2,
  /// where aclrtRegisterCpuFunc names them) and the libraries they live in (kernelSo → handle).
  bool aicpu = false;
  std::map<std::string, AiCpuOpInfo> cpu_ops;
  std::map<std::string, void*> cpu_libraries;
  void (*exception_callback)(void* info, void* user_data) = nullptr;
  void* exception_user_data = nullptr;

  Binary() = default;
  Binary(const Binary&) = delete;
  Binary& operator=(const Binary&) = delete;
  ~Binary();  // dlclose
};

struct Function {
  std::shared_ptr<Binary> binary;
  void* binary_handle = nullptr;
  const ascendc::KernelEntry* entry = nullptr;  // AI Core kernels; nullptr for AI CPU ones
  std::string name;
  AiCpuEntry cpu_entry = nullptr;  // AI CPU kernels: the entry function
  bool aicpu() const { return cpu_entry != nullptr; }
};

struct ArgsList {
  struct Slot {
    bool placeholder = false;
    bool has_buffer = false;
    std::vector<std::uint8_t> data;  // placeholder data (the host buffer handed out)
    void* handle = nullptr;          // aclrtParamHandle
  };
  void* function = nullptr;  // aclrtFuncHandle
  std::shared_ptr<Function> func;
  std::vector<std::uint8_t> params;  // KernelEntry::args_size bytes
  std::vector<Slot> slots;           // appended parameters, in order
  bool finalized = false;
  /// AI CPU functions: the layout the appended parameters built (an AI Core function's layout is
  /// its KernelEntry::params).
  std::vector<ascendc::KernelParam> cpu_layout;
};

struct ParamRef {
  void* args = nullptr;  // aclrtArgsHandle
  std::uint32_t index = 0;
};

/// Every kernel object of the process (aclFinalize clears them).
struct KernelObjects {
  HandleTable<Binary> binaries{0x7};
  HandleTable<Function> functions{0x8};
  HandleTable<ArgsList> args{0x9};
  HandleTable<ParamRef> params{0xA};
  void clear();
};

/// Options of an aclrtLaunchKernelCfg that npusim models.
struct LaunchOptions {
  bool batch_mode = false;  // SCHEM_MODE 1
  int engine = -1;          // ENGINE_TYPE, -1 = not given
};

// ---- Binaries and functions ----
/// `options` is an aclrtBinaryLoadOptions* (may be NULL).
void* load_binary_file(Call& call, const char* path, const void* options);
void* load_binary_data(Call& call, const void* data, std::size_t length, const void* options);
void unload_binary(Call& call, void* binary);
void* get_function(Call& call, void* binary, const char* name);
/// aclrtRegisterCpuFunc: the AI CPU function `func_name` of a mode-2 binary, as op `kernel_name`.
void* register_cpu_function(Call& call, void* binary, const char* func_name,
                            const char* kernel_name);
Function& function(Call& call, const void* handle);
void set_binary_exception_callback(Call& call, void* binary, void (*callback)(void*, void*),
                                   void* user_data);

// ---- Argument lists ----
void* args_init(Call& call, void* function);
void* args_append(Call& call, void* args, const void* param, std::size_t size);
void* args_append_placeholder(Call& call, void* args);
void* args_placeholder_buffer(Call& call, void* args, void* param, std::size_t size);
void args_update(Call& call, void* args, void* param, const void* value, std::size_t size);
void args_finalize(Call& call, void* args);
/// The live argument list `handle` (ACL_ERROR_RT_PARAM_INVALID otherwise).
ArgsList& args_list(Call& call, const void* handle);

// ---- Launches (cfg is an aclrtLaunchKernelCfg*, may be NULL) ----
LaunchOptions parse_launch_config(const void* cfg);
void launch_with_args_list(Call& call, void* function, std::uint32_t block_dim, void* stream,
                           const LaunchOptions& options, void* args);
/// aclrtPlaceHolderInfo: the pointer slot at addr_offset receives the device address of the data
/// at data_offset of the same argument block.
struct PlaceholderPatch {
  std::uint32_t addr_offset = 0;
  std::uint32_t data_offset = 0;
};

/// One host buffer holding the parameters and the placeholder data.
void launch_with_host_args(Call& call, void* function, std::uint32_t block_dim, void* stream,
                           const LaunchOptions& options, const void* args, std::size_t size,
                           const std::vector<PlaceholderPatch>& placeholders);
/// Arguments already in device memory, read when the kernel runs.
void launch_with_device_args(Call& call, void* function, std::uint32_t block_dim, void* stream,
                             const LaunchOptions& options, const void* args, std::size_t size);
/// One host pointer per parameter.
void launch_with_args_array(Call& call, void* function, std::uint32_t block_dim, void* stream,
                            const LaunchOptions& options, void** args);

}  // namespace npusim::rt
