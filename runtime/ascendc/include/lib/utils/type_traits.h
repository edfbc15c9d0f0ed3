// SPDX-License-Identifier: Apache-2.0
// AscendC::Std's type traits in the Ascend C twin: the kernel-side names of the C++ standard
// library's <type_traits> (is_void, is_integral, is_floating_point, is_array, is_pointer,
// is_reference, is_const, is_same(_v), remove_/add_ const, volatile, cv, reference, pointer,
// conditional, enable_if, ...). The twin compiles kernels with the host compiler, so they are
// the standard library's own traits: compile-time only, no instruction.
#pragma once

#include <type_traits>

namespace AscendC::Std {

using std::add_const;
using std::add_cv;
using std::add_lvalue_reference;
using std::add_pointer;
using std::add_rvalue_reference;
using std::add_volatile;
using std::conditional;
using std::decay;
using std::enable_if;
using std::false_type;
using std::integral_constant;
using std::is_arithmetic;
using std::is_array;
using std::is_const;
using std::is_convertible;
using std::is_floating_point;
using std::is_integral;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_signed;
using std::is_unsigned;
using std::is_void;
using std::is_volatile;
using std::remove_const;
using std::remove_cv;
using std::remove_pointer;
using std::remove_reference;
using std::remove_volatile;
using std::true_type;

using std::add_const_t;
using std::add_cv_t;
using std::add_lvalue_reference_t;
using std::add_pointer_t;
using std::add_rvalue_reference_t;
using std::add_volatile_t;
using std::conditional_t;
using std::decay_t;
using std::enable_if_t;
using std::remove_const_t;
using std::remove_cv_t;
using std::remove_pointer_t;
using std::remove_reference_t;
using std::remove_volatile_t;

using std::is_arithmetic_v;
using std::is_array_v;
using std::is_const_v;
using std::is_convertible_v;
using std::is_floating_point_v;
using std::is_integral_v;
using std::is_pointer_v;
using std::is_reference_v;
using std::is_same_v;
using std::is_void_v;

}  // namespace AscendC::Std
