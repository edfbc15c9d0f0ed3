// SPDX-License-Identifier: Apache-2.0
#include "sim/config.h"

#include <gtest/gtest.h>

namespace npusim::sim {
namespace {

struct Inner {
  std::int64_t count = 3;
  Duration delay{5 * kNs};
  template <class V>
  void visit(V& v) {
    v.field("count", count, "how many");
    v.field("delay", delay, "a delay");
  }
};

struct Deep {
  Inner inner;
  Bandwidth bw{1e9};
  template <class V>
  void visit(V& v) {
    v.group("inner", inner, "the inner group");
    v.field("bw", bw, "a bandwidth");
  }
};

struct Root {
  std::int64_t n = 1;
  double ratio = 0.5;
  bool flag = false;
  std::string name = "x";
  Bytes size{1024};
  Bandwidth bandwidth{25e9};
  Duration latency{kUs};
  Frequency freq{1e9};
  Deep deep;
  template <class V>
  void visit(V& v) {
    v.field("n", n, "an integer");
    v.field("ratio", ratio, "a ratio");
    v.field("flag", flag, "a flag");
    v.field("name", name, "a name");
    v.field("size", size, "a size");
    v.field("bandwidth", bandwidth, "link bandwidth");
    v.field("latency", latency, "link latency");
    v.field("freq", freq, "a clock");
    v.group("deep", deep, "a nested group");
  }
};

/// The ConfigError text of `apply` to `into` (a fresh Root if null); empty if it was accepted.
template <class Apply>
std::string error_of(Apply apply, Root* into) {
  Root local;
  try {
    apply(into ? *into : local);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return {};
}

/// The ConfigError text of applying `yaml` (empty if it was accepted).
std::string yaml_error(const std::string& yaml, Root* into = nullptr) {
  return error_of([&](Root& r) { apply_yaml(r, yaml, "test.yaml"); }, into);
}

std::string override_error(const std::string& assignment, Root* into = nullptr) {
  return error_of([&](Root& r) { apply_override(r, assignment, "NPUSIM_SET"); }, into);
}

TEST(Config, AppliesEveryType) {
  Root r;
  apply_yaml(r,
             "n: -42\nratio: 0.25\nflag: true\nname: hello world\nsize: 64KiB\n"
             "bandwidth: 16GB/s\nlatency: 250ns\nfreq: 1.5GHz\n"
             "deep:\n  bw: 1TB/s\n  inner:\n    count: 0x10\n    delay: 1ms\n",
             "test.yaml");
  EXPECT_EQ(r.n, -42);
  EXPECT_EQ(r.ratio, 0.25);
  EXPECT_TRUE(r.flag);
  EXPECT_EQ(r.name, "hello world");
  EXPECT_EQ(r.size.value, 65536u);
  EXPECT_EQ(r.bandwidth.bytes_per_sec, 16e9);
  EXPECT_EQ(r.latency.ps, 250 * kNs);
  EXPECT_EQ(r.freq.hz, 1.5e9);
  EXPECT_EQ(r.deep.bw.bytes_per_sec, 1e12);
  EXPECT_EQ(r.deep.inner.count, 16);
  EXPECT_EQ(r.deep.inner.delay.ps, kMs);
}

TEST(Config, AbsentKeysKeepDefaults) {
  Root r;
  apply_yaml(r, "deep:\n  inner:\n    count: 9\n", "test.yaml");
  EXPECT_EQ(r.deep.inner.count, 9);
  EXPECT_EQ(r.deep.inner.delay.ps, 5 * kNs);
  EXPECT_EQ(r.n, 1);
  EXPECT_EQ(yaml_error(""), "");
  EXPECT_EQ(yaml_error("# only a comment\n"), "");
  EXPECT_EQ(yaml_error("deep:\n"), "");  // an empty group
}

TEST(Config, UnknownTopLevelKeySuggests) {
  EXPECT_EQ(yaml_error("n: 2\nbandwith: 1GB/s\n"),
            "test.yaml:2: bandwith: unknown key (did you mean \"bandwidth\"?)");
}

TEST(Config, UnknownNestedKeySuggestsFullPath) {
  EXPECT_EQ(yaml_error("deep:\n  inner:\n    cuont: 3\n"),
            "test.yaml:3: deep.inner.cuont: unknown key (did you mean \"deep.inner.count\"?)");
}

TEST(Config, UnknownGroupIsAnError) {
  EXPECT_EQ(yaml_error("dep:\n  bw: 1GB/s\n"),
            "test.yaml:1: dep: unknown key (did you mean \"deep\"?)");
  std::string e = yaml_error("deep:\n  nothing_like_it:\n    x: 1\n");
  EXPECT_EQ(e, "test.yaml:2: deep.nothing_like_it: unknown key (known keys in deep: inner, bw)");
}

TEST(Config, BadValuesNameLineKeyAndReason) {
  EXPECT_EQ(yaml_error("flag: true\nn: 16x\n"), "test.yaml:2: n: expected an integer, got \"16x\"");
  EXPECT_EQ(yaml_error("flag: maybe\n"), "test.yaml:1: flag: expected true or false, got \"maybe\"");
  EXPECT_EQ(yaml_error("ratio: half\n"), "test.yaml:1: ratio: expected a number, got \"half\"");
  EXPECT_EQ(yaml_error("bandwidth: fast\n"),
            "test.yaml:1: bandwidth: expected a bandwidth such as 25GB/s, got \"fast\"");
  EXPECT_EQ(yaml_error("n: 99999999999999999999\n"),
            "test.yaml:1: n: integer out of range, got \"99999999999999999999\"");
  EXPECT_EQ(yaml_error("deep:\n  inner:\n    delay: 5\n"),
            "test.yaml:3: deep.inner.delay: expected a duration such as 1us, got \"5\" "
            "(missing unit; use one of ps, ns, us, \xC2\xB5s, ms, s)");
}

TEST(Config, WrongShapes) {
  EXPECT_EQ(yaml_error("n: {a: 1}\n"), "test.yaml:1: n: expected an integer, got a map");
  EXPECT_EQ(yaml_error("name: [a, b]\n"), "test.yaml:1: name: expected a string, got a list");
  EXPECT_EQ(yaml_error("latency:\n"), "test.yaml:1: latency: expected a duration such as 1us, got nothing");
  EXPECT_EQ(yaml_error("deep: 5\n"), "test.yaml:1: deep: expected a group of keys, got the value \"5\"");
  EXPECT_EQ(yaml_error("- 1\n- 2\n"),
            "test.yaml:1: expected a map of keys at the top level, got a list");
  EXPECT_EQ(yaml_error("n: 1\nn: 2\n"), "test.yaml:2: n: duplicate key");
}

TEST(Config, SyntaxErrorNamesLine) {
  std::string e = yaml_error("n: 1\ndeep: [1, 2\n");
  EXPECT_EQ(e.rfind("test.yaml:", 0), 0u) << e;
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
}

TEST(Config, ReportsAllProblemsInLineOrder) {
  std::string e = yaml_error("deep:\n  bw: slow\nn: x\nbogus: 1\n");
  EXPECT_EQ(e,
            "test.yaml:2: deep.bw: expected a bandwidth such as 25GB/s, got \"slow\"\n"
            "test.yaml:3: n: expected an integer, got \"x\"\n"
            "test.yaml:4: bogus: unknown key (known keys: n, ratio, flag, name, size, bandwidth, "
            "latency, freq, deep)");
}

TEST(Config, ErrorLeavesRootUnchanged) {
  Root r;
  EXPECT_NE(yaml_error("n: 5\nbogus: 1\n", &r), "");
  EXPECT_EQ(r.n, 1);
  EXPECT_NE(override_error("n=abc", &r), "");
  EXPECT_EQ(r.n, 1);
}

TEST(Config, SkippedTopLevelKeys) {
  Root r;
  apply_yaml(r, "base: tiny\nn: 3\n", "test.yaml", {"base"});
  EXPECT_EQ(r.n, 3);
  EXPECT_EQ(yaml_error("base: tiny\n"), "test.yaml:1: base: unknown key (did you mean \"name\"?)");
}

TEST(Config, Overrides) {
  Root r;
  apply_override(r, "deep.inner.count=7");
  apply_override(r, "  latency = 3us ");
  apply_override(r, "name=\"a;b: c\"");
  apply_override(r, "flag=yes");
  EXPECT_EQ(r.deep.inner.count, 7);
  EXPECT_EQ(r.latency.ps, 3 * kUs);
  EXPECT_EQ(r.name, "a;b: c");
  EXPECT_TRUE(r.flag);
}

TEST(Config, OverrideErrors) {
  EXPECT_EQ(override_error("deep.inner.cuont=3"),
            "NPUSIM_SET: deep.inner.cuont: unknown key (did you mean \"deep.inner.count\"?)");
  EXPECT_EQ(override_error("bandwidth=fast"),
            "NPUSIM_SET: bandwidth: expected a bandwidth such as 25GB/s, got \"fast\"");
  EXPECT_EQ(override_error("deep=1"), "NPUSIM_SET: deep: expected a group of keys, got the value \"1\"");
  EXPECT_EQ(override_error("latency="), "NPUSIM_SET: latency: expected a duration such as 1us, got nothing");
  EXPECT_EQ(override_error("latency"),
            "NPUSIM_SET: expected key=value (e.g. pcie.h2d_bandwidth=16GB/s), got \"latency\"");
  EXPECT_NE(override_error("deep..bw=1GB/s").find("expected key=value"), std::string::npos);
  EXPECT_EQ(override_error("n=[1"), override_error("n=[1"));  // a YAML error is a ConfigError
  EXPECT_NE(override_error("n=[1"), "");
}

TEST(Config, DumpReloadsToTheSameValues) {
  Root r;
  apply_yaml(r,
             "n: -5\nratio: 0.1\nflag: true\nname: \"a: b # c\"\nsize: 24GB\nbandwidth: 204.8GB/s\n"
             "latency: 1500ns\nfreq: 1.06GHz\ndeep:\n  inner:\n    delay: 7ps\n",
             "test.yaml");
  std::string dumped = dump_yaml(r);
  Root back;
  back.name = "different";
  apply_yaml(back, dumped, "dump");
  EXPECT_EQ(dump_yaml(back), dumped);
  EXPECT_EQ(back.name, "a: b # c");
  EXPECT_EQ(back.size.value, 24000000000u);
  EXPECT_EQ(back.deep.inner.delay.ps, 7u);

  Root empty_name;
  empty_name.name = "";
  Root reloaded;
  apply_yaml(reloaded, dump_yaml(empty_name), "dump");
  EXPECT_EQ(reloaded.name, "");
}

TEST(Config, DumpHasEveryKeyAndDescriptions) {
  Root r;
  std::string d = dump_yaml(r);
  EXPECT_NE(d.find("# link bandwidth\nbandwidth: 25GB/s\n"), std::string::npos) << d;
  EXPECT_NE(d.find("# a nested group\ndeep:\n"), std::string::npos) << d;
  EXPECT_NE(d.find("  # the inner group\n  inner:\n    # how many\n    count: 3\n"),
            std::string::npos) << d;
  EXPECT_NE(d.find("    delay: 5ns\n"), std::string::npos) << d;
}

TEST(Config, ReferenceListsEveryKey) {
  Root r;
  r.deep.inner.count = 11;  // the reference shows the values of the struct passed in
  std::string ref = reference(r);
  auto has_row = [&](const std::string& key, const std::string& type, const std::string& value,
                     const std::string& desc) {
    std::size_t at = ref.find("\n" + key + " ");
    if (at == std::string::npos) return false;
    std::string line = ref.substr(at + 1, ref.find('\n', at + 1) - at - 1);
    return line.find(" " + type + " ") != std::string::npos &&
           line.find(" " + value + " ") != std::string::npos &&
           line.size() >= desc.size() && line.compare(line.size() - desc.size(), desc.size(), desc) == 0;
  };
  EXPECT_EQ(ref.rfind("KEY", 0), 0u);
  EXPECT_TRUE(has_row("n", "integer", "1", "an integer")) << ref;
  EXPECT_TRUE(has_row("ratio", "number", "0.5", "a ratio")) << ref;
  EXPECT_TRUE(has_row("flag", "bool", "false", "a flag")) << ref;
  EXPECT_TRUE(has_row("name", "string", "x", "a name")) << ref;
  EXPECT_TRUE(has_row("size", "bytes", "1KiB", "a size")) << ref;
  EXPECT_TRUE(has_row("bandwidth", "B/s", "25GB/s", "link bandwidth")) << ref;
  EXPECT_TRUE(has_row("latency", "time", "1us", "link latency")) << ref;
  EXPECT_TRUE(has_row("freq", "Hz", "1GHz", "a clock")) << ref;
  EXPECT_TRUE(has_row("deep.inner.count", "integer", "11", "how many")) << ref;
  EXPECT_TRUE(has_row("deep.inner.delay", "time", "5ns", "a delay")) << ref;
  EXPECT_TRUE(has_row("deep.bw", "B/s", "1GB/s", "a bandwidth")) << ref;
  EXPECT_NE(ref.find("\ndeep.inner "), std::string::npos) << ref;  // groups are listed too
}

TEST(Config, FindTopLevelScalar) {
  auto base = find_top_level_scalar("# x\nn: 1\nbase: ../a.yaml\n", "base", "t.yaml");
  ASSERT_TRUE(base);
  EXPECT_EQ(base->value, "../a.yaml");
  EXPECT_EQ(base->line, 3);
  EXPECT_FALSE(find_top_level_scalar("n: 1\n", "base", "t.yaml"));
  EXPECT_FALSE(find_top_level_scalar("", "base", "t.yaml"));
  try {
    find_top_level_scalar("base:\n  a: 1\n", "base", "t.yaml");
    FAIL() << "a map was accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "t.yaml:1: base: expected a single value, got a map");
  }
}

}  // namespace
}  // namespace npusim::sim
