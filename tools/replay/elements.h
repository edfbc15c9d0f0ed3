// SPDX-License-Identifier: Apache-2.0
// Host-side element values of the replay's tensors (tools/replay/runner.h): one element of an
// aclDataType stored from / loaded as a double (float16 and bfloat16 converted with round to
// nearest even), and the deterministic generator of random fills (splitmix64, seeded from the
// trace seed and the tensor name so that a fill never depends on the order of the others).
#ifndef NPUSIM_TOOLS_REPLAY_ELEMENTS_H_
#define NPUSIM_TOOLS_REPLAY_ELEMENTS_H_

#include <cstdint>
#include <string>

namespace npusim::replay {

/// Writes `v` as one element of `dtype` (an aclDataType value) at `p`; integers truncate.
void store_element(int dtype, char* p, double v);
/// Reads one element of `dtype` at `p`.
double load_element(int dtype, const char* p);
/// True for every type but the floating-point ones.
bool is_integer(int dtype);

/// The next number of the splitmix64 sequence in `state`.
std::uint64_t splitmix(std::uint64_t& state);
/// FNV-1a of `s`, mixed with `seed`: a tensor's fill seed from its name.
std::uint64_t name_hash(const std::string& s, std::uint64_t seed);

}  // namespace npusim::replay

#endif  // NPUSIM_TOOLS_REPLAY_ELEMENTS_H_
