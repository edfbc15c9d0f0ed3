// SPDX-License-Identifier: Apache-2.0
// aclnnFlashAttentionScore (runtime/aclnn/attention.cpp): the fused MIX kernel against a
// double-precision softmax(Q K^T * scale + mask) V computed from the same (rounded) inputs.
// Tolerances: attentionOut within 2e-3 absolute for FLOAT16 and 1e-2 for BFLOAT16 (inputs in
// [-1, 1], so |out| <= 1: P and the output are rounded to the input type); softmaxMax within
// 1e-4 absolute and softmaxSum within 1e-4 relative (fp32 on the device).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "models/kernel_work.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

namespace nn = npusim::aclnn;

enum class Mask { kNone, kCausal, kTensor2d, kRandom4d, kBand, kRightDown, kBatchRow };
enum class Api { kFlashAttentionScore, kPrompt, kIncre };

struct Case {
  Case(std::int64_t b_, std::int64_t n_, std::int64_t n2_, std::int64_t sq_, std::int64_t skv_,
       std::int64_t d_)
      : b(b_), n(n_), n2(n2_), sq(sq_), skv(skv_), d(d_) {}
  std::int64_t b = 1, n = 1, n2 = 1, sq = 1, skv = 1, d = 64;
  std::string layout = "BNSD";
  aclDataType dtype = ACL_FLOAT16;
  Mask mask = Mask::kNone;
  std::int64_t pre = 2147483647, next = 2147483647;  // kBand (with an all-zero attenMask)
  Api api = Api::kFlashAttentionScore;
  std::vector<std::int64_t> kv_lens;  // kIncre's actualSeqLengths
  std::int64_t kv_heads_arg = 0;      // numKeyValueHeads (kPrompt, kIncre)
  std::string out_layout;             // attentionOut's layout if not `layout` (BNSD_BSND)
  int pse = 0;  // realShift: 0 none, 1 [B, N, Sq, Skv], 2 [B, N, 1, Skv], 3 [1, N, Sq, Skv]
  std::uint32_t expect_blocks = 0;  // the kernel's block count, when the test states it

  Case& in(std::string l) {
    layout = std::move(l);
    return *this;
  }
  Case& masked(Mask m) {
    mask = m;
    return *this;
  }
};

// A deterministic value in [-1, 1].
double wave(std::int64_t i, double f) { return std::sin(0.731 * static_cast<double>(i) * f + f); }

class AttentionTest : public OperatorTest {
 protected:

  // Shape of query (heads n) or key/value (heads n2) in the case's layout.
  static std::vector<std::int64_t> shape(const Case& c, std::int64_t heads, std::int64_t s) {
    if (c.layout == "BNSD") return {c.b, heads, s, c.d};
    if (c.layout == "BSND") return {c.b, s, heads, c.d};
    if (c.layout == "BSH") return {c.b, s, heads * c.d};
    return {s, c.b, heads * c.d};  // SBH
  }
  // Element offset of (batch, head, row, 0).
  static std::int64_t offset(const Case& c, std::int64_t heads, std::int64_t s, std::int64_t bi,
                             std::int64_t ni, std::int64_t si) {
    if (c.layout == "BNSD") return ((bi * heads + ni) * s + si) * c.d;
    if (c.layout == "SBH") return ((si * c.b + bi) * heads + ni) * c.d;
    return ((bi * s + si) * heads + ni) * c.d;  // BSND, BSH
  }
  static bool visible(const Case& c, const std::vector<std::uint8_t>& mask, std::int64_t bi,
                      std::int64_t ni, std::int64_t i, std::int64_t j) {
    switch (c.mask) {
      case Mask::kNone:
        return true;
      case Mask::kCausal:
        return j <= i;
      case Mask::kRightDown:
        return j <= i + c.skv - c.sq;
      case Mask::kBand:
        return j >= i - c.pre && j <= i + c.next;
      case Mask::kBatchRow:
        return mask[static_cast<std::size_t>(bi * c.skv + j)] == 0;
      case Mask::kTensor2d:
        return mask[static_cast<std::size_t>(i * c.skv + j)] == 0;
      case Mask::kRandom4d:
        return mask[static_cast<std::size_t>(((bi * c.n + ni) * c.sq + i) * c.skv + j)] == 0;
    }
    return true;
  }

  // Runs the case; checks every output against the reference.
  void run(const Case& c, double scale = 0.125) {
    const int dt = c.dtype;
    const std::int64_t q_count = c.b * c.n * c.sq * c.d, kv_count = c.b * c.n2 * c.skv * c.d;
    void* q = alloc(static_cast<std::size_t>(q_count) * 2);
    void* k = alloc(static_cast<std::size_t>(kv_count) * 2);
    void* v = alloc(static_cast<std::size_t>(kv_count) * 2);
    void* out = alloc(static_cast<std::size_t>(q_count) * 2);
    const std::int64_t stats = c.b * c.n * c.sq * 8;
    void* smax = alloc(static_cast<std::size_t>(stats) * 4);
    void* ssum = alloc(static_cast<std::size_t>(stats) * 4);
    for (std::int64_t i = 0; i < q_count; ++i) nn::store(dt, q, i, wave(i, 1.0));
    for (std::int64_t i = 0; i < kv_count; ++i) {
      nn::store(dt, k, i, wave(i, 1.37));
      nn::store(dt, v, i, wave(i, 0.59));
    }
    std::vector<std::uint8_t> mask;
    aclTensor* mask_t = nullptr;
    if (c.mask == Mask::kTensor2d || c.mask == Mask::kRandom4d || c.mask == Mask::kBand ||
        c.mask == Mask::kBatchRow) {
      const bool four = c.mask == Mask::kRandom4d, rows = c.mask == Mask::kBatchRow;
      const std::int64_t count = (four ? c.b * c.n : rows ? c.b : 1) * c.sq * c.skv;
      mask.resize(static_cast<std::size_t>(count));
      for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t row = i / c.skv % c.sq, col = i % c.skv;
        mask[static_cast<std::size_t>(i)] =
            four || rows ? static_cast<std::uint8_t>(col != row % c.skv && wave(i, 2.3) > 0.2)
            : c.mask == Mask::kBand ? std::uint8_t{0}
                                    : static_cast<std::uint8_t>(col > row);
      }
      void* m = alloc(mask.size());
      std::memcpy(m, mask.data(), mask.size());
      mask_t = four   ? tensor({c.b, c.n, c.sq, c.skv}, ACL_BOOL, m)
               : rows ? tensor({c.b, 1, 1, c.skv}, ACL_INT8, m)
                      : tensor({c.sq, c.skv}, ACL_UINT8, m);
    }
    aclTensor* pse_t = nullptr;
    std::vector<double> pse;  // as stored (rounded to the input type)
    const std::int64_t pse_b = c.pse == 3 ? 1 : c.b, pse_s = c.pse == 2 ? 1 : c.sq;
    if (c.pse != 0) {
      const std::int64_t count = pse_b * c.n * pse_s * c.skv;
      void* e = alloc(static_cast<std::size_t>(count) * 2);
      for (std::int64_t i = 0; i < count; ++i) {
        nn::store(dt, e, i, 2.0 * wave(i, 3.1));
        pse.push_back(static_cast<double>(nn::load(dt, e, i)));
      }
      pse_t = tensor({pse_b, c.n, pse_s, c.skv}, c.dtype, e);
    }
    std::int64_t sparse = 0, pre = 2147483647, next = 2147483647;
    if (c.mask == Mask::kCausal) sparse = 2;
    if (c.mask == Mask::kRightDown) sparse = 3;
    if (c.mask == Mask::kBand) {
      pre = c.pre;
      next = c.next;
    }
    char layout[16];
    std::snprintf(layout, sizeof layout, "%s",
                  c.out_layout.empty() ? c.layout.c_str() : "BNSD_BSND");
    Case co = c;  // attentionOut's layout
    if (!c.out_layout.empty()) co.layout = c.out_layout;
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    aclTensor* qt = tensor(shape(c, c.n, c.sq), c.dtype, q);
    aclTensor* ot = tensor(shape(co, c.n, c.sq), c.dtype, out);
    if (c.api == Api::kFlashAttentionScore) {
      ASSERT_EQ(aclnnFlashAttentionScoreGetWorkspaceSize(
                    qt, tensor(shape(c, c.n2, c.skv), c.dtype, k),
                    tensor(shape(c, c.n2, c.skv), c.dtype, v), pse_t, nullptr, nullptr, mask_t,
                    nullptr, scale, 1.0, pre, next, c.n, layout, 0, sparse,
                    tensor({c.b, c.n, c.sq, 8}, ACL_FLOAT, smax),
                    tensor({c.b, c.n, c.sq, 8}, ACL_FLOAT, ssum), nullptr, ot, &ws, &ex),
                ACLNN_SUCCESS);
    } else if (c.api == Api::kPrompt) {
      ASSERT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(
                    qt, tensor(shape(c, c.n2, c.skv), c.dtype, k),
                    tensor(shape(c, c.n2, c.skv), c.dtype, v), nullptr, mask_t, nullptr, c.n, scale,
                    pre, next, layout, c.kv_heads_arg, ot, &ws, &ex),
                ACLNN_SUCCESS);
    } else {
      const std::vector<std::int64_t> kv = shape(c, c.n2, c.skv);
      const aclTensor* kt = aclCreateTensor(kv.data(), kv.size(), c.dtype, nullptr, 0,
                                            ACL_FORMAT_ND, kv.data(), kv.size(), k);
      const aclTensor* vt = aclCreateTensor(kv.data(), kv.size(), c.dtype, nullptr, 0,
                                            ACL_FORMAT_ND, kv.data(), kv.size(), v);
      aclTensorList* kl = aclCreateTensorList(&kt, 1);
      aclTensorList* vl = aclCreateTensorList(&vt, 1);
      aclIntArray* lens =
          c.kv_lens.empty() ? nullptr : aclCreateIntArray(c.kv_lens.data(), c.kv_lens.size());
      ASSERT_EQ(
          aclnnIncreFlashAttentionGetWorkspaceSize(qt, kl, vl, nullptr, mask_t, lens, c.n, scale,
                                                   layout, c.kv_heads_arg, ot, &ws, &ex),
          ACLNN_SUCCESS);
      EXPECT_EQ(aclDestroyTensorList(kl), ACLNN_SUCCESS);
      EXPECT_EQ(aclDestroyTensorList(vl), ACLNN_SUCCESS);
      if (lens != nullptr) {
        EXPECT_EQ(aclDestroyIntArray(lens), ACLNN_SUCCESS);
      }
    }
    ASSERT_GT(ws, 0u);
    void* workspace = alloc(ws);
    ASSERT_EQ(aclnnFlashAttentionScore(workspace, ws, ex, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);

    const double tol = c.dtype == ACL_FLOAT16 ? 2e-3 : 1e-2;
    // The inputs as rounded to their type, in double.
    std::vector<double> qd(static_cast<std::size_t>(q_count)),
        kd(static_cast<std::size_t>(kv_count)), vd(static_cast<std::size_t>(kv_count));
    for (std::int64_t i = 0; i < q_count; ++i)
      qd[static_cast<std::size_t>(i)] = static_cast<double>(nn::load(dt, q, i));
    for (std::int64_t i = 0; i < kv_count; ++i) {
      kd[static_cast<std::size_t>(i)] = static_cast<double>(nn::load(dt, k, i));
      vd[static_cast<std::size_t>(i)] = static_cast<double>(nn::load(dt, v, i));
    }
    const std::int64_t group = c.n / c.n2;
    std::vector<double> s(static_cast<std::size_t>(c.skv));
    for (std::int64_t bi = 0; bi < c.b; ++bi) {
      for (std::int64_t ni = 0; ni < c.n; ++ni) {
        for (std::int64_t i = 0; i < c.sq; ++i) {
          const std::int64_t qo = offset(c, c.n, c.sq, bi, ni, i);
          double max = -1e300;
          auto shift = [&](std::int64_t bb, std::int64_t hh, std::int64_t ii, std::int64_t jj) {
            if (c.pse == 0) return 0.0;
            const std::int64_t pb = pse_b == 1 ? 0 : bb, pi = pse_s == 1 ? 0 : ii;
            return pse[static_cast<std::size_t>(((pb * c.n + hh) * pse_s + pi) * c.skv + jj)];
          };
          const std::int64_t keys =
              c.kv_lens.empty() ? c.skv : c.kv_lens[static_cast<std::size_t>(bi)];
          for (std::int64_t j = 0; j < c.skv; ++j) {
            const std::int64_t ko = offset(c, c.n2, c.skv, bi, ni / group, j);
            double dot = 0;
            for (std::int64_t e = 0; e < c.d; ++e)
              dot += qd[static_cast<std::size_t>(qo + e)] * kd[static_cast<std::size_t>(ko + e)];
            s[static_cast<std::size_t>(j)] =
                j < keys && visible(c, mask, bi, ni, i, j)
                    ? (dot + shift(bi, ni, i, j)) * static_cast<double>(static_cast<float>(scale))
                    : -3.0e38;
            max = std::max(max, s[static_cast<std::size_t>(j)]);
          }
          double sum = 0;
          for (double& x : s) sum += (x = std::exp(x - max));
          const std::int64_t row = (bi * c.n + ni) * c.sq + i;
          for (int e = 0; e < 8 && c.api == Api::kFlashAttentionScore; ++e) {
            ASSERT_NEAR(static_cast<float*>(smax)[row * 8 + e], max, 1e-4)
                << "b " << bi << " n " << ni << " row " << i;
            ASSERT_NEAR(static_cast<float*>(ssum)[row * 8 + e], sum, 1e-4 * sum)
                << "b " << bi << " n " << ni << " row " << i;
          }
          for (std::int64_t e = 0; e < c.d; ++e) {
            double o = 0;
            for (std::int64_t j = 0; j < c.skv; ++j) {
              const std::int64_t vo = offset(c, c.n2, c.skv, bi, ni / group, j);
              o += s[static_cast<std::size_t>(j)] * vd[static_cast<std::size_t>(vo + e)];
            }
            const std::int64_t oo = offset(co, c.n, c.sq, bi, ni, i);
            ASSERT_NEAR(static_cast<double>(nn::load(dt, out, oo + e)), o / sum, tol)
                << "b " << bi << " n " << ni << " row " << i << " col " << e;
          }
        }
      }
    }
    // One MIX kernel, on min(work items, cube cores) blocks.
    const auto& tasks = fake().tasks();
    ASSERT_FALSE(tasks.empty());
    const auto& kernel = tasks.back().kernel;
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->core_type, models::CoreType::kMix);
    EXPECT_EQ(kernel->name, c.api == Api::kFlashAttentionScore ? "FlashAttentionScore"
                            : c.api == Api::kPrompt            ? "PromptFlashAttention"
                                                               : "IncreFlashAttention");
    EXPECT_GE(kernel->block_dim, 1u);
    if (c.expect_blocks != 0) {
      EXPECT_EQ(kernel->block_dim, c.expect_blocks);
    }
    EXPECT_LE(kernel->block_dim, static_cast<std::uint32_t>(c.b * c.n * ((c.sq + 15) / 16)));
  }
};

TEST_F(AttentionTest, SingleTokenBnsd) { run({1, 1, 1, 1, 1, 64}); }

TEST_F(AttentionTest, OddLengthsBnsdTwoHeads) { run({1, 2, 2, 17, 17, 64}); }

TEST_F(AttentionTest, FullTilesBnsdHeadDim128) { run({2, 2, 2, 128, 128, 128}); }

TEST_F(AttentionTest, SeveralKeyTilesBnsd) { run({1, 1, 1, 300, 300, 64}); }

TEST_F(AttentionTest, ShortQueryLongKeys) { run({2, 1, 1, 17, 300, 128}, 0.0883883); }

TEST_F(AttentionTest, CausalBshSparseMode2) {
  run(Case{1, 2, 2, 300, 300, 64}.in("BSH").masked(Mask::kCausal));
}

TEST_F(AttentionTest, CausalByAttenMaskUint8) {
  run(Case{1, 2, 2, 130, 130, 64}.masked(Mask::kTensor2d));
}

TEST_F(AttentionTest, RandomBoolMask4d) { run(Case{2, 2, 2, 40, 150, 64}.masked(Mask::kRandom4d)); }

TEST_F(AttentionTest, BandFromPreAndNextTokens) {
  Case c{1, 1, 1, 200, 200, 64};
  c.mask = Mask::kBand;
  c.pre = 50;
  c.next = 3;
  run(c);
}

TEST_F(AttentionTest, RightDownCausalSparseMode3) {
  run(Case{1, 1, 1, 40, 170, 64}.masked(Mask::kRightDown));
}

TEST_F(AttentionTest, GroupedQueryHeadsBnsd) { run({1, 4, 2, 33, 70, 64}); }

TEST_F(AttentionTest, GroupedQueryHeadsBsh) { run(Case{2, 4, 1, 17, 40, 64}.in("BSH")); }

TEST_F(AttentionTest, Bfloat16Bsnd) {
  Case c{1, 2, 2, 70, 130, 128};
  c.layout = "BSND";
  c.dtype = ACL_BF16;
  run(c);
}

TEST_F(AttentionTest, SbhLayoutCausal) {
  run(Case{2, 2, 2, 45, 45, 64}.in("SBH").masked(Mask::kCausal));
}

TEST_F(AttentionTest, HeadDims16And80And256) {
  run({1, 1, 1, 40, 150, 16});
  run({1, 2, 1, 33, 40, 80});
  run({1, 1, 1, 70, 140, 256}, 0.0625);  // query tiles of 32 rows: 256-wide rows fill UB
}

TEST_F(AttentionTest, RealShiftShapes) {
  Case c{2, 2, 2, 70, 150, 64};
  for (int kind : {1, 2, 3}) {
    c.pse = kind;
    c.mask = kind == 1 ? Mask::kCausal : Mask::kNone;
    run(c);
  }
}

TEST_F(AttentionTest, PromptCausalMaskBsh) {
  Case c{2, 2, 2, 140, 140, 64};
  c.layout = "BSH";
  c.api = Api::kPrompt;
  c.mask = Mask::kTensor2d;
  run(c);
}

TEST_F(AttentionTest, PromptBandGroupedHeadsBnsd) {
  Case c{1, 4, 2, 100, 100, 128};
  c.api = Api::kPrompt;
  c.mask = Mask::kBand;
  c.pre = 2147483647;
  c.next = 0;  // causal through the band
  c.kv_heads_arg = 2;
  run(c);
}

TEST_F(AttentionTest, PromptBnsdInBsndOut) {
  Case c{2, 2, 1, 40, 60, 64};
  c.api = Api::kPrompt;
  c.out_layout = "BSND";  // inputLayout "BNSD_BSND"
  c.kv_heads_arg = 1;
  run(c);
}

TEST_F(AttentionTest, PromptWithoutMaskIgnoresTheBand) {
  Case c{1, 2, 2, 33, 33, 64};
  c.layout = "BSND";
  c.api = Api::kPrompt;
  c.pre = 2147483647;
  c.next = 0;
  run(c);  // reference: no masking (mask kNone), though nextTokens is 0
}

TEST_F(AttentionTest, IncreKvCacheLengthsAndMaskBsh) {
  Case c{3, 4, 1, 1, 300, 64};
  c.layout = "BSH";
  c.api = Api::kIncre;
  c.mask = Mask::kBatchRow;
  c.kv_lens = {300, 17, 129};
  c.kv_heads_arg = 1;
  c.expect_blocks = 3;  // one work item per batch: its 4 query heads share the one KV head
  run(c);
}

TEST_F(AttentionTest, IncreGroupedHeadsPerHeadMaskBnsd) {
  Case c{2, 8, 2, 1, 200, 64};  // 4 query heads per KV head: one query tile of 4 rows
  c.api = Api::kIncre;
  c.mask = Mask::kRandom4d;  // [B, N, 1, Skv]
  c.kv_lens = {200, 90};
  c.kv_heads_arg = 2;
  c.expect_blocks = 4;  // B x KV heads work items
  run(c);
}

TEST_F(AttentionTest, IncreBf16Bnsd) {
  Case c{2, 2, 2, 1, 70, 128};
  c.api = Api::kIncre;
  c.dtype = ACL_BF16;
  run(c);
}

TEST_F(AttentionTest, InferenceFormsRefuseBadArguments) {
  void* buf = alloc(1 << 16);
  auto t = [&](std::vector<std::int64_t> s, aclDataType type = ACL_FLOAT16) {
    return tensor(s, type, buf);
  };
  char bsh[] = "BSH", sbh[] = "SBH";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* q = t({2, 16, 128});
  aclTensor* kv = t({2, 16, 128});
  EXPECT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, nullptr, nullptr, nullptr, 2, 1.0,
                                                      2147483647, 0, sbh, 0, q, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, kv, nullptr, nullptr, 2, 1.0,
                                                      2147483647, 0, bsh, 0, q, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // pseShift
  EXPECT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, nullptr, nullptr, nullptr, 2, 1.0,
                                                      2147483647, 0, bsh, 1, q, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // numKeyValueHeads 1, key has 2
  aclIntArray* lens = ints({16, 9});
  EXPECT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, nullptr, nullptr, lens, 2, 1.0,
                                                      2147483647, 0, bsh, 0, q, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, nullptr, nullptr, nullptr, 2, 1.0,
                                                      2147483647, 0, nullptr, 0, q, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  ASSERT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(q, kv, kv, nullptr, nullptr, nullptr, 2, 1.0,
                                                      2147483647, 0, bsh, 0, q, &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);

  const std::vector<std::int64_t> kv_shape = {2, 16, 128};
  auto list = [&](int count) {
    std::vector<const aclTensor*> ts;
    for (int i = 0; i < count; ++i) {
      ts.push_back(aclCreateTensor(kv_shape.data(), 3, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND,
                                   kv_shape.data(), 3, buf));
    }
    return aclCreateTensorList(ts.data(), ts.size());
  };
  aclTensorList* one = list(1);
  aclTensorList* two = list(2);
  aclTensor* q1 = t({2, 1, 128});
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q1, two, two, nullptr, nullptr, nullptr, 2,
                                                     1.0, bsh, 0, q1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // one tensor per batch is not supported
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q, one, one, nullptr, nullptr, nullptr, 2, 1.0,
                                                     bsh, 0, q, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // query sequence 16, not 1
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q1, nullptr, one, nullptr, nullptr, nullptr, 2,
                                                     1.0, bsh, 0, q1, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  aclIntArray* zero = ints({16, 0});
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q1, one, one, nullptr, nullptr, zero, 2, 1.0,
                                                     bsh, 0, q1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q1, one, one, nullptr, t({2, 15}, ACL_BOOL),
                                                     nullptr, 2, 1.0, bsh, 0, q1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // mask length is not Skv
  ASSERT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(q1, one, one, nullptr, t({2, 16}, ACL_BOOL),
                                                     nullptr, 2, 1.0, bsh, 0, q1, &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(one), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(two), ACLNN_SUCCESS);
}

TEST_F(AttentionTest, RepeatableExecutorTakesANewQueryAddress) {
  const std::int64_t s = 20, d = 32, count = s * d;
  void* q = alloc(count * 2);
  void* zero = alloc(count * 2);
  void* k = alloc(count * 2);
  void* v = alloc(count * 2);
  void* out = alloc(count * 2);
  void* stats = alloc(s * 8 * 4 * 2);
  for (std::int64_t i = 0; i < count; ++i) {
    nn::store(ACL_FLOAT16, q, i, 4.0 * wave(i, 1.0));
    nn::store(ACL_FLOAT16, zero, i, 0.0);
    nn::store(ACL_FLOAT16, k, i, wave(i, 1.37));
    nn::store(ACL_FLOAT16, v, i, wave(i, 0.59));
  }
  aclTensor* qt = tensor({1, 1, s, d}, ACL_FLOAT16, q);
  char layout[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnFlashAttentionScoreGetWorkspaceSize(
                qt, tensor({1, 1, s, d}, ACL_FLOAT16, k), tensor({1, 1, s, d}, ACL_FLOAT16, v),
                nullptr, nullptr, nullptr, nullptr, nullptr, 1.0, 1.0, 2147483647, 2147483647, 1,
                layout, 0, 0, tensor({1, 1, s, 8}, ACL_FLOAT, stats),
                tensor({1, 1, s, 8}, ACL_FLOAT, static_cast<char*>(stats) + s * 32), nullptr,
                tensor({1, 1, s, d}, ACL_FLOAT16, out), &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  void* workspace = alloc(ws);
  ASSERT_EQ(aclnnFlashAttentionScore(workspace, ws, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const long double first = nn::load(ACL_FLOAT16, out, 0);
  // A zero query: every key equally likely, each output the mean of value's column.
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, qt, zero), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnFlashAttentionScore(workspace, ws, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (std::int64_t e = 0; e < d; ++e) {
    double mean = 0;
    for (std::int64_t j = 0; j < s; ++j)
      mean += static_cast<double>(nn::load(ACL_FLOAT16, v, j * d + e)) / static_cast<double>(s);
    for (std::int64_t i = 0; i < s; ++i)
      ASSERT_NEAR(static_cast<double>(nn::load(ACL_FLOAT16, out, i * d + e)), mean, 2e-3);
  }
  EXPECT_NE(static_cast<double>(first), static_cast<double>(nn::load(ACL_FLOAT16, out, 0)));
  EXPECT_EQ(static_cast<float*>(stats)[0], 0.0f);  // the row maximum of all-zero scores
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
}

TEST_F(AttentionTest, BadArgumentsAreRefused) {
  void* buf = alloc(1 << 16);
  auto t = [&](std::vector<std::int64_t> s, aclDataType type = ACL_FLOAT16) {
    return tensor(s, type, buf);
  };
  aclTensor* q = t({1, 2, 16, 64});
  aclTensor* kv = t({1, 2, 16, 64});
  aclTensor* stat = t({1, 2, 16, 8}, ACL_FLOAT);
  aclTensor* out = t({1, 2, 16, 64});
  char bnsd[] = "BNSD", tnd[] = "TND";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](const aclTensor* qq, const aclTensor* kk, const aclTensor* pse,
                  const aclTensor* mask, double keep, std::int64_t heads, char* layout,
                  std::int64_t sparse, const aclTensor* smax, const aclTensor* o) {
    return aclnnFlashAttentionScoreGetWorkspaceSize(
        qq, kk, kk, pse, nullptr, nullptr, mask, nullptr, 0.125, keep, 2147483647, 2147483647,
        heads, layout, 0, sparse, smax, stat, nullptr, o, &ws, &ex);
  };
  ASSERT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 0, stat, out), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  EXPECT_EQ(call(nullptr, kv, nullptr, nullptr, 1.0, 2, bnsd, 0, stat, out),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, nullptr, 0, stat, out), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 0, nullptr, out), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, tnd, 0, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 0.9, 2, bnsd, 0, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, q, nullptr, 1.0, 2, bnsd, 0, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 4, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 1, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 4, bnsd, 0, stat, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, t({16, 15}, ACL_BOOL), 1.0, 2, bnsd, 0, stat, out),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, t({16, 16}, ACL_FLOAT), 1.0, 2, bnsd, 0, stat, out),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 0, t({1, 2, 16, 1}, ACL_FLOAT), out),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(q, kv, nullptr, nullptr, 1.0, 2, bnsd, 0, stat, t({1, 2, 16, 64}, ACL_BF16)),
            ACLNN_ERR_PARAM_INVALID);
  aclTensor* q32 = t({1, 2, 16, 64}, ACL_FLOAT);
  EXPECT_EQ(call(q32, t({1, 2, 16, 64}, ACL_FLOAT), nullptr, nullptr, 1.0, 2, bnsd, 0, stat,
                 t({1, 2, 16, 64}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(t({1, 3, 16, 64}), t({1, 2, 16, 64}), nullptr, nullptr, 1.0, 3, bnsd, 0,
                 t({1, 3, 16, 8}, ACL_FLOAT), t({1, 3, 16, 64})),
            ACLNN_ERR_PARAM_INVALID);  // 2 kv heads do not divide 3
  EXPECT_EQ(call(t({1, 2, 16, 72}), t({1, 2, 16, 72}), nullptr, nullptr, 1.0, 2, bnsd, 0, stat,
                 t({1, 2, 16, 72})),
            ACLNN_ERR_PARAM_INVALID);  // head dim not a multiple of 16
  EXPECT_EQ(call(q, t({1, 2, 16, 32}), nullptr, nullptr, 1.0, 2, bnsd, 0, stat, out),
            ACLNN_ERR_PARAM_INVALID);  // key head dim differs
}

}  // namespace
}  // namespace npusim::rt::testing
