// SPDX-License-Identifier: Apache-2.0
// The dump library's file contents (dump_file.cpp), shared by dump.cpp. Internal to runtime/dump.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/dump/dump.h"

namespace npusim::rt::dump {

/// `p` made absolute and normal (as given when that fails).
std::filesystem::path absolute_dir(const std::string& p);
/// aclDataType and aclFormat as the operator information file spells them.
const char* dtype_text(int acl);
const char* format_text(int f);
/// The elements of `v` in row-major order of its view.
std::vector<std::uint8_t> gather(const TensorView& v);
std::vector<std::uint64_t> udims(const std::vector<std::int64_t>& dims);
/// The DumpData tensor of `v` (kind 0 input, 1 output) holding `data`.
Tensor tensor_of(const TensorView& v, int kind, std::vector<std::uint8_t> data);

}  // namespace npusim::rt::dump
