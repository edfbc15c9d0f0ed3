// SPDX-License-Identifier: Apache-2.0
// Tensor dumps of the Ascend C twin: AscendC::DumpTensor (LocalTensor / GlobalTensor) and CANN 9's
// asc_dump family (utils/debug/asc_dump.h: asc_dump_gm, asc_dump_ubuf, asc_dump_l1buf,
// asc_dump_cbuf and the overloaded asc_dump).
//
// Output: like printf, into the block's printf text (flushed to the host's stdout in block order
// when the task retires; "[AIC Block <i>/<n>] " before every line in npusim-asc builds):
//   DumpTensor: desc=<desc>, addr=0x<address>, data_type=<float16|float32|int32...>,
//   position=<UB|L1|L0C|GM>, dump_size=<n>
//   [<v0>, <v1>, ...]                      (floats as %f, integers in decimal)
// A dump of more than 30 KB prints nothing (CANN's per-call limit) and warns on stderr. Only UB,
// L1, L0C and GM can be dumped (L0A/L0B/bias/fixpipe buffers: a kernel error, as on the A2/A3
// parts). -DASCENDC_DUMP=0 turns every call into nothing, as CANN documents.
//
// Timing: the hardware brackets a dump with full pipe barriers and moves the data (padded to 32
// bytes) into the dump workspace in GM: UB and L1 by MTE3, L0C by FIXPIPE; a GM source is
// charged as an MTE3 copy of the same size. The twin records exactly that (dump.cpp).
#pragma once

#include <cstdint>

#include "npusim/ascendc/tensor.h"

namespace npusim::ascendc {

/// One dump: `count` elements of `dtype` at `data`; `addr` is what the output shows (the local
/// byte offset or the GM address). block_lines: prefix every line with "[<core> Block i/n] ".
struct DumpRequest {
  const void* data = nullptr;
  Mem mem = Mem::kNone;
  DType dtype = DType::kUnknown;
  std::uint64_t addr = 0;
  std::uint32_t desc = 0;
  std::uint32_t count = 0;
  bool block_lines = false;
};

/// Formats the dump into the block's printf text (stdout outside a launch) and records its
/// instructions; KernelError (naming `op`) for a memory that cannot be dumped or a range outside
/// the memory.
NPUSIM_KERNEL_API void dump_tensor(const DumpRequest& r, const char* op);

/// The text dump_tensor prints (tests; "" when the dump is over the size limit).
NPUSIM_KERNEL_API void format_dump(std::vector<char>& out, const DumpRequest& r);

/// Resolves a local-memory pointer as a kernel holds it (the byte offset GetPhyAddr returns, cast
/// to a pointer) to the twin's buffer; KernelError when `bytes` from there leave the memory.
NPUSIM_KERNEL_API const void* local_dump_data(const void* p, Mem mem, std::uint64_t bytes,
                                              const char* op);

#if defined(NPUSIM_ASC)
constexpr bool kDumpBlockLines = true;
#else
constexpr bool kDumpBlockLines = false;
#endif
#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP + 0) == 0
constexpr bool kDumpEnabled = false;
#else
constexpr bool kDumpEnabled = true;
#endif

template <class T>
inline DumpRequest dump_request(const void* data, Mem mem, std::uint64_t addr, std::uint32_t desc,
                                std::uint32_t count) {
  DumpRequest r;
  r.data = data;
  r.mem = mem;
  r.dtype = dtype_of<T>();
  r.addr = addr;
  r.desc = desc;
  r.count = count;
  r.block_lines = kDumpBlockLines;
  return r;
}

template <class T>
inline void dump_local(const void* p, Mem mem, std::uint32_t desc, std::uint32_t count,
                       const char* op) {
  if constexpr (kDumpEnabled) {
    const void* data = local_dump_data(p, mem, std::uint64_t{count} * sizeof(T), op);
    dump_tensor(dump_request<T>(data, mem, reinterpret_cast<std::uintptr_t>(p), desc, count), op);
  }
}

template <class T>
inline void dump_gm(const T* p, std::uint32_t desc, std::uint32_t count, const char* op) {
  if constexpr (kDumpEnabled) {
    dump_tensor(dump_request<T>(p, Mem::kGm, reinterpret_cast<std::uintptr_t>(p), desc, count), op);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

/// Prints `dumpSize` elements of a local tensor (UB, L1 or L0C) with the tag `desc`.
template <class T>
inline void DumpTensor(const LocalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize) {
  npusim::ascendc::dump_local<T>(reinterpret_cast<const void*>(tensor.GetPhyAddr()),
                                 tensor.mem(), desc, dumpSize, "DumpTensor");
}

/// Prints `dumpSize` elements of a global tensor with the tag `desc`.
template <class T>
inline void DumpTensor(const GlobalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize) {
  npusim::ascendc::dump_gm<T>(tensor.GetPhyAddr(), desc, dumpSize, "DumpTensor");
}

}  // namespace AscendC
