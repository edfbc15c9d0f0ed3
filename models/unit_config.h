// SPDX-License-Identifier: Apache-2.0
// Unit configuration groups: a unit declares its keys beside itself and registers the group, as
// it registers itself (models/unit.h); the chip's configuration (ChipConfig, chip_config.h) holds
// the core groups as members and every registered unit group in a UnitConfigs.
//
// A unit's group is a struct like the core ones (sim/config.h: defaults are its initialisers,
// visit() declares each key with its description and rule) plus its name and description:
//   struct EchoConfig {
//     static constexpr const char* kGroup = "echo";
//     static constexpr const char* kDescription = "the echo unit";
//     Duration time{3 * sim::kUs};
//     template <class V> void visit(V& v) { v.field("time", time, "time per task"); }
//   };
// registered once with add_unit_config(unit_config<EchoConfig>()) (built-in units: the list in
// models/unit_configs.cpp) before configurations are loaded, and read as cfg.unit<EchoConfig>().
// Its keys then parse from YAML ("echo.time: 2us"), take --set overrides, appear in the dump and
// in `npusim info --reference`; a document may omit them (the defaults stay); unknown keys under
// "echo" are errors. A group may check rules across its keys with
//   void check(const std::string& origin) const;  // throws sim::ConfigError
// which validate_chip_config() calls. Plain C++.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "sim/config.h"

namespace npusim::models {

/// One group's values behind a type-erased handle.
class UnitConfigValue {
 public:
  virtual ~UnitConfigValue() = default;
  virtual std::unique_ptr<UnitConfigValue> clone() const = 0;
  virtual void visit(sim::FieldVisitor& v) = 0;
  /// The group's cross-key rules (nothing when it declares none).
  virtual void check(const std::string& origin) const = 0;
};

namespace detail {

template <class T, class = void>
struct HasCheck : std::false_type {};
template <class T>
struct HasCheck<T, std::void_t<decltype(std::declval<const T&>().check(std::string()))>>
    : std::true_type {};

template <class T>
class UnitConfigOf final : public UnitConfigValue {
 public:
  T value;
  std::unique_ptr<UnitConfigValue> clone() const override {
    return std::make_unique<UnitConfigOf>(*this);
  }
  void visit(sim::FieldVisitor& v) override { value.visit(v); }
  void check(const std::string& origin) const override {
    if constexpr (HasCheck<T>::value) value.check(origin);
  }
};

}  // namespace detail

/// A registered group: its key, its description and how to make its defaults.
struct UnitConfigSpec {
  const char* group;
  const char* description;
  std::unique_ptr<UnitConfigValue> (*make)();
};

template <class T>
UnitConfigSpec unit_config() {
  return {T::kGroup, T::kDescription,
          [] { return std::unique_ptr<UnitConfigValue>(new detail::UnitConfigOf<T>()); }};
}

/// The registered groups: the built-in list (unit_configs.cpp), then add_unit_config()'s.
std::vector<UnitConfigSpec> unit_config_specs();
/// Registers a group for every configuration made afterwards in this process. Contract: group
/// names are unique, and none is a core group of ChipConfig (std::logic_error otherwise).
void add_unit_config(UnitConfigSpec spec);

/// The values of every registered group (a member of ChipConfig; copies are deep).
class UnitConfigs {
 public:
  UnitConfigs();
  UnitConfigs(const UnitConfigs& other);
  UnitConfigs& operator=(const UnitConfigs& other);
  UnitConfigs(UnitConfigs&&) noexcept = default;
  UnitConfigs& operator=(UnitConfigs&&) noexcept = default;
  ~UnitConfigs();

  /// The values of T's group. A group registered after this configuration was made reads as its
  /// defaults (and is added on the first non-const access). Contract: a group of that name
  /// holds a T (std::logic_error otherwise).
  template <class T>
  const T& get() const {
    if (const UnitConfigValue* v = find(T::kGroup)) return typed<T>(*v);
    static const T defaults{};
    return defaults;
  }
  template <class T>
  T& get() {
    UnitConfigValue* v = find(T::kGroup);
    if (v == nullptr) v = &add(unit_config<T>());
    return const_cast<T&>(typed<T>(*v));
  }

  /// Every registered group as v.group(name, values, description), in registration order.
  void visit(sim::FieldVisitor& v);
  /// Each group's check().
  void check(const std::string& origin) const;

 private:
  struct Entry {
    std::string group;
    const char* description;
    std::unique_ptr<UnitConfigValue> value;
  };
  UnitConfigValue* find(const std::string& group) const;
  UnitConfigValue& add(const UnitConfigSpec& spec);
  /// Brings in groups registered since (visit() parses them too).
  void refresh();
  template <class T>
  static const T& typed(const UnitConfigValue& v) {
    const auto* t = dynamic_cast<const detail::UnitConfigOf<T>*>(&v);
    if (t == nullptr) wrong_type(T::kGroup, typeid(T).name());
    return t->value;
  }
  [[noreturn]] static void wrong_type(const char* group, const char* type);

  std::vector<Entry> entries_;
};

}  // namespace npusim::models
