// SPDX-License-Identifier: Apache-2.0
// The main() of every test binary. It must live in an object file (not a library) so it wins over
// the main() inside libsystemc.so, which would otherwise run the sc_main stub and exit 0 with no
// test run. The sc_main stub satisfies libsystemc.so's reference.
#include <gtest/gtest.h>

extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
