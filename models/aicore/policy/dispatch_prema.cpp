// SPDX-License-Identifier: Apache-2.0
// scheduler.policy=prema: PREMA's token-based selection (Choi & Rhu, HPCA 2020), as
// aicore_engine.h states it. Each kernel has a weight w = 8 - priority and starts with w tokens;
// at every dispatch each kernel with waiting blocks gains w x (time since its last update) /
// (its predicted isolated time). The threshold is the largest weight among waiting kernels that
// is <= the largest token count; candidates (tokens >= threshold) go first, shortest predicted
// remaining time first; the others follow by tokens, then arrival.
#include <algorithm>

#include "models/aicore/policy/dispatch_policy.h"

namespace npusim::models {
namespace {

/// PREMA's weight of a stream priority (0 = highest .. 7): 8 .. 1.
double prema_weight(std::uint32_t priority) { return 8.0 - std::min<std::uint32_t>(priority, 7); }

/// Predicted time of the blocks `k` still has to dispatch.
double remaining(const AicoreKernel& k) {
  const std::uint32_t dim = std::max<std::uint32_t>(k.work ? k.work->block_dim : 1, 1);
  return static_cast<double>(k.predicted) * waiting_blocks(k) / dim;
}

class PremaDispatch final : public DispatchPolicy {
 public:
  bool predicts_at_ready() const override { return true; }
  bool preempts_only_later() const override { return true; }
  void on_ready(AicoreKernel& k, SimTime now) override {
    k.tokens = prema_weight(k.priority);  // starts with its weight
    k.token_at = now;
  }
  void order(std::vector<AicoreKernel*>& kernels, SimTime now) override {
    const double threshold = accrue(kernels, now);
    std::stable_sort(kernels.begin(), kernels.end(),
                     [threshold](const AicoreKernel* a, const AicoreKernel* b) {
                       return before(*a, *b, threshold);
                     });
  }

 private:
  /// Adds the tokens earned since the last dispatch; returns the candidates' threshold.
  static double accrue(std::vector<AicoreKernel*>& kernels, SimTime now) {
    double most = 0;
    for (AicoreKernel* k : kernels) {
      if (!wants_cores(*k)) continue;
      if (k->predicted > 0) {
        k->tokens += prema_weight(k->priority) * static_cast<double>(now - k->token_at) /
                     static_cast<double>(k->predicted);
      }
      k->token_at = now;
      most = std::max(most, k->tokens);
    }
    double threshold = 0;
    for (const AicoreKernel* k : kernels) {
      const double w = prema_weight(k->priority);
      if (wants_cores(*k) && w <= most) threshold = std::max(threshold, w);
    }
    return threshold;
  }
  static bool before(const AicoreKernel& a, const AicoreKernel& b, double threshold) {
    const bool ca = wants_cores(a) && a.tokens >= threshold;
    const bool cb = wants_cores(b) && b.tokens >= threshold;
    if (ca != cb) return ca;
    if (ca) {
      const double ra = remaining(a), rb = remaining(b);
      if (ra != rb) return ra < rb;
    } else if (a.tokens != b.tokens) {
      return a.tokens > b.tokens;
    }
    return a.seq < b.seq;
  }
};

}  // namespace

std::unique_ptr<DispatchPolicy> make_prema_dispatch() { return std::make_unique<PremaDispatch>(); }

}  // namespace npusim::models
