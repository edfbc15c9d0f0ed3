// SPDX-License-Identifier: Apache-2.0
// DumpTensor / asc_dump (npusim/ascendc/dump_ops.h): the printed text and the recorded
// instructions.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "npusim/ascendc/device.h"
#include "npusim/ascendc/dump_ops.h"

namespace npusim::ascendc {

namespace {

// CANN's limit on what one dump call may print.
constexpr std::uint64_t kDumpLimitBytes = 30 * 1024;

const char* dump_type_name(DType t) {
  static const char* const kNames[] = {"unknown", "bool",   "int8",    "uint8",   "int16",
                                       "uint16",  "int32",  "uint32",  "int64",   "uint64",
                                       "float16", "bfloat16", "float32", "float64"};
  return kNames[static_cast<int>(t)];
}

const char* dump_position_name(Mem m) {
  switch (m) {
    case Mem::kUb: return "UB";
    case Mem::kL1: return "L1";
    case Mem::kL0c: return "L0C";
    case Mem::kGm: return "GM";
    default: return nullptr;  // not a memory a dump can read
  }
}

template <class T>
T load(const void* data, std::uint32_t i) {
  T v;
  std::memcpy(&v, static_cast<const std::uint8_t*>(data) + std::size_t{i} * sizeof(T), sizeof v);
  return v;
}

// Element i as the dump prints it: floats with %f, integers in decimal.
int format_value(char* buf, std::size_t size, const DumpRequest& r, std::uint32_t i) {
  switch (r.dtype) {
    case DType::kBool: return std::snprintf(buf, size, "%d", load<std::uint8_t>(r.data, i) != 0);
    case DType::kInt8: return std::snprintf(buf, size, "%d", load<std::int8_t>(r.data, i));
    case DType::kUInt8: return std::snprintf(buf, size, "%u", load<std::uint8_t>(r.data, i));
    case DType::kInt16: return std::snprintf(buf, size, "%d", load<std::int16_t>(r.data, i));
    case DType::kUInt16: return std::snprintf(buf, size, "%u", load<std::uint16_t>(r.data, i));
    case DType::kInt32: return std::snprintf(buf, size, "%" PRId32, load<std::int32_t>(r.data, i));
    case DType::kUInt32:
      return std::snprintf(buf, size, "%" PRIu32, load<std::uint32_t>(r.data, i));
    case DType::kInt64: return std::snprintf(buf, size, "%" PRId64, load<std::int64_t>(r.data, i));
    case DType::kUInt64:
      return std::snprintf(buf, size, "%" PRIu64, load<std::uint64_t>(r.data, i));
    case DType::kFp16:
      return std::snprintf(buf, size, "%f", static_cast<double>(load<Half>(r.data, i)));
    case DType::kBf16:
      return std::snprintf(buf, size, "%f", static_cast<double>(load<BFloat16>(r.data, i)));
    case DType::kFp32: return std::snprintf(buf, size, "%f", load<float>(r.data, i));
    default: return std::snprintf(buf, size, "%f", load<double>(r.data, i));
  }
}

void append_text(std::vector<char>& out, const char* s, int n) {
  if (n > 0) out.insert(out.end(), s, s + n);
}

std::uint64_t dump_bytes(const DumpRequest& r) {
  return std::uint64_t{r.count} * dtype_size(r.dtype);
}

// One copy of the (32-byte padded) data into the dump workspace, between full barriers.
void record_dump(BlockContext& ctx, const DumpRequest& r) {
  Instr ins;
  ins.pipe = r.mem == Mem::kL0c ? Pipe::kFixpipe : Pipe::kMte3;
  ins.op = r.mem == Mem::kL0c ? Op::kFixpipe : Op::kCopy;
  ins.dtype = r.dtype;
  ins.dtype2 = r.mem == Mem::kL0c ? r.dtype : DType::kUnknown;
  ins.src = r.mem;
  ins.dst = Mem::kGm;
  ins.bytes = (dump_bytes(r) + 31) / 32 * 32;
  ins.count = 1;
  ctx.barrier_all();
  ctx.emit(ins, {});
  ctx.barrier_all();
}

}  // namespace

void format_dump(std::vector<char>& out, const DumpRequest& r) {
  if (dump_bytes(r) > kDumpLimitBytes) return;
  char buf[160];
  append_text(out, buf,
              std::snprintf(buf, sizeof buf,
                            "DumpTensor: desc=%" PRIu32 ", addr=0x%" PRIx64
                            ", data_type=%s, position=%s, dump_size=%" PRIu32 "\n[",
                            r.desc, r.addr, dump_type_name(r.dtype), dump_position_name(r.mem),
                            r.count));
  for (std::uint32_t i = 0; i < r.count; ++i) {
    if (i != 0) out.insert(out.end(), {',', ' '});
    append_text(out, buf, format_value(buf, sizeof buf, r, i));
  }
  out.insert(out.end(), {']', '\n'});
}

const void* local_dump_data(const void* p, Mem mem, std::uint64_t bytes, const char* op) {
  BlockContext& ctx = block();
  if (dump_position_name(mem) == nullptr) {
    fail(op, "a tensor in %s cannot be dumped (UB, L1, L0C and GM can)", mem_name(mem));
  }
  const auto offset = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  if (offset + bytes > ctx.capacity(mem)) {
    fail(op, "%llu bytes at %s address %llu end beyond its %u bytes",
         static_cast<unsigned long long>(bytes), mem_name(mem),
         static_cast<unsigned long long>(offset), ctx.capacity(mem));
  }
  return ctx.base(mem) + offset;
}

void dump_tensor(const DumpRequest& r, const char* op) {
  BlockContext* ctx = current_block();
  if (r.mem == Mem::kGm && ctx != nullptr) check_gm(*ctx, r.data, dump_bytes(r), false, op);
  if (dump_bytes(r) > kDumpLimitBytes) {
    std::fprintf(stderr, "[WARNING] %s: desc=%" PRIu32 ": %" PRIu64 " bytes exceed the %" PRIu64
                 " bytes one dump may print; nothing printed\n", op, r.desc, dump_bytes(r),
                 kDumpLimitBytes);
  }
  std::vector<char> text;
  format_dump(text, r);
  if (ctx == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  if (r.block_lines) {
    append_block_lines(*ctx, text);
  } else {
    ctx->printf_out.insert(ctx->printf_out.end(), text.begin(), text.end());
  }
  record_dump(*ctx, r);
}

}  // namespace npusim::ascendc
