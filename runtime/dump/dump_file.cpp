// SPDX-License-Identifier: Apache-2.0
// The dump files' contents (dump_file.h): tensors gathered from device memory in the order of
// their view, and the DumpData protobuf message written by hand (the wire format is small; no
// protobuf library is linked for it), with the file-name timestamps in simulated time.
#include "runtime/dump/dump_file.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <string>
#include <utility>

namespace npusim::rt::dump {
namespace {

// ---- Time ----
// Days since 1970-01-01 -> civil date (Howard Hinnant's algorithm).
void civil_from_days(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

// ---- Protobuf wire format ----
void varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
void field_varint(std::string& out, int field, std::uint64_t v) {
  varint(out, static_cast<std::uint64_t>(field) << 3);
  varint(out, v);
}
void field_bytes(std::string& out, int field, const std::string& bytes) {
  varint(out, (static_cast<std::uint64_t>(field) << 3) | 2);
  varint(out, bytes.size());
  out += bytes;
}
std::string shape_message(const std::vector<std::uint64_t>& dims) {
  std::string packed;
  for (std::uint64_t d : dims) varint(packed, d);
  std::string m;
  if (!dims.empty()) field_bytes(m, 1, packed);
  return m;
}

// aclDataType -> the dump proto's OutputDataType.
std::uint64_t proto_dtype(int acl) {
  switch (acl) {
    case 0: return 1;    // FLOAT
    case 1: return 2;    // FLOAT16
    case 2: return 3;    // INT8
    case 3: return 7;    // INT32
    case 4: return 4;    // UINT8
    case 6: return 5;    // INT16
    case 7: return 6;    // UINT16
    case 8: return 9;    // UINT32
    case 9: return 8;    // INT64
    case 10: return 10;  // UINT64
    case 11: return 12;  // DOUBLE
    case 12: return 11;  // BOOL
    case 13: return 13;  // STRING
    case 16: return 16;  // COMPLEX64
    case 17: return 17;  // COMPLEX128
    case 27: return 27;  // BF16
    default: return 0;   // DT_UNDEFINED
  }
}

}  // namespace


const char* dtype_text(int acl) {
  switch (acl) {
    case 0: return "FLOAT";
    case 1: return "FLOAT16";
    case 2: return "INT8";
    case 3: return "INT32";
    case 4: return "UINT8";
    case 6: return "INT16";
    case 7: return "UINT16";
    case 8: return "UINT32";
    case 9: return "INT64";
    case 10: return "UINT64";
    case 11: return "DOUBLE";
    case 12: return "BOOL";
    case 27: return "BF16";
    default: return "UNDEFINED";
  }
}

const char* format_text(int f) {
  switch (f) {
    case 0: return "NCHW";
    case 1: return "NHWC";
    case 2: return "ND";
    case 3: return "NC1HWC0";
    case 4: return "FRACTAL_Z";
    case 29: return "FRACTAL_NZ";
    default: return "UNDEFINED";
  }
}

std::filesystem::path absolute_dir(const std::string& p) {
  std::error_code ec;
  std::filesystem::path a = std::filesystem::absolute(std::filesystem::path(p), ec);
  return ec ? std::filesystem::path(p) : a.lexically_normal();
}

namespace {

// The view's strides (elements); none given: row-major.
std::vector<std::int64_t> strides_of(const TensorView& v) {
  const std::size_t rank = v.dims.size();
  std::vector<std::int64_t> strides = v.strides;
  if (strides.size() == rank) return strides;
  strides.assign(rank, 1);
  for (std::size_t k = rank; k-- > 1;) strides[k - 1] = strides[k] * v.dims[k];
  return strides;
}

}  // namespace

// The elements of `v` in row-major order of its view.
std::vector<std::uint8_t> gather(const TensorView& v) {
  std::int64_t n = 1;
  for (std::int64_t d : v.dims) n *= d;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n > 0 ? n : 0) * v.elem_size);
  if (n <= 0 || v.addr == nullptr) return out;
  const std::size_t rank = v.dims.size();
  const std::vector<std::int64_t> strides = strides_of(v);
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t e = 0; e < n; ++e) {
    std::int64_t off = 0;
    for (std::size_t k = 0; k < rank; ++k) off += idx[k] * strides[k];
    std::memcpy(out.data() + static_cast<std::size_t>(e) * v.elem_size,
                v.addr + off * static_cast<std::int64_t>(v.elem_size), v.elem_size);
    for (std::size_t k = rank; k-- > 0;) {
      if (++idx[k] < v.dims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

std::vector<std::uint64_t> udims(const std::vector<std::int64_t>& dims) {
  std::vector<std::uint64_t> out;
  for (std::int64_t d : dims) out.push_back(static_cast<std::uint64_t>(d < 0 ? 0 : d));
  return out;
}

// The DumpData tensor of `v` (kind 0 input, 1 output) holding `data`.
Tensor tensor_of(const TensorView& v, int kind, std::vector<std::uint8_t> data) {
  Tensor t;
  t.kind = kind;
  t.dtype = v.dtype;
  t.format = v.format;
  t.shape = t.origin_shape = udims(v.dims);
  t.data = std::move(data);
  return t;
}

// ---- Pieces ----
std::string civil_time(sim::SimTime t, int digits) {
  const std::uint64_t ms_total = t / 1000000000ULL;
  const std::uint64_t secs = ms_total / 1000;
  int y = 1970;
  unsigned m = 1, d = 1;
  civil_from_days(static_cast<std::int64_t>(secs / 86400), y, m, d);
  const std::uint64_t sod = secs % 86400;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02u%02u%02u%02u%02u", y, m, d,
                static_cast<unsigned>(sod / 3600), static_cast<unsigned>(sod / 60 % 60),
                static_cast<unsigned>(sod % 60));
  std::string s = buf;
  if (digits == 17) {
    std::snprintf(buf, sizeof buf, "%03u", static_cast<unsigned>(ms_total % 1000));
    s += buf;
  }
  return s;
}

namespace {

// A tensor's DumpData message: an output (field 3) or input (4) with its type, format and
// shapes; a buffer (5) with its size.
void tensor_field(std::string& msg, const Tensor& t) {
  std::string m;
  if (t.kind == 2) {
    field_varint(m, 1, 0);  // L1
    field_varint(m, 3, t.data.size());
    field_bytes(msg, 5, m);
    return;
  }
  const bool output = t.kind == 1;
  field_varint(m, 1, proto_dtype(t.dtype));
  field_varint(m, 2, static_cast<std::uint64_t>(static_cast<std::uint32_t>(t.format)));
  field_bytes(m, 3, shape_message(t.shape));
  field_varint(m, output ? 6 : 5, t.data.size());
  field_bytes(m, output ? 7 : 6, shape_message(t.origin_shape));
  field_bytes(msg, output ? 3 : 4, m);
}

// The DumpData message of a dump file.
std::string dump_message(const std::string& op_name, std::uint64_t dump_time_us,
                         const std::vector<Tensor>& tensors, const std::string& user_tag) {
  std::string msg;
  field_bytes(msg, 1, "2.0");
  field_varint(msg, 2, dump_time_us);
  for (int kind : {1, 0, 2}) {  // outputs (field 3), inputs (4), buffers (5): field order
    for (const Tensor& t : tensors) {
      if (t.kind == kind) tensor_field(msg, t);
    }
  }
  field_bytes(msg, 6, op_name);
  if (!user_tag.empty()) {
    std::string attr;
    field_bytes(attr, 1, "user_tag");
    field_bytes(attr, 2, user_tag);
    field_bytes(msg, 9, attr);
  }
  return msg;
}

}  // namespace

std::vector<std::uint8_t> encode_file(const std::string& op_name, std::uint64_t dump_time_us,
                                      const std::vector<Tensor>& tensors,
                                      const std::string& user_tag) {
  const std::string msg = dump_message(op_name, dump_time_us, tensors, user_tag);
  std::vector<std::uint8_t> out(8);
  const std::uint64_t n = msg.size();
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
  out.insert(out.end(), msg.begin(), msg.end());
  for (int kind : {0, 1, 2}) {  // data: inputs, outputs, buffers
    for (const Tensor& t : tensors) {
      if (t.kind == kind) out.insert(out.end(), t.data.begin(), t.data.end());
    }
  }
  return out;
}

}  // namespace npusim::rt::dump
