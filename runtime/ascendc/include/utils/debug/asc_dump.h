// SPDX-License-Identifier: Apache-2.0
// npusim's utils/debug/asc_dump.h: CANN 9's asc_dump family (npusim/ascendc/dump_ops.h prints
// and records them). asc_dump_gm / asc_dump_ubuf / asc_dump_l1buf / asc_dump_cbuf take the
// address as the kernel holds it (a GM pointer, or a local tensor's GetPhyAddr() cast to a
// pointer), a uint32_t tag and the number of elements to print.
//
// The overloaded asc_dump(T*, ...) tells GM, UB, L1 and L0C apart by the pointer's address
// space; on the twin the address-space keywords are empty, so it cannot, and using it is a
// compile error naming the explicit forms.
#pragma once

#include <cstdint>

#include "npusim/ascendc/dump_ops.h"

template <class T>
inline void asc_dump_gm(__gm__ T* input, std::uint32_t desc, std::uint32_t dump_size) {
  npusim::ascendc::dump_gm<T>(input, desc, dump_size, "asc_dump_gm");
}

template <class T>
inline void asc_dump_ubuf(__ubuf__ T* input, std::uint32_t desc, std::uint32_t dump_size) {
  npusim::ascendc::dump_local<T>(input, npusim::ascendc::Mem::kUb, desc, dump_size,
                                 "asc_dump_ubuf");
}

template <class T>
inline void asc_dump_l1buf(__cbuf__ T* input, std::uint32_t desc, std::uint32_t dump_size) {
  npusim::ascendc::dump_local<T>(input, npusim::ascendc::Mem::kL1, desc, dump_size,
                                 "asc_dump_l1buf");
}

template <class T>
inline void asc_dump_cbuf(__cc__ T* input, std::uint32_t desc, std::uint32_t dump_size) {
  npusim::ascendc::dump_local<T>(input, npusim::ascendc::Mem::kL0c, desc, dump_size,
                                 "asc_dump_cbuf");
}

template <class T, class P>
inline void asc_dump(P* /*input*/, std::uint32_t /*desc*/, std::uint32_t /*dump_size*/) {
  static_assert(sizeof(P) == 0,
                "asc_dump: the npusim twin has no address spaces to choose the memory by; call "
                "asc_dump_gm, asc_dump_ubuf, asc_dump_l1buf or asc_dump_cbuf");
}
