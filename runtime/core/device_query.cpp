// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/device_query.h"

#include <cctype>
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "models/aicpu_config.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::uint64_t kOverflowStatusSize = 64;

void check_type(int type) {
  require(type == ACL_RT_DEV_RES_CUBE_CORE || type == ACL_RT_DEV_RES_VECTOR_CORE,
          ACL_ERROR_INVALID_PARAM, "type is not an aclrtDevResLimitType value");
}

void set_limit(Call& call, ResLimits& limits, int type, std::uint32_t value) {
  check_type(type);
  std::uint32_t cores = hardware_cores(call, type);
  require(value >= 1 && value <= cores, ACL_ERROR_INVALID_PARAM,
          "value must be between 1 and the chip's " + std::to_string(cores) + " cores");
  limits.value[type] = value;
  limits.set[type] = true;
}

// SoC family: the name without its trailing bin digits ("Ascend910B2" → "Ascend910B").
std::string family(const std::string& soc) {
  std::size_t end = soc.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(soc[end - 1])) != 0) --end;
  return soc.substr(0, end);
}

}  // namespace

void check_device_id(Call& call, std::int64_t device) {
  std::int64_t count = call.config().soc.num_devices;
  require(device >= 0 && device < count, ACL_ERROR_RT_INVALID_DEVICEID,
          "device id " + std::to_string(device) + " is out of range [0, " + std::to_string(count) +
              ")");
}

std::int64_t device_info(Call& call, std::int64_t device, int attr) {
  check_device_id(call, device);
  const models::ChipConfig& cfg = call.config();
  switch (attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
      return cfg.unit<models::AiCpuConfig>().cores;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      return cfg.aicore.cube_cores;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      return cfg.aicore.vector_cores;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
      return static_cast<std::int64_t>(cfg.aicore.ub.value);
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      return static_cast<std::int64_t>(cfg.hbm.size.value);
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      return static_cast<std::int64_t>(cfg.l2.size.value);
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      return device;
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
      return ACL_HOST_DEVICE_CONNECT_TYPE_PCIE;
    case ACL_DEV_ATTR_IS_VIRTUAL:
      return 0;
    case ACL_DEV_ATTR_NPU_ARCH:
      return cfg.soc.npu_arch;
    default:
      break;
  }
  bool known = (attr >= ACL_DEV_ATTR_WARP_SIZE && attr <= ACL_DEV_ATTR_MAX_BLOCK_DIM_Z) ||
               (attr >= ACL_DEV_ATTR_SMP_ID && attr <= ACL_DEV_ATTR_DEVICE_FORM_FACTOR);
  require(known, ACL_ERROR_INVALID_PARAM, "attr is not an aclrtDevAttr value");
  fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "this attribute is not modelled by the simulated chip");
}

bool arch_compatible(Call& call, const char* soc) {
  require_not_null(soc, "socVersion");
  const std::string& ours = call.config().soc.name;
  return ours == soc || family(ours) == family(soc);
}

std::uint32_t hardware_cores(Call& call, int type) {
  const models::AiCoreConfig& core = call.config().aicore;
  std::int64_t n = type == ACL_RT_DEV_RES_CUBE_CORE ? core.cube_cores : core.vector_cores;
  return static_cast<std::uint32_t>(n);
}

std::uint32_t resource_limit_in_thread(Call& call, int type) {
  check_type(type);
  Stream* s = call.runtime().streams().find(call.thread().res_stream);
  if (s != nullptr && s->limits.set[type]) return s->limits.value[type];
  Device& dev = call.device(call.context().device);
  return dev.limits.set[type] ? dev.limits.value[type] : hardware_cores(call, type);
}

void set_resource_limit(Call& call, std::int64_t device, int type, std::uint32_t value) {
  set_limit(call, call.device(device).limits, type, value);
}

std::uint32_t resource_limit(Call& call, std::int64_t device, int type) {
  check_type(type);
  const ResLimits& l = call.device(device).limits;
  return l.set[type] ? l.value[type] : hardware_cores(call, type);
}

void set_stream_resource_limit(Call& call, void* stream, int type, std::uint32_t value) {
  set_limit(call, call.stream(stream).limits, type, value);
}

std::uint32_t stream_resource_limit(Call& call, void* stream, int type) {
  check_type(type);
  const Stream& s = call.stream(stream);
  if (s.limits.set[type]) return s.limits.value[type];
  const ResLimits& l = call.device(s.device).limits;
  return l.set[type] ? l.value[type] : hardware_cores(call, type);
}

void set_sat_mode(Call& call, int mode) {
  require(mode == ACL_RT_OVERFLOW_MODE_SATURATION || mode == ACL_RT_OVERFLOW_MODE_INFNAN,
          ACL_ERROR_INVALID_PARAM, "mode must be SATURATION or INFNAN");
  Device& dev = call.device(call.context().device);
  require(mode == ACL_RT_OVERFLOW_MODE_SATURATION || call.config().generation().inf_nan_mode,
          ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "this chip supports saturation mode only");
  dev.sat_mode = mode;
}

void get_overflow_status(Call& call, void* output, std::uint64_t size, void* stream) {
  require_not_null(output, "outputAddr");
  require(size >= kOverflowStatusSize, ACL_ERROR_INVALID_PARAM, "outputSize must be 64 bytes");
  const Allocation* a = call.runtime().memory().find(output);
  require(a != nullptr && a->kind == MemKind::kDevice &&
              a->contains(reinterpret_cast<std::uintptr_t>(output), kOverflowStatusSize),
          ACL_ERROR_RT_PARAM_INVALID, "outputAddr is not 64 bytes of device memory");
  Stream& s = call.stream(stream);
  Task task;
  task.kind = TaskKind::kValueWrite;
  task.name = "OVERFLOW_STATUS";
  task.bytes = kOverflowStatusSize;
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, serial = a->serial, output, flag = call.device(s.device).overflow]() {
    if (!memory->alive(serial)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    std::memset(output, 0, kOverflowStatusSize);
    std::memcpy(output, flag.get(), sizeof(std::uint32_t));
    return 0;
  };
  submit_to_stream(call, s, std::move(task));
}

void reset_overflow_status(Call& call, void* stream) {
  Stream& s = call.stream(stream);
  Task task;
  task.kind = TaskKind::kValueWrite;
  task.name = "OVERFLOW_RESET";
  task.effect = [flag = call.device(s.device).overflow]() {
    *flag = 0;
    return 0;
  };
  submit_to_stream(call, s, std::move(task));
}

std::uint32_t available(Call& call, Countable what) {
  const Device& dev = call.device(call.context().device);
  const models::SchedulerConfig& cfg = call.config().scheduler;
  const std::int64_t free = what == Countable::kStream ? cfg.max_streams - dev.live_streams
                                                       : cfg.max_events - dev.live_events;
  return static_cast<std::uint32_t>(free < 0 ? 0 : free);
}

}  // namespace npusim::rt
