// SPDX-License-Identifier: Apache-2.0
// The dump configuration (dump.h, "Configuration"): the "dump" object of an aclInit or
// aclmdlSetDump file, checked key by key.
#include <filesystem>
#include <initializer_list>
#include <system_error>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/core/errors.h"
#include "runtime/dump/dump.h"
#include "runtime/dump/dump_file.h"

namespace npusim::rt::dump {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

[[noreturn]] void bad(const std::string& source, const std::string& why) {
  fail(ACL_ERROR_INVALID_DUMP_CONFIG, "dump configuration " + source + ": " + why);
}

std::string string_key(const Json& d, const char* key, const std::string& source,
                        std::initializer_list<const char*> allowed, const char* fallback) {
  if (!d.contains(key)) return fallback;
  const Json& v = d[key];
  if (!v.is_string()) bad(source, std::string(key) + " must be a string");
  std::string s = v.get<std::string>();
  if (allowed.size() == 0) return s;
  std::string list;
  for (const char* a : allowed) {
    if (s == a) return s;
    list += list.empty() ? a : std::string(", ") + a;
  }
  bad(source, std::string(key) + " \"" + s + "\" is not one of " + list);
}

}  // namespace

Config parse_config(const std::string& text, const std::string& source) {
  Config c;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return c;
  Json root = Json::parse(text, nullptr, false);
  if (root.is_discarded()) fail(ACL_ERROR_PARSE_FILE, "config file " + source + " is not valid JSON");
  if (!root.is_object() || !root.contains("dump")) return c;
  const Json& d = root["dump"];
  if (!d.is_object()) bad(source, "\"dump\" must be an object");
  if (d.contains("dump_path")) {
    if (!d["dump_path"].is_string()) bad(source, "dump_path must be a string");
    c.path = d["dump_path"].get<std::string>();
    if (c.path.empty()) bad(source, "dump_path is empty");
  }
  c.op_switch = string_key(d, "dump_op_switch", source, {"on", "off"}, "off") == "on";
  const std::string mode = string_key(d, "dump_mode", source, {"input", "output", "all"}, "output");
  c.mode = mode == "input" ? Mode::kInput : mode == "all" ? Mode::kAll : Mode::kOutput;
  const std::string data = string_key(d, "dump_data", source, {"tensor", "stats"}, "tensor");
  if (data == "stats") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": dump_data \"stats\" is not supported by npusim");
  }
  if (string_key(d, "dump_debug", source, {"on", "off"}, "off") == "on") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": overflow dump (dump_debug on) is not supported by npusim");
  }
  const std::string scene = string_key(
      d, "dump_scene", source,
      {"", "aic_err_brief_dump", "aic_err_norm_dump", "lite_exception", "aic_err_detail_dump",
       "watcher"},
      "");
  if (scene == "aic_err_detail_dump" || scene == "watcher") {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "dump configuration " + source + ": dump_scene \"" + scene + "\" is not supported by npusim");
  }
  c.scene = scene == "aic_err_norm_dump" ? Scene::kNorm
            : scene.empty()              ? Scene::kNone
                                         : Scene::kBrief;
  bool all_ops = true;
  if (d.contains("dump_list")) {
    const Json& list = d["dump_list"];
    if (!list.is_array()) bad(source, "dump_list must be an array");
    for (const Json& e : list) {
      if (!e.is_object()) bad(source, "each dump_list entry must be an object");
      if (e.contains("model_name") && !e["model_name"].is_string()) {
        bad(source, "model_name must be a string");
      }
      if (!e.contains("layer")) continue;
      if (!e["layer"].is_array()) bad(source, "layer must be an array of operator names");
      all_ops = false;
      for (const Json& l : e["layer"]) {
        if (!l.is_string()) bad(source, "layer must be an array of operator names");
        c.layers.push_back(l.get<std::string>());
      }
    }
  }
  if (all_ops) c.layers.clear();
  if (c.op_switch && c.path.empty()) bad(source, "dump_op_switch is on but dump_path is missing");
  if (c.op_switch) {  // the data dump's directory: created when missing
    std::error_code ec;
    const fs::path dir = absolute_dir(c.path);
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir, ec)) bad(source, "dump_path " + dir.string() + " cannot be created");
  }
  if (c.op_switch && c.scene != Scene::kNone) {
    bad(source, "exception dump (dump_scene) cannot be combined with single-operator dump");
  }
  return c;
}

}  // namespace npusim::rt::dump
