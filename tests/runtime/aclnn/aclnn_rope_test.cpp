// SPDX-License-Identifier: Apache-2.0
// RotaryPositionEmbedding and ApplyRotaryPosEmb (runtime/aclnn/shape.cpp) on the Ascend C twin
// through FakeBackend against a double host reference. Tolerances: float 1e-5 relative to
// |x*cos| + |rot(x)*sin|, FLOAT16 2e-3 and BF16 1e-2 (one rounding of the float result plus the
// rounded inputs).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn/shape_support.h"

namespace npusim::rt::testing::shape_test {
namespace {

// ------------------------------------------------------------------------------- RoPE

// y = x*cos + rot(x)*sin in double; also |x*cos| + |rot*sin| for the tolerance.
void rope_ref(const std::vector<double>& x, const std::vector<double>& c,
              const std::vector<double>& s, const std::vector<std::int64_t>& xs,
              const std::vector<std::int64_t>& cs, int mode, std::vector<double>& y,
              std::vector<double>& mag) {
  const std::size_t rank = xs.size();
  const std::int64_t d = xs.back();
  const std::int64_t rows = numel(xs) / d;
  y.assign(x.size(), 0);
  mag.assign(x.size(), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t rem = r, crow = 0, cstride = 1;
    for (std::size_t k = rank - 1; k-- > 0;) {
      const std::int64_t v = rem % xs[k];
      rem /= xs[k];
      if (cs[k] != 1) crow += v * cstride;
      cstride *= cs[k];
    }
    for (std::int64_t j = 0; j < d; ++j) {
      const double xv = x[static_cast<std::size_t>(r * d + j)];
      double rv;
      if (mode == 0) {
        rv = j < d / 2 ? -x[static_cast<std::size_t>(r * d + j + d / 2)]
                       : x[static_cast<std::size_t>(r * d + j - d / 2)];
      } else {
        rv = j % 2 == 0 ? -x[static_cast<std::size_t>(r * d + j + 1)]
                        : x[static_cast<std::size_t>(r * d + j - 1)];
      }
      const double cv = c[static_cast<std::size_t>(crow * d + j)];
      const double sv = s[static_cast<std::size_t>(crow * d + j)];
      y[static_cast<std::size_t>(r * d + j)] = xv * cv + rv * sv;
      mag[static_cast<std::size_t>(r * d + j)] = std::fabs(xv * cv) + std::fabs(rv * sv);
    }
  }
}

TEST_F(ShapeOpsTest, RotaryPositionEmbeddingMatchesTheReference) {
  struct Case {
    std::vector<std::int64_t> xs, cs;
    int mode;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4, 8}, {1, 1, 4, 8}, 0, ACL_FLOAT, 1e-5},        // BNSD with 11SD
      {{2, 3, 4, 8}, {1, 1, 4, 8}, 1, ACL_FLOAT, 1e-5},        // interleave
      {{2, 3, 5, 64}, {2, 3, 5, 64}, 0, ACL_FLOAT, 1e-5},      // full cos/sin
      {{2, 40, 3, 128}, {1, 40, 1, 128}, 0, ACL_FLOAT, 1e-5},  // BSND with 1S1D, many blocks
      {{5, 2, 16}, {5, 1, 16}, 0, ACL_FLOAT, 1e-5},            // TND with T1D
      {{1, 2, 7, 128}, {1, 1, 7, 128}, 0, ACL_FLOAT16, 2e-3},
      {{3, 2, 7, 6}, {1, 1, 7, 6}, 1, ACL_BF16, 1e-2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("mode " + std::to_string(c.mode) + " type " + std::to_string(c.type) + " d " +
                 std::to_string(c.xs.back()));
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    const std::int64_t nx = numel(c.xs), nc = numel(c.cs);
    auto make = [&](std::int64_t n, double scale, std::uint32_t seed, std::vector<double>& vals) {
      auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
      vals.resize(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const float f = static_cast<float>(scale * std::sin(0.37 * static_cast<double>(i) + seed));
        aclnn::store(c.type, p, i, f);  // rounded to the type, as the device holds it
        vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(c.type, p, i));
      }
      return p;
    };
    std::vector<double> xv, cv, sv, want, mag;
    auto* x = make(nx, 3.0, 1, xv);
    auto* co = make(nc, 1.0, 2, cv);
    auto* si = make(nc, 1.0, 3, sv);
    auto* y = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(nx) * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(
                  tensor(c.xs, c.type, x), tensor(c.cs, c.type, co), tensor(c.cs, c.type, si),
                  c.mode, tensor(c.xs, c.type, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnRotaryPositionEmbedding, ws, ex), ACL_SUCCESS);
    rope_ref(xv, cv, sv, c.xs, c.cs, c.mode, want, mag);
    for (std::int64_t i = 0; i < nx; ++i) {
      const auto got = static_cast<double>(aclnn::load(c.type, y, i));
      const auto k = static_cast<std::size_t>(i);
      ASSERT_NEAR(got, want[k], c.tol * (mag[k] + std::fabs(want[k])) + 1e-30) << "element " << i;
    }
  }
}

TEST_F(ShapeOpsTest, ApplyRotaryPosEmbRotatesQueryAndKeyInPlace) {
  struct Case {
    std::vector<std::int64_t> qs, ks, cs;
    int64_t layout;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4, 16}, {2, 3, 2, 16}, {2, 3, 1, 16}, 1, ACL_FLOAT, 1e-5},  // BSND
      {{1, 70, 8, 64}, {1, 70, 1, 64}, {1, 70, 1, 64}, 1, ACL_FLOAT16, 2e-3},
      {{5, 4, 8}, {5, 2, 8}, {5, 1, 8}, 4, ACL_BF16, 1e-2},  // TND
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("layout " + std::to_string(c.layout) + " type " + std::to_string(c.type));
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto make = [&](const std::vector<std::int64_t>& shape, double scale, int seed,
                    std::vector<double>& vals) {
      const std::int64_t n = numel(shape);
      auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
      vals.resize(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const float f = static_cast<float>(scale * std::cos(0.29 * static_cast<double>(i) + seed));
        aclnn::store(c.type, p, i, f);
        vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(c.type, p, i));
      }
      return p;
    };
    std::vector<double> qv, kv, cv, sv;
    auto* q = make(c.qs, 2.0, 1, qv);
    auto* k = make(c.ks, 2.0, 2, kv);
    auto* co = make(c.cs, 1.0, 3, cv);
    auto* si = make(c.cs, 1.0, 4, sv);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(
                  tensor(c.qs, c.type, q), tensor(c.ks, c.type, k), tensor(c.cs, c.type, co),
                  tensor(c.cs, c.type, si), c.layout, &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnApplyRotaryPosEmb, ws, ex), ACL_SUCCESS);
    EXPECT_EQ(last_kernel().name, "ApplyRotaryPosEmb");
    for (int which = 0; which < 2; ++which) {
      const auto& shape = which == 0 ? c.qs : c.ks;
      const auto& in = which == 0 ? qv : kv;
      const std::uint8_t* got_p = which == 0 ? q : k;
      std::vector<double> want, mag;
      rope_ref(in, cv, sv, shape, c.cs, 0, want, mag);
      for (std::size_t i = 0; i < want.size(); ++i) {
        const auto got = static_cast<double>(
            aclnn::load(c.type, got_p, static_cast<std::int64_t>(i)));
        ASSERT_NEAR(got, want[i], c.tol * (mag[i] + std::fabs(want[i])) + 1e-30)
            << (which == 0 ? "query" : "key") << " element " << i;
      }
    }
  }
  aclTensor* q = arg({1, 2, 4, 8});
  aclTensor* k = arg({1, 2, 2, 8});
  aclTensor* cs = arg({1, 2, 1, 8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(nullptr, k, cs, cs, 1, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, cs, nullptr, 1, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, cs, cs, 2, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // layout
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, arg({1, 3, 2, 8}), cs, cs, 1,
                                                   &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // S differs
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, arg({1, 2, 2, 8}),
                                                   arg({1, 2, 2, 8}), 1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // cos N != 1
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, arg({1, 2, 2, 8}, ACL_FLOAT16), cs, cs,
                                                   1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // types differ
}

TEST_F(ShapeOpsTest, RotaryPositionEmbeddingRejectsBadArguments) {
  aclTensor* x = arg({1, 2, 3, 8});
  aclTensor* cs = arg({1, 1, 3, 8});
  aclTensor* out = arg({1, 2, 3, 8});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(nullptr, cs, cs, 0, out, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, nullptr, cs, 0, out, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cs, cs, 0, nullptr, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  aclTensor* xi = arg({1, 2, 3, 8}, ACL_INT32);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(xi, xi, xi, 0, xi, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cs, cs, 2, out, &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // mode not supported
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, arg({1, 1, 3, 4}),
                                                         arg({1, 1, 3, 4}), 0, out,
                                                         &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // D differs
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(
                x, cs, cs, 0, arg({1, 2, 4, 8}), &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // out shape
  aclTensor* odd = arg({1, 2, 3, 7});
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(odd, odd, odd, 0, odd, &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // odd D
}

}  // namespace
}  // namespace npusim::rt::testing::shape_test
