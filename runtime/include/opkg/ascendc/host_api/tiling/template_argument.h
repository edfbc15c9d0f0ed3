// SPDX-License-Identifier: Apache-2.0
// ascendc/host_api/tiling/template_argument.h: Ascend C tiling templates (ASCENDC_TPL_*), the
// declarations a kernel's template parameters are chosen from. npusim does not instantiate
// template kernels for operator packages yet: the declarations compile to nothing, and
// ASCENDC_TPL_SEL_PARAM marks the tiling so the aclnn runtime fails the call naming it.
#pragma once

#include <cstdint>

#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
#define ASCENDC_TPL_INPUT(x) (x)
#define ASCENDC_TPL_OUTPUT(x) (1000 + (x))

/// The tiling key npusim's runtime refuses: "template kernel selection is not supported".
constexpr std::uint64_t kNpusimTplUnsupportedKey = ~std::uint64_t{0};
template <typename... Args>
inline std::uint64_t npusim_tpl_unsupported(const Args&...) { return kNpusimTplUnsupportedKey; }
#define ASCENDC_TPL_SEL_PARAM(context, ...) \
  (context)->SetTilingKey(npusim_tpl_unsupported(__VA_ARGS__))
