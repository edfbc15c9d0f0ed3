// SPDX-License-Identifier: Apache-2.0
#include "sim/trace.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include <unistd.h>

#include "tests/test_util.h"

namespace npusim::sim {
namespace {

/// Reads back what write() produced, byte for byte.
std::string write_text(const TraceWriter& w) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("npusim_trace_" + std::to_string(::getpid()) + ".json"))
                               .string();
  w.write(path);
  const std::string text = test_util::read_text(path);
  std::filesystem::remove(path);
  return text;
}

nlohmann::json write_and_parse(const TraceWriter& w) {
  return nlohmann::json::parse(write_text(w));  // throws (fails the test) if not valid JSON
}

/// Every field of `want` has its value in `event` (numbers compared as JSON numbers).
void expect_fields(const nlohmann::json& event, const nlohmann::json& want) {
  for (const auto& [key, value] : want.items()) {
    EXPECT_EQ(event[key], value) << key << " of " << event.dump();
  }
}

/// The events with a given ph (and name, if given).
std::vector<nlohmann::json> events(const nlohmann::json& all, const std::string& ph,
                                   const std::string& name = "") {
  std::vector<nlohmann::json> out;
  for (const auto& e : all) {
    if (e["ph"] == ph && (name.empty() || e["name"] == name)) out.push_back(e);
  }
  return out;
}


/// A fixed sequence of every kind of event, with the argument shapes the models write; `Arg` is
/// TraceArg (owning, the original interface) or TraceField (non-owning views).
template <class Arg = TraceArg>
void record_fixed_sequence(TraceWriter& w) {
  const int host = w.process("CANN", "CPU", 7);
  const int dev = w.process("Ascend Hardware", "NPU 0", 14);
  const int units = w.process("NPU 0 Units", "NPU 0", 15);
  w.thread(host, 0, "Thread 0", 0);
  w.thread(dev, 60000, "Sync copies 0", 60000);
  w.thread(dev, 3, "Stream 3", 3);
  w.thread(units, 100, "PCIe H2D ch 0", 100);
  for (std::uint64_t i = 1; i <= 3; ++i) {
    const SimTime t = i * 1234567;
    w.complete(host, 0, "AscendCL@aclrtMemcpyAsync", t, t + 2 * kUs + 1,
               {Arg::num("Thread Id", 0), Arg::str("level", "acl"),
                Arg::num("connection_id", static_cast<double>(i))});
    w.flow_begin(host, 0, i, t + kUs);
    w.complete(units, 100, "PCIE_DMA_SQE", t + 3 * kUs, t + 4 * kUs,
               {Arg::num("Stream Id", 3), Arg::num("Task Id", static_cast<double>(i)),
                Arg::num("size(B)", 64), Arg::str("operation", "host to device"),
                Arg::str("memory", "pinned")});
    w.complete(dev, 3, "PCIE_DMA_SQE", t + 3 * kUs, t + 5 * kUs,
               {Arg::str("Task Type", "PCIE_DMA_SQE"), Arg::num("Stream Id", 3),
                Arg::num("Task Id", static_cast<double>(i)), Arg::num("size(B)", 64),
                Arg::num("bandwidth(GB/s)", 64 * 1e3 / (2 * kUs)),
                Arg::str("operation", "host to device")});
    w.flow_end(dev, 3, i, t + 3 * kUs);
  }
  // Number formatting: integers, exponents, fractions, negatives, signed zero, non-finite.
  w.complete(dev, 3, "numbers", 0, 0,
             {Arg::num("zero", 0), Arg::num("minus zero", -0.0),
              Arg::num("million", 1e6), Arg::num("big", 12345678901234567.0),
              Arg::num("2^53+2", 9007199254740994.0), Arg::num("huge", 1e300),
              Arg::num("tiny", 1e-300), Arg::num("third", 1.0 / 3),
              Arg::num("negative", -42), Arg::num("negative frac", -2.5),
              Arg::num("nan", std::nan("")), Arg::num("inf", HUGE_VAL),
              Arg::num("u32 max", 4294967295.0), Arg::num("same key", 1),
              Arg::num("same key", 2)});
  // Escapes in names, keys and values; an empty name; a span that ends before it starts.
  w.complete(dev, 3, "tab\there \"quoted\" back\\slash \x01 ctl \xc3\xa9", 10 * kUs, 5 * kUs,
             {Arg::str("key \"q\"\n", "line1\nline2\r\t\x1f"), Arg::str("", "")});
  w.complete(dev, 3, "", kMs, kMs + 1);
  w.instant(dev, 3, "WaitExecute", 7 * kUs);
  w.instant(dev, 3, "marker", 7 * kUs + 1, {Arg::num("value", 0.1)});
  w.counter(units, "PCIe H2D (GB/s)", 5 * kUs, 25.6);
  w.counter(units, "PCIe H2D (GB/s)", 6 * kUs, 0);
  w.flow_begin(host, 0, 18446744073709551615ull, 123456789012345678ull);
  w.flow_end(dev, 3, 18446744073709551615ull, 123456789012345679ull);
  w.complete(-1, -2, "negative ids", 1, 2);
  w.complete(host, 2147483647, "max tid", 18446744073709551615ull, 18446744073709551615ull);
}

/// What write() produced for record_fixed_sequence() before the writer stored events compactly
/// (recorded from the std::string/std::vector implementation): every byte stays the same.
const char* const kPinnedJson = R"golden([
{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"CANN"}},
{"name":"process_labels","ph":"M","pid":1,"tid":0,"args":{"labels":"CPU"}},
{"name":"process_sort_index","ph":"M","pid":1,"tid":0,"args":{"sort_index":7}},
{"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"Ascend Hardware"}},
{"name":"process_labels","ph":"M","pid":2,"tid":0,"args":{"labels":"NPU 0"}},
{"name":"process_sort_index","ph":"M","pid":2,"tid":0,"args":{"sort_index":14}},
{"name":"process_name","ph":"M","pid":3,"tid":0,"args":{"name":"NPU 0 Units"}},
{"name":"process_labels","ph":"M","pid":3,"tid":0,"args":{"labels":"NPU 0"}},
{"name":"process_sort_index","ph":"M","pid":3,"tid":0,"args":{"sort_index":15}},
{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"Thread 0"}},
{"name":"thread_sort_index","ph":"M","pid":1,"tid":0,"args":{"sort_index":0}},
{"name":"thread_name","ph":"M","pid":2,"tid":3,"args":{"name":"Stream 3"}},
{"name":"thread_sort_index","ph":"M","pid":2,"tid":3,"args":{"sort_index":3}},
{"name":"thread_name","ph":"M","pid":2,"tid":60000,"args":{"name":"Sync copies 0"}},
{"name":"thread_sort_index","ph":"M","pid":2,"tid":60000,"args":{"sort_index":60000}},
{"name":"thread_name","ph":"M","pid":3,"tid":100,"args":{"name":"PCIe H2D ch 0"}},
{"name":"thread_sort_index","ph":"M","pid":3,"tid":100,"args":{"sort_index":100}},
{"name":"AscendCL@aclrtMemcpyAsync","ph":"X","pid":1,"tid":0,"ts":1.234567,"dur":2.000001,"args":{"Thread Id":0,"level":"acl","connection_id":1}},
{"name":"HostToDevice1","ph":"s","pid":1,"tid":0,"cat":"HostToDevice","id":"1","ts":2.234567},
{"name":"PCIE_DMA_SQE","ph":"X","pid":3,"tid":100,"ts":4.234567,"dur":1,"args":{"Stream Id":3,"Task Id":1,"size(B)":64,"operation":"host to device","memory":"pinned"}},
{"name":"PCIE_DMA_SQE","ph":"X","pid":2,"tid":3,"ts":4.234567,"dur":2,"args":{"Task Type":"PCIE_DMA_SQE","Stream Id":3,"Task Id":1,"size(B)":64,"bandwidth(GB/s)":0.032,"operation":"host to device"}},
{"name":"HostToDevice1","ph":"f","pid":2,"tid":3,"cat":"HostToDevice","id":"1","bp":"e","ts":4.234567},
{"name":"AscendCL@aclrtMemcpyAsync","ph":"X","pid":1,"tid":0,"ts":2.469134,"dur":2.000001,"args":{"Thread Id":0,"level":"acl","connection_id":2}},
{"name":"HostToDevice2","ph":"s","pid":1,"tid":0,"cat":"HostToDevice","id":"2","ts":3.469134},
{"name":"PCIE_DMA_SQE","ph":"X","pid":3,"tid":100,"ts":5.469134,"dur":1,"args":{"Stream Id":3,"Task Id":2,"size(B)":64,"operation":"host to device","memory":"pinned"}},
{"name":"PCIE_DMA_SQE","ph":"X","pid":2,"tid":3,"ts":5.469134,"dur":2,"args":{"Task Type":"PCIE_DMA_SQE","Stream Id":3,"Task Id":2,"size(B)":64,"bandwidth(GB/s)":0.032,"operation":"host to device"}},
{"name":"HostToDevice2","ph":"f","pid":2,"tid":3,"cat":"HostToDevice","id":"2","bp":"e","ts":5.469134},
{"name":"AscendCL@aclrtMemcpyAsync","ph":"X","pid":1,"tid":0,"ts":3.703701,"dur":2.000001,"args":{"Thread Id":0,"level":"acl","connection_id":3}},
{"name":"HostToDevice3","ph":"s","pid":1,"tid":0,"cat":"HostToDevice","id":"3","ts":4.703701},
{"name":"PCIE_DMA_SQE","ph":"X","pid":3,"tid":100,"ts":6.703701,"dur":1,"args":{"Stream Id":3,"Task Id":3,"size(B)":64,"operation":"host to device","memory":"pinned"}},
{"name":"PCIE_DMA_SQE","ph":"X","pid":2,"tid":3,"ts":6.703701,"dur":2,"args":{"Task Type":"PCIE_DMA_SQE","Stream Id":3,"Task Id":3,"size(B)":64,"bandwidth(GB/s)":0.032,"operation":"host to device"}},
{"name":"HostToDevice3","ph":"f","pid":2,"tid":3,"cat":"HostToDevice","id":"3","bp":"e","ts":6.703701},
{"name":"numbers","ph":"X","pid":2,"tid":3,"ts":0,"dur":0,"args":{"zero":0,"minus zero":-0,"million":1e+06,"big":12345678901234568,"2^53+2":9007199254740994,"huge":1e+300,"tiny":1e-300,"third":0.3333333333333333,"negative":-42,"negative frac":-2.5,"nan":null,"inf":null,"u32 max":4294967295,"same key":1,"same key":2}},
{"name":"tab\there \"quoted\" back\\slash \u0001 ctl é","ph":"X","pid":2,"tid":3,"ts":10,"dur":0,"args":{"key \"q\"\n":"line1\nline2\r\t\u001f","":""}},
{"name":"","ph":"X","pid":2,"tid":3,"ts":1000,"dur":0.000001,"args":{}},
{"name":"WaitExecute","ph":"i","pid":2,"tid":3,"s":"t","ts":7,"args":{}},
{"name":"marker","ph":"i","pid":2,"tid":3,"s":"t","ts":7.000001,"args":{"value":0.1}},
{"name":"PCIe H2D (GB/s)","ph":"C","pid":3,"tid":0,"ts":5,"args":{"PCIe H2D (GB/s)":25.6}},
{"name":"PCIe H2D (GB/s)","ph":"C","pid":3,"tid":0,"ts":6,"args":{"PCIe H2D (GB/s)":0}},
{"name":"HostToDevice18446744073709551615","ph":"s","pid":1,"tid":0,"cat":"HostToDevice","id":"18446744073709551615","ts":123456789012.345678},
{"name":"HostToDevice18446744073709551615","ph":"f","pid":2,"tid":3,"cat":"HostToDevice","id":"18446744073709551615","bp":"e","ts":123456789012.345679},
{"name":"negative ids","ph":"X","pid":-1,"tid":-2,"ts":0.000001,"dur":0.000001,"args":{}},
{"name":"max tid","ph":"X","pid":1,"tid":2147483647,"ts":18446744073709.551615,"dur":0,"args":{}}
]
)golden";

TEST(Trace, WrittenJsonIsPinned) {
  TraceWriter w(true);
  record_fixed_sequence(w);
  EXPECT_EQ(w.event_count(), 26u);
  EXPECT_EQ(write_text(w), kPinnedJson);
}

TEST(Trace, NonOwningArgsWriteTheSameJson) {
  TraceWriter w(true);
  record_fixed_sequence<TraceField>(w);
  EXPECT_EQ(write_text(w), kPinnedJson);
  std::vector<TraceField> args = {TraceField::num("Stream Id", 3), TraceField::str("level", "acl")};
  TraceWriter v(true);
  v.complete(1, 2, "span", 0, 10, args.data(), args.size());
  v.complete(1, 2, "span", 0, 10, {TraceField::num("Stream Id", 3), TraceField::str("level", "acl")});
  v.complete(1, 2, "span", 0, 10, {TraceArg::num("Stream Id", 3), TraceArg::str("level", "acl")});
  const std::string text = write_text(v);
  const std::string line =
      R"({"name":"span","ph":"X","pid":1,"tid":2,"ts":0,"dur":0.00001,"args":{"Stream Id":3,"level":"acl"}})";
  EXPECT_EQ(text, "[\n" + line + ",\n" + line + ",\n" + line + "\n]\n");
}

TEST(Trace, ReusedBuffersKeepTheirOwnText) {
  // Names and values passed from one buffer whose content changes between calls (the writer's
  // interning remembers addresses, so it must check the text), and more distinct strings than
  // its address cache holds.
  TraceWriter w(true);
  std::string name, value;
  for (int i = 0; i < 1000; ++i) {
    name = "kernel_" + std::to_string(i % 300);
    value = std::to_string(i);
    w.complete(1, 1, name, static_cast<SimTime>(i), static_cast<SimTime>(i + 1),
               {TraceField::str("v", value), TraceField::str(value, name)});
  }
  nlohmann::json j = write_and_parse(w);
  ASSERT_EQ(j.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    const std::string n = "kernel_" + std::to_string(i % 300), v = std::to_string(i);
    ASSERT_EQ(j[i]["name"], n) << i;
    ASSERT_EQ(j[i]["args"]["v"], v) << i;
    ASSERT_EQ(j[i]["args"][v], n) << i;
  }
}

TEST(Trace, NumbersAreWrittenAsToCharsWritesTheirDouble) {
  // Integer-valued numbers are stored as integers and printed without a double conversion; the
  // text must still be what std::to_chars(double) gives (1000000 -> "1e+06").
  std::vector<double> values = {0, 1, 9, 10, 99999, 100000, 999999, 1000000, 1100000, 12000000,
                                123000000, 4503599627370496.0, 9007199254740991.0, 0.5, 1e300};
  for (double base : {1.0, 2.0, 5.0, 7.0, 10.0, 12.0, 99.0, 123.0, 1001.0, 4096.0, 65535.0}) {
    for (double v = base; v < 9007199254740992.0; v *= 10) values.push_back(v);
  }
  std::uint64_t x = 88172645463325252ull;  // xorshift: integers of every length, some with zeros
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::uint64_t n = (x >> 11) >> (x % 53);
    for (int z = 0; z < static_cast<int>(x % 7) && n < 900719925474099ull; ++z) n *= 10;
    values.push_back(static_cast<double>(n));
  }
  TraceWriter w(true);
  for (double v : values) {
    w.counter(1, "n", 0, v);
    w.complete(1, 1, "x", 0, 0, {TraceField::num("n", v)});
  }
  const std::string text = write_text(w);
  std::size_t at = 0;
  for (std::size_t i = 0; i < 2 * values.size(); ++i) {
    at = text.find("{\"n\":", at);
    ASSERT_NE(at, std::string::npos);
    at += 5;
    const std::size_t end = text.find('}', at);
    char expect[32];
    const auto r = std::to_chars(expect, expect + sizeof expect, values[i / 2]);
    ASSERT_EQ(text.substr(at, end - at), std::string(expect, r.ptr)) << values[i / 2];
  }
}

TEST(Trace, LongNamesAndManyEventsCrossTheOutputBuffer) {
  TraceWriter w(true);
  const std::string long_name(3 << 20, 'n');  // larger than write()'s 1 MiB block
  w.complete(1, 1, long_name, 0, 1, {TraceField::str("text", long_name)});
  for (int i = 0; i < 40000; ++i) {
    w.complete(1, 1, "span", static_cast<SimTime>(i) * 7, static_cast<SimTime>(i) * 7 + 3,
               {TraceField::num("i", i), TraceField::str("s", "value")});
  }
  w.complete(1, 1, long_name, 5, 6);
  nlohmann::json j = write_and_parse(w);
  ASSERT_EQ(j.size(), 40002u);
  EXPECT_EQ(j[0]["name"], long_name);
  EXPECT_EQ(j[0]["args"]["text"], long_name);
  for (int i = 0; i < 40000; ++i) ASSERT_EQ(j[i + 1]["args"]["i"], i);
  EXPECT_EQ(j[40001]["name"], long_name);
  EXPECT_EQ(j[40000]["ts"].get<double>(), 39999 * 7 / 1e6);
}

/// Records what one traced async copy records, the way the runtime and models do.
void record_async_copy(TraceWriter& w, std::uint64_t i) {
  const SimTime t = i * 3 * kUs;
  const double task = static_cast<double>(i % 65536);
  w.complete(1, 0, "AscendCL@aclrtMemcpyAsync", t, t + 150 * kNs,
             {TraceField::num("Thread Id", 0), TraceField::str("level", "acl"),
              TraceField::num("connection_id", static_cast<double>(i))});
  w.flow_begin(1, 0, i, t + 75 * kNs);
  w.complete(3, 100 + static_cast<int>(i % 4), "PCIE_DMA_SQE", t + 2 * kUs, t + 2 * kUs + 1234,
             {TraceField::num("Stream Id", 3), TraceField::num("Task Id", task),
              TraceField::num("size(B)", 64), TraceField::str("operation", "host to device"),
              TraceField::str("memory", "pinned")});
  w.complete(2, 3, "PCIE_DMA_SQE", t + 2 * kUs, t + 2 * kUs + 1534,
             {TraceField::str("Task Type", "PCIE_DMA_SQE"), TraceField::num("Stream Id", 3),
              TraceField::num("Task Id", task), TraceField::num("size(B)", 64),
              TraceField::num("bandwidth(GB/s)", 64 * 1e3 / 1534),
              TraceField::str("operation", "host to device")});
  w.flow_end(2, 3, i, t + 2 * kUs);
}

TEST(Trace, MemoryPerTracedTaskIsSmall) {
  // The issue's target: at most 300 bytes held per traced task (5 events, 14 args).
  TraceWriter w(true);
  EXPECT_EQ(w.memory_bytes(), 0u);
  constexpr std::uint64_t kTasks = 200000;
  for (std::uint64_t i = 1; i <= kTasks; ++i) record_async_copy(w, i);
  EXPECT_EQ(w.event_count(), 5 * kTasks);
  const double per_task = static_cast<double>(w.memory_bytes()) / kTasks;
  RecordProperty("bytes_per_traced_task", std::to_string(per_task));
  EXPECT_LE(per_task, 300.0);
  EXPECT_GE(per_task, 40.0);  // (the accounting counts the records at all)
  w.clear();
  EXPECT_EQ(w.event_count(), 0u);
  EXPECT_LT(w.memory_bytes(), 64u * 1024);  // the records' chunks are released
}

TEST(Trace, DisabledWriterHoldsNoEventMemory) {
  TraceWriter w;
  for (std::uint64_t i = 1; i <= 1000; ++i) record_async_copy(w, i);
  EXPECT_EQ(w.event_count(), 0u);
  EXPECT_EQ(w.memory_bytes(), 0u);
}

TEST(Trace, OneProcessPerNameAndLabel) {
  TraceWriter w(true);
  int dev0 = w.process("Ascend Hardware", "NPU 0", 14);
  int dev1 = w.process("Ascend Hardware", "NPU 1", 14);
  EXPECT_NE(dev0, dev1);
  EXPECT_EQ(w.process("Ascend Hardware", "NPU 1", 14), dev1);
}

TEST(Trace, MetadataCompleteFlowAndCounterEvents) {
  TraceWriter w(true);
  int host = w.process("CANN", "CPU", 7);
  int dev = w.process("Ascend Hardware", "NPU 0", 14);
  EXPECT_EQ(w.process("CANN", "CPU", 1), host);
  EXPECT_NE(host, dev);
  w.thread(host, 1234, "Thread 1234", 1234);
  w.thread(dev, 3, "Stream 3", 3);
  w.thread(dev, 3, "Stream 3 again", 99);  // idempotent: the first declaration stays

  w.complete(host, 1234, "AscendCL@aclrtMemcpyAsync", 1 * kUs, 3 * kUs + 500,
             {TraceArg::str("level", "acl"), TraceArg::num("connection_id", 42)});
  w.flow_begin(host, 1234, 42, 2 * kUs);
  w.complete(dev, 3, "MEMCPY_ASYNC", 5 * kUs, 1005 * kUs + 1,
             {TraceArg::str("Task Type", "PCIE_DMA_SQE"), TraceArg::num("size(B)", 1024),
              TraceArg::str("quote", "a \"b\"\n")});
  w.flow_end(dev, 3, 42, 5 * kUs);
  w.counter(dev, "PCIe H2D (GB/s)", 5 * kUs, 25.6);
  w.instant(dev, 3, "WaitExecute", 7 * kUs);
  EXPECT_EQ(w.event_count(), 6u);

  nlohmann::json j = write_and_parse(w);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 6u + 3 * 2 + 2 * 2);

  auto names = events(j, "M", "process_name");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0]["args"]["name"], "CANN");
  EXPECT_EQ(names[0]["pid"], host);
  EXPECT_EQ(names[0]["tid"], 0);
  auto labels = events(j, "M", "process_labels");
  EXPECT_EQ(labels[1]["args"]["labels"], "NPU 0");
  auto sorts = events(j, "M", "process_sort_index");
  EXPECT_EQ(sorts[1]["args"]["sort_index"], 14);
  auto threads = events(j, "M", "thread_name");
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[1]["args"]["name"], "Stream 3");
  EXPECT_EQ(threads[1]["tid"], 3);
  EXPECT_EQ(events(j, "M", "thread_sort_index")[1]["args"]["sort_index"], 3);

  auto spans = events(j, "X");
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0]["name"], "AscendCL@aclrtMemcpyAsync");
  EXPECT_EQ(spans[0]["ts"].get<double>(), 1.0);
  EXPECT_EQ(spans[0]["dur"].get<double>(), 2.0005);  // µs with ps precision
  EXPECT_EQ(spans[0]["args"]["level"], "acl");
  EXPECT_EQ(spans[0]["args"]["connection_id"], 42);
  EXPECT_EQ(spans[1]["pid"], dev);
  EXPECT_EQ(spans[1]["dur"].get<double>(), 1000.000001);
  EXPECT_EQ(spans[1]["args"]["Task Type"], "PCIE_DMA_SQE");
  EXPECT_EQ(spans[1]["args"]["quote"], "a \"b\"\n");

  auto s = events(j, "s");
  auto f = events(j, "f");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(f.size(), 1u);
  expect_fields(s[0], {{"name", "HostToDevice42"}, {"cat", "HostToDevice"}, {"id", "42"},
                       {"tid", 1234}, {"ts", 2.0}});
  expect_fields(f[0], {{"name", "HostToDevice42"}, {"bp", "e"}, {"id", s[0]["id"]}, {"tid", 3}});

  auto c = events(j, "C");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["args"]["PCIe H2D (GB/s)"], 25.6);
  EXPECT_EQ(events(j, "i")[0]["s"], "t");
}

TEST(Trace, DeviceToDeviceFlowsHaveTheirOwnCategory) {
  TraceWriter w(true);
  int npu0 = w.process("Ascend Hardware", "NPU 0", 14);
  int npu1 = w.process("Ascend Hardware", "NPU 1", 14);
  w.complete(npu0, 5, "Notify Record", 1 * kUs, 2 * kUs);
  w.flow_begin(npu0, 5, 7, 2 * kUs - 1, FlowKind::kDeviceToDevice);
  w.complete(npu1, 6, "Notify Wait", 0, 3 * kUs);
  w.flow_end(npu1, 6, 7, 3 * kUs - 1, FlowKind::kDeviceToDevice);
  w.flow_begin(npu0, 5, 7, 4 * kUs);  // a host flow with the same number stays a host flow

  nlohmann::json j = write_and_parse(w);
  auto s = events(j, "s");
  auto f = events(j, "f");
  ASSERT_EQ(s.size(), 2u);
  ASSERT_EQ(f.size(), 1u);
  expect_fields(s[0], {{"name", "DeviceToDevice7"}, {"cat", "DeviceToDevice"}, {"pid", npu0},
                       {"ts", 1.999999}});
  expect_fields(f[0], {{"name", "DeviceToDevice7"}, {"cat", "DeviceToDevice"}, {"id", "7"},
                       {"bp", "e"}, {"pid", npu1}, {"ts", 2.999999}});
  expect_fields(s[1], {{"cat", "HostToDevice"}, {"name", "HostToDevice7"}});
}

TEST(Trace, DisabledRecordsNothingButKeepsDeclarations) {
  TraceWriter w;
  EXPECT_FALSE(w.enabled());
  int pid = w.process("CANN", "CPU", 7);
  w.thread(pid, 1, "Thread 1", 1);
  w.complete(pid, 1, "x", 0, 10);
  w.flow_begin(pid, 1, 1, 0);
  w.counter(pid, "c", 0, 1);
  EXPECT_EQ(w.event_count(), 0u);
  EXPECT_EQ(write_and_parse(w), nlohmann::json::array());  // no event: no track either
  w.set_enabled(true);
  w.complete(pid, 1, "x", 0, 10);
  EXPECT_EQ(w.event_count(), 1u);
  EXPECT_EQ(write_and_parse(w).size(), 5u + 1);  // the declarations made while disabled show now
  w.clear();
  EXPECT_EQ(w.event_count(), 0u);
  EXPECT_EQ(write_and_parse(w), nlohmann::json::array());
  EXPECT_EQ(w.process("CANN", "CPU", 7), pid);
}

// Only processes that received an event are written, each with all its tracks: a one-chip
// program's timeline has no tracks of the idle chips (their pids stay unused).
TEST(Trace, ProcessesWithoutEventsAreNotWritten) {
  TraceWriter w(true);
  std::vector<int> chips;
  for (int c = 0; c < 8; ++c) {
    const std::string npu = "NPU " + std::to_string(c);
    chips.push_back(w.process(npu + " Units", npu, 15));
    w.thread(chips.back(), 1, "SDMA ch 0", 1);
    w.thread(chips.back(), 2, "SDMA ch 1", 2);
  }
  const int host = w.process("CANN", "CPU", 7);
  w.complete(chips[3], 1, "copy", 0, 10);
  w.counter(host, "c", 0, 1);  // a counter alone makes its process shown
  const nlohmann::json j = write_and_parse(w);
  auto names = events(j, "M", "process_name");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0]["args"]["name"], "NPU 3 Units");
  EXPECT_EQ(names[0]["pid"], chips[3]);
  EXPECT_EQ(names[1]["args"]["name"], "CANN");
  auto threads = events(j, "M", "thread_name");
  ASSERT_EQ(threads.size(), 2u);  // the idle channel of the chip that ran something stays
  EXPECT_EQ(threads[1]["args"]["name"], "SDMA ch 1");
  EXPECT_EQ(threads[1]["pid"], chips[3]);
  EXPECT_EQ(j.size(), 2u * 3 + 2u * 2 + 2);
}

TEST(Trace, EmptyWriterWritesAnEmptyArray) {
  TraceWriter w(true);
  EXPECT_EQ(write_and_parse(w), nlohmann::json::array());
}

TEST(Trace, WriteFailureNamesThePath) {
  TraceWriter w(true);
  try {
    w.write("/nonexistent-dir/t.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/t.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace npusim::sim
