// SPDX-License-Identifier: Apache-2.0
// A seeded mutation fuzzer of the config parser: each case mutates a preset's YAML text (byte
// flips, cut and repeated lines, inserted YAML punctuation, swapped values) or builds random
// "key=value" overrides, then loads it. Every case must load or fail with sim::ConfigError
// naming where; any other exception (or a crash, or a hang) is a finding.
//
//   npusim_config_fuzz [--seed N] [--cases N]
// Prints "config fuzz: ..." and, last, "N passed, N failed".
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "models/chip_config_loader.h"
#include "models/presets.h"

namespace {

using npusim::models::load_chip_config;
using npusim::sim::ConfigError;

const char* const kNoise[] = {":", "- ", "{", "}", "[", "]", "&a", "*a", "!!int ", "\"", "'",
                              "#", "\t", "\n", "  ", "base: ", "1e999", "-1", "0x", "18446744073709551616",
                              "GB/s", "ns", "KiB", "~", "null", "true", "<<: *a", "%YAML 1.2\n"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string mutate(const std::string& text, std::mt19937_64& rng) {
  std::vector<std::string> lines = lines_of(text);
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !lines.empty(); ++e) {
    std::string& line = lines[rng() % lines.size()];
    switch (rng() % 6) {
      case 0:  // flip a byte
        if (!line.empty()) line[rng() % line.size()] = static_cast<char>(rng() % 256);
        break;
      case 1:  // cut the line
        line = line.substr(0, line.empty() ? 0 : rng() % line.size());
        break;
      case 2:  // insert punctuation
        line.insert(line.empty() ? 0 : rng() % line.size(), kNoise[rng() % std::size(kNoise)]);
        break;
      case 3:  // repeat a line elsewhere (duplicate keys, misplaced groups)
        lines.insert(lines.begin() + static_cast<long>(rng() % lines.size()), line);
        break;
      case 4:  // drop a line
        lines.erase(lines.begin() + static_cast<long>(rng() % lines.size()));
        break;
      case 5: {  // swap the value part of two lines
        std::string& other = lines[rng() % lines.size()];
        const auto a = line.find(':'), b = other.find(':');
        if (a != std::string::npos && b != std::string::npos) {
          std::string va = line.substr(a), vb = other.substr(b);
          line = line.substr(0, a) + vb;
          other = other.substr(0, b) + va;
        }
        break;
      }
    }
  }
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string random_override(std::mt19937_64& rng) {
  static const char* const kKeys[] = {"soc.num_devices", "soc.npu_arch", "pcie.h2d_bandwidth",
                                      "hbm.size", "aicore.ub", "aicore.frequency",
                                      "scheduler.policy", "topology.links", "l2.read_hit_rate",
                                      "host.pinned_memory", "sdma.burst", "topology.hccs_bandwidth",
                                      "topology.hccs_latency", "pcie.root_complex_bandwidth",
                                      "topology.links_per_pair", "nope", "pcie", "a..b"};
  static const char* const kValues[] = {"0", "-1", "17", "2201", "9999", "1.5", "25GB/s", "0GB/s",
                                        "5GiB", "1.8GHz", "fifo", "rr", "0-1,1-2", "0-0", "",
                                        "[1, 2]", "{a: 1}", "\"x", "1e300", "nan", "full_mesh"};
  return std::string(kKeys[rng() % std::size(kKeys)]) + "=" + kValues[rng() % std::size(kValues)];
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long seed = 1;
  long cases = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--cases") == 0) cases = std::strtol(argv[i + 1], nullptr, 10);
  }
  std::mt19937_64 rng(seed);
  const std::string path = "/tmp/npusim_config_fuzz_" + std::to_string(getpid()) + ".yaml";
  const auto& presets = npusim::models::presets();
  long loaded = 0, rejected = 0, failed = 0;
  for (long c = 0; c < cases; ++c) {
    std::vector<std::string> overrides;
    std::string source;
    if (rng() % 4 == 0) {
      source = presets[rng() % presets.size()].name;
      for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) overrides.push_back(random_override(rng));
    } else {
      std::ofstream(path, std::ios::binary | std::ios::trunc)
          << mutate(presets[rng() % presets.size()].yaml, rng);
      source = path;
    }
    try {
      load_chip_config(source, overrides, "fuzz");
      ++loaded;
    } catch (const ConfigError& e) {
      ++rejected;
      if (std::strlen(e.what()) == 0) {
        ++failed;
        std::fprintf(stderr, "config fuzz: case %ld: empty error message\n", c);
      }
    } catch (const std::exception& e) {
      ++failed;
      std::fprintf(stderr, "config fuzz: case %ld: unexpected %s\n", c, e.what());
    }
  }
  std::remove(path.c_str());
  std::printf("config fuzz: seed %llu, %ld cases: %ld loaded, %ld rejected with ConfigError\n",
              seed, cases, loaded, rejected);
  std::printf("%ld passed, %ld failed\n", cases - failed, failed);
  return failed == 0 ? 0 : 1;
}
