// SPDX-License-Identifier: Apache-2.0
// Finding DVPP's codec library (libacl_dvpp.so, codec_abi.h) at the first codec use.
//
// The runtime links no media library; JPEGD/JPEGE/PNGD and VDEC/VENC reach their codecs through
// the table the codec library exports. It is looked for, in order:
//   1. $NPUSIM_DVPP_LIBRARY, if set (a path; nothing else is tried then);
//   2. libacl_dvpp.so beside the object that holds the runtime (dladdr: lib64/ of an install);
//   3. the build tree's libacl_dvpp.so (NPUSIM_DVPP_BUILD_LIBRARY, for tests that link the
//      runtime statically), when 2 does not exist.
// The load happens once per process (the codec library is never unloaded). If it fails, the
// reason (the path tried and dlerror) is logged once as an error, and every DVPP call that needs
// a codec fails with ACL_ERROR_FEATURE_UNSUPPORTED (200006, as for a codec this build lacks);
// the rest of DVPP (memory, descriptors, VPC) keeps working.
#pragma once

#include <string>

#include "runtime/dvpp/codec_abi.h"

namespace npusim::rt::dvpp {

constexpr const char* kCodecLibraryEnv = "NPUSIM_DVPP_LIBRARY";

/// The codec table, loading the library at the first call; nullptr (and `why`) if unavailable.
const npusim_dvpp_codec_table* codec_table(std::string* why);

/// The codec table, or fails the API call (ApiError) with ACL_ERROR_FEATURE_UNSUPPORTED.
const npusim_dvpp_codec_table& require_codecs();

namespace testing {
/// Forgets the outcome of the last load (the library stays mapped): the next codec_table()
/// looks again, reading $NPUSIM_DVPP_LIBRARY anew. Tests only.
void forget_codec_library();
}  // namespace testing

}  // namespace npusim::rt::dvpp
