// SPDX-License-Identifier: Apache-2.0
// aclrtValueWrite / aclrtValueWait: scheduler tasks that write a 64-bit word of device memory, or
// hold their stream until a comparison with a word of device memory holds.
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

// The 8-byte device word at `address`; returns its allocation's serial.
std::uint64_t device_word(Call& call, void* address) {
  require_not_null(address, "devAddr");
  require(reinterpret_cast<std::uintptr_t>(address) % 8 == 0, ACL_ERROR_RT_ADDR_UNALIGNED,
          "devAddr is not 8-byte aligned");
  const Allocation* a = call.runtime().memory().find(address);
  require(a != nullptr && a->kind == MemKind::kDevice &&
              a->contains(reinterpret_cast<std::uintptr_t>(address), 8),
          ACL_ERROR_RT_PARAM_INVALID, "devAddr is not inside a device allocation");
  return a->serial;
}

// A scheduler task on one 8-byte device word.
Task word_task(TaskKind kind, const char* name) {
  Task task;
  task.kind = kind;
  task.name = name;
  task.bytes = 8;
  return task;
}

bool compare(std::uint64_t memory, std::uint64_t value, std::uint32_t mode) {
  switch (mode) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
      return static_cast<std::int64_t>(memory - value) >= 0;
    case ACL_STREAM_WAIT_VALUE_EQ:
      return memory == value;
    case ACL_STREAM_WAIT_VALUE_AND:
      return (memory & value) != 0;
    default:
      return ~(memory | value) != 0;  // ACL_STREAM_WAIT_VALUE_NOR
  }
}

}  // namespace

void value_write(Call& call, void* address, std::uint64_t value, std::uint32_t flag, void* stream) {
  std::uint64_t serial = device_word(call, address);
  require(flag == 0, ACL_ERROR_INVALID_PARAM, "flag must be 0");
  Stream& s = call.stream(stream);
  Task task = word_task(TaskKind::kValueWrite, "WRITE_VALUE");
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, serial, address, value]() -> int {
    if (!memory->alive(serial)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    std::memcpy(address, &value, sizeof value);
    return 0;
  };
  submit_to_stream(call, s, std::move(task));
}

void value_wait(Call& call, void* address, std::uint64_t value, std::uint32_t flag, void* stream) {
  std::uint64_t serial = device_word(call, address);
  require(flag <= ACL_STREAM_WAIT_VALUE_NOR, ACL_ERROR_INVALID_PARAM,
          "flag is not an ACL_STREAM_WAIT_VALUE_* comparison");
  Stream& s = call.stream(stream);
  Task task = word_task(TaskKind::kValueWait, "WAIT_VALUE");
  const MemoryRegistry* memory = &call.runtime().memory();
  // Freed memory releases the wait (the stream must not hang on memory that no longer exists).
  task.ready = [memory, serial, address, value, flag] {
    if (!memory->alive(serial)) return true;
    std::uint64_t current;
    std::memcpy(&current, address, sizeof current);
    return compare(current, value, flag);
  };
  task.effect = [memory, serial]() -> int {
    return memory->alive(serial) ? 0 : ACL_ERROR_RT_DEVICE_MEM_ERROR;
  };
  submit_to_stream(call, s, std::move(task));
}

}  // namespace npusim::rt
