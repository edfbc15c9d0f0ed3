// SPDX-License-Identifier: Apache-2.0
// The dump configuration (dump.h, "Configuration"): the "dump" object of an aclInit or
// aclmdlSetDump file, checked key by key.
#include <filesystem>
#include <initializer_list>
#include <system_error>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

std::string dump_path(const Json& d, const std::string& source) {
  if (!d.contains("dump_path")) return "";
  if (!d["dump_path"].is_string()) bad(source, "dump_path must be a string");
  std::string path = d["dump_path"].get<std::string>();
  if (path.empty()) bad(source, "dump_path is empty");
  return path;
}

[[noreturn]] void unsupported(const std::string& source, const std::string& what) {
  fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
       "dump configuration " + source + ": " + what + " is not supported by npusim");
}

// dump_op_switch, dump_mode, dump_data and dump_debug: what the data dump writes.
void parse_data_keys(const Json& d, const std::string& source, Config& c) {
  c.op_switch = string_key(d, "dump_op_switch", source, {"on", "off"}, "off") == "on";
  const std::string mode = string_key(d, "dump_mode", source, {"input", "output", "all"}, "output");
  c.mode = mode == "input" ? Mode::kInput : mode == "all" ? Mode::kAll : Mode::kOutput;
  const std::string data = string_key(d, "dump_data", source, {"tensor", "stats"}, "tensor");
  if (data == "stats") unsupported(source, "dump_data \"stats\"");
  if (string_key(d, "dump_debug", source, {"on", "off"}, "off") == "on") {
    unsupported(source, "overflow dump (dump_debug on)");
  }
}

// dump_scene: which exception dump, if any.
Scene parse_scene(const Json& d, const std::string& source) {
  const std::string scene = string_key(
      d, "dump_scene", source,
      {"", "aic_err_brief_dump", "aic_err_norm_dump", "lite_exception", "aic_err_detail_dump",
       "watcher"},
      "");
  if (scene == "aic_err_detail_dump" || scene == "watcher") {
    unsupported(source, "dump_scene \"" + scene + "\"");
  }
  return scene == "aic_err_norm_dump" ? Scene::kNorm
         : scene.empty()              ? Scene::kNone
                                      : Scene::kBrief;
}

// dump_list: the operators to dump. Empty (all operators) unless an entry lists layers.
std::vector<std::string> parse_dump_list(const Json& d, const std::string& source) {
  std::vector<std::string> layers;
  if (!d.contains("dump_list")) return layers;
  const Json& list = d["dump_list"];
  if (!list.is_array()) bad(source, "dump_list must be an array");
  for (const Json& e : list) {
    if (!e.is_object()) bad(source, "each dump_list entry must be an object");
    if (e.contains("model_name") && !e["model_name"].is_string()) {
      bad(source, "model_name must be a string");
    }
    if (!e.contains("layer")) continue;
    if (!e["layer"].is_array()) bad(source, "layer must be an array of operator names");
    for (const Json& l : e["layer"]) {
      if (!l.is_string()) bad(source, "layer must be an array of operator names");
      layers.push_back(l.get<std::string>());
    }
  }
  return layers;
}

// The data dump needs its directory (created when missing) and excludes the exception dump.
void check_data_dump(const Config& c, const std::string& source) {
  if (!c.op_switch) return;
  if (c.path.empty()) bad(source, "dump_op_switch is on but dump_path is missing");
  std::error_code ec;
  const fs::path dir = absolute_dir(c.path);
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) bad(source, "dump_path " + dir.string() + " cannot be created");
  if (c.scene != Scene::kNone) {
    bad(source, "exception dump (dump_scene) cannot be combined with single-operator dump");
  }
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
  c.path = dump_path(d, source);
  parse_data_keys(d, source, c);
  c.scene = parse_scene(d, source);
  c.layers = parse_dump_list(d, source);
  check_data_dump(c, source);
  return c;
}

}  // namespace npusim::rt::dump
