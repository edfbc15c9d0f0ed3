// SPDX-License-Identifier: Apache-2.0
// The specs a program registers at run time besides the built-in ones (units: models/units.cpp,
// configuration groups: models/unit_configs.cpp), one process-wide list per kind of spec.
#pragma once

#include <mutex>
#include <utility>
#include <vector>

namespace npusim::models {

/// Thread-safe: registration may race with chips being built.
template <class Spec>
class AddedSpecs {
 public:
  static AddedSpecs& instance() {
    static AddedSpecs specs;
    return specs;
  }

  /// `builtin` followed by the specs added so far, in the order they were added.
  std::vector<Spec> after(std::vector<Spec> builtin) {
    std::lock_guard<std::mutex> lock(mutex_);
    builtin.insert(builtin.end(), added_.begin(), added_.end());
    return builtin;
  }

  void add(Spec spec) {
    std::lock_guard<std::mutex> lock(mutex_);
    added_.push_back(std::move(spec));
  }

 private:
  std::mutex mutex_;
  std::vector<Spec> added_;
};

}  // namespace npusim::models
