// SPDX-License-Identifier: Apache-2.0
// Fused flash-attention forward kernel (Ascend C on the twin), see attention_kernels.h.
//
// Layouts on the cube (cube_ops.h): Q (m x d) and P (m x keys) go GM -> L1 as NZ (ND2NZ) and
// L1 -> L0A row of fractals by row of fractals (zZ). K's NZ fractals in L1 are already the nZ
// fractals of K^T in L0B (one LoadData). V (keys x d) is B of P V: each row of fractals is
// transposed into L0B as in a plain matmul. Mmad accumulates in fp32 (L0C); Fixpipe writes ND
// fp32 rows to the workspace.
//
// The vector side works on whole tiles: count-form ops (Muls, Exp, Cast, Add) and the repeat
// forms of attention_ops.h for the rows: each half (64 floats) of the S rows (128 floats) is
// reduced per row (WholeReduceMax / WholeReduceSum, then Max / Add of the halves), and per-row
// values are spread
// with Brcb and applied with a block stride of 0 (Sub, Mul, Div). The running maximum, sum and
// rescale factor of every row live in UB; the scalar unit only drives the loops (and, per row,
// the band masking of tiles on the band's edge and the padding of a last partial key tile).
#include "runtime/aclnn/attention_kernels.h"

#include <cstdint>

#include "kernel_operator.h"

namespace npusim::aclnn {
namespace {

using namespace AscendC;

constexpr std::uint32_t ceil16(std::uint32_t v) { return (v + 15) / 16 * 16; }
constexpr std::uint32_t ceil32(std::uint32_t v) { return (v + 31) / 32 * 32; }

template <class T>
class FlashAttention {
 public:
  __aicore__ void Init(std::uint8_t* q, std::uint8_t* k, std::uint8_t* v, std::uint8_t* mask,
                       std::uint8_t* pse, std::uint8_t* smax, std::uint8_t* ssum, std::uint8_t* out,
                       std::uint8_t* ws, const AttentionTiling& t) {
    t_ = t;
    q_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(q));
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(k));
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(v));
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
    if (mask != nullptr) mask_.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint8_t*>(mask));
    if (pse != nullptr) pse_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(pse));
    has_stats_ = smax != nullptr && ssum != nullptr;
    smax_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(smax));
    ssum_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ssum));
    std::uint8_t* mine = ws + static_cast<std::uint64_t>(GetBlockIdx()) * t.ws_block_bytes;
    ws_s_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mine));
    mine += 2ull * t.mt * t.nt * sizeof(float);  // two S buffers
    ws_p_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(mine));
    mine += static_cast<std::uint64_t>(t.mt) * t.nt * sizeof(T);
    ws_o_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mine));

    const std::uint32_t wide = t.nt > t.d ? t.nt : t.d;
    pipe_.InitBuffer(q1_, 1, t.mt * t.d * sizeof(T));
    pipe_.InitBuffer(k1_, 1, t.nt * t.d * sizeof(T));
    pipe_.InitBuffer(p1_, 1, t.mt * t.nt * sizeof(T));
    pipe_.InitBuffer(v1_, 1, t.nt * t.d * sizeof(T));
    pipe_.InitBuffer(a2_, 1, t.mt * wide * sizeof(T));
    pipe_.InitBuffer(b2_, 1, t.nt * t.d * sizeof(T));
    pipe_.InitBuffer(c1_, 1, t.mt * wide * sizeof(float));
    // UB (attention_ub_bytes in attention.cpp): S tiles and, in turn, P V tiles come in
    // through one buffer; the attenMask buffers exist only with a mask.
    pipe_.InitBuffer(in_, 1, t.mt * wide * sizeof(float));
    pipe_.InitBuffer(p_out_, 1, t.mt * wide * sizeof(T));
    pipe_.InitBuffer(stat_out_, 1, t.mt * 8 * sizeof(float));
    pipe_.InitBuffer(acc_, t.mt * t.d * sizeof(float));
    pipe_.InitBuffer(rows_, 5 * t.mt * sizeof(float));
    pipe_.InitBuffer(bcast_, t.mt * 8 * sizeof(float));
    if (t.has_mask) pipe_.InitBuffer(mask_in_, 1, t.mt * t.nt);
    if (t.has_pse) pipe_.InitBuffer(pse_in_, 1, t.mt * t.nt * sizeof(T));
    if (t.has_mask || t.has_pse) pipe_.InitBuffer(calc_, t.mt * t.nt * sizeof(float));
  }

  __aicore__ void Process() {
    const auto me = static_cast<std::size_t>(GetBlockIdx());
    for (std::uint32_t i = t_.block_begin[me]; i < t_.block_begin[me + 1]; ++i) {
      const std::uint32_t w = t_.block_items[i];
      b_ = w / (t_.heads * t_.q_tiles);
      n_ = w / t_.q_tiles % t_.heads;
      q0_ = w % t_.q_tiles * t_.mt;
      m_ = t_.sq - q0_ < t_.mt ? t_.sq - q0_ : t_.mt;
      Item();
    }
  }

 private:
  __aicore__ void Item() {
    const std::uint32_t group = t_.heads / t_.kv_heads;
    q_off_ = b_ * t_.q_sb + n_ * t_.q_sn + static_cast<std::int64_t>(q0_) * t_.q_ss;
    out_off_ = b_ * t_.o_sb + n_ * t_.o_sn + static_cast<std::int64_t>(q0_) * t_.o_ss;
    kv_off_ = b_ * t_.kv_sb + (n_ / group) * t_.kv_sn;
    Duplicate(RowMax(), kAttentionMasked, static_cast<std::int32_t>(m_));
    Duplicate(RowSum(), 0.0f, static_cast<std::int32_t>(m_));
    LocalTensor<float> acc = acc_.Get<float>();
    Duplicate(acc, 0.0f, static_cast<std::int32_t>(m_ * t_.d));
    LocalTensor<T> q1 = q1_.AllocTensor<T>();
    DataCopy(q1, q_[q_off_],
             Nd2NzParams(1, static_cast<std::uint16_t>(m_), static_cast<std::uint16_t>(t_.d), 0,
                         static_cast<std::uint16_t>(t_.q_ss),
                         static_cast<std::uint16_t>(ceil16(m_)), 1, 0));
    q1_.EnQue(q1);
    q1 = q1_.DeQue<T>();
    const std::uint32_t keys = t_.kv_lens.empty() ? t_.skv : t_.kv_lens[b_];
    const std::uint32_t key_tiles = (keys + t_.nt - 1) / t_.nt;
    // Software pipeline: the cube computes S of the next key tile (into the other S buffer of
    // the workspace) before the vector side takes the softmax of the current one.
    std::uint32_t pending_k0 = 0, pending_n = 0, issued = 0;
    for (std::uint32_t j = 0; j < key_tiles; ++j) {
      const std::uint32_t k0 = j * t_.nt;
      const std::uint32_t n = keys - k0 < t_.nt ? keys - k0 : t_.nt;
      if (t_.skip_masked_tiles && Hidden(k0, n)) continue;
      Scores(q1, k0, n, issued % 2);
      if (issued > 0) {
        Softmax(pending_k0, pending_n, (issued - 1) % 2);
        ValueTile(pending_k0, pending_n);
      }
      pending_k0 = k0;
      pending_n = n;
      ++issued;
    }
    if (issued > 0) {
      Softmax(pending_k0, pending_n, (issued - 1) % 2);
      ValueTile(pending_k0, pending_n);
    }
    q1_.FreeTensor(q1);
    Finish();
  }

  // Every row of the query tile sees none of keys [k0, k0 + n) through the band.
  __aicore__ bool Hidden(std::uint32_t k0, std::uint32_t n) const {
    const std::int64_t first = q0_, last = q0_ + m_ - 1;
    return last + t_.next < static_cast<std::int64_t>(k0) ||
           first - t_.pre > static_cast<std::int64_t>(k0 + n - 1);
  }

  // S = Q K^T (m x n, fp32) into S buffer `buf` of the workspace.
  __aicore__ void Scores(const LocalTensor<T>& q1, std::uint32_t k0, std::uint32_t n,
                         std::uint32_t buf) {
    const std::uint32_t m1 = ceil16(m_) / 16, n16 = ceil16(n), n1 = n16 / 16, d1 = t_.d / 16;
    LocalTensor<T> k1 = k1_.AllocTensor<T>();
    DataCopy(
        k1, k_[kv_off_ + static_cast<std::int64_t>(k0) * t_.kv_ss],
        Nd2NzParams(1, static_cast<std::uint16_t>(n), static_cast<std::uint16_t>(t_.d), 0,
                    static_cast<std::uint16_t>(t_.kv_ss), static_cast<std::uint16_t>(n16), 1, 0));
    k1_.EnQue(k1);
    LocalTensor<T> a2 = a2_.AllocTensor<T>();
    for (std::uint32_t i = 0; i < m1; ++i) {
      LoadData(a2[i * d1 * 256], q1,
               LoadData2DParams(static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(d1),
                                static_cast<std::uint16_t>(m1), 0, 0, false, 0));
    }
    a2_.EnQue(a2);
    k1 = k1_.DeQue<T>();
    LocalTensor<T> b2 = b2_.AllocTensor<T>();
    // K's NZ fractals, column block by column block, are K^T's nZ fractals row by row.
    LoadData(b2, k1, LoadData2DParams(0, static_cast<std::uint8_t>(d1 * n1), 1, 0, 0, false, 0));
    b2_.EnQue(b2);
    k1_.FreeTensor(k1);
    a2 = a2_.DeQue<T>();
    b2 = b2_.DeQue<T>();
    LocalTensor<float> c1 = c1_.AllocTensor<float>();
    MmadParams mp;
    mp.m = npusim::ascendc::zz_mmad_m(m_);
    mp.n = static_cast<std::uint16_t>(n);
    mp.k = static_cast<std::uint16_t>(t_.d);
    Mmad(c1, a2, b2, mp);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
    c1_.EnQue(c1);
    c1 = c1_.DeQue<float>();
    Fixpipe(ws_s_[buf * t_.mt * t_.nt], c1,
            FixpipeParamsV220(static_cast<std::uint16_t>(n), static_cast<std::uint16_t>(m_),
                              static_cast<std::uint16_t>(ceil16(m_)), t_.nt, false));
    c1_.FreeTensor(c1);
    SetFlag<HardEvent::FIX_MTE2>(static_cast<std::int32_t>(buf));  // waited for by Softmax
  }

  // Per-row running statistics (UB): maximum, sum, this tile's rescale factor, scratch.
  __aicore__ LocalTensor<float> RowMax() { return rows_.Get<float>(); }
  __aicore__ LocalTensor<float> RowSum() { return rows_.Get<float>()[t_.mt]; }
  __aicore__ LocalTensor<float> RowScale() { return rows_.Get<float>()[2 * t_.mt]; }
  __aicore__ LocalTensor<float> RowTile() { return rows_.Get<float>()[3 * t_.mt]; }
  __aicore__ LocalTensor<float> RowHalf() { return rows_.Get<float>()[4 * t_.mt]; }

  // dst (rows of `width` floats) op= the per-row values in bcast_ (from Brcb), 64 columns per
  // instruction.
  template <bool kDivide>
  __aicore__ void ScaleRows(const LocalTensor<float>& dst, std::uint32_t width) {
    LocalTensor<float> bc = bcast_.Get<float>();
    const auto row_blocks = static_cast<std::uint8_t>(width / 8);
    const BinaryRepeatParams rows(1, 1, 0, row_blocks, row_blocks, 1);
    for (std::uint32_t c = 0; c < width; c += 64) {
      const std::uint64_t cols = width - c < 64 ? width - c : 64;
      if (kDivide) {
        Div(dst[c], dst[c], bc, cols, static_cast<std::uint8_t>(m_), rows);
      } else {
        Mul(dst[c], dst[c], bc, cols, static_cast<std::uint8_t>(m_), rows);
      }
    }
  }

  // Row r of `v` (m floats) into block r of bcast_.
  __aicore__ void Broadcast(const LocalTensor<float>& v) {
    Brcb(bcast_.Get<float>(), v, static_cast<std::uint8_t>((m_ + 7) / 8), BrcbRepeatParams(1, 8));
  }

  // Online softmax of the S tile (rows of nt = 128 floats, handled as two halves of 64); P
  // (m x nt, keys past n zero) into the workspace.
  __aicore__ void Softmax(std::uint32_t k0, std::uint32_t n, std::uint32_t buf) {
    const std::uint32_t nt = t_.nt;
    const auto tile = static_cast<std::int32_t>(m_ * nt);
    const auto m = static_cast<std::int32_t>(m_);
    const auto reps = static_cast<std::uint8_t>(m_);
    LocalTensor<float> s = in_.AllocTensor<float>();
    WaitFlag<HardEvent::FIX_MTE2>(static_cast<std::int32_t>(buf));  // S in GM (Scores)
    DataCopy(s, ws_s_[buf * t_.mt * nt], m_ * nt);
    in_.EnQue(s);
    s = in_.DeQue<float>();
    if (t_.has_pse) ApplyPse(s, k0, n);
    Muls(s, s, t_.scale, tile);
    if (t_.has_mask) ApplyMaskTensor(s, k0, n);
    if (t_.has_band && BandCuts(k0, n)) {
      for (std::uint32_t r = 0; r < m_; ++r) ApplyBand(s, r, k0, n);
    }
    if (n < nt) {  // columns past the last key
      for (std::uint32_t r = 0; r < m_; ++r)
        Duplicate(s[r * nt + n], kAttentionMasked, static_cast<std::int32_t>(nt - n));
    }
    const auto row_blocks = static_cast<std::int32_t>(nt / 8);
    const BinaryRepeatParams rows(1, 1, 0, static_cast<std::uint8_t>(nt / 8),
                                  static_cast<std::uint8_t>(nt / 8), 1);
    // m_new = max(m_old, row max); scale = exp(m_old - m_new).
    LocalTensor<float> row_max = RowMax(), row_sum = RowSum(), row_scale = RowScale(),
                       row_tile = RowTile(), row_half = RowHalf();
    WholeReduceMax(row_tile, s, 64, m, 1, 1, row_blocks, ReduceOrder::ORDER_ONLY_VALUE);
    WholeReduceMax(row_half, s[64], 64, m, 1, 1, row_blocks, ReduceOrder::ORDER_ONLY_VALUE);
    Max(row_tile, row_tile, row_half, m);
    Max(row_tile, row_tile, row_max, m);
    Sub(row_scale, row_max, row_tile, m);
    Exp(row_scale, row_scale, m);
    Adds(row_max, row_tile, 0.0f, m);
    // P = exp(S - m_new); l = l * scale + row sum of P; acc *= scale.
    Broadcast(row_max);
    LocalTensor<float> bc = bcast_.Get<float>();
    Sub(s, s, bc, 64, reps, rows);
    Sub(s[64], s[64], bc, 64, reps, rows);
    Exp(s, s, tile);
    WholeReduceSum(row_tile, s, 64, m, 1, 1, row_blocks);
    WholeReduceSum(row_half, s[64], 64, m, 1, 1, row_blocks);
    Add(row_tile, row_tile, row_half, m);
    Mul(row_sum, row_sum, row_scale, m);
    Add(row_sum, row_sum, row_tile, m);
    Broadcast(row_scale);
    ScaleRows<false>(acc_.Get<float>(), t_.d);
    LocalTensor<T> p = p_out_.AllocTensor<T>();
    Cast(p, s, RoundMode::CAST_RINT, static_cast<std::uint32_t>(tile));
    in_.FreeTensor(s);
    p_out_.EnQue(p);
    p = p_out_.DeQue<T>();
    DataCopy(ws_p_, p, m_ * nt);
    p_out_.FreeTensor(p);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);  // P in GM before the cube side reads it
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
  }

  // Some row of the query tile has keys of [k0, k0 + n) outside the band.
  __aicore__ bool BandCuts(std::uint32_t k0, std::uint32_t n) const {
    const std::int64_t first = q0_, last = q0_ + m_ - 1;
    return last - t_.pre > static_cast<std::int64_t>(k0) ||
           first + t_.next < static_cast<std::int64_t>(k0 + n - 1);
  }

  // s += realShift (rows q0.., keys k0..k0+n; one row added to every row when pse_ss is 0).
  __aicore__ void ApplyPse(const LocalTensor<float>& s, std::uint32_t k0, std::uint32_t n) {
    const std::uint32_t nt = t_.nt;
    const std::uint32_t rows = t_.pse_ss == 0 ? 1 : m_;
    const std::uint32_t row_bytes = n * sizeof(T);
    LocalTensor<T> ps = pse_in_.AllocTensor<T>();
    const std::int64_t at =
        b_ * t_.pse_sb + n_ * t_.pse_sn + static_cast<std::int64_t>(q0_) * t_.pse_ss + k0;
    const std::uint32_t gap =
        rows > 1 ? static_cast<std::uint32_t>(t_.pse_ss * sizeof(T)) - row_bytes : 0;
    DataCopyPad(
        ps, pse_[at],
        DataCopyExtParams(static_cast<std::uint16_t>(rows), row_bytes, gap,
                          (nt * static_cast<std::uint32_t>(sizeof(T)) - ceil32(row_bytes)) / 32));
    pse_in_.EnQue(ps);
    ps = pse_in_.DeQue<T>();
    LocalTensor<float> pf = calc_.Get<float>();
    Cast(pf, ps, RoundMode::CAST_NONE, rows * nt);
    pse_in_.FreeTensor(ps);
    if (rows == m_) {
      Add(s, s, pf, static_cast<std::int32_t>(m_ * nt));
    } else {
      const auto row_blocks = static_cast<std::uint8_t>(nt / 8);
      const BinaryRepeatParams same_row(1, 1, 1, row_blocks, row_blocks, 0);
      Add(s, s, pf, 64, static_cast<std::uint8_t>(m_), same_row);
      Add(s[64], s[64], pf[64], 64, static_cast<std::uint8_t>(m_), same_row);
    }
  }

  // s += kAttentionMasked where attenMask (rows q0.., keys k0..k0+n) is 1 (one mask row for every
  // query row when mask_ss is 0).
  __aicore__ void ApplyMaskTensor(const LocalTensor<float>& s, std::uint32_t k0, std::uint32_t n) {
    const std::uint32_t nt = t_.nt;
    const std::uint32_t rows = t_.mask_ss == 0 ? 1 : m_;
    const auto tile = static_cast<std::int32_t>(rows * nt);
    LocalTensor<std::uint8_t> mk = mask_in_.AllocTensor<std::uint8_t>();
    const std::int64_t at =
        b_ * t_.mask_sb + n_ * t_.mask_sn + static_cast<std::int64_t>(q0_) * t_.mask_ss + k0;
    const std::uint32_t gap = rows > 1 ? static_cast<std::uint32_t>(t_.mask_ss) - n : 0;
    DataCopyPad(mk, mask_[at],
                DataCopyExtParams(static_cast<std::uint16_t>(rows), n, gap, (nt - ceil32(n)) / 32));
    mask_in_.EnQue(mk);
    mk = mask_in_.DeQue<std::uint8_t>();
    LocalTensor<float> mf = calc_.Get<float>();
    // uint8 -> half in the upper half of the buffer, then half -> float over the whole of it.
    LocalTensor<half> mh = mf.ReinterpretCast<half>()[rows * nt];
    Cast(mh, mk, RoundMode::CAST_NONE, static_cast<std::uint32_t>(tile));
    mask_in_.FreeTensor(mk);
    Cast(mf, mh, RoundMode::CAST_NONE, static_cast<std::uint32_t>(tile));
    Muls(mf, mf, kAttentionMasked, tile);
    if (rows == m_) {
      Add(s, s, mf, tile);
    } else {
      const auto row_blocks = static_cast<std::uint8_t>(nt / 8);
      const BinaryRepeatParams same_row(1, 1, 1, row_blocks, row_blocks, 0);
      Add(s, s, mf, 64, static_cast<std::uint8_t>(m_), same_row);
      Add(s[64], s[64], mf[64], 64, static_cast<std::uint8_t>(m_), same_row);
    }
  }

  // Row r: keys of [k0, k0 + n) outside the band are set to kAttentionMasked.
  __aicore__ void ApplyBand(const LocalTensor<float>& s, std::uint32_t r, std::uint32_t k0,
                            std::uint32_t n) {
    const std::int64_t i = q0_ + r;
    std::int64_t lo = i - t_.pre - k0, hi = i + t_.next - k0 + 1;  // visible: [lo, hi)
    lo = lo < 0 ? 0 : (lo > n ? n : lo);
    hi = hi < lo ? lo : (hi > n ? n : hi);
    const std::uint32_t base = r * t_.nt;
    if (lo > 0) Duplicate(s[base], kAttentionMasked, static_cast<std::int32_t>(lo));
    if (hi < n)
      Duplicate(s[base + static_cast<std::uint32_t>(hi)], kAttentionMasked,
                static_cast<std::int32_t>(n - hi));
  }

  // acc += P V (P: m x n from the workspace, V: rows k0..k0+n).
  __aicore__ void ValueTile(std::uint32_t k0, std::uint32_t n) {
    const std::uint32_t m1 = ceil16(m_) / 16, n16 = ceil16(n), kk1 = n16 / 16, d1 = t_.d / 16;
    LocalTensor<T> p1 = p1_.AllocTensor<T>();
    DataCopy(p1, ws_p_,
             Nd2NzParams(1, static_cast<std::uint16_t>(m_), static_cast<std::uint16_t>(n16), 0,
                         static_cast<std::uint16_t>(t_.nt), static_cast<std::uint16_t>(ceil16(m_)),
                         1, 0));
    p1_.EnQue(p1);
    LocalTensor<T> v1 = v1_.AllocTensor<T>();
    DataCopy(
        v1, v_[kv_off_ + static_cast<std::int64_t>(k0) * t_.kv_ss],
        Nd2NzParams(1, static_cast<std::uint16_t>(n), static_cast<std::uint16_t>(t_.d), 0,
                    static_cast<std::uint16_t>(t_.kv_ss), static_cast<std::uint16_t>(n16), 1, 0));
    v1_.EnQue(v1);
    p1 = p1_.DeQue<T>();
    LocalTensor<T> a2 = a2_.AllocTensor<T>();
    for (std::uint32_t i = 0; i < m1; ++i) {
      LoadData(a2[i * kk1 * 256], p1,
               LoadData2DParams(static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(kk1),
                                static_cast<std::uint16_t>(m1), 0, 0, false, 0));
    }
    a2_.EnQue(a2);
    p1_.FreeTensor(p1);
    v1 = v1_.DeQue<T>();
    LocalTensor<T> b2 = b2_.AllocTensor<T>();
    for (std::uint32_t i = 0; i < kk1; ++i) {
      LoadData(b2[i * d1 * 256], v1,
               LoadData2DParams(static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(d1),
                                static_cast<std::uint16_t>(kk1), 0, 0, true, 0));
    }
    b2_.EnQue(b2);
    v1_.FreeTensor(v1);
    a2 = a2_.DeQue<T>();
    b2 = b2_.DeQue<T>();
    LocalTensor<float> c1 = c1_.AllocTensor<float>();
    MmadParams mp;
    mp.m = npusim::ascendc::zz_mmad_m(m_);
    mp.n = static_cast<std::uint16_t>(t_.d);
    mp.k = static_cast<std::uint16_t>(n);
    Mmad(c1, a2, b2, mp);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
    c1_.EnQue(c1);
    c1 = c1_.DeQue<float>();
    Fixpipe(ws_o_, c1,
            FixpipeParamsV220(static_cast<std::uint16_t>(t_.d), static_cast<std::uint16_t>(m_),
                              static_cast<std::uint16_t>(ceil16(m_)), t_.d, false));
    c1_.FreeTensor(c1);
    SetFlag<HardEvent::FIX_MTE2>(EVENT_ID2);  // P V in GM before the vector side reads it
    WaitFlag<HardEvent::FIX_MTE2>(EVENT_ID2);
    LocalTensor<float> o = in_.AllocTensor<float>();
    DataCopy(o, ws_o_, m_ * t_.d);
    in_.EnQue(o);
    o = in_.DeQue<float>();
    LocalTensor<float> acc = acc_.Get<float>();
    Add(acc, acc, o, static_cast<std::int32_t>(m_ * t_.d));
    in_.FreeTensor(o);
  }

  // attentionOut = acc / l; softmaxMax / softmaxSum rows (8 copies each, as Brcb lays them out).
  __aicore__ void Finish() {
    LocalTensor<float> acc = acc_.Get<float>();
    Broadcast(RowSum());
    ScaleRows<true>(acc, t_.d);
    LocalTensor<T> o = p_out_.AllocTensor<T>();
    Cast(o, acc, RoundMode::CAST_RINT, m_ * t_.d);
    p_out_.EnQue(o);
    o = p_out_.DeQue<T>();
    DataCopy(out_[out_off_], o,
             DataCopyParams(static_cast<std::uint16_t>(m_),
                            static_cast<std::uint16_t>(t_.d * sizeof(T) / 32), 0,
                            static_cast<std::uint16_t>((t_.o_ss - t_.d) * sizeof(T) / 32)));
    p_out_.FreeTensor(o);
    if (!has_stats_) return;
    const std::uint64_t stat_at =
        ((static_cast<std::uint64_t>(b_) * t_.heads + n_) * t_.sq + q0_) * 8;
    for (int which = 0; which < 2; ++which) {
      LocalTensor<float> st = stat_out_.AllocTensor<float>();
      Brcb(st, which == 0 ? RowMax() : RowSum(), static_cast<std::uint8_t>((m_ + 7) / 8),
           BrcbRepeatParams(1, 8));
      stat_out_.EnQue(st);
      st = stat_out_.DeQue<float>();
      DataCopy(which == 0 ? smax_[stat_at] : ssum_[stat_at], st, m_ * 8);
      stat_out_.FreeTensor(st);
    }
  }

  AttentionTiling t_;
  TPipe pipe_;
  TQue<TPosition::A1, 1> q1_, p1_;
  TQue<TPosition::B1, 1> k1_, v1_;
  TQue<TPosition::A2, 1> a2_;
  TQue<TPosition::B2, 1> b2_;
  TQue<TPosition::CO1, 1> c1_;
  TQue<TPosition::VECIN, 1> in_, mask_in_, pse_in_;
  TQue<TPosition::VECOUT, 1> p_out_, stat_out_;
  TBuf<TPosition::VECCALC> calc_, acc_, rows_, bcast_;
  GlobalTensor<T> q_, k_, v_, out_, ws_p_, pse_;
  GlobalTensor<std::uint8_t> mask_;
  GlobalTensor<float> smax_, ssum_, ws_s_, ws_o_;
  std::uint32_t b_ = 0, n_ = 0, q0_ = 0, m_ = 0;
  std::int64_t q_off_ = 0, out_off_ = 0, kv_off_ = 0;
  bool has_stats_ = false;
};

}  // namespace

void flash_attention_kernel(int dtype, std::uint8_t* q, std::uint8_t* k, std::uint8_t* v,
                            std::uint8_t* mask, std::uint8_t* pse, std::uint8_t* smax,
                            std::uint8_t* ssum, std::uint8_t* out, std::uint8_t* ws,
                            const AttentionTiling& t) {
  if (dtype == 0) {
    FlashAttention<half> op;
    op.Init(q, k, v, mask, pse, smax, ssum, out, ws, t);
    op.Process();
  } else {
    FlashAttention<bfloat16_t> op;
    op.Init(q, k, v, mask, pse, smax, ssum, out, ws, t);
    op.Process();
  }
}

}  // namespace npusim::aclnn
