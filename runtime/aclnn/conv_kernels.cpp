// SPDX-License-Identifier: Apache-2.0
// The im2col vector kernel of aclnnConvolution (see conv_kernels.h).
#include "runtime/aclnn/conv_kernels.h"

#include "kernel_operator.h"

namespace npusim::aclnn {
namespace {

using namespace AscendC;

inline std::int64_t clamp64(std::int64_t v, std::int64_t lo, std::int64_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
// ceil(a / b) for b > 0 and any sign of a.
inline std::int64_t ceil_div64(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

template <class T>
class Im2col {
 public:
  explicit Im2col(const Im2colTiling& t) : t_(t) {}

  void Init(GM_ADDR x, GM_ADDR col) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    col_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col));
    pipe_.InitBuffer(q_, 2, t_.chunk * 32);
    pipe_.InitBuffer(qin_, 2, t_.chunk * 32);
    pipe_.InitBuffer(qout_, 2, t_.chunk * 32);
    pipe_.InitBuffer(fill_, t_.chunk * 32);
    fillv_ = fill_.Get<T>();
  }

  void Process() {
    const std::int64_t rows = t_.cin * t_.kh * t_.kw;
    const std::int64_t items = t_.batch * rows;
    const auto start = static_cast<std::int64_t>(GetBlockIdx());
    const auto step = static_cast<std::int64_t>(GetBlockNum());
    if (start < items) {
      Fill(T(0.0f));
      for (std::int64_t item = start; item < items; item += step) Row(item / rows, item % rows);
    }
    if (t_.onesLen > 0 && start == step - 1) {  // the last block writes the ones
      Fill(T(1.0f));
      const std::int64_t at = t_.batch * t_.colStride;
      for (std::int64_t i = 0; i < t_.onesLen; i += t_.chunk * kPerBlock) {
        Out(fillv_, at + i,
            static_cast<std::uint32_t>(
                t_.onesLen - i < t_.chunk * kPerBlock ? t_.onesLen - i : t_.chunk * kPerBlock));
      }
    }
  }

 private:
  static constexpr std::int64_t kPerBlock = 32 / sizeof(T);

  void Fill(T value) {
    SetFlag<HardEvent::MTE3_V>(0);  // earlier copies out of the buffer are done
    WaitFlag<HardEvent::MTE3_V>(0);
    Duplicate(fillv_, value, static_cast<std::int32_t>(t_.chunk * kPerBlock));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
  }

  // count contiguous elements of UB tensor `src` to col[at].
  void Out(const LocalTensor<T>& src, std::int64_t at, std::uint32_t count) {
    DataCopyPad(col_[static_cast<std::uint64_t>(at)], src,
                DataCopyExtParams(1, count * static_cast<std::uint32_t>(sizeof(T)), 0, 0));
  }

  void Zeros(std::int64_t at, std::int64_t count) {
    const std::int64_t most = t_.chunk * kPerBlock;
    for (std::int64_t i = 0; i < count; i += most) {
      Out(fillv_, at + i, static_cast<std::uint32_t>(count - i < most ? count - i : most));
    }
  }

  // Row (c, i, j) of col, many output rows per instruction: padding rows and columns from the
  // zero buffer; the valid run [lo, hi) of each output row from its input row, which is
  // contiguous (xstep 1: one burst per row) or every xstep-th element (xstep 2 or 4: the span
  // is read contiguously and GatherMask keeps every xstep-th element).
  void RowsBatched(std::int64_t b, std::int64_t c, std::int64_t i, std::int64_t base,
                   std::int64_t lo, std::int64_t hi, std::int64_t off, std::int64_t xstep) {
    const std::int64_t es = static_cast<std::int64_t>(sizeof(T));
    const std::int64_t top = i * t_.dilH - t_.padH;  // input row of output row 0
    const std::int64_t y_lo = clamp64(ceil_div64(-top, t_.strideH), 0, t_.oh);
    const std::int64_t y_hi = clamp64(ceil_div64(t_.h - top, t_.strideH), y_lo, t_.oh);
    if (y_lo > 0) Zeros(base, y_lo * t_.ow);
    if (y_hi < t_.oh) Zeros(base + y_hi * t_.ow, (t_.oh - y_hi) * t_.ow);
    const std::int64_t run = hi - lo;
    const std::int64_t span = (run - 1) * xstep + 1;       // input elements a row's run covers
    const std::int64_t repeats = (span * es + 255) / 256;  // GatherMask repeats per row
    const std::int64_t per_piece =
        xstep == 1 ? t_.chunk / ((run * es + 31) / 32) : t_.chunk * 32 / (repeats * 256);
    const std::int64_t src_pitch = t_.strideH * t_.inStride[2];
    for (std::int64_t y = y_lo; y < y_hi; y += per_piece) {
      const std::int64_t rows = y_hi - y < per_piece ? y_hi - y : per_piece;
      const std::int64_t at = base + y * t_.ow;
      if (lo > 0) ZeroColumns(at, rows, lo);
      if (hi < t_.ow) ZeroColumns(at + hi, rows, t_.ow - hi);
      const std::int64_t from = b * t_.inStride[0] + c * t_.inStride[1] +
                                (y * t_.strideH + top) * t_.inStride[2] +
                                (lo * t_.strideW + off) * t_.inStride[3];
      const auto n_rows = static_cast<std::uint16_t>(rows);
      if (xstep == 1) {
        LocalTensor<T> buf = q_.AllocTensor<T>();
        DataCopyPad(buf, x_[static_cast<std::uint64_t>(from)],
                    DataCopyExtParams(n_rows, static_cast<std::uint32_t>(run * es),
                                      static_cast<std::uint32_t>((src_pitch - run) * es), 0, 0));
        q_.EnQue(buf);
        buf = q_.DeQue<T>();
        DataCopyPad(col_[static_cast<std::uint64_t>(at + lo)], buf,
                    DataCopyExtParams(n_rows, static_cast<std::uint32_t>(run * es), 0,
                                      static_cast<std::uint32_t>((t_.ow - run) * es), 0));
        q_.FreeTensor(buf);
        continue;
      }
      // Rows of `repeats` * 256 bytes in UB; kept: repeats * 256 / xstep bytes per row.
      LocalTensor<T> in = qin_.AllocTensor<T>();
      DataCopyPad(
          in, x_[static_cast<std::uint64_t>(from)],
          DataCopyExtParams(
              n_rows, static_cast<std::uint32_t>(span * es),
              static_cast<std::uint32_t>((src_pitch - span) * es),
              static_cast<std::uint32_t>((repeats * 256 - (span * es + 31) / 32 * 32) / 32), 0));
      qin_.EnQue(in);
      in = qin_.DeQue<T>();
      LocalTensor<T> out = qout_.AllocTensor<T>();
      std::uint64_t kept = 0;
      GatherMask(out, in, static_cast<std::uint8_t>(xstep == 2 ? 1 : 3), false, 0,
                 GatherMaskParams(1, static_cast<std::uint16_t>(rows * repeats), 8, 0), kept);
      qin_.FreeTensor(in);
      qout_.EnQue(out);
      out = qout_.DeQue<T>();
      DataCopyPad(col_[static_cast<std::uint64_t>(at + lo)], out,
                  DataCopyExtParams(n_rows, static_cast<std::uint32_t>(run * es),
                                    static_cast<std::uint32_t>(
                                        (repeats * 256 / xstep - (run * es + 31) / 32 * 32) / 32),
                                    static_cast<std::uint32_t>((t_.ow - run) * es), 0));
      qout_.FreeTensor(out);
    }
  }

  // `count` zero columns at col[at] in each of `rows` rows of ow elements.
  void ZeroColumns(std::int64_t at, std::int64_t rows, std::int64_t count) {
    const std::int64_t es = static_cast<std::int64_t>(sizeof(T));
    const std::int64_t blocks = (count * es + 31) / 32;
    if (rows * blocks > t_.chunk) {  // more than the zero buffer holds: row by row
      for (std::int64_t r = 0; r < rows; ++r) Zeros(at + r * t_.ow, count);
      return;
    }
    DataCopyPad(
        col_[static_cast<std::uint64_t>(at)], fillv_,
        DataCopyExtParams(static_cast<std::uint16_t>(rows), static_cast<std::uint32_t>(count * es),
                          0, static_cast<std::uint32_t>((t_.ow - count) * es), 0));
  }

  void Row(std::int64_t b, std::int64_t r) {
    const std::int64_t c = r / (t_.kh * t_.kw);
    const std::int64_t i = r / t_.kw % t_.kh;
    const std::int64_t j = r % t_.kw;
    const std::int64_t pixels = t_.oh * t_.ow;
    const std::int64_t base = b * t_.colStride + r * pixels;
    // Output columns x whose input column x*strideW - padW + j*dilW lies in [0, w).
    const std::int64_t off = j * t_.dilW - t_.padW;
    const std::int64_t lo = clamp64(ceil_div64(-off, t_.strideW), 0, t_.ow);
    const std::int64_t hi = clamp64(ceil_div64(t_.w - off, t_.strideW), lo, t_.ow);
    const std::int64_t xstep = t_.strideW * t_.inStride[3];
    const std::int64_t es = static_cast<std::int64_t>(sizeof(T));
    const std::int64_t span = (hi - lo - 1) * xstep + 1;
    const bool batched =
        lo < hi && t_.strideH * t_.inStride[2] >= span &&
        ((xstep == 1 && (span * es + 31) / 32 <= t_.chunk) ||
         ((xstep == 2 || xstep == 4) && (span * es + 255) / 256 * 256 <= t_.chunk * 32));
    if (batched) {
      RowsBatched(b, c, i, base, lo, hi, off, xstep);
      return;
    }
    for (std::int64_t y = 0; y < t_.oh; ++y) {
      const std::int64_t at = base + y * t_.ow;
      const std::int64_t ih = y * t_.strideH - t_.padH + i * t_.dilH;
      if (ih < 0 || ih >= t_.h || lo == hi) {
        Zeros(at, t_.ow);
        continue;
      }
      if (lo > 0) Zeros(at, lo);
      const std::int64_t src = b * t_.inStride[0] + c * t_.inStride[1] + ih * t_.inStride[2] +
                               (lo * t_.strideW + off) * t_.inStride[3];
      for (std::int64_t x = lo; x < hi; x += t_.chunk) {
        const auto n = static_cast<std::uint32_t>(hi - x < t_.chunk ? hi - x : t_.chunk);
        const std::int64_t from = src + (x - lo) * xstep;
        LocalTensor<T> buf = q_.AllocTensor<T>();
        if (xstep == 1) {  // one burst
          DataCopyPad(buf, x_[static_cast<std::uint64_t>(from)],
                      DataCopyExtParams(1, n * static_cast<std::uint32_t>(sizeof(T)), 0, 0, 0));
        } else {  // one element per burst, each in its own 32-byte UB block
          DataCopyPad(buf, x_[static_cast<std::uint64_t>(from)],
                      DataCopyExtParams(static_cast<std::uint16_t>(n),
                                        static_cast<std::uint32_t>(sizeof(T)),
                                        static_cast<std::uint32_t>((xstep - 1) * sizeof(T)), 0, 0));
        }
        q_.EnQue(buf);
        buf = q_.DeQue<T>();
        if (xstep == 1) {
          Out(buf, at + x, n);
        } else {
          DataCopyPad(col_[static_cast<std::uint64_t>(at + x)], buf,
                      DataCopyExtParams(static_cast<std::uint16_t>(n),
                                        static_cast<std::uint32_t>(sizeof(T)), 0, 0, 0));
        }
        q_.FreeTensor(buf);
      }
      if (hi < t_.ow) Zeros(at + hi, t_.ow - hi);
    }
  }

  const Im2colTiling& t_;
  TPipe pipe_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q_;  // straight copies
  TQue<TPosition::VECIN, 2> qin_;                       // spans to gather from
  TQue<TPosition::VECOUT, 2> qout_;                     // gathered runs
  TBuf<TPosition::VECCALC> fill_;
  LocalTensor<T> fillv_;
  GlobalTensor<T> x_, col_;
};

template <class T>
__global__ __aicore__ void im2col_typed(GM_ADDR x, GM_ADDR col, const Im2colTiling& t) {
  Im2col<T> op(t);
  op.Init(x, col);
  op.Process();
}

}  // namespace

void im2col_kernel(int type, std::uint8_t* x, std::uint8_t* col, const Im2colTiling& t) {
  if (type == 0) {
    im2col_typed<half>(x, col, t);
  } else if (type == 1) {
    im2col_typed<bfloat16_t>(x, col, t);
  } else {
    im2col_typed<float>(x, col, t);
  }
}

const void* im2col_kernel_identity(int type) {
  if (type == 0) return reinterpret_cast<const void*>(&im2col_typed<half>);
  if (type == 1) return reinterpret_cast<const void*>(&im2col_typed<bfloat16_t>);
  return reinterpret_cast<const void*>(&im2col_typed<float>);
}

}  // namespace npusim::aclnn
