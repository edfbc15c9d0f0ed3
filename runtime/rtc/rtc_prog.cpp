// SPDX-License-Identifier: Apache-2.0
#include "runtime/rtc/rtc_prog.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "sim/log.h"

extern char** environ;

namespace npusim::rtc {

namespace {

// A private directory (mkdtemp: mode 0700) removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                          "/npusim-rtc-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// Runs argv (no shell) with stdout and stderr appended to `log_path`; the exit status, or -1
// when it could not run or did not exit normally.
int run(const std::vector<std::string>& args, const std::string& log_path) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A program name as a file name: "default_program" for none, other characters than
// [A-Za-z0-9_.-] as '_'.
std::string file_stem(const std::string& name) {
  std::string s = name.empty() ? "default_program" : name;
  for (char& c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) c = '_';
  }
  if (s.front() == '.') s.front() = '_';
  return s;
}

std::string expr_symbol(std::size_t i) { return "npusim_rtc_expr_" + std::to_string(i); }

}  // namespace

bool valid_include_name(const std::string& name) {
  if (name.empty() || name.front() == '/') return false;
  std::stringstream parts(name);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return name.back() != '/';
}

std::string asc_compiler() {
  if (const char* e = std::getenv("NPUSIM_ASC"); e != nullptr && *e != '\0') return e;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&asc_compiler), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  const std::string lib = info.dli_fname;
  const std::size_t slash = lib.rfind('/');
  if (slash == std::string::npos) return {};
  const std::string exe = lib.substr(0, slash) + "/../bin/npusim-asc";
  return ::access(exe.c_str(), X_OK) == 0 ? exe : std::string();
}

Prog::Prog(std::string source, std::string name, std::vector<Header> headers)
    : source_(std::move(source)), name_(file_stem(name)), headers_(std::move(headers)) {}

aclError Prog::add_name_expr(const std::string& expr) {
  if (compiled_) return ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION;
  for (const auto& e : exprs_) {
    if (e == expr) return ACL_SUCCESS;  // registered once
  }
  exprs_.push_back(expr);
  return ACL_SUCCESS;
}

aclError Prog::lowered_name(const std::string& expr, const char** out) const {
  if (!compiled_) return ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (std::size_t i = 0; i < exprs_.size(); ++i) {
    if (exprs_[i] == expr) {
      *out = lowered_[i].c_str();
      return ACL_SUCCESS;
    }
  }
  return ACL_ERROR_RTC_NAME_EXPR_NOT_VALID;
}

// The source, then a kernel registration and an address getter per name expression (the
// expression goes through a macro, so commas in template arguments stay one macro argument).
std::string Prog::full_source() const {
  std::string s = source_;
  if (!s.empty() && s.back() != '\n') s += '\n';
  for (std::size_t i = 0; i < exprs_.size(); ++i) {
    const std::string sym = expr_symbol(i);
    const std::string macro = "NPUSIM_RTC_EXPR_" + std::to_string(i);
    s += "#define " + macro + " " + exprs_[i] + "\n";
    s += "NPUSIM_REGISTER_KERNEL_AS(" + sym + ", " + macro + ")\n";
    s += "extern \"C\" NPUSIM_KERNEL_API void* " + sym + "_address() { return "
         "reinterpret_cast<void*>(&" + macro + "); }\n";
  }
  return s;
}

aclError Prog::compile(const std::vector<std::string>& options) {
  log_.clear();
  const TempDir dir;
  if (dir.path().empty()) {
    log_ = "npusim: no private temporary directory for the compilation (mkdtemp failed)\n";
    return ACL_ERROR_RTC_FAILURE;
  }
  for (const auto& h : headers_) {
    const std::string path = dir.path() + "/" + h.name;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec || !write_file(path, h.text)) {
      log_ = "npusim: cannot write header " + h.name + "\n";
      return ACL_ERROR_RTC_FAILURE;
    }
  }
  const aclError rc = build(dir.path(), options);
  std::string text;
  if (read_file(dir.path() + "/compile.log", text)) log_ = text + log_;
  if (rc == ACL_SUCCESS) compiled_ = true;
  return rc;
}

aclError Prog::build(const std::string& dir, const std::vector<std::string>& options) {
  const std::string asc = asc_compiler();
  if (asc.empty()) {
    log_ = "npusim: no npusim-asc (bin/npusim-asc beside the runtime's lib64/, or $NPUSIM_ASC)\n";
    return ACL_ERROR_RTC_FAILURE;
  }
  const std::string src = dir + "/" + name_ + ".asc", obj = dir + "/" + name_ + ".o";
  const std::string lib = dir + "/" + name_ + ".so", log = dir + "/compile.log";
  if (!write_file(src, full_source())) return ACL_ERROR_RTC_FAILURE;
  std::vector<std::string> cc = {asc};
  cc.insert(cc.end(), options.begin(), options.end());
  cc.insert(cc.end(), {"-I", dir, "-c", src, "-o", obj});
  const int status = run(cc, log);
  if (status == 2) return ACL_ERROR_RTC_INVALID_OPTION;  // npusim-asc rejects the option
  if (status != 0) return ACL_ERROR_RTC_COMPILATION;
  std::vector<std::string> ld = {asc, "-shared", obj, "-o", lib};
  if (run(ld, log) != 0) return ACL_ERROR_RTC_LINKING;
  if (!exprs_.empty()) {
    const aclError rc = resolve_lowered_names(lib);
    if (rc != ACL_SUCCESS) return rc;
    for (std::size_t i = 0; i < exprs_.size(); ++i) {
      ld.push_back("-Wl,--defsym=npusim_kernel_" + lowered_[i] + "=npusim_kernel_" +
                   expr_symbol(i));
    }
    if (run(ld, log) != 0) return ACL_ERROR_RTC_LINKING;
  }
  std::string bytes;
  if (!read_file(lib, bytes)) return ACL_ERROR_RTC_LINKING;
  binary_.assign(bytes.begin(), bytes.end());
  return ACL_SUCCESS;
}

// Each expression's mangled name: the symbol at its instantiation's address in the library.
aclError Prog::resolve_lowered_names(const std::string& library) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    log_ += std::string("npusim: cannot load the compiled library: ") + ::dlerror() + "\n";
    return ACL_ERROR_RTC_LINKING;
  }
  lowered_.clear();
  for (std::size_t i = 0; i < exprs_.size(); ++i) {
    using Getter = void* (*)();
    auto getter = reinterpret_cast<Getter>(::dlsym(handle, (expr_symbol(i) + "_address").c_str()));
    Dl_info info{};
    void* fn = getter != nullptr ? getter() : nullptr;
    if (fn == nullptr || dladdr(fn, &info) == 0 || info.dli_sname == nullptr ||
        info.dli_saddr != fn) {
      log_ += "npusim: no symbol for the kernel " + exprs_[i] + "\n";
      ::dlclose(handle);
      return ACL_ERROR_RTC_LINKING;
    }
    lowered_.push_back(info.dli_sname);
  }
  ::dlclose(handle);
  return ACL_SUCCESS;
}

}  // namespace npusim::rtc
