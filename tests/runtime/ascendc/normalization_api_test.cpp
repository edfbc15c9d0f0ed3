// SPDX-License-Identifier: Apache-2.0
// The normalization high-level APIs of the twin (lib/normalization: LayerNorm in both forms,
// Normalize, RmsNorm, DeepNorm, LayerNormGrad, LayerNormGradBeta, WelfordUpdate,
// WelfordFinalize) and their host tiling (tiling/tiling_api.h): values against references
// computed here in double (Welford: the float steps exactly), the vector instructions each pass
// records, passes over less temporary space giving the same values, the simulated time growing
// with the rows, and the errors naming the API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hl_harness.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using hl_test::as;
using hl_test::bytes_of;
using hl_test::Io;
using hl_test::Tensors;
using hl_test::values_of;
using npusim::ascendc::Op;

std::vector<float> wave(std::size_t n, float scale, float phase) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = scale * std::sin(0.37f * static_cast<float>(i) + phase) + 0.1f * scale;
  }
  return v;
}

void expect_near_rel(const std::vector<float>& got, const std::vector<double>& want, double rel,
                     const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], rel * (1 + std::fabs(want[i]))) << what << " element " << i;
  }
}

// ---- LayerNorm, [B, S, H] ----

struct Rowwise {
  std::uint32_t rows, pitch, valid;
};

struct LnRef {
  std::vector<double> y, mean, var;
};

LnRef layernorm_ref(const std::vector<float>& x, const std::vector<float>& gamma,
                    const std::vector<float>& beta, Rowwise s, double eps) {
  LnRef r{std::vector<double>(x.size()), std::vector<double>(s.rows), std::vector<double>(s.rows)};
  for (std::uint32_t i = 0; i < s.rows; ++i) {
    double m = 0, v = 0;
    for (std::uint32_t j = 0; j < s.valid; ++j) m += x[i * s.pitch + j];
    m /= s.valid;
    for (std::uint32_t j = 0; j < s.valid; ++j) v += std::pow(x[i * s.pitch + j] - m, 2);
    v /= s.valid;
    r.mean[i] = m;
    r.var[i] = v;
    for (std::uint32_t j = 0; j < s.pitch; ++j) {
      r.y[i * s.pitch + j] = (x[i * s.pitch + j] - m) / std::sqrt(v + eps) * gamma[j] + beta[j];
    }
  }
  return r;
}

/// The valid columns of each row only (padding columns are unspecified).
std::vector<double> valid_of(const std::vector<double>& v, Rowwise s) {
  std::vector<double> out;
  for (std::uint32_t i = 0; i < s.rows; ++i)
    for (std::uint32_t j = 0; j < s.valid; ++j) out.push_back(v[i * s.pitch + j]);
  return out;
}
std::vector<float> valid_of(const std::vector<float>& v, Rowwise s) {
  std::vector<float> out;
  for (std::uint32_t i = 0; i < s.rows; ++i)
    for (std::uint32_t j = 0; j < s.valid; ++j) out.push_back(v[i * s.pitch + j]);
  return out;
}

struct LnParams {
  ::LayerNormTiling tiling;
  float eps;
};

// buffers: y, mean, var, x, gamma, beta
void call_layernorm(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& lp = *static_cast<const LnParams*>(p);
  if (tmp.GetSize() != 0) {
    LayerNorm<float, false>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), as<float>(t, 3),
                            as<float>(t, 4), as<float>(t, 5), tmp, lp.eps, lp.tiling);
  } else {
    LayerNorm<float, false>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), as<float>(t, 3),
                            as<float>(t, 4), as<float>(t, 5), lp.eps, lp.tiling);
  }
}

struct LnRun {
  npusim::ascendc::RunResult run;
  std::vector<float> y, mean, var;
};

LnRun run_layernorm(Rowwise s, std::uint32_t tmp_bytes, const ::LayerNormTiling& tiling) {
  const auto x = wave(s.rows * s.pitch, 3.0f, 0.2f);
  const auto gamma = wave(s.pitch, 1.5f, 1.0f), beta = wave(s.pitch, 0.5f, 2.0f);
  LnParams p{tiling, 1e-5f};
  Io io{{bytes_of(std::vector<float>(x.size())), bytes_of(std::vector<float>(s.rows)),
         bytes_of(std::vector<float>(s.rows)), bytes_of(x), bytes_of(gamma), bytes_of(beta)},
        tmp_bytes,
        &call_layernorm,
        &p};
  LnRun r{hl_test::run(io), values_of<float>(io.bufs[0]), values_of<float>(io.bufs[1]),
          values_of<float>(io.bufs[2])};
  return r;
}

::LayerNormTiling ln_tiling(Rowwise s, std::uint32_t b, std::uint32_t stack) {
  ::LayerNormTiling t;
  GetLayerNormNDTilingInfo(TensorShape({b, s.rows / b, s.pitch, s.valid}), stack, 4, false, t);
  return t;
}

const std::vector<Op> kLayerNormPass = {Op::kMuls, Op::kReduceSum, Op::kDuplicate, Op::kSub,
                                        Op::kMul,  Op::kMuls,      Op::kReduceSum, Op::kDuplicate,
                                        Op::kAdds, Op::kSqrt,      Op::kDiv,       Op::kDuplicate,
                                        Op::kMul,  Op::kDuplicate, Op::kAdd};

TEST(NormApi, LayerNormMatchesTheFormulaInOneOrManyPasses) {
  const Rowwise s{8, 24, 20};  // B = 2, S = 4, H = 24 of which 20 valid
  uint32_t max = 0, min = 0;
  GetLayerNormMaxMinTmpSize(TensorShape({2, 4, 24, 20}), 4, false, max, min);
  EXPECT_EQ(max, 2u * 8 * 24 * 4);
  EXPECT_EQ(min, 2u * 24 * 4);
  const LnRun whole = run_layernorm(s, max, ln_tiling(s, 2, max));
  ASSERT_TRUE(whole.run.ok()) << whole.run.first_error();
  const auto x = wave(s.rows * s.pitch, 3.0f, 0.2f);
  const LnRef ref = layernorm_ref(x, wave(24, 1.5f, 1.0f), wave(24, 0.5f, 2.0f), s, 1e-5);
  expect_near_rel(valid_of(whole.y, s), valid_of(ref.y, s), 2e-5, "y");
  expect_near_rel(whole.mean, ref.mean, 1e-6, "mean");
  expect_near_rel(whole.var, ref.var, 1e-5, "variance");
  EXPECT_EQ(hl_test::vector_ops(whole.run), kLayerNormPass);

  const LnRun rowwise = run_layernorm(s, min, ln_tiling(s, 2, min));
  const LnRun framework = run_layernorm(s, 0, ln_tiling(s, 2, max));
  ASSERT_TRUE(rowwise.run.ok()) << rowwise.run.first_error();
  ASSERT_TRUE(framework.run.ok()) << framework.run.first_error();
  EXPECT_EQ(rowwise.y, whole.y);
  EXPECT_EQ(framework.y, whole.y);
  EXPECT_EQ(rowwise.var, whole.var);
  EXPECT_EQ(hl_test::vector_ops(rowwise.run).size(), kLayerNormPass.size() * 8);  // a row a pass
  EXPECT_GT(hl_test::block_time(rowwise.run), hl_test::block_time(whole.run));
}

TEST(NormApi, LayerNormTimeGrowsWithTheRows) {
  const Rowwise small{8, 64, 64}, big{64, 64, 64};
  const LnRun a = run_layernorm(small, 2 * 64 * 64 * 4, ln_tiling(small, 1, 2 * 64 * 64 * 4));
  const LnRun b = run_layernorm(big, 2 * 64 * 64 * 4, ln_tiling(big, 1, 2 * 64 * 64 * 4));
  ASSERT_TRUE(a.run.ok() && b.run.ok()) << a.run.first_error() << b.run.first_error();
  EXPECT_EQ(hl_test::vector_ops(b.run), kLayerNormPass);  // 64 rows still one pass
  for (const auto& in : b.run.blocks[0].trace.instrs) {
    if (in.op == Op::kSub) {
      EXPECT_EQ(in.count, 64u * 64);
    }
  }
  EXPECT_GT(hl_test::block_time(b.run), 2 * hl_test::block_time(a.run));
}

TEST(NormApi, TooLittleTemporarySpaceFailsNamingTheApi) {
  const Rowwise s{4, 16, 16};
  const LnRun r = run_layernorm(s, 64, ln_tiling(s, 1, 64));
  ASSERT_FALSE(r.run.ok());
  EXPECT_NE(r.run.first_error().find("LayerNorm: temporary space of 64 bytes holds no row: one "
                                     "row needs 128 bytes"),
            std::string::npos)
      << r.run.first_error();
}

// ---- LayerNorm, [A, R] with rstd; Normalize ----

struct ArParams {
  LayerNormPara para;
  float eps;
};

// buffers: y, mean, rstd, x, gamma, beta
void call_layernorm_rstd(const Tensors& t, const LocalTensor<std::uint8_t>&, const void* p) {
  const auto& ap = *static_cast<const ArParams*>(p);
  static constexpr LayerNormConfig kNoBeta{true, false, false, true};
  LayerNorm<float, float, false, kNoBeta>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2),
                                          as<float>(t, 3), as<float>(t, 4), as<float>(t, 5), ap.eps,
                                          ap.para, LayerNormSeparateTiling{});
}

// buffers: y, rstd, mean, variance, x, gamma, beta
void call_normalize(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& ap = *static_cast<const ArParams*>(p);
  const NormalizePara para{ap.para.aLength, ap.para.rLength, ap.para.rLengthWithPadding};
  Normalize<float, float>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), as<float>(t, 3),
                          as<float>(t, 4), as<float>(t, 5), as<float>(t, 6), tmp, ap.eps, para);
}

TEST(NormApi, LayerNormRstdFormAndNormalizeAgree) {
  const Rowwise s{5, 24, 20};
  const auto x = wave(s.rows * s.pitch, 4.0f, 0.5f);
  const auto gamma = wave(24, 1.0f, 0.3f), beta = wave(24, 0.7f, 1.3f);
  ArParams p{{s.rows, s.valid, s.pitch}, 1e-4f};
  Io ln{{bytes_of(std::vector<float>(x.size())), bytes_of(std::vector<float>(8)),
         bytes_of(std::vector<float>(8)), bytes_of(x), bytes_of(gamma), bytes_of(beta)},
        0,
        &call_layernorm_rstd,
        &p};
  const auto r = hl_test::run(ln);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const LnRef ref = layernorm_ref(x, gamma, std::vector<float>(24, 0.0f), s, 1e-4);
  const auto y = values_of<float>(ln.bufs[0]);
  const auto mean = values_of<float>(ln.bufs[1]), rstd = values_of<float>(ln.bufs[2]);
  expect_near_rel(valid_of(y, s), valid_of(ref.y, s), 2e-5, "y (no beta)");
  for (std::uint32_t i = 0; i < s.rows; ++i) {
    EXPECT_NEAR(mean[i], ref.mean[i], 1e-5 * (1 + std::fabs(ref.mean[i])));
    EXPECT_NEAR(rstd[i], 1 / std::sqrt(ref.var[i] + 1e-4), 1e-5 * rstd[i]);
  }
  EXPECT_EQ(hl_test::vector_ops(r).size(), 14u);  // one pass, without beta's Broadcast + Add

  // Normalize from the same mean and variance gives LayerNorm's y plus beta.
  std::vector<float> var(8);
  for (std::uint32_t i = 0; i < s.rows; ++i) var[i] = static_cast<float>(ref.var[i]);
  uint32_t max = 0, min = 0;
  GetNormalizeMaxMinTmpSize(TensorShape({s.rows, s.valid}), 4, 4, false, true, false, max, min);
  EXPECT_EQ(min, 2u * 24 * 4);
  Io nz{{bytes_of(std::vector<float>(x.size())), bytes_of(std::vector<float>(8)),
         bytes_of(std::vector<float>(mean.begin(), mean.end())), bytes_of(var), bytes_of(x),
         bytes_of(gamma), bytes_of(beta)},
        min,
        &call_normalize,
        &p};
  const auto rn = hl_test::run(nz);
  ASSERT_TRUE(rn.ok()) << rn.first_error();
  const auto ny = values_of<float>(nz.bufs[0]);
  const auto nrstd = values_of<float>(nz.bufs[1]);
  for (std::uint32_t i = 0; i < s.rows; ++i) {
    EXPECT_NEAR(nrstd[i], rstd[i], 1e-5 * rstd[i]);
    for (std::uint32_t j = 0; j < s.valid; ++j) {
      const float want = y[i * s.pitch + j] + beta[j];
      EXPECT_NEAR(ny[i * s.pitch + j], want, 1e-5 * (1 + std::fabs(want)));
    }
  }
  EXPECT_EQ(hl_test::vector_ops(rn).size(), 11u * s.rows);  // a row a pass
}

// ---- RmsNorm ----

struct RmsParams {
  ::RmsNormTiling tiling;
  float eps;
};

void call_rmsnorm(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& rp = *static_cast<const RmsParams*>(p);
  RmsNorm<float>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), tmp, rp.eps, rp.tiling);
}

TEST(NormApi, RmsNormPassesFollowTheTiling) {
  const std::uint32_t rows = 16, h = 64;
  const auto x = wave(rows * h, 2.0f, 0.1f), gamma = wave(h, 1.0f, 0.9f);
  uint32_t max = 0, min = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(TensorShape({2, 8, h}), 4, max, min));
  EXPECT_EQ(min, (64u + 8) * 4);
  const std::uint32_t three_rows = (3 * h + 8) * 4;
  RmsParams p{{}, 1e-5f};
  ASSERT_TRUE(GetRmsNormTilingInfo(TensorShape({2, 8, h}), TensorShape({2, 8, h}), three_rows, 4,
                                   p.tiling));
  EXPECT_EQ(p.tiling.mainBsLength, 3u);
  EXPECT_EQ(p.tiling.loopRound, 5u);
  EXPECT_EQ(p.tiling.tailBsLength, 1u);
  Io io{{bytes_of(std::vector<float>(x.size())), bytes_of(x), bytes_of(gamma)},
        three_rows,
        &call_rmsnorm,
        &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto y = values_of<float>(io.bufs[0]);
  for (std::uint32_t i = 0; i < rows; ++i) {
    double ms = 0;
    for (std::uint32_t j = 0; j < h; ++j) ms += double{x[i * h + j]} * x[i * h + j];
    const double rms = std::sqrt(ms / h + 1e-5);
    for (std::uint32_t j = 0; j < h; ++j) {
      const double want = x[i * h + j] / rms * gamma[j];
      ASSERT_NEAR(y[i * h + j], want, 2e-6 * (1 + std::fabs(want))) << i << ", " << j;
    }
  }
  const auto ops = hl_test::vector_ops(r);
  EXPECT_EQ(ops.size(), 9u * 6);  // 6 passes of Mul Muls Sum Adds Sqrt Bcast Div Bcast Mul
  // Less space than the tiling was made for fails.
  io.tmp_bytes = three_rows - 32;
  const auto bad = hl_test::run(io);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.first_error().find("RmsNorm: temporary space of"), std::string::npos)
      << bad.first_error();
}

// ---- DeepNorm ----

struct DeepParams {
  ::DeepNormTiling tiling;
  float alpha, eps;
};

// buffers: y, mean, variance, x, gx, beta, gamma
void call_deepnorm(const Tensors& t, const LocalTensor<std::uint8_t>&, const void* p) {
  const auto& dp = *static_cast<const DeepParams*>(p);
  DeepNorm<float, false, true>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), as<float>(t, 3),
                               as<float>(t, 4), as<float>(t, 5), as<float>(t, 6), dp.alpha, dp.eps,
                               dp.tiling);
}

TEST(NormApi, DeepNormIsLayerNormOfAlphaXPlusGx) {
  const Rowwise s{8, 64, 64};
  const auto x = wave(s.rows * s.pitch, 2.0f, 0.4f), gx = wave(s.rows * s.pitch, 5.0f, 1.7f);
  const auto gamma = wave(64, 1.0f, 0.2f), beta = wave(64, 1.0f, 2.2f);
  DeepParams p{{}, -1.5f, 1e-3f};
  uint32_t max = 0, min = 0;
  ASSERT_TRUE(GetDeepNormMaxMinTmpSize(TensorShape({2, 4, 64}), 4, false, true, max, min));
  ASSERT_TRUE(GetDeepNormTilingInfo(TensorShape({2, 4, 64}), TensorShape({2, 4, 64}), min, 4, false,
                                    true, p.tiling));
  EXPECT_FALSE(GetDeepNormTilingInfo(TensorShape({2, 3, 64}), TensorShape({2, 3, 64}), min, 4,
                                     false, true, p.tiling));  // 6 rows: not basic blocks
  Io io{
      {bytes_of(std::vector<float>(x.size())), bytes_of(std::vector<float>(8)),
       bytes_of(std::vector<float>(8)), bytes_of(x), bytes_of(gx), bytes_of(beta), bytes_of(gamma)},
      0,
      &call_deepnorm,
      &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  std::vector<float> x1(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x1[i] = -1.5f * x[i] + gx[i];
  const LnRef ref = layernorm_ref(x1, gamma, beta, s, 1e-3);
  expect_near_rel(values_of<float>(io.bufs[0]), ref.y, 2e-5, "y");
  expect_near_rel(values_of<float>(io.bufs[1]), ref.mean, 1e-5, "mean");
  expect_near_rel(values_of<float>(io.bufs[2]), ref.var, 1e-5, "variance");
  EXPECT_EQ(hl_test::vector_ops(r).size(), 2u + kLayerNormPass.size());  // Muls, Add, LayerNorm
}

// ---- LayerNormGrad, LayerNormGradBeta ----

struct GradParams {
  ::LayerNormGradTiling grad;
  ::LayerNormGradBetaTiling beta;
  float eps;
};

// buffers: pd_x, res, dy, x, variance, mean, gamma, pd_gamma, pd_beta
void call_grad(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& gp = *static_cast<const GradParams*>(p);
  LocalTensor<std::uint8_t> shared = tmp;
  LayerNormGrad<float>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2), as<float>(t, 3),
                       as<float>(t, 4), as<float>(t, 5), as<float>(t, 6), shared, gp.eps, gp.grad);
  LayerNormGradBeta<float>(as<float>(t, 7), as<float>(t, 8), as<float>(t, 1), as<float>(t, 2), tmp,
                           gp.beta);
}

TEST(NormApi, LayerNormGradAndGradBetaMatchTheirFormulas) {
  const Rowwise s{6, 16, 16};  // B = 2, S = 3, H = 16
  const double eps = 1e-4;
  const auto x = wave(96, 10.0f, 0.3f), dy = wave(96, 4.0f, 2.5f), gamma = wave(16, 2.0f, 0.8f);
  const LnRef fwd = layernorm_ref(x, gamma, gamma, s, eps);
  std::vector<float> mean(8), var(8);
  for (std::uint32_t i = 0; i < s.rows; ++i) {
    mean[i] = static_cast<float>(fwd.mean[i]);
    var[i] = static_cast<float>(fwd.var[i]);
  }
  const TensorShape shape({2, 3, 16});
  uint32_t gmax = 0, gmin = 0, bmax = 0, bmin = 0;
  GetLayerNormGradMaxMinTmpSize(shape, 4, false, gmax, gmin);
  GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, bmax, bmin);
  GradParams p{{}, {}, static_cast<float>(eps)};
  GetLayerNormGradNDTilingInfo(shape, gmin, 4, false, p.grad);
  GetLayerNormGradBetaNDTilingInfo(shape, gmin, 4, false, p.beta);
  EXPECT_EQ(p.grad.nohCalSize, 1u);  // the minimum: one row a pass
  Io io{{bytes_of(std::vector<float>(96)), bytes_of(std::vector<float>(96)), bytes_of(dy),
         bytes_of(x), bytes_of(var), bytes_of(mean), bytes_of(gamma),
         bytes_of(std::vector<float>(16)), bytes_of(std::vector<float>(16))},
        gmin > bmin ? gmin : bmin,
        &call_grad,
        &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  std::vector<double> pdx(96), res(96), pdg(16, 0.0), pdb(16, 0.0);
  for (std::uint32_t i = 0; i < s.rows; ++i) {
    const double rs = 1 / std::sqrt(double{var[i]} + eps);
    double sgd = 0, sg = 0, sd = 0;
    for (std::uint32_t j = 0; j < 16; ++j) {
      const double d = x[i * 16 + j] - double{mean[i]}, g = double{dy[i * 16 + j]} * gamma[j];
      sgd += g * d;
      sg += g;
      sd += d;
      res[i * 16 + j] = d * rs;
      pdg[j] += dy[i * 16 + j] * d * rs;
      pdb[j] += dy[i * 16 + j];
    }
    const double pd_var = -0.5 * rs * rs * rs * sgd;
    const double pd_mean = -rs * sg + pd_var * (-2.0 / 16) * sd;
    for (std::uint32_t j = 0; j < 16; ++j) {
      const double d = x[i * 16 + j] - double{mean[i]}, g = double{dy[i * 16 + j]} * gamma[j];
      pdx[i * 16 + j] = g * rs + pd_var * (2.0 / 16) * d + pd_mean / 16;
    }
  }
  expect_near_rel(values_of<float>(io.bufs[0]), pdx, 2e-5, "pd_x");
  expect_near_rel(values_of<float>(io.bufs[1]), res, 1e-5, "resForGamma");
  expect_near_rel(values_of<float>(io.bufs[7]), pdg, 1e-5, "pd_gamma");
  expect_near_rel(values_of<float>(io.bufs[8]), pdb, 1e-5, "pd_beta");
  // Grad: 6 passes (a row each) of 31 instructions; GradBeta (4 rows a pass, as its tiling
  // says): one column sum of dy, then per pass Mul + column sum, an Add after the first.
  const auto ops = hl_test::vector_ops(r);
  EXPECT_EQ(p.beta.bsCurLength, 4u);
  EXPECT_EQ(ops.size(), 31u * 6 + 1 + 2 * 2 + 1);
}

// ---- Welford ----

struct WelfordParams {
  WelfordUpdateParam update;
  WelfordFinalizePara finalize;
  bool counts;
};

// buffers: out_mean, out_var, in_mean, in_var, x, final_mean, final_var, counts
void call_welford(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& wp = *static_cast<const WelfordParams*>(p);
  static constexpr WelfordUpdateConfig kInplace{true};
  WelfordUpdate<float, float, false, kInplace>(as<float>(t, 0), as<float>(t, 1), as<float>(t, 2),
                                               as<float>(t, 3), as<float>(t, 4), tmp, wp.update);
  WelfordFinalizePara fp = wp.finalize;
  if (wp.counts) {
    WelfordFinalize(as<float>(t, 5), as<float>(t, 6), as<float>(t, 0), as<float>(t, 1),
                    as<std::int32_t>(t, 7), tmp, fp);
  } else {
    WelfordFinalize(as<float>(t, 5), as<float>(t, 6), as<float>(t, 0), as<float>(t, 1), tmp, fp);
  }
}

TEST(NormApi, WelfordUpdateIsExactFloatStepsAndFinalizeCombinesThePartials) {
  const std::uint32_t ab = 16, computed = 11;
  const auto x = wave(ab, 300.0f, 0.1f), m0 = wave(ab, 200.0f, 1.1f);
  auto v0 = wave(ab, 1000.0f, 2.1f);
  for (float& v : v0) v = std::fabs(v);
  const std::vector<std::int32_t> counts = {5, 3, 2, 7, 1, 1, 4, 2, 6, 3, 2, 1, 1, 2, 3, 4};
  std::uint32_t umax = 0, umin = 0, fmax = 0, fmin = 0;
  GetWelfordUpdateMaxMinTmpSize(TensorShape({1, ab}), 4, 4, false, true, umax, umin);
  GetWelfordFinalizeMaxMinTmpSize(TensorShape({ab}), 4, false, fmax, fmin);
  EXPECT_EQ(umin, 128u);
  EXPECT_EQ(fmin, 160u);
  const float rrec = 1.0f / 47;
  WelfordParams p{{1, ab, computed, 0.25f}, {1, ab, 3, 10, 2, 6, 1.0f / ab, rrec, 0.0f}, true};
  Io io{{bytes_of(std::vector<float>(ab, -9.0f)), bytes_of(std::vector<float>(ab, -9.0f)),
         bytes_of(m0), bytes_of(v0), bytes_of(x), bytes_of(std::vector<float>(8)),
         bytes_of(std::vector<float>(8)), bytes_of(counts)},
        fmin,
        &call_welford,
        &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto mean = values_of<float>(io.bufs[0]), var = values_of<float>(io.bufs[1]);
  std::vector<float> want_m(m0), want_v(v0);
  for (std::uint32_t i = 0; i < computed; ++i) {
    const float d = x[i] - m0[i];
    const float t = d * 0.25f;
    want_m[i] = m0[i] + t;
    const float d2 = x[i] - want_m[i];
    const float pr = d * d2;
    want_v[i] = v0[i] + pr;
  }
  EXPECT_EQ(mean, want_m);  // bit-exact, the tail copied from the inputs (isInplace)
  EXPECT_EQ(var, want_v);
  double sm = 0, sv = 0;
  for (std::uint32_t i = 0; i < ab; ++i) sm += static_cast<double>(counts[i]) * want_m[i];
  const double fm = sm * rrec;
  for (std::uint32_t i = 0; i < ab; ++i) sv += want_v[i] + counts[i] * std::pow(want_m[i] - fm, 2);
  EXPECT_NEAR(values_of<float>(io.bufs[5])[0], fm, 1e-5 * std::fabs(fm));
  EXPECT_NEAR(values_of<float>(io.bufs[6])[0], sv * rrec, 1e-5 * sv * rrec);
  EXPECT_EQ(values_of<float>(io.bufs[5])[1], 0.0f);  // one value only
  // Without counts: headCount for 10 partials, tailCount for 6.
  p.counts = false;
  Io io2 = io;
  io2.bufs[0] = bytes_of(std::vector<float>(ab, 0.0f));
  io2.bufs[1] = bytes_of(std::vector<float>(ab, 0.0f));
  const auto r2 = hl_test::run(io2);
  ASSERT_TRUE(r2.ok()) << r2.first_error();
  double hm = 0;
  for (std::uint32_t i = 0; i < ab; ++i) hm += (i < 10 ? 3.0 : 2.0) * want_m[i];
  EXPECT_NEAR(values_of<float>(io2.bufs[5])[0], hm * rrec, 1e-5 * std::fabs(hm * rrec));
  // Update: Sub Muls Add Sub Mul Add + 2 tail copies; Finalize: Cast Mul Sum Muls, Adds Mul Mul
  // Add Sum Muls (Duplicate x2 instead of Cast without counts).
  EXPECT_EQ(hl_test::vector_ops(r).size(), 8u + 10u);
  EXPECT_EQ(hl_test::vector_ops(r2).size(), 8u + 11u);
  // Too little space for the update fails naming it.
  io.tmp_bytes = 64;
  const auto bad = hl_test::run(io);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.first_error().find("WelfordUpdate: temporary space of 64 bytes is below the 128"),
            std::string::npos)
      << bad.first_error();
}

// ---- host tiling ----

TEST(NormApi, HostTilingClassesWriteTheDeviceLayout) {
  optiling::LayerNormTiling host;
  GetLayerNormNDTilingInfo(TensorShape({2, 4, 24, 20}), 2 * 24 * 4 * 3, 4, false, host);
  ::LayerNormTiling dev;
  GetLayerNormNDTilingInfo(TensorShape({2, 4, 24, 20}), 2 * 24 * 4 * 3, 4, false, dev);
  ASSERT_EQ(host.GetDataSize(), sizeof(::LayerNormTiling));
  std::vector<std::uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  EXPECT_EQ(std::memcmp(buf.data(), &dev, sizeof dev), 0);
  EXPECT_EQ(dev.bsCurLength, 3u);  // three rows of two 24-float rows fit
  EXPECT_EQ(dev.loopRound, 2u);
  EXPECT_EQ(dev.meanVarTailSize, 2u);
  EXPECT_EQ(dev.originalHLength, 20u);
  EXPECT_FLOAT_EQ(dev.lastDimValueBack, 1.0f / 20);
  ::LayerNormSeparateTiling sep;
  GetLayerNormNDTilingInfo(TensorShape({5, 20}), 1024, 4, false, true, sep);
  EXPECT_EQ(sep.aLength, 5u);
  EXPECT_EQ(sep.rLength, 20u);
  EXPECT_EQ(sep.rHeadLength, 16u);
  optiling::RmsNormTiling rms;
  EXPECT_FALSE(GetRmsNormTilingInfo(TensorShape({1, 3, 48}), TensorShape({1, 3, 48}), 4096, 4, rms,
                                    true));  // basic blocks need H % 64 == 0
  EXPECT_TRUE(
      GetRmsNormTilingInfo(TensorShape({1, 3, 48}), TensorShape({1, 3, 48}), 4096, 4, rms, false));
  EXPECT_EQ(rms.get_mainBsLength(), 3u);
}

}  // namespace
