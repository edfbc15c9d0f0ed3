// SPDX-License-Identifier: Apache-2.0
#include "sim/quantity.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace npusim::sim {
namespace {

template <class Q>
Q parse_ok(const std::string& text) {
  Q q;
  auto err = parse_quantity(text, q);
  EXPECT_FALSE(err) << text << ": " << err.value_or("");
  return q;
}

template <class Q>
std::string parse_err(const std::string& text) {
  Q q;
  auto err = parse_quantity(text, q);
  EXPECT_TRUE(err) << text << " was accepted";
  return err.value_or("");
}

/// Every text is refused with a message containing its `says` ("": any message).
struct Refusal {
  const char* text;
  const char* says;
};
template <class Q>
void expect_refused(std::initializer_list<Refusal> cases) {
  for (const Refusal& c : cases) {
    EXPECT_NE(parse_err<Q>(c.text).find(c.says), std::string::npos) << c.text << ": " << c.says;
  }
}

TEST(Quantity, BytesUnits) {
  EXPECT_EQ(parse_ok<Bytes>("4096").value, 4096u);
  EXPECT_EQ(parse_ok<Bytes>("0").value, 0u);
  EXPECT_EQ(parse_ok<Bytes>("32B").value, 32u);
  EXPECT_EQ(parse_ok<Bytes>("32KB").value, 32000u);
  EXPECT_EQ(parse_ok<Bytes>("64KiB").value, 65536u);
  EXPECT_EQ(parse_ok<Bytes>("1.5KiB").value, 1536u);
  EXPECT_EQ(parse_ok<Bytes>("192MiB").value, 192ull << 20);
  EXPECT_EQ(parse_ok<Bytes>("3MB").value, 3000000u);
  EXPECT_EQ(parse_ok<Bytes>("64GiB").value, 64ull << 30);
  EXPECT_EQ(parse_ok<Bytes>("24GB").value, 24000000000ull);
  EXPECT_EQ(parse_ok<Bytes>("2TB").value, 2000000000000ull);
  EXPECT_EQ(parse_ok<Bytes>("1TiB").value, 1ull << 40);
  EXPECT_EQ(parse_ok<Bytes>(" 16 KiB ").value, 16384u);
}

TEST(Quantity, BytesRejects) {
  EXPECT_EQ(parse_err<Bytes>("lots"), "expected a size such as 64KiB, got \"lots\"");
  expect_refused<Bytes>({{"-4KiB", "negative"}, {"", "empty"}, {"4XB", "unknown unit \"XB\""},
                         {"0.5B", "whole number"}, {"16777216TiB", "too large"},
                         {"4KiB extra", ""}, {"4 4KiB", ""}, {"1.2.3KiB", ""}, {"KiB", ""}});
}

TEST(Quantity, BandwidthUnits) {
  EXPECT_DOUBLE_EQ(parse_ok<Bandwidth>("25GB/s").bytes_per_sec, 25e9);
  EXPECT_EQ(parse_ok<Bandwidth>("25.6GB/s").bytes_per_sec, 25.6e9);
  EXPECT_EQ(parse_ok<Bandwidth>("1.6TB/s").bytes_per_sec, 1.6e12);
  EXPECT_EQ(parse_ok<Bandwidth>("900GiB/s").bytes_per_sec, 900.0 * (1ull << 30));
  EXPECT_EQ(parse_ok<Bandwidth>("100MB/s").bytes_per_sec, 1e8);
  EXPECT_EQ(parse_ok<Bandwidth>("240Gbit/s").bytes_per_sec, 30e9);
  EXPECT_EQ(parse_ok<Bandwidth>("8Gb/s").bytes_per_sec, 1e9);
  EXPECT_EQ(parse_ok<Bandwidth>("204.8 GB/s").bytes_per_sec, 204.8e9);
  EXPECT_EQ(parse_ok<Bandwidth>("2e3B/s").bytes_per_sec, 2000);
}

TEST(Quantity, BandwidthRejects) {
  EXPECT_EQ(parse_err<Bandwidth>("fast"), "expected a bandwidth such as 25GB/s, got \"fast\"");
  expect_refused<Bandwidth>({{"25", "missing unit"}, {"25GB", "unknown unit \"GB\""},
                             {"-1GB/s", "negative"}, {"1e999GB/s", "too large"}, {"25GB/s!", ""},
                             {"inf GB/s", ""}, {"nanGB/s", ""}});
}

TEST(Quantity, DurationUnits) {
  EXPECT_EQ(parse_ok<Duration>("10ps").ps, 10u);
  EXPECT_EQ(parse_ok<Duration>("250ns").ps, 250 * kNs);
  EXPECT_EQ(parse_ok<Duration>("1us").ps, kUs);
  EXPECT_EQ(parse_ok<Duration>("1.5ms").ps, 1500 * kUs);
  EXPECT_EQ(parse_ok<Duration>("2s").ps, 2 * kSec);
  EXPECT_EQ(parse_ok<Duration>("0.0015ns").ps, 2u);   // 1.5ps rounds to nearest (half up)
  EXPECT_EQ(parse_ok<Duration>("0.0014ns").ps, 1u);
  EXPECT_EQ(parse_ok<Duration>("0.1ps").ps, 0u);
  EXPECT_EQ(parse_ok<Duration>("0").ps, 0u);  // zero needs no unit
  EXPECT_EQ(parse_ok<Bandwidth>("0").bytes_per_sec, 0.0);
}

TEST(Quantity, DurationRejects) {
  EXPECT_EQ(parse_err<Duration>("soon"), "expected a duration such as 1us, got \"soon\"");
  expect_refused<Duration>({{"5", "missing unit"}, {"5min", "unknown unit"},
                            {"-1us", "negative"}, {"1us1", ""}});
}

TEST(Quantity, FrequencyUnits) {
  EXPECT_EQ(parse_ok<Frequency>("1.8GHz").hz, 1.8e9);
  EXPECT_EQ(parse_ok<Frequency>("1000MHz").hz, 1e9);
  EXPECT_EQ(parse_ok<Frequency>("1.06GHz").hz, 1.06e9);
  EXPECT_EQ(parse_ok<Frequency>("32kHz").hz, 32e3);
  EXPECT_EQ(parse_ok<Frequency>("50Hz").hz, 50);
  EXPECT_EQ(parse_err<Frequency>("quick"), "expected a frequency such as 1.8GHz, got \"quick\"");
  parse_err<Frequency>("1.8");
  parse_err<Frequency>("1.8Ghz");
}

TEST(Quantity, CanonicalForms) {
  EXPECT_EQ(to_string(Bytes{64ull << 30}), "64GiB");
  EXPECT_EQ(to_string(Bytes{24000000000ull}), "24GB");
  EXPECT_EQ(to_string(Bytes{65536}), "64KiB");
  EXPECT_EQ(to_string(Bytes{1000}), "1KB");
  EXPECT_EQ(to_string(Bytes{1023}), "1023B");
  EXPECT_EQ(to_string(Bytes{0}), "0B");
  EXPECT_EQ(to_string(Bandwidth{25.6e9}), "25.6GB/s");
  EXPECT_EQ(to_string(Bandwidth{1.6e12}), "1.6TB/s");
  EXPECT_EQ(to_string(Bandwidth{900.0 * (1ull << 30)}), "900GiB/s");
  EXPECT_EQ(to_string(Bandwidth{125e6}), "125MB/s");
  EXPECT_EQ(to_string(Duration{1500 * kNs}), "1500ns");
  EXPECT_EQ(to_string(Duration{2 * kUs}), "2us");
  EXPECT_EQ(to_string(Duration{3 * kSec}), "3s");
  EXPECT_EQ(to_string(Duration{7}), "7ps");
  EXPECT_EQ(to_string(Frequency{1.8e9}), "1.8GHz");
  EXPECT_EQ(to_string(Frequency{1.06e9}), "1.06GHz");
}

TEST(Quantity, RoundTrips) {
  for (std::uint64_t v : {0ull, 1ull, 1000ull, 1023ull, 4096ull, 24000000000ull, 64ull << 30,
                          123456789ull, ~0ull}) {
    EXPECT_EQ(parse_ok<Bytes>(to_string(Bytes{v})).value, v) << v;
  }
  for (double v : {0.0, 1.0, 0.5, 25.6e9, 1.6e12, 204.8e9, 1e8 / 3, 966367641600.0, 123.456e15}) {
    EXPECT_EQ(parse_ok<Bandwidth>(to_string(Bandwidth{v})).bytes_per_sec, v) << v;
    EXPECT_EQ(parse_ok<Frequency>(to_string(Frequency{v})).hz, v) << v;
  }
  for (SimTime v : {SimTime{0}, SimTime{1}, 999 * kNs, kUs + 1, 1500 * kUs, 7 * kSec, ~SimTime{0}}) {
    EXPECT_EQ(parse_ok<Duration>(to_string(Duration{v})).ps, v) << v;
  }
}

TEST(Quantity, TransferTimeRoundsUp) {
  Bandwidth bw{100e9};  // 100 GB/s: 1 byte = 10 ps
  EXPECT_EQ(bw.transfer_time(0), 0u);
  EXPECT_EQ(bw.transfer_time(1), 10u);
  EXPECT_EQ(bw.transfer_time(1000), 10 * kNs);
  Bandwidth odd{3e9};  // 1 byte = 333.33 ps → 334
  EXPECT_EQ(odd.transfer_time(1), 334u);
  EXPECT_EQ(odd.transfer_time(3), 1000u);
  // 64 MiB at 25.6 GB/s = 2.62144 ms exactly.
  EXPECT_EQ(Bandwidth{25.6e9}.transfer_time(64ull << 20), 2621440 * kNs);
  Bandwidth fractional{2.5};  // non-integral bytes/s takes the long double path
  EXPECT_EQ(fractional.transfer_time(5), 2 * kSec);
}

TEST(Quantity, FrequencyCycles) {
  EXPECT_EQ(Frequency{1e9}.cycles(1), 1000u);
  EXPECT_EQ(Frequency{1.8e9}.cycles(9), 5000u);
  EXPECT_EQ(Frequency{1.8e9}.cycles(1), 556u);  // 555.56 → nearest
  EXPECT_EQ(Frequency{3e9}.cycles(1), 333u);
  EXPECT_EQ(Frequency{1e9}.cycles(0), 0u);
}

TEST(Quantity, UnitNames) {
  EXPECT_STREQ(unit_name(Bytes{}), "bytes");
  EXPECT_STREQ(unit_name(Bandwidth{}), "B/s");
  EXPECT_STREQ(unit_name(Duration{}), "time");
  EXPECT_STREQ(unit_name(Frequency{}), "Hz");
}

}  // namespace
}  // namespace npusim::sim
