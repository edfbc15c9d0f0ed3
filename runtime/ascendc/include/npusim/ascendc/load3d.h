// SPDX-License-Identifier: Apache-2.0
// LoadData with LoadData3DParamsV2 (Load3Dv2, image to column) of the Ascend C twin: L1 (A1/B1,
// NC1HWC0) -> L0A / L0B on MTE1, recorded as a LoadData of the 512-byte fractals it writes.
//
// The feature map in L1 is C1 x l1H x l1W x C0 (C0 = 32 bytes of T, C1 = channelSize / C0
// rounded up). Its im2col matrix X has one row per output position of the filter window
// (row-major over the output's height and width, after padList padding and the strides and
// dilations) and one column per (c1, filter h, filter w, c0), in that order; padded positions
// read padValue. The load takes rows mStartPt.. (mExtension) and columns kStartPt..
// (kExtension) of X, and writes them in the layout Mmad reads (cube_ops.h):
//   L0A: A = X (zZ), or A = X^T with enTranspose (b16 / b32 only);
//   L0B: B = X (nZ; enTranspose has no effect; b16 / b32 only).
// Fractal cells outside the extensions keep their contents. A zero l1H / l1W / channelSize /
// extension or filter is a no-op, as on the device.
//
// The feature map's l1H / l1W / padList and the padding value also live in per-block registers:
// two feature-map registers (FmatrixMode::FMATRIX_LEFT / FMATRIX_RIGHT; a load reads the right
// one when fMatrixCtrl is set) and one padding register. LoadData<T, IsResetLoad3dConfig>
// with isSetFMatrix (the default) writes the params' l1H / l1W / padList to the register it reads,
// without it uses that register as SetFmatrix (or Load3DSetFMatrixCal: the left one) left it;
// isSetPadding likewise writes padValue to, or reads it from, the padding register
// (SetLoadDataPaddingValue). LoadData3DParamsV2Pro packs the geometry into two words
// (extConfig: mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension; filterConfig:
// dilationH << 40 | dilationW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW)
// and always takes the feature map and padding from the registers. Setting a register is scalar
// work (no instruction); a load reading a register never set is a KernelError.
#pragma once

#include <cstring>

#include <cstdint>

#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/matmul_ops.h"

namespace AscendC {

template <class T>
struct LoadData3DParamsV2 {
  std::uint8_t padList[4] = {0, 0, 0, 0};  // left, right, top, bottom
  std::uint16_t l1H = 0;
  std::uint16_t l1W = 0;
  std::uint16_t channelSize = 0;
  std::uint16_t kExtension = 0;
  std::uint16_t mExtension = 0;
  std::uint16_t kStartPt = 0;
  std::uint16_t mStartPt = 0;
  std::uint8_t strideW = 1;
  std::uint8_t strideH = 1;
  std::uint8_t filterW = 1;
  std::uint8_t filterH = 1;
  std::uint8_t dilationFilterW = 1;
  std::uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = T();
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

enum class FmatrixMode : std::uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

/// Whether a Load3Dv2 sets the feature-map / padding registers from its params (true) or reads
/// them as SetFmatrix / SetLoadDataPaddingValue left them (false).
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

struct LoadData3DParamsV2Pro {
  std::uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  std::uint64_t extConfig = 0;
  std::uint64_t filterConfig = 0x10101010101ull;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// The geometry of one Load3Dv2, T-independent (c0: elements per 32 bytes).
struct Im2col {
  std::uint32_t c0, h, w, fh, fw, dh, dw, sh, sw, pad_l, pad_t, w_out, rows_out;
};

NPUSIM_TWIN_FN inline Im2col im2col_of(std::uint32_t c0, std::uint16_t l1h, std::uint16_t l1w,
                                       const std::uint8_t* pad, std::uint32_t fh, std::uint32_t fw,
                                       std::uint8_t dh, std::uint8_t dw, std::uint8_t sh,
                                       std::uint8_t sw) {
  Im2col g{c0, l1h, l1w, fh, fw, dh, dw, sh, sw, pad[0], pad[2], 0, 0};
  if (sh == 0 || sw == 0 || dh == 0 || dw == 0)
    fail("LoadData(3Dv2)", "strides and dilations must be at least 1");
  const std::int64_t span_w = (fw - 1ll) * dw + 1, span_h = (fh - 1ll) * dh + 1;
  const std::int64_t out_w = (l1w + pad[0] + pad[1] - span_w) / sw + 1;
  const std::int64_t out_h = (l1h + pad[2] + pad[3] - span_h) / sh + 1;
  if (out_w <= 0 || out_h <= 0)
    fail("LoadData(3Dv2)", "the %ux%u filter does not fit the %ux%u feature map", fh, fw, l1h, l1w);
  g.w_out = static_cast<std::uint32_t>(out_w);
  g.rows_out = static_cast<std::uint32_t>(out_w * out_h);
  return g;
}

/// Element index in L1 of X[row][col], or -1 for a padded position.
NPUSIM_TWIN_FN inline std::int64_t im2col_source(const Im2col& g, std::uint32_t row,
                                                 std::uint32_t col) {
  const std::uint32_t c0 = col % g.c0, t = col / g.c0;
  const std::uint32_t kpos = t % (g.fh * g.fw), c1 = t / (g.fh * g.fw);
  const std::int64_t y =
      static_cast<std::int64_t>(row / g.w_out) * g.sh + (kpos / g.fw) * g.dh - g.pad_t;
  const std::int64_t x =
      static_cast<std::int64_t>(row % g.w_out) * g.sw + (kpos % g.fw) * g.dw - g.pad_l;
  if (y < 0 || x < 0 || y >= g.h || x >= g.w) return -1;
  return ((static_cast<std::int64_t>(c1) * g.h + y) * g.w + x) * g.c0 + c0;
}

/// Where element (i, j) of a matrix with `cols` columns lies in L0A (zZ) or L0B (nZ), k0
/// elements per fractal row.
NPUSIM_TWIN_FN inline std::uint64_t cube_index(bool l0b, std::uint32_t i, std::uint32_t j,
                                               std::uint32_t cols, std::uint32_t k0) {
  if (!l0b)
    return ((i / 16ull) * ceil_div(cols, k0) + j / k0) * 16ull * k0 + (i % 16) * k0 + j % k0;
  return ((i / k0) * static_cast<std::uint64_t>(ceil_div(cols, 16)) + j / 16) * 16ull * k0 +
         (j % 16) * k0 + i % k0;
}

template <class T>
NPUSIM_TWIN_FN void load3d_body(BlockContext& ctx, const CubeOperand& dst, const T* src,
                                std::uint32_t src_size, std::int32_t src_slot,
                                const AscendC::LoadData3DParamsV2<T>& p) {
  constexpr std::uint32_t kC0 = 32 / sizeof(T);
  const bool l0b = dst.mem == Mem::kL0b;
  if (dst.mem != Mem::kL0a && !l0b) fail("LoadData(3Dv2)", "destination must be L0A or L0B");
  if ((l0b || p.enTranspose) && sizeof(T) == 1)
    fail("LoadData(3Dv2)", "8-bit data cannot go to L0B or be transposed");
  const std::uint32_t fh = p.filterH + (p.filterSizeH ? 256u : 0u);
  const std::uint32_t fw = p.filterW + (p.filterSizeW ? 256u : 0u);
  if (p.l1H == 0 || p.l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 ||
      fh == 0 || fw == 0)
    return;  // a no-op on the device
  const Im2col g = im2col_of(kC0, p.l1H, p.l1W, p.padList, fh, fw, p.dilationFilterH,
                             p.dilationFilterW, p.strideH, p.strideW);
  const bool trans = p.enTranspose && !l0b;
  const std::uint32_t rows = trans ? p.kExtension : p.mExtension;  // of the matrix written
  const std::uint32_t cols = trans ? p.mExtension : p.kExtension;
  const std::uint32_t fr_rows = l0b ? kC0 : 16, fr_cols = l0b ? 16 : kC0;
  const std::uint32_t fractals = ceil_div(rows, fr_rows) * ceil_div(cols, fr_cols);
  // The last element written lies furthest (padding cells of a partial fractal are not written).
  // The device checks it against the memory, not the tensor: b32 loads to L0B lay rows out at
  // 16-column pitch, past the k x n elements kernels often declare.
  const std::uint64_t end = cube_index(l0b, rows - 1, cols - 1, cols, kC0) + 1;
  const auto at = static_cast<std::uint64_t>(static_cast<std::uint8_t*>(dst.data) -
                                             ctx.base(dst.mem));
  if (at + end * sizeof(T) > ctx.capacity(dst.mem))
    fail("LoadData(3Dv2)", "writes element %llu, past the end of %s",
         static_cast<unsigned long long>(end - 1), mem_name(dst.mem));
  T* out = static_cast<T*>(dst.data);
  for (std::uint32_t i = 0; ctx.functional && i < rows; ++i) {
    for (std::uint32_t j = 0; j < cols; ++j) {
      const std::uint32_t xr = (trans ? j : i) + p.mStartPt, xc = (trans ? i : j) + p.kStartPt;
      const std::int64_t s = im2col_source(g, xr, xc);
      if (s >= static_cast<std::int64_t>(src_size))
        fail("LoadData(3Dv2)", "reads element %lld of a %u-element L1 tensor",
             static_cast<long long>(s), src_size);
      out[cube_index(l0b, i, j, cols, kC0)] = s < 0 ? p.padValue : src[s];
    }
  }
  Instr ins;
  ins.pipe = Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = dtype_of<T>();
  ins.src = Mem::kL1;
  ins.dst = dst.mem;
  ins.count = fractals;
  ins.bytes = static_cast<std::uint64_t>(rows) * cols * sizeof(T);
  ctx.emit(ins, {{src_slot, false}, {dst.slot, true}});
}

}  // namespace npusim::ascendc

namespace npusim::ascendc {

/// The feature-map register a load reads (fMatrixCtrl: the right one), set or failing.
inline BlockContext::Fmatrix& fmatrix_reg(BlockContext& ctx, bool right) {
  return ctx.regs.fmatrix[right ? 1 : 0];
}

inline void set_fmatrix(BlockContext& ctx, bool right, std::uint16_t l1h, std::uint16_t l1w,
                        const std::uint8_t* pad) {
  auto& r = fmatrix_reg(ctx, right);
  r.l1h = l1h;
  r.l1w = l1w;
  for (int i = 0; i < 4; ++i) r.pad[i] = pad[i];
  r.set = true;
}

/// p's feature map and padding from the registers (when `fm` / `padding`), else into them.
template <class T>
void resolve_load3d(BlockContext& ctx, AscendC::LoadData3DParamsV2<T>& p, bool fm,
                    bool padding) {
  if (fm) {
    const auto& r = fmatrix_reg(ctx, p.fMatrixCtrl);
    if (!r.set)
      fail("LoadData(3Dv2)", "isSetFMatrix is false but the %s feature-map register was never "
           "set (SetFmatrix)", p.fMatrixCtrl ? "right" : "left");
    p.l1H = r.l1h;
    p.l1W = r.l1w;
    for (int i = 0; i < 4; ++i) p.padList[i] = r.pad[i];
  } else {
    set_fmatrix(ctx, p.fMatrixCtrl, p.l1H, p.l1W, p.padList);
  }
  if (padding) {
    std::memcpy(static_cast<void*>(&p.padValue), &ctx.regs.load3d_pad, sizeof(T));
  } else {
    ctx.regs.load3d_pad = 0;
    std::memcpy(&ctx.regs.load3d_pad, &p.padValue, sizeof(T));
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

/// Load3Dv2; kConfig says whether the feature map and padding come from p (and are written to
/// the registers) or from the registers (see the file comment).
template <class T, const IsResetLoad3dConfig& kConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const LoadData3DParamsV2<T>& p) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (src.mem() != Mem::kL1) fail("LoadData(3Dv2)", "source must be in L1 (A1/B1)");
  LoadData3DParamsV2<T> q = p;
  resolve_load3d(ctx, q, !kConfig.isSetFMatrix, !kConfig.isSetPadding);
  load3d_body(ctx, cube_operand(dst), src.twin_data(), src.GetSize(), src.twin_slot(), q);
}

/// Load3Dv2 with the packed geometry; feature map and padding from the registers.
template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const LoadData3DParamsV2Pro& p) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (src.mem() != Mem::kL1) fail("LoadData(3Dv2Pro)", "source must be in L1 (A1/B1)");
  LoadData3DParamsV2<T> q;
  q.channelSize = p.channelSize;
  q.enTranspose = p.enTranspose;
  q.enSmallK = p.enSmallK;
  q.filterSizeW = p.filterSizeW;
  q.filterSizeH = p.filterSizeH;
  q.fMatrixCtrl = p.fMatrixCtrl;
  q.mStartPt = static_cast<std::uint16_t>(p.extConfig >> 48);
  q.kStartPt = static_cast<std::uint16_t>(p.extConfig >> 32);
  q.mExtension = static_cast<std::uint16_t>(p.extConfig >> 16);
  q.kExtension = static_cast<std::uint16_t>(p.extConfig);
  q.dilationFilterH = static_cast<std::uint8_t>(p.filterConfig >> 40);
  q.dilationFilterW = static_cast<std::uint8_t>(p.filterConfig >> 32);
  q.filterH = static_cast<std::uint8_t>(p.filterConfig >> 24);
  q.filterW = static_cast<std::uint8_t>(p.filterConfig >> 16);
  q.strideH = static_cast<std::uint8_t>(p.filterConfig >> 8);
  q.strideW = static_cast<std::uint8_t>(p.filterConfig);
  resolve_load3d(ctx, q, true, true);
  load3d_body(ctx, cube_operand(dst), src.twin_data(), src.GetSize(), src.twin_slot(), q);
}

/// Writes a feature-map register (left or right) for later Load3Dv2 calls.
inline void SetFmatrix(std::uint16_t l1H, std::uint16_t l1W, const std::uint8_t padList[4],
                       const FmatrixMode& fmatrixMode) {
  npusim::ascendc::set_fmatrix(npusim::ascendc::block(), fmatrixMode == FmatrixMode::FMATRIX_RIGHT,
                               l1H, l1W, padList);
}

/// The left feature-map register (CATLASS's name for SetFmatrix(..., FMATRIX_LEFT)).
inline void Load3DSetFMatrixCal(std::uint16_t l1H, std::uint16_t l1W,
                                const std::uint8_t padList[4]) {
  npusim::ascendc::set_fmatrix(npusim::ascendc::block(), false, l1H, l1W, padList);
}

/// The padding register Load3Dv2 reads when isSetPadding is false (and V2Pro always).
template <class T>
inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue: the value is at most 8 bytes");
  auto& regs = npusim::ascendc::block().regs;
  regs.load3d_pad = 0;
  std::memcpy(&regs.load3d_pad, &padValue, sizeof(T));
}

}  // namespace AscendC

// LoadDataWithTranspose for 8-bit data (matmul_ops.h has the 16- and 32-bit forms): per repeat
// the square startIndex + r * srcStride (minus with addrMode) is two consecutive 16 x 32
// fractals read as one 32 x 32 matrix; rows 0..15 of its transpose go to destination fractal
// d = r * (1 + dstGap), rows 16..31 to fractal d + 1 + dstFracGap. MTE1, as the other forms.
namespace npusim::ascendc {

NPUSIM_TWIN_FN inline void load_transpose_b8_body(BlockContext& ctx, const CubeOperand& dst,
                                                  const CubeOperand& src,
                                                  const AscendC::LoadData2dTransposeParams& p) {
  if (src.mem != Mem::kL1 || (dst.mem != Mem::kL0a && dst.mem != Mem::kL0b))
    fail("LoadDataWithTranspose", "moves L1 (A1/B1) data to L0A / L0B");
  auto* d = static_cast<std::uint8_t*>(dst.data);
  const auto* s = static_cast<const std::uint8_t*>(src.data);
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    const std::int64_t sq = p.startIndex + (p.addrMode ? -1ll : 1ll) * r * p.srcStride;
    const std::uint64_t d0 = r * (1ull + p.dstGap), d1 = d0 + 1 + p.dstFracGap;
    if (sq < 0 || (sq + 1ull) * 1024 > src.size || (d1 + 1) * 512 > dst.size)
      fail("LoadDataWithTranspose", "repeat %u leaves the tensors (square %lld)", r,
           static_cast<long long>(sq));
    for (std::uint32_t i = 0; ctx.functional && i < 16; ++i) {
      for (std::uint32_t j = 0; j < 32; ++j) {
        d[d0 * 512 + i * 32 + j] = s[sq * 1024 + j * 32 + i];
        d[d1 * 512 + i * 32 + j] = s[sq * 1024 + j * 32 + i + 16];
      }
    }
  }
  Instr ins;
  ins.pipe = Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = DType::kInt8;
  ins.src = Mem::kL1;
  ins.dst = dst.mem;
  ins.count = p.repeatTimes;
  ins.bytes = 1024ull * p.repeatTimes;
  ctx.emit(ins, {{src.slot, false}, {dst.slot, true}});
}

template <class T>
__attribute__((noinline)) void load_transpose_b8(const AscendC::LocalTensor<T>& dst,
                                                 const AscendC::LocalTensor<T>& src,
                                                 const AscendC::LoadData2dTransposeParams& p) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  load_transpose_b8_body(ctx, cube_operand(dst), cube_operand(src), p);
}

}  // namespace npusim::ascendc

namespace AscendC {

inline void LoadDataWithTranspose(const LocalTensor<std::int8_t>& dst,
                                  const LocalTensor<std::int8_t>& src,
                                  const LoadData2dTransposeParams& p) {
  npusim::ascendc::load_transpose_b8(dst, src, p);
}
inline void LoadDataWithTranspose(const LocalTensor<std::uint8_t>& dst,
                                  const LocalTensor<std::uint8_t>& src,
                                  const LoadData2dTransposeParams& p) {
  npusim::ascendc::load_transpose_b8(dst, src, p);
}

}  // namespace AscendC
