// SPDX-License-Identifier: Apache-2.0
// Runtime compilation (acl/acl_rt_compile.h): one aclrtcProg.
//
// CANN compiles the program with its kernel compiler into a device ELF; npusim compiles it with
// the install tree's npusim-asc (bin/npusim-asc beside lib64/, or $NPUSIM_ASC) into the host
// shared object that aclrtBinaryLoadFromData loads (runtime/core/kernel_binary.h):
//   1. a private directory (mkdtemp, mode 0700) receives the source as <name>.asc and the
//      aclrtcCreateProg headers under their include names (plain relative names only);
//   2. npusim-asc <options> -I <dir> -c <name>.asc, then npusim-asc -shared (no shell: the
//      options are argv entries); the compiler's output is the compile log;
//   3. each aclrtcAddNameExpr expression (a template kernel, e.g. "ns::add<float>") is
//      registered as a kernel by appending its registration to the source; its lowered name is
//      the instantiation's mangled name, read from the built library (dladdr), and the library
//      is linked once more with that name as an alias of the registration;
//   4. the library's bytes are kept (aclrtcGetBinData) and the directory is removed.
// Error codes: an option npusim-asc rejects → ACL_ERROR_RTC_INVALID_OPTION, a compile error →
// ACL_ERROR_RTC_COMPILATION, a link error → ACL_ERROR_RTC_LINKING, no compiler or no temporary
// directory → ACL_ERROR_RTC_FAILURE (each with the reason in the log).
#pragma once

#include <string>
#include <vector>

#include "acl/acl_rt_compile.h"

namespace npusim::rtc {

struct Header {
  std::string name;  // as the source includes it
  std::string text;
};

/// true for an include name a header may be written under: relative, no "..", no empty part.
bool valid_include_name(const std::string& name);

/// The npusim-asc this runtime belongs to: $NPUSIM_ASC, else <lib dir>/../bin/npusim-asc; ""
/// when there is none.
std::string asc_compiler();

class Prog {
 public:
  Prog(std::string source, std::string name, std::vector<Header> headers);

  aclError add_name_expr(const std::string& expr);
  aclError compile(const std::vector<std::string>& options);
  /// The mangled name of a registered expression (valid until the program is destroyed).
  aclError lowered_name(const std::string& expr, const char** out) const;

  bool compiled() const { return compiled_; }
  const std::vector<char>& binary() const { return binary_; }
  const std::string& log() const { return log_; }

 private:
  std::string full_source() const;
  aclError build(const std::string& dir, const std::vector<std::string>& options);
  aclError resolve_lowered_names(const std::string& library);

  std::string source_;
  std::string name_;
  std::vector<Header> headers_;
  std::vector<std::string> exprs_;
  std::vector<std::string> lowered_;
  std::vector<char> binary_;
  std::string log_;
  bool compiled_ = false;
};

}  // namespace npusim::rtc
