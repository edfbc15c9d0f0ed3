// SPDX-License-Identifier: Apache-2.0
// Template definitions of sim/config.h. Each operation is one FieldVisitor implemented in
// config.cpp; the templates only hand it a way to walk the caller's struct (`root.visit(v)`).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace npusim::sim {
namespace detail {

/// Walks a config struct with a visitor: `[&](FieldVisitor& v) { root.visit(v); }`.
using Walk = std::function<void(FieldVisitor&)>;

void apply_yaml(const Walk& walk, const std::string& yaml_text, const std::string& origin,
                const std::vector<std::string>& skip_top_keys);
void apply_override(const Walk& walk, const std::string& assignment, const std::string& origin);
std::string dump_yaml(const Walk& walk);
std::string reference(const Walk& walk);
void validate(const Walk& walk, const std::string& origin);

}  // namespace detail

template <class Root>
void apply_yaml(Root& root, const std::string& yaml_text, const std::string& origin,
                const std::vector<std::string>& skip_top_keys) {
  Root copy = root;  // all-or-nothing: a rejected document leaves `root` untouched
  detail::apply_yaml([&copy](FieldVisitor& v) { copy.visit(v); }, yaml_text, origin,
                     skip_top_keys);
  root = std::move(copy);
}

template <class Root>
void apply_override(Root& root, const std::string& assignment, const std::string& origin) {
  Root copy = root;
  detail::apply_override([&copy](FieldVisitor& v) { copy.visit(v); }, assignment, origin);
  root = std::move(copy);
}

template <class Root>
std::string dump_yaml(Root& root) {
  return detail::dump_yaml([&root](FieldVisitor& v) { root.visit(v); });
}

template <class Root>
std::string reference(Root& root) {
  return detail::reference([&root](FieldVisitor& v) { root.visit(v); });
}

template <class Root>
void validate(Root& root, const std::string& origin) {
  detail::validate([&root](FieldVisitor& v) { root.visit(v); }, origin);
}

}  // namespace npusim::sim
