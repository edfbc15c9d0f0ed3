// SPDX-License-Identifier: Apache-2.0
// Built-in tasks: aclrtReduceAsync (an element-wise reduction done by the SDMA copy engine) and
// aclrtRandomNumAsync (random numbers from the DSA unit). Validation follows CANN's runtime and
// its documented error codes; the functional work is runtime/core/builtin_tasks.h, run when the
// simulated engine finishes the task (models/sdma_engine.h, models/dsa_engine.h state the timing).
//
// Error codes:
//  - ACL_ERROR_INVALID_PARAM (100000): NULL dst/src/taskInfo, a reserve pointer for
//    aclrtReduceAsync, a data type the API does not know for that task;
//  - ACL_ERROR_RT_PARAM_INVALID (107000): count 0 or above 4 GiB (SUM) or not a multiple of the
//    element size (npusim's rule: the engine works on whole elements), a kind outside
//    aclrtReduceKind, memory that is not device memory of the stream's device or runs past its
//    allocation, src and dst partly overlapping (identical ranges are fine: dst = dst op dst),
//    a reserve pointer for aclrtRandomNumAsync, a bad funcType, a type the function does not take,
//    a parameter with isAddr not 0/1 or a size of 0 or more than its width, NULL counter/result;
//  - ACL_ERROR_RT_ADDR_UNALIGNED (107008): dst/src not aligned to 2-/4-byte elements;
//  - ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): a kind or type the chip's SDMA does not reduce
//    (npusim/chip_arch.h), EQUAL (documented as not supported yet), random numbers on a chip
//    without the DSA.
// Immediate random parameters take `size` bytes of valueOrAddr (the rest reads as 0), as CANN
// copies them; reserved bytes are not checked (CANN's own sample leaves them uninitialised).
// Parameters given by address are read when the task runs; the number of values, when given by
// address, is read at submission for the task's timing and again when it runs for the result.
#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/builtin_tasks.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"

namespace npusim::rt {
namespace {

using builtin::ElemType;

constexpr std::uint64_t kMaxReduceSumBytes = 4ULL << 30;  // CANN: SUM count in (0, 4 GiB]
// More numbers than this cannot fit any allocation (and count * 8 bytes must not wrap).
constexpr std::uint64_t kMaxRandomNumbers = 1ULL << 56;

// The element type of an ACL data type the builtin tasks know (INT4 has no whole bytes: not one).
bool acl_elem_type(int type, ElemType& out) {
  switch (type) {
    case ACL_FLOAT: out = ElemType::kFp32; return true;
    case ACL_FLOAT16: out = ElemType::kFp16; return true;
    case ACL_BF16: out = ElemType::kBf16; return true;
    case ACL_INT8: out = ElemType::kInt8; return true;
    case ACL_INT16: out = ElemType::kInt16; return true;
    case ACL_INT32: out = ElemType::kInt32; return true;
    case ACL_INT64: out = ElemType::kInt64; return true;
    case ACL_UINT8: out = ElemType::kUint8; return true;
    case ACL_UINT16: out = ElemType::kUint16; return true;
    case ACL_UINT32: out = ElemType::kUint32; return true;
    case ACL_UINT64: out = ElemType::kUint64; return true;
    default: return false;
  }
}

// aclrtReduceAsync's data types (the ones CANN's ACL layer maps: no 64-bit integers; INT4).
bool reduce_type(int type, ElemType& out, bool& int4) {
  int4 = type == ACL_INT4;
  if (int4) return true;
  return type != ACL_INT64 && type != ACL_UINT64 && acl_elem_type(type, out);
}

// aclrtRandomNumAsync's data types (no 8- or 16-bit integers).
bool random_type(int type, ElemType& out) {
  return type != ACL_INT8 && type != ACL_INT16 && type != ACL_UINT8 && type != ACL_UINT16 &&
         acl_elem_type(type, out);
}

// Whether the comma list `list` names `name`.
bool listed(const char* list, const char* name) {
  const std::string s = std::string(",") + list + ",";
  return s.find(std::string(",") + name + ",") != std::string::npos;
}

// A live device allocation of `device` holding [p, p + bytes); its serial.
std::uint64_t device_range(Call& call, const void* p, std::uint64_t bytes, std::uint32_t device,
                           const std::string& name) {
  const Allocation* a = call.runtime().memory().find(p);
  require(a != nullptr && (a->kind == MemKind::kDevice || a->kind == MemKind::kManaged),
          ACL_ERROR_RT_PARAM_INVALID, name + " is not inside a device allocation");
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), bytes), ACL_ERROR_RT_PARAM_INVALID,
          name + " + " + std::to_string(bytes) + " bytes runs past the end of its allocation");
  require(a->device == device, ACL_ERROR_RT_PARAM_INVALID,
          name + " is memory of device " + std::to_string(a->device) +
              " but the stream belongs to device " + std::to_string(device));
  return a->serial;
}

bool overlap(const void* a, std::uint64_t an, const void* b, std::uint64_t bn) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + bn && y < x + an;
}

const char* reduce_name(builtin::ReduceOp op) {
  switch (op) {
    case builtin::ReduceOp::kSum:
      return "REDUCE_SUM";
    case builtin::ReduceOp::kMax:
      return "REDUCE_MAX";
    case builtin::ReduceOp::kMin:
      return "REDUCE_MIN";
    case builtin::ReduceOp::kProd:  // not an aclrtReduceKind: only HCCL multiplies
      return "REDUCE_PROD";
  }
  return "REDUCE";
}

// The reduction `kind` of `count` bytes, as the chip's SDMA takes it.
void require_reduce_kind(const arch::Generation& gen, int kind, std::uint64_t count) {
  require(count != 0, ACL_ERROR_RT_PARAM_INVALID, "count must be > 0");
  require(kind >= ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && kind <= ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
          ACL_ERROR_RT_PARAM_INVALID,
          "kind " + std::to_string(kind) + " is not an aclrtReduceKind (10..13)");
  require(kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || count <= kMaxReduceSumBytes,
          ACL_ERROR_RT_PARAM_INVALID, "count of a SUM reduction must be at most 4 GiB");
  require(kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not supported");
  require(kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || gen.reduce_min_max,
          ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          std::string("the SDMA of ") + gen.family + " reduces with SUM only");
}

// The elements: a type the chip's SDMA reduces, aligned, a whole number of them in `count`.
void require_reduce_elements(const arch::Generation& gen, ElemType elem, bool int4,
                             const void* dst, const void* src, std::uint64_t count) {
  const char* tname = int4 ? "int4" : builtin::type_name(elem);
  require(!int4 && listed(gen.reduce_types, tname), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          std::string("the SDMA of ") + gen.family + " does not reduce " + tname + " (it takes " +
              gen.reduce_types + ")");
  const std::size_t width = builtin::element_size(elem);
  if (width == 2 || width == 4) {
    require(reinterpret_cast<std::uintptr_t>(dst) % width == 0 &&
                reinterpret_cast<std::uintptr_t>(src) % width == 0,
            ACL_ERROR_RT_ADDR_UNALIGNED,
            "dst and src must be aligned to the " + std::to_string(width) + "-byte " + tname +
                " elements");
  }
  require(count % width == 0, ACL_ERROR_RT_PARAM_INVALID,
          "count (" + std::to_string(count) + " bytes) is not a whole number of " + tname +
              " elements");
}

// The SDMA reduction task: dst = dst (op) src, unless either was freed before it ran.
Task reduce_task(const MemoryRegistry* memory, builtin::ReduceOp op, ElemType elem, void* dst,
                 std::uint64_t dst_serial, const void* src, std::uint64_t src_serial,
                 std::uint64_t count) {
  Task task;
  task.kind = TaskKind::kReduce;
  task.direction = Direction::kD2D;
  task.name = reduce_name(op);
  task.bytes = count;
  const std::size_t elements = count / builtin::element_size(elem);
  task.effect = [memory, dst_serial, src_serial, op, elem, dst, src, elements]() -> int {
    if (!memory->alive(dst_serial) || !memory->alive(src_serial)) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // freed before the task ran
    }
    builtin::reduce(op, elem, dst, src, elements);
    return 0;
  };
  return task;
}

void reduce_async(Call& call, void* dst, const void* src, std::uint64_t count, int kind, int type,
                  void* stream, void* reserve) {
  require_not_null(dst, "dst");
  require_not_null(src, "src");
  require(reserve == nullptr, ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  ElemType elem = ElemType::kFp32;
  bool int4 = false;
  require(reduce_type(type, elem, int4), ACL_ERROR_INVALID_PARAM,
          "type " + std::to_string(type) + " is not a data type aclrtReduceAsync takes");
  Stream& s = call.stream(stream);
  const arch::Generation& gen = call.config().generation();
  require_reduce_kind(gen, kind, count);
  require_reduce_elements(gen, elem, int4, dst, src, count);
  const std::uint64_t dst_serial = device_range(call, dst, count, s.device, "dst");
  const std::uint64_t src_serial = device_range(call, src, count, s.device, "src");
  require(dst == src || !overlap(dst, count, src, count), ACL_ERROR_RT_PARAM_INVALID,
          "src and dst overlap (only identical ranges may alias)");
  const auto op = static_cast<builtin::ReduceOp>(kind - ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM);
  submit_to_stream(call, s, reduce_task(&call.runtime().memory(), op, elem, dst, dst_serial, src,
                                        src_serial, count));
}

// ---- Random numbers ----

// One aclrtRandomParaInfo: an immediate (its first `size` bytes) or a device address.
struct Param {
  bool by_address = false;
  std::uint64_t raw = 0;   // the value, or the address
  std::uint8_t width = 0;  // bytes the value has (read from the address)
  std::uint64_t serial = 0;

  void* address() const { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(raw)); }
  /// The value now (immediate, or read from device memory); false if that memory was freed.
  bool read(const MemoryRegistry& memory, std::uint64_t& out) const {
    if (!by_address) {
      out = raw;
      return true;
    }
    if (!memory.alive(serial)) return false;
    out = 0;
    std::memcpy(&out, address(), width);
    return true;
  }
};

Param random_param(Call& call, const aclrtRandomParaInfo& info, std::uint8_t width,
                   std::uint32_t device, const char* name) {
  require(info.isAddr == 0 || info.isAddr == 1, ACL_ERROR_RT_PARAM_INVALID,
          std::string(name) + ".isAddr must be 0 (value) or 1 (device address)");
  const std::uint8_t most = info.isAddr == 1 ? 8 : width;
  require(info.size >= 1 && info.size <= most, ACL_ERROR_RT_PARAM_INVALID,
          std::string(name) + ".size is " + std::to_string(info.size) + ", must be in [1, " +
              std::to_string(most) + "]");
  Param p;
  p.by_address = info.isAddr == 1;
  p.width = width;
  std::memcpy(&p.raw, info.valueOrAddr, info.size);
  if (p.by_address) {
    require(p.raw != 0, ACL_ERROR_RT_PARAM_INVALID, std::string(name) + " address is NULL");
    p.serial = device_range(call, p.address(), width, device, name);
  }
  return p;
}

// The checks of aclrtRandomNumAsync's arguments that need no device memory, in the order CANN
// reports them; returns the stream and sets the element type and the function.
Stream& random_checked(Call& call, const aclrtRandomNumTaskInfo* info, void* stream,
                       void* reserve, ElemType& elem, int& func) {
  require_not_null(info, "taskInfo");
  const int type = as_int(info->dataType);
  require(random_type(type, elem), ACL_ERROR_INVALID_PARAM,
          "taskInfo->dataType " + std::to_string(type) +
              " is not a data type aclrtRandomNumAsync takes");
  require(reserve == nullptr, ACL_ERROR_RT_PARAM_INVALID, "reserve must be NULL");
  Stream& s = call.stream(stream);
  const arch::Generation& gen = call.config().generation();
  require(gen.random_numbers, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          std::string(gen.family) + " has no random-number unit (DSA)");
  func = as_int(info->randomNumFuncParaInfo.funcType);
  require(func >= ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK &&
              func <= ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
          ACL_ERROR_RT_PARAM_INVALID,
          "funcType " + std::to_string(func) + " is not an aclrtRandomNumFuncType (0..3)");
  require(func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS || builtin::is_float(elem),
          ACL_ERROR_RT_PARAM_INVALID,
          std::string("dataType ") + builtin::type_name(elem) +
              " is not taken by this funcType (bf16, fp16, fp32)");
  require(info->randomCounterAddr != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "randomCounterAddr is NULL");
  require(info->randomResultAddr != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "randomResultAddr is NULL");
  return s;
}

// The function's one or two parameters (dropout ratio; min and max; mean and stddev).
void random_func_params(Call& call, const aclrtRandomNumTaskInfo& info, int func,
                        std::uint8_t width, std::uint32_t dev, Param& first, Param& second) {
  const auto& params = info.randomNumFuncParaInfo.paramInfo;
  if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    first =
        random_param(call, params.dropoutBitmaskInfo.dropoutRation, width, dev, "dropoutRation");
  } else if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
    first = random_param(call, params.uniformDisInfo.min, width, dev, "min");
    second = random_param(call, params.uniformDisInfo.max, width, dev, "max");
  } else {
    first = random_param(call, params.normalDisInfo.mean, width, dev, "mean");
    second = random_param(call, params.normalDisInfo.stddev, width, dev, "stddev");
  }
}

const char* random_task_name(int func) {
  return func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? "RANDOM_DROPOUT_BITMASK"
         : func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS   ? "RANDOM_UNIFORM"
         : func == ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS    ? "RANDOM_NORMAL"
                                                             : "RANDOM_TRUNCATED_NORMAL";
}

// The effect of a random-number task: parameters read when it runs (they may be device
// addresses), numbers generated into the result, the 16-byte counter advanced.
struct RandomEffect {
  const MemoryRegistry* mem;
  builtin::RandomFunc rfunc;
  ElemType elem;
  Param seed, num, first, second;
  void* counter;
  std::uint64_t counter_serial;
  void* result;
  std::uint64_t result_serial;

  int operator()() const {
    builtin::RandomSpec spec;
    spec.func = rfunc;
    spec.type = elem;
    if (!seed.read(*mem, spec.seed) || !num.read(*mem, spec.count) ||
        !first.read(*mem, spec.first) || !second.read(*mem, spec.second) ||
        !mem->alive(counter_serial) || !mem->alive(result_serial)) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // freed before the task ran
    }
    if (spec.count > kMaxRandomNumbers) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    const std::uint64_t bytes = builtin::random_output_bytes(spec.func, spec.type, spec.count);
    const Allocation* a = mem->find(result);
    if (a == nullptr || !a->contains(reinterpret_cast<std::uintptr_t>(result), bytes) ||
        overlap(result, bytes, counter, 16)) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // a count read from memory outgrew the buffer
    }
    unsigned char state[16];
    std::memcpy(state, counter, sizeof state);
    builtin::generate(spec, state, result);
    std::memcpy(counter, state, sizeof state);
    return 0;
  }
};

// The result buffer of `count` numbers: device memory apart from the counter. Returns its
// allocation's serial.
std::uint64_t random_result_range(Call& call, void* result, std::uint64_t out_bytes,
                                  const void* counter, std::uint32_t dev) {
  const std::uint64_t serial =
      device_range(call, result, std::max<std::uint64_t>(out_bytes, 1), dev, "randomResultAddr");
  require(!overlap(result, out_bytes, counter, 16), ACL_ERROR_RT_PARAM_INVALID,
          "randomResultAddr overlaps the 16-byte counter");
  return serial;
}

// CANN copies the two parameters' valueOrAddr words to randomParaAddr when the task is submitted.
void copy_para_words(Call& call, void* para, const Param& first, const Param& second,
                     std::uint32_t dev) {
  if (para == nullptr) return;
  device_range(call, para, 16, dev, "randomParaAddr");
  std::uint64_t words[2] = {first.raw, second.raw};
  std::memcpy(para, words, sizeof words);
}

// The count of numbers now (for the timing; an address is read again when the task runs).
std::uint64_t random_count_now(const MemoryRegistry& memory, const Param& num) {
  std::uint64_t count = 0;
  num.read(memory, count);
  require(count <= kMaxRandomNumbers, ACL_ERROR_RT_PARAM_INVALID,
          "randomNum " + std::to_string(count) + " is larger than any device buffer can hold");
  return count;
}

void random_num_async(Call& call, const aclrtRandomNumTaskInfo* info, void* stream, void* reserve) {
  ElemType elem = ElemType::kFp32;
  int func = 0;
  Stream& s = random_checked(call, info, stream, reserve, elem, func);
  const std::uint32_t dev = s.device;
  RandomEffect e{&call.runtime().memory(), static_cast<builtin::RandomFunc>(func), elem, {}, {},
                 {}, {}, info->randomCounterAddr, 0, info->randomResultAddr, 0};
  e.seed = random_param(call, info->randomSeed, 8, dev, "randomSeed");
  e.num = random_param(call, info->randomNum, 8, dev, "randomNum");
  const auto width = static_cast<std::uint8_t>(builtin::element_size(elem));
  random_func_params(call, *info, func, width, dev, e.first, e.second);
  e.counter_serial = device_range(call, e.counter, 16, dev, "randomCounterAddr");
  const std::uint64_t count = random_count_now(*e.mem, e.num);
  const std::uint64_t out_bytes = builtin::random_output_bytes(e.rfunc, elem, count);
  e.result_serial = random_result_range(call, e.result, out_bytes, e.counter, dev);
  copy_para_words(call, info->randomParaAddr, e.first, e.second, dev);
  Task task;
  task.kind = TaskKind::kRandom;
  task.direction = Direction::kD2D;
  task.name = random_task_name(func);
  task.bytes = out_bytes;
  task.elements = count;
  task.effect = e;
  submit_to_stream(call, s, std::move(task));
}

}  // namespace
}  // namespace npusim::rt

using npusim::rt::api;
using npusim::rt::as_int;
using npusim::rt::Call;

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                          aclDataType type, aclrtStream stream, void* reserve) {
  return api("aclrtReduceAsync", [&](Call& c) {
    npusim::rt::reduce_async(c, dst, src, count, as_int(kind), as_int(type), stream, reserve);
  });
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                             void* reserve) {
  return api("aclrtRandomNumAsync",
             [&](Call& c) { npusim::rt::random_num_async(c, taskInfo, stream, reserve); });
}

}  // extern "C"
