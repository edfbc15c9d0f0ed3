// SPDX-License-Identifier: Apache-2.0
// The element-wise family's Ascend C kernel (see elementwise_kernels.h for the tiling). Written
// like a device kernel: GM tensors, TPipe queues with two buffers per stream, CopyIn / Compute /
// CopyOut per unit; all element work is twin vector instructions (V pipe), all data movement
// DataCopyPad (MTE2 in, MTE3 out).
//
// Activations are compositions of vector instructions, in float (half / bfloat16 inputs are Cast
// up first and the result Cast down with round-to-nearest-even, as the device ops do):
//   sigmoid(x) = 1 / (1 + exp(-x));  silu(x) = x / (1 + exp(-x));
//   tanh(x)    = (e - 1) / (e + 1) with e = exp(2 * clamp(x, -10, 10));
//   gelu(x)    = x / (1 + exp(-2 * sqrt(2/pi) * (x + 0.044715 x^3)))   (CANN's tanh form:
//                0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), rewritten without tanh);
//   gelu_erf(x) = 0.5 x (1 + erf(x / sqrt(2))) = relu(x) - 0.5 |x| erfc(|x| / sqrt(2)), with
//                erfc(z) ~ t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-z^2), t = 1 / (1 + p z)
//                (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7; no cancellation for x < 0).
#include "runtime/aclnn/elementwise_kernels.h"

#include <type_traits>

#include "kernel_operator.h"  // last: it defines asm()
#include "runtime/aclnn/kernel_common.h"

namespace npusim::aclnn {
namespace {

using AscendC::DataCopyExtParams;
using AscendC::DataCopyPadExtParams;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::TPosition;
using kernels::kBuffers;

template <class V>
V from_double(double v) {
  if constexpr (std::is_integral_v<V>) {
    return static_cast<V>(v);
  } else {
    return static_cast<V>(static_cast<float>(v));
  }
}

// Which unit of the output a block works on.
struct Span {
  std::int64_t row0 = 0, nrows = 1, col0 = 0, ncols = 0;
};

template <class T, class C, class D>
class Elementwise {
  static constexpr bool kCastIn = !std::is_same_v<T, C>;
  static constexpr bool kCastOut = !std::is_same_v<C, D>;
  // Arithmetic is instantiated for the compute types that have it.
  static constexpr bool kArith =
      std::is_same_v<C, float> || std::is_same_v<C, half> || std::is_same_v<C, std::int32_t>;
  static constexpr bool kFloat = std::is_same_v<C, float>;

 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const EwTiling& t) {
    t_ = &t;
    gm_[0].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    if (t.inputs > 1) gm_[1].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(z));
    const std::uint32_t n = t.tile;
    for (std::int32_t i = 0; i < t.inputs; ++i) {
      const EwKind k = t.in[i].kind;
      if (k == EwKind::kFull || k == EwKind::kStrided) {
        pipe_.InitBuffer(in_[i], kBuffers, n * sizeof(T));
      } else if (k == EwKind::kRow) {
        pipe_.InitBuffer(row_[i], 1, n * sizeof(T));
      }
      if (kCastIn || k == EwKind::kScalar || k == EwKind::kImmediate) {
        pipe_.InitBuffer(conv_[i], n * sizeof(C));
      }
      if (ColumnBroadcast(i) && t.rows_per_unit > 1) {
        pipe_.InitBuffer(col_[i], static_cast<std::uint32_t>(t.rows_per_unit * 32));
      }
    }
    pipe_.InitBuffer(outq_, kBuffers, n * sizeof(D));
    if (t.op != EwOp::kCast && kCastOut) pipe_.InitBuffer(res_, n * sizeof(C));
    activation_ = t.op == EwOp::kGelu || t.op == EwOp::kTanh || t.op == EwOp::kSigmoid;
    if (activation_) pipe_.InitBuffer(tmp_, n * sizeof(C));
    if (t.op == EwOp::kGeluErf) pipe_.InitBuffer(tmp_, 3 * n * sizeof(C));
  }

  __aicore__ void Process() {
    const EwTiling& t = *t_;
    const std::int64_t first =
        static_cast<std::int64_t>(AscendC::GetBlockIdx()) * t.units_per_block;
    std::int64_t last = first + t.units_per_block;
    if (last > t.units) last = t.units;
    if (first >= last) return;
    LoadOnce();
    for (std::int64_t u = first; u < last; ++u) {
      const Span s = SpanOf(u);
      for (std::int32_t i = 0; i < t.inputs; ++i) {
        if (PerTile(i)) CopyIn(i, s);
      }
      Compute(s);
      CopyOut(s);
    }
    for (std::int32_t i = 0; i < t.inputs; ++i) {
      if (t.in[i].kind == EwKind::kRow) row_[i].FreeTensor(row_tensor_[i]);
    }
  }

 private:
  // A kStrided input broadcast along the last dimension: one value per row ([M, 1] on [M, N]).
  bool ColumnBroadcast(std::int32_t i) const {
    return t_->in[i].kind == EwKind::kStrided && t_->in[i].strides[t_->ndim - 1] == 0;
  }

  bool PerTile(std::int32_t i) const {
    const EwKind k = t_->in[i].kind;
    return k == EwKind::kFull || k == EwKind::kStrided;
  }

  Span SpanOf(std::int64_t u) const {
    const EwTiling& t = *t_;
    Span s;
    if (t.chunks == 1) {
      s.row0 = u * t.rows_per_unit;
      s.nrows = t.rows - s.row0 < t.rows_per_unit ? t.rows - s.row0 : t.rows_per_unit;
      s.ncols = t.cols;
    } else {
      s.row0 = u / t.chunks;
      s.col0 = (u % t.chunks) * t.chunk;
      s.ncols = t.cols - s.col0 < t.chunk ? t.cols - s.col0 : t.chunk;
    }
    return s;
  }

  std::int32_t Count(const Span& s) const {
    return static_cast<std::int32_t>((s.nrows - 1) * t_->pitch + s.ncols);
  }

  // UB gap after each row of a multi-row unit, in 32-byte blocks, for elements of `bytes`.
  std::uint32_t Gap(const Span& s, std::uint32_t bytes) const {
    if (s.nrows == 1) return 0;
    const std::uint64_t row = (static_cast<std::uint64_t>(s.ncols) * bytes + 31) / 32 * 32;
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(t_->pitch) * bytes - row) / 32);
  }

  // Element offset of row `r` of a kStrided tensor, from the row's multi-index.
  std::int64_t RowOffset(const EwOperand& o, std::int64_t r) const {
    return kernels::row_offset(r, t_->ndim - 1, t_->dims, o.strides);
  }

  C Scaled(C v) const {
    if constexpr (kArith) {
      if (t_->scale_other) return static_cast<C>(v * from_double<C>(t_->alpha));
    }
    return v;
  }

  // v *= alpha over `rows` rows of `cols` elements at the UB pitch (n elements in all); integers
  // row by row, so that no arithmetic touches the padding between rows (undefined contents).
  void ScaleRows(const LocalTensor<C>& v, std::int64_t rows, std::int64_t cols, std::int32_t n) {
    if constexpr (kArith) {
      const C alpha = from_double<C>(t_->alpha);
      if (std::is_integral_v<C> && rows > 1) {
        for (std::int64_t j = 0; j < rows; ++j) {
          const auto o = static_cast<std::uint32_t>(j * t_->pitch);
          AscendC::Muls(v[o], v[o], alpha, static_cast<std::int32_t>(cols));
        }
      } else {
        AscendC::Muls(v, v, alpha, n);
      }
    }
  }

  // Operands that do not change from unit to unit: scalars, immediates, replicated rows.
  void LoadOnce() {
    const EwTiling& t = *t_;
    for (std::int32_t i = 0; i < t.inputs; ++i) {
      const EwKind k = t.in[i].kind;
      if (k == EwKind::kScalar || k == EwKind::kImmediate) {
        C v = k == EwKind::kImmediate ? from_double<C>(t.immediate)
                                      : static_cast<C>(gm_[i].GetValue(0));
        if (i == 1) v = Scaled(v);
        once_[i] = conv_[i].template Get<C>();
        AscendC::Duplicate(once_[i], v, static_cast<std::int32_t>(t.tile));
      } else if (k == EwKind::kRow) {
        const std::int64_t rows = t.rows < t.rows_per_unit ? t.rows : t.rows_per_unit;
        LocalTensor<T> r = row_[i].template AllocTensor<T>();
        const DataCopyExtParams one(1, static_cast<std::uint32_t>(t.cols * sizeof(T)), 0, 0, 0);
        AscendC::DataCopyPad(r, gm_[i], one, DataCopyPadExtParams<T>());
        row_[i].EnQue(r);
        row_tensor_[i] = row_[i].template DeQue<T>();
        // Replicate the row for the rows of a unit by doubling UB -> UB copies (V pipe).
        for (std::int64_t have = 1; have < rows; have *= 2) {
          const std::int64_t more = rows - have < have ? rows - have : have;
          AscendC::DataCopy(row_tensor_[i][static_cast<std::uint32_t>(have * t.pitch)],
                            row_tensor_[i], static_cast<std::uint32_t>(more * t.pitch));
        }
        const auto n = static_cast<std::int32_t>((rows - 1) * t.pitch + t.cols);
        if constexpr (kCastIn) {
          once_[i] = conv_[i].template Get<C>();
          AscendC::Cast(once_[i], row_tensor_[i], RoundMode::CAST_NONE,
                        static_cast<std::uint32_t>(n));
        } else {
          once_[i] = row_tensor_[i];
        }
        if constexpr (kArith) {
          if (i == 1 && t.scale_other) {
            ScaleRows(once_[i], rows, t.cols, n);
          }
        }
      }
    }
    if constexpr (kFloat) {
      if (t.op == EwOp::kSigmoid) {
        ones_ = tmp_.template Get<C>();
        AscendC::Duplicate(ones_, 1.0f, static_cast<std::int32_t>(t.tile));
      }
    }
  }

  void CopyIn(std::int32_t i, const Span& s) {
    const EwTiling& t = *t_;
    LocalTensor<T> x = in_[i].template AllocTensor<T>();
    const auto len = static_cast<std::uint32_t>(s.ncols * sizeof(T));
    if (t.in[i].kind == EwKind::kFull) {
      const DataCopyExtParams p(static_cast<std::uint16_t>(s.nrows), len, 0, Gap(s, sizeof(T)), 0);
      AscendC::DataCopyPad(x, gm_[i][static_cast<std::uint64_t>(s.row0 * t.cols + s.col0)], p,
                           DataCopyPadExtParams<T>());
    } else if (ColumnBroadcast(i) && s.nrows > 1 && ColumnIn(i, s, x)) {
      // the rows' values came in with one strided copy and were spread by Duplicate
    } else {
      const std::int64_t last = t.in[i].strides[t.ndim - 1];
      const DataCopyExtParams one(1, len, 0, 0, 0);
      for (std::int64_t j = 0; j < s.nrows; ++j) {
        const std::int64_t off = RowOffset(t.in[i], s.row0 + j) + s.col0 * last;
        LocalTensor<T> row = x[static_cast<std::uint32_t>(j * t.pitch)];
        if (last == 0) {
          AscendC::Duplicate(row, gm_[i].GetValue(static_cast<std::uint64_t>(off)),
                             static_cast<std::int32_t>(s.ncols));
        } else {
          AscendC::DataCopyPad(row, gm_[i][static_cast<std::uint64_t>(off)], one,
                               DataCopyPadExtParams<T>());
        }
      }
    }
    in_[i].EnQue(x);
  }

  // The values of a column-broadcast input for the rows of a unit: when their GM offsets step
  // evenly, one strided DataCopyPad brings them to UB (one 32-byte row each), then per row a UB
  // scalar read and a Duplicate (instead of a GM scalar read per row). False: not evenly spaced.
  bool ColumnIn(std::int32_t i, const Span& s, const LocalTensor<T>& x) {
    const std::int64_t base = RowOffset(t_->in[i], s.row0);
    const std::int64_t step = RowOffset(t_->in[i], s.row0 + 1) - base;
    if (step < 1 || (step - 1) * static_cast<std::int64_t>(sizeof(T)) > 0x7fffffff) return false;
    for (std::int64_t j = 2; j < s.nrows; ++j) {
      if (RowOffset(t_->in[i], s.row0 + j) != base + j * step) return false;
    }
    LocalTensor<T> col = col_[i].template Get<T>();
    const DataCopyExtParams p(static_cast<std::uint16_t>(s.nrows),
                              static_cast<std::uint32_t>(sizeof(T)),
                              static_cast<std::uint32_t>((step - 1) * sizeof(T)), 0, 0);
    AscendC::DataCopyPad(col, gm_[i][static_cast<std::uint64_t>(base)], p,
                         DataCopyPadExtParams<T>());
    constexpr std::uint32_t kPerRow = 32 / sizeof(T);
    for (std::int64_t j = 0; j < s.nrows; ++j) {
      AscendC::Duplicate(x[static_cast<std::uint32_t>(j * t_->pitch)],
                         col.GetValue(static_cast<std::uint32_t>(j) * kPerRow),
                         static_cast<std::int32_t>(s.ncols));
    }
    return true;
  }

  void Compute(const Span& s) {
    const EwTiling& t = *t_;
    const std::int32_t n = Count(s);
    LocalTensor<C> a[2];
    LocalTensor<T> raw[2];
    for (std::int32_t i = 0; i < t.inputs; ++i) {
      if (!PerTile(i)) {
        a[i] = once_[i];
        continue;
      }
      raw[i] = in_[i].template DeQue<T>();
      if constexpr (kCastIn) {
        a[i] = conv_[i].template Get<C>();
        AscendC::Cast(a[i], raw[i], RoundMode::CAST_NONE, static_cast<std::uint32_t>(n));
        in_[i].FreeTensor(raw[i]);
      } else {
        a[i] = raw[i];
      }
      if constexpr (kArith) {
        if (i == 1 && t.scale_other) ScaleRows(a[1], s.nrows, s.ncols, n);
      }
    }
    LocalTensor<D> z = outq_.template AllocTensor<D>();
    if (t.op == EwOp::kCast) {
      if constexpr (std::is_same_v<C, D>) {
        AscendC::DataCopy(z, a[0], static_cast<std::uint32_t>((n + 31) / 32 * 32));
      } else {
        AscendC::Cast(z, a[0], static_cast<RoundMode>(t.round), static_cast<std::uint32_t>(n));
      }
    } else if constexpr (kArith || kFloat) {
      LocalTensor<C> r;
      if constexpr (kCastOut) {
        r = res_.template Get<C>();
      } else {
        r = z;
      }
      if (std::is_integral_v<C> && s.nrows > 1) {  // no arithmetic on the rows' padding
        for (std::int64_t j = 0; j < s.nrows; ++j) {
          const auto o = static_cast<std::uint32_t>(j * t.pitch);
          Apply(r[o], a[0][o], t.inputs > 1 ? a[1][o] : a[0][o],
                static_cast<std::int32_t>(s.ncols));
        }
      } else {
        Apply(r, a[0], a[1], n);
      }
      if constexpr (kCastOut) {
        AscendC::Cast(z, r, t.op == EwOp::kToBool ? RoundMode::CAST_CEIL : RoundMode::CAST_RINT,
                      static_cast<std::uint32_t>(n));
      }
    }
    outq_.EnQue(z);
    if constexpr (!kCastIn) {
      for (std::int32_t i = 0; i < t.inputs; ++i) {
        if (PerTile(i)) in_[i].FreeTensor(raw[i]);
      }
    }
  }

  // r = op(a, b) over n elements (b unused by unary ops).
  void Apply(const LocalTensor<C>& r, const LocalTensor<C>& a, const LocalTensor<C>& b,
             std::int32_t n) {
    switch (t_->op) {
      case EwOp::kAdd:
        if constexpr (kArith) AscendC::Add(r, a, b, n);
        break;
      case EwOp::kSub:
        if constexpr (kArith) AscendC::Sub(r, a, b, n);
        break;
      case EwOp::kMul:
        if constexpr (kArith) AscendC::Mul(r, a, b, n);
        break;
      case EwOp::kDiv:
        if constexpr (kArith) AscendC::Div(r, a, b, n);
        break;
      default:
        if constexpr (kFloat) Activation(r, a, n);
        break;
    }
  }

  void Activation(const LocalTensor<C>& r, const LocalTensor<C>& a, std::int32_t n) {
    if constexpr (kFloat) {
      // (Not split into functions: the twin charges scalar time per basic block run, and every
      // split tried changed the kernel's blocks, so its simulated time.)
      switch (t_->op) {
        case EwOp::kRelu: AscendC::Relu(r, a, n); break;
        case EwOp::kExp: AscendC::Exp(r, a, n); break;
        case EwOp::kGeluErf: {
          const auto tile = t_->tile;
          LocalTensor<C> abs_x = tmp_.template Get<C>();
          LocalTensor<C> u = abs_x[tile], w = abs_x[2 * tile];
          AscendC::Abs(abs_x, a, n);
          AscendC::Muls(u, abs_x, 0.70710678118654752f, n);  // z = |x| / sqrt(2)
          AscendC::Mul(w, u, u, n);
          AscendC::Muls(w, w, -1.0f, n);
          AscendC::Exp(w, w, n);  // exp(-z^2)
          AscendC::Muls(u, u, 0.3275911f, n);
          AscendC::Adds(u, u, 1.0f, n);
          AscendC::Duplicate(r, 1.0f, n);
          AscendC::Div(u, r, u, n);  // t
          AscendC::Muls(r, u, 1.061405429f, n);
          AscendC::Adds(r, r, -1.453152027f, n);
          AscendC::Mul(r, r, u, n);
          AscendC::Adds(r, r, 1.421413741f, n);
          AscendC::Mul(r, r, u, n);
          AscendC::Adds(r, r, -0.284496736f, n);
          AscendC::Mul(r, r, u, n);
          AscendC::Adds(r, r, 0.254829592f, n);
          AscendC::Mul(r, r, u, n);
          AscendC::Mul(r, r, w, n);  // erfc(z)
          AscendC::Mul(r, r, abs_x, n);
          AscendC::Muls(r, r, -0.5f, n);
          AscendC::Relu(u, a, n);
          AscendC::Add(r, r, u, n);
          break;
        }
        case EwOp::kToBool:
          AscendC::Abs(r, a, n);
          AscendC::Mins(r, r, 1.0f, n);
          break;
        case EwOp::kSigmoid:
          AscendC::Muls(r, a, -1.0f, n);
          AscendC::Exp(r, r, n);
          AscendC::Adds(r, r, 1.0f, n);
          AscendC::Div(r, ones_, r, n);
          break;
        case EwOp::kSilu:
          AscendC::Muls(r, a, -1.0f, n);
          AscendC::Exp(r, r, n);
          AscendC::Adds(r, r, 1.0f, n);
          AscendC::Div(r, a, r, n);
          break;
        case EwOp::kTanh: {
          LocalTensor<C> num = tmp_.template Get<C>();
          AscendC::Mins(r, a, 10.0f, n);
          AscendC::Maxs(r, r, -10.0f, n);
          AscendC::Muls(r, r, 2.0f, n);
          AscendC::Exp(r, r, n);
          AscendC::Adds(num, r, -1.0f, n);
          AscendC::Adds(r, r, 1.0f, n);
          AscendC::Div(r, num, r, n);
          break;
        }
        case EwOp::kGelu: {
          LocalTensor<C> u = tmp_.template Get<C>();
          AscendC::Mul(u, a, a, n);
          AscendC::Muls(u, u, 0.044715f, n);
          AscendC::Adds(u, u, 1.0f, n);
          AscendC::Mul(u, u, a, n);
          AscendC::Muls(u, u, -1.5957691216057308f, n);  // -2 * sqrt(2 / pi)
          AscendC::Exp(u, u, n);
          AscendC::Adds(u, u, 1.0f, n);
          AscendC::Div(r, a, u, n);
          break;
        }
        default: break;
      }
    }
  }

  void CopyOut(const Span& s) {
    const EwTiling& t = *t_;
    LocalTensor<D> z = outq_.template DeQue<D>();
    const auto len = static_cast<std::uint32_t>(s.ncols * sizeof(D));
    if (t.out.kind == EwKind::kFull) {
      const DataCopyExtParams p(static_cast<std::uint16_t>(s.nrows), len, Gap(s, sizeof(D)), 0, 0);
      AscendC::DataCopyPad(out_[static_cast<std::uint64_t>(s.row0 * t.cols + s.col0)], z, p);
    } else {  // a non-contiguous view: row by row
      const DataCopyExtParams one(1, len, 0, 0, 0);
      for (std::int64_t j = 0; j < s.nrows; ++j) {
        const std::int64_t off = RowOffset(t.out, s.row0 + j) + s.col0;
        AscendC::DataCopyPad(out_[static_cast<std::uint64_t>(off)],
                             z[static_cast<std::uint32_t>(j * t.pitch)], one);
      }
    }
    outq_.FreeTensor(z);
  }

  const EwTiling* t_ = nullptr;
  bool activation_ = false;
  AscendC::TPipe pipe_;
  AscendC::TQue<TPosition::VECIN, kBuffers> in_[2];
  AscendC::TQue<TPosition::VECIN, 1> row_[2];
  AscendC::TQue<TPosition::VECOUT, kBuffers> outq_;
  AscendC::TBuf<TPosition::VECCALC> conv_[2], res_, tmp_, col_[2];
  GlobalTensor<T> gm_[2];
  GlobalTensor<D> out_;
  LocalTensor<C> once_[2];
  LocalTensor<T> row_tensor_[2];
  LocalTensor<C> ones_;
};

template <class T, class C, class D>
void ew_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, const EwTiling& t) {
  Elementwise<T, C, D> op;
  op.Init(x, y, z, t);
  op.Process();
}

// The ACL type codes (aclDataType) of the kernel element types.
template <class V>
constexpr int acl_type() {
  if constexpr (std::is_same_v<V, float>) return 0;         // ACL_FLOAT
  if constexpr (std::is_same_v<V, half>) return 1;          // ACL_FLOAT16
  if constexpr (std::is_same_v<V, std::int8_t>) return 2;   // ACL_INT8
  if constexpr (std::is_same_v<V, std::int32_t>) return 3;  // ACL_INT32
  if constexpr (std::is_same_v<V, bfloat16_t>) return 27;   // ACL_BF16
  if constexpr (std::is_same_v<V, std::uint8_t>) return 4;  // ACL_UINT8 (BOOL storage too)
  if constexpr (std::is_same_v<V, std::int16_t>) return 6;  // ACL_INT16
  if constexpr (std::is_same_v<V, std::int64_t>) return 9;  // ACL_INT64
  return -1;
}

template <class T, class C, class D>
bool pick(int in, int compute, int out, EwKernel* k) {
  if (in != acl_type<T>() || compute != acl_type<C>() || out != acl_type<D>()) return false;
  *k = &ew_kernel<T, C, D>;
  return true;
}

template <class S>
bool pick_cast(int in, int compute, int out, EwKernel* k) {
  if (compute != in) return pick<S, float, std::uint8_t>(in, compute, out, k);  // to BOOL
  return pick<S, S, float>(in, in, out, k) || pick<S, S, half>(in, in, out, k) ||
         pick<S, S, bfloat16_t>(in, in, out, k) || pick<S, S, std::int32_t>(in, in, out, k) ||
         pick<S, S, std::int8_t>(in, in, out, k) || pick<S, S, std::uint8_t>(in, in, out, k) ||
         pick<S, S, std::int16_t>(in, in, out, k) || pick<S, S, std::int64_t>(in, in, out, k);
}

}  // namespace

EwKernel ew_kernel_for(int in, int compute, int out) {
  EwKernel k = nullptr;
  if (pick<half, float, half>(in, compute, out, &k) ||
      pick<bfloat16_t, float, bfloat16_t>(in, compute, out, &k)) {
    return k;
  }
  if (pick_cast<float>(in, compute, out, &k) || pick_cast<half>(in, compute, out, &k) ||
      pick_cast<bfloat16_t>(in, compute, out, &k) ||
      pick_cast<std::int32_t>(in, compute, out, &k) ||
      pick_cast<std::int8_t>(in, compute, out, &k) ||
      pick_cast<std::uint8_t>(in, compute, out, &k) ||
      pick_cast<std::int16_t>(in, compute, out, &k) ||
      pick_cast<std::int64_t>(in, compute, out, &k)) {
    return k;
  }
  return nullptr;
}

}  // namespace npusim::aclnn
