// SPDX-License-Identifier: Apache-2.0
// The aclnn runtime of custom operator packages (npusim/opkg_aclnn.h): the first phase an
// operator package's generated aclnn<Op>GetWorkspaceSize calls. It finds the package from the
// calling library's path (<vendor>/op_api/lib/libcust_opapi.so), loads the package's tiling
// libraries (their OP_ADD definitions register, opkg_registry.cpp), checks the tensors against
// the definition, runs the operator's tiling function on a gert::TilingContext, and plans one
// launch of the operator's kernel (<vendor>/op_impl/ai_core/tbe/kernel/npusim/<Op>.so, the
// function named as the operator in snake case) with the tiling's block count and workspace.
// The kernel gets (inputs..., outputs..., workspace, tiling) as on the device; the tiling data is
// the host copy the tiling function wrote (as CANN passes it with the kernel's arguments).
#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"
#include "npusim/opkg_aclnn.h"
#include "register/op_def_registry.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn {
namespace {

using P = std::uint8_t*;

std::string parent(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

/// The package's root (<vendor>) from an address in its op_api library, or "".
std::string vendor_root(const void* anchor) {
  Dl_info info{};
  if (anchor == nullptr || dladdr(anchor, &info) == 0 || info.dli_fname == nullptr) return "";
  return parent(parent(parent(info.dli_fname)));  // <vendor>/op_api/lib/lib*.so
}

std::mutex& load_mutex() {
  static std::mutex m;
  return m;
}

/// dlopens every library of the package's op_tiling directory once; "" or the first error.
std::string load_tiling(const std::string& root) {
  static std::set<std::string>* loaded = new std::set<std::string>;
  const std::string dir = root + "/op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64";
  std::lock_guard<std::mutex> lock(load_mutex());
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return "the package has no tiling libraries (" + dir + ")";
  std::vector<std::string> libs;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0) libs.push_back(dir + "/" + name);
  }
  closedir(d);
  std::sort(libs.begin(), libs.end());
  for (const std::string& lib : libs) {
    if (loaded->count(lib) != 0) continue;
    if (dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) return std::string(dlerror());
    loaded->insert(lib);
  }
  return "";
}

void* load_kernel(const std::string& root, const std::string& type, std::string& error) {
  const std::string lib = root + "/op_impl/ai_core/tbe/kernel/npusim/" + type + ".so";
  std::lock_guard<std::mutex> lock(load_mutex());
  void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    error = std::string("cannot load the kernel library: ") + dlerror();
    return nullptr;
  }
  const std::string fn = npusim_opdef::snake_name(type);
  void* f = dlsym(h, fn.c_str());
  if (f == nullptr)
    error = "the kernel " + fn + " is not in " + lib +
            " (template kernels, ASCENDC_TPL_*, are not instantiated by npusim yet)";
  return f;
}

void* function_address(void (*fn)()) {
  void* p = nullptr;
  static_assert(sizeof(p) == sizeof(fn), "function and object pointers differ in size");
  std::memcpy(&p, &fn, sizeof(p));
  return p;
}

template <std::size_t... I>
void call_n(void* f, const std::vector<P>& a, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, P())...);
  Fn fn = nullptr;
  std::memcpy(&fn, &f, sizeof(fn));
  fn(a[I]...);
}

template <std::size_t N>
void call_upto(void* f, const std::vector<P>& a) {
  if constexpr (N > 0) {
    if (a.size() == N) return call_n(f, a, std::make_index_sequence<N>{});
    call_upto<N - 1>(f, a);
  }
}

constexpr std::size_t kMaxKernelArgs = 16;

bool dtype_allowed(const ops::OpParamDef& d, int dtype) {
  return d.dtypes().empty() ||
         std::find(d.dtypes().begin(), d.dtypes().end(), static_cast<ge::DataType>(dtype)) !=
             d.dtypes().end();
}

gert::StorageShape shape_of(const aclTensor& t) {
  gert::Shape s;
  for (std::int64_t d : t.dims) s.AppendDim(d);
  return gert::StorageShape(s);
}

void plan(Plan& p, const NpusimOpkgCall& c) {
  const std::string type = c.op_type != nullptr ? c.op_type : "";
  // A static package links its definitions and kernels into the program; a deployed one is
  // found from the op_api library's path.
  ops::OpDefFactory factory = npusim_opdef_find(type.c_str());
  void* kernel = function_address(npusim_opkg_find_kernel(type.c_str()));
  const std::string root = factory != nullptr && kernel != nullptr ? "" : vendor_root(c.anchor);
  if (factory == nullptr) {
    p.require(!root.empty(), type + ": cannot locate the operator package of the calling library");
    const std::string err = load_tiling(root);
    p.require(err.empty(), type + ": " + err);
    factory = npusim_opdef_find(type.c_str());
  }
  p.require(factory != nullptr, type + ": no OP_ADD definition in the package's tiling library");
  const std::unique_ptr<ops::OpDef> def(factory(type.c_str()));
  p.require(static_cast<int>(def->inputs().size()) == c.input_count &&
                static_cast<int>(def->outputs().size()) == c.output_count &&
                static_cast<int>(def->attrs().size()) == c.attr_count,
            type + ": the call does not match the operator's definition (regenerate the package)");
  gert::TilingContext ctx;
  ctx.op_type_ = type;
  for (int i = 0; i < c.input_count; ++i) {
    const ops::OpParamDef& d = def->inputs()[static_cast<std::size_t>(i)];
    const aclTensor& t = p.input(c.inputs[i], d.name().c_str());
    p.require(dtype_allowed(d, t.dtype), type + ": input " + d.name() + " has a data type the "
                                             "operator's definition does not list");
    ctx.in_shapes_.push_back(shape_of(t));
    ctx.in_desc_.emplace_back(static_cast<ge::DataType>(t.dtype), static_cast<ge::Format>(t.format));
    ctx.in_tensors_.emplace_back(shape_of(t), static_cast<ge::DataType>(t.dtype));
  }
  for (int i = 0; i < c.output_count; ++i) {
    const ops::OpParamDef& d = def->outputs()[static_cast<std::size_t>(i)];
    const aclTensor& t = p.output(c.outputs[i], d.name().c_str());
    p.require(dtype_allowed(d, t.dtype), type + ": output " + d.name() + " has a data type the "
                                             "operator's definition does not list");
    ctx.out_shapes_.push_back(shape_of(t));
    ctx.out_desc_.emplace_back(static_cast<ge::DataType>(t.dtype), static_cast<ge::Format>(t.format));
  }
  for (int i = 0; i < c.attr_count; ++i) {
    const NpusimOpkgAttr& a = c.attrs[i];
    if (a.kind == NPUSIM_OPKG_FLOAT) {
      const float f = static_cast<float>(a.f);
      ctx.attrs_.Append(&f, sizeof f);
    } else if (a.kind == NPUSIM_OPKG_INT) {
      ctx.attrs_.Append(&a.i, sizeof a.i);
    } else if (a.kind == NPUSIM_OPKG_BOOL) {
      ctx.attrs_.Append(&a.b, sizeof a.b);
    } else {
      const char* s = a.s != nullptr ? a.s : "";
      ctx.attrs_.Append(s, std::strlen(s) + 1);
    }
  }
  const ops::TilingFunc tiling = def->aicore().tiling();
  p.require(tiling != nullptr, type + ": the definition sets no tiling function (AICore().SetTiling)");
  p.require(tiling(&ctx) == ge::GRAPH_SUCCESS, type + ": its tiling function failed");
  p.require(ctx.tiling_key_ != kNpusimTplUnsupportedKey,
            type + ": ASCENDC_TPL_SEL_PARAM (template kernel selection) is not supported by npusim yet");
  p.require(ctx.block_dim_ >= 1, type + ": the tiling function set no block count (SetBlockDim)");
  std::uint64_t ws = 0;
  for (std::size_t w : ctx.workspaces_) ws += w;
  p.set_workspace(ws);
  if (kernel == nullptr) {
    std::string kerr;
    kernel = load_kernel(root, type, kerr);
    p.require(kernel != nullptr, type + ": " + kerr);
  }
  p.require(static_cast<std::size_t>(c.input_count + c.output_count + 2) <= kMaxKernelArgs,
            type + ": more than 14 tensors");
  auto tiling_data = std::make_shared<std::vector<std::uint8_t>>(
      static_cast<const std::uint8_t*>(ctx.tiling_.GetData()),
      static_cast<const std::uint8_t*>(ctx.tiling_.GetData()) + ctx.tiling_.GetDataSize());
  if (tiling_data->empty()) tiling_data->resize(8, 0);
  p.launch(npusim_opdef::snake_name(type), kernel, ctx.block_dim_, Core::kVector,
           [kernel, tiling_data](const Addrs& a) {
             std::vector<P> args(a.in.begin(), a.in.end());
             args.insert(args.end(), a.out.begin(), a.out.end());
             args.push_back(a.workspace);
             args.push_back(tiling_data->data());
             call_upto<kMaxKernelArgs>(kernel, args);
           });
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" __attribute__((visibility("default"))) aclnnStatus npusim_opkg_prepare(
    const NpusimOpkgCall* call, uint64_t* workspace_size, aclOpExecutor** executor) {
  const char* api = call != nullptr && call->api != nullptr ? call->api : "npusim_opkg_prepare";
  const char* op = call != nullptr && call->op_type != nullptr ? call->op_type : "?";
  return npusim::aclnn::prepare(api, op, workspace_size, executor, [&](npusim::aclnn::Plan& p) {
    p.require(call != nullptr, "no call description");
    npusim::aclnn::plan(p, *call);
  });
}

extern "C" __attribute__((visibility("default"))) aclnnStatus npusim_opkg_execute(
    const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
    aclrtStream stream) {
  return npusim::aclnn::execute(api, workspace, workspace_size, executor, stream);
}
