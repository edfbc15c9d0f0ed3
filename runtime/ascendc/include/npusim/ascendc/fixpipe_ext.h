// SPDX-License-Identifier: Apache-2.0
// More of the Ascend C twin's L0C output path (FIXPIPE pipe), on top of cube_ops.h's Fixpipe:
//  - Fixpipe L0C -> L1 (a LocalTensor destination, NZ or ND);
//  - Fixpipe with a per-channel quantisation tensor (the vector quant modes VDEQF16,
//    VQF322B8_PRE, VREQ8: column n of the output uses word n);
//  - the register form: SetFixpipeNz2ndFlag (ndNum, srcNdStride in fractals, dstNdStride in
//    elements), SetFixpipePreQuantFlag (the scalar quant word), SetFixPipeConfig (the
//    per-channel quant tensor) and DataCopy(dst, L0C, DataCopyCO12DstParams), which converts as
//    Fixpipe does with those registers: nz2ndEn picks ND (dstStride: elements per row) or NZ
//    (dstStride: 32-byte blocks between fractal columns); reluPre 0 / 1 is off / ReLU.
// Quant words: bits 0..31 the fp32 scale; for 8-bit outputs the 9-bit signed offset in bits
// 37..45 (see quant_value in cube_ops.h). The register setters record no instruction (they
// are scalar register writes); the moves record one FIXPIPE instruction each.
#pragma once

#include <cstdint>

#include "npusim/ascendc/cube_ops.h"

namespace AscendC {

struct DataCopyCO12DstParams {
  std::uint8_t sid = 0;
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint32_t dstStride = 0;
  std::uint16_t srcStride = 0;
  std::uint8_t unitFlag = 0;
  std::uint8_t clipReluPre = 0;
  std::uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// A Fixpipe destination in L1 (the only local memory Fixpipe writes on Atlas A2/A3).
template <class T>
FixpipeDst fixpipe_local_dst(const AscendC::LocalTensor<T>& dst, const char* op) {
  if (dst.mem() != Mem::kL1)
    fail(op, "destination is in %s; L0C results go to GM or L1", mem_name(dst.mem()));
  return {dst.twin_data(), Mem::kL1, dst.twin_slot(), dst.GetSize() * sizeof(T)};
}

/// `to` with the per-channel quant words of `table` (at least nSize of them).
inline FixpipeDst with_quant_table(FixpipeDst to, const std::uint64_t* table, std::uint32_t words,
                                   std::int32_t slot, std::uint32_t n_size, const char* op) {
  if (table == nullptr) fail(op, "no per-channel quantisation tensor (SetFixPipeConfig)");
  if (words < n_size)
    fail(op, "the quantisation tensor holds %u words, nSize %u needs one each", words, n_size);
  to.vq = table;
  to.vq_slot = slot;
  return to;
}

/// The Fixpipe parameters DataCopy(..., DataCopyCO12DstParams) means with the block's registers.
inline AscendC::FixpipeParamsV220 co12_params(const BlockContext::FixpipeRegs& r,
                                              const AscendC::DataCopyCO12DstParams& d) {
  if (d.reluPre > 1)
    fail("DataCopy(CO1)", "reluPre %u (leaky ReLU) is not supported by the simulator",
         static_cast<unsigned>(d.reluPre));
  if (d.channelSplit) fail("DataCopy(CO1)", "channelSplit is not supported by the simulator");
  AscendC::FixpipeParamsV220 p(d.nSize, d.mSize, d.srcStride, d.dstStride, d.reluPre == 1);
  p.quantPre = d.quantPre;
  p.deqScalar = r.quant_pre;
  p.unitFlag = d.unitFlag;
  if (d.nz2ndEn) {
    p.ndNum = r.nd_num;
    p.srcNdStride = r.src_nd_stride;
    p.dstNdStride = r.dst_nd_stride;
  }
  return p;
}

/// DataCopy from L0C: Fixpipe with the registers' ND and quantisation settings.
template <class T, class U>
void co12_copy(FixpipeDst to, const AscendC::LocalTensor<U>& src,
               const AscendC::DataCopyCO12DstParams& d) {
  const BlockContext::FixpipeRegs& r = block().fixpipe_regs;
  const AscendC::FixpipeParamsV220 p = co12_params(r, d);
  if (is_vector_quant(p.quantPre))
    to = with_quant_table(to, r.quant_table, r.quant_words, r.quant_slot, p.nSize, "DataCopy(CO1)");
  fixpipe_to<T>(to, src, p, d.nz2ndEn ? AscendC::CO2Layout::ROW_MAJOR : AscendC::CO2Layout::NZ);
}

}  // namespace npusim::ascendc

namespace AscendC {

/// L0C -> L1.
template <class T, class U, const FixpipeConfig& kConfig = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                    const FixpipeParamsV220& p) {
  npusim::ascendc::fixpipe_to<T>(npusim::ascendc::fixpipe_local_dst(dst, "Fixpipe"), src, p,
                                 kConfig.format);
}

/// L0C -> GM with a per-channel quantisation tensor (cbufWorkspace: nSize quant words).
template <class T, class U, const FixpipeConfig& kConfig = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                    const LocalTensor<std::uint64_t>& cbufWorkspace, const FixpipeParamsV220& p) {
  using namespace npusim::ascendc;
  const FixpipeDst to =
      with_quant_table(FixpipeDst{dst.GetPhyAddr(), Mem::kGm, -1, 0}, cbufWorkspace.twin_data(),
                       cbufWorkspace.GetSize(), cbufWorkspace.twin_slot(), p.nSize, "Fixpipe");
  fixpipe_to<T>(to, src, p, kConfig.format);
}

/// L0C -> L1 with a per-channel quantisation tensor.
template <class T, class U, const FixpipeConfig& kConfig = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                    const LocalTensor<std::uint64_t>& cbufWorkspace, const FixpipeParamsV220& p) {
  using namespace npusim::ascendc;
  const FixpipeDst to =
      with_quant_table(fixpipe_local_dst(dst, "Fixpipe"), cbufWorkspace.twin_data(),
                       cbufWorkspace.GetSize(), cbufWorkspace.twin_slot(), p.nSize, "Fixpipe");
  fixpipe_to<T>(to, src, p, kConfig.format);
}

/// The ND-conversion registers of DataCopy(..., DataCopyCO12DstParams) with nz2ndEn.
inline void SetFixpipeNz2ndFlag(std::uint16_t ndNum, std::uint16_t srcNdStride,
                                std::uint16_t dstNdStride) {
  auto& r = npusim::ascendc::block().fixpipe_regs;
  r.nd_num = ndNum;
  r.src_nd_stride = srcNdStride;
  r.dst_nd_stride = dstNdStride;
}

/// The scalar quantisation word of DataCopy(..., DataCopyCO12DstParams).
inline void SetFixpipePreQuantFlag(std::uint64_t config) {
  npusim::ascendc::block().fixpipe_regs.quant_pre = config;
}

/// The per-channel quantisation tensor of the vector quant modes (setRelu false; a relu tensor,
/// setRelu true, is reserved on the device and fails naming it). isUnitFlag clears the unit
/// flags, which the simulator does not keep (its Mmad -> Fixpipe order comes from the flags and
/// unitFlag fields of the calls themselves).
template <class T, bool kSetRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preTensor, bool isUnitFlag = false) {
  (void)isUnitFlag;
  if constexpr (kSetRelu) {
    npusim::ascendc::fail("SetFixPipeConfig", "setRelu = true (a relu tensor) is not supported "
                          "by the device or the simulator; pass the quant tensor with false");
  }
  auto& r = npusim::ascendc::block().fixpipe_regs;
  r.quant_table = reinterpret_cast<const std::uint64_t*>(preTensor.twin_data());
  r.quant_words = static_cast<std::uint32_t>(preTensor.GetSize() * sizeof(T) / 8);
  r.quant_slot = preTensor.twin_slot();
}

/// L0C -> GM with the Fixpipe registers (see the file comment).
template <class T, class U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                     const DataCopyCO12DstParams& intriParams) {
  npusim::ascendc::co12_copy<T>(
      npusim::ascendc::FixpipeDst{dst.GetPhyAddr(), npusim::ascendc::Mem::kGm, -1, 0}, src,
      intriParams);
}

/// L0C -> L1 with the Fixpipe registers.
template <class T, class U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                     const DataCopyCO12DstParams& intriParams) {
  npusim::ascendc::co12_copy<T>(npusim::ascendc::fixpipe_local_dst(dst, "DataCopy(CO1)"), src,
                                intriParams);
}

}  // namespace AscendC
