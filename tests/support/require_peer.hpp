#pragma once
// A peer tool a test runs against (curl, nghttpd, nginx, redis-server, ...). scripts/setup installs
// each of them, so a missing one is a set-up fault: the test skips with what to install, and under
// CI=true (set by .ci/run) it fails, because there the package should have been installed. A
// skipped peer test is a test that did not run; scripts/test lists every skip at the end.
#include <cstdlib>
#include <string_view>

#include <gtest/gtest.h>

#include "support/child_process.hpp"

namespace wirebench::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace wirebench::test

// A macro, because GTEST_SKIP and FAIL return from the test body that uses them.
#define WIREBENCH_REQUIRE_PEER(tool, package)                                                     \
  do {                                                                                           \
    if (!::wirebench::test::have_tool(tool)) {                                                   \
      if (::wirebench::test::in_ci())                                                            \
        FAIL() << "peer missing: " << (tool) << " (Debian package " << (package)                 \
               << "), which scripts/setup installs";                                             \
      GTEST_SKIP() << "peer missing: " << (tool) << " (apt-get install " << (package) << ")";    \
    }                                                                                            \
  } while (0)
