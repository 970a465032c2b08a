#pragma once
// A peer tool a test runs against (curl, nghttpd, nginx, redis-server, ...). scripts/setup installs
// each of them, so a missing one is a set-up fault: the test skips with what to install, and under
// CI=true (set by .ci/run) it fails, because there the package should have been installed. A
// skipped peer test is a test that did not run; scripts/test lists every skip at the end.
#include <cstdlib>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "wirebench/load/tools_cache.hpp"

namespace wirebench::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

// A peer that is a Go module (grpcurl, ...) or an npm package (buf), which scripts/setup installs
// where Go or npm is present, into the tools cache (wirebench/load/tools_cache.hpp); or the one on
// PATH. "" when there is neither.
inline std::string cached_peer(const std::string& name, const std::string& version) {
  if (std::string built = cached_tool(name, version); !built.empty()) return built;
  return have_tool(name) ? name : "";
}

// Debian's python, the one that sees the python3-* packages scripts/setup installs (a pyenv or
// venv python3 earlier on PATH does not).
inline constexpr const char* debian_python3 = "/usr/bin/python3";

inline bool debian_python_imports(const std::string& module) {
  return std::system((std::string(debian_python3) + " -c 'import " + module + "' >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace wirebench::test

// A Python module from a Debian package (python3-grpcio, ...): as WIREBENCH_REQUIRE_PEER.
#define WIREBENCH_REQUIRE_PYTHON_MODULE(module, package)                                         \
  do {                                                                                           \
    if (!::wirebench::test::debian_python_imports(module)) {                                     \
      if (::wirebench::test::in_ci())                                                            \
        FAIL() << "/usr/bin/python3 cannot import " << (module) << " (Debian package "          \
               << (package) << "), which scripts/setup installs";                                \
      GTEST_SKIP() << "/usr/bin/python3 cannot import " << (module) << " (apt-get install "     \
                   << (package) << ")";                                                          \
    }                                                                                            \
  } while (0)

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

// A program that scripts/setup installs into the tools cache where Go (grpcurl, ghz, h2spec, our
// Go peers) or npm (buf) is present: declares `var` as its path; skips the test where it is
// missing, failing under CI=true.
#define WIREBENCH_REQUIRE_CACHED_TOOL(var, name, version, installer)                              \
  const std::string var = ::wirebench::test::cached_peer(name, version);                          \
  if (var.empty()) {                                                                             \
    if (::wirebench::test::in_ci()) FAIL() << (name) << " missing, which scripts/setup installs"; \
    GTEST_SKIP() << (name) << " missing (scripts/setup installs it where " << (installer)        \
                 << " is present)";                                                              \
  }
#define WIREBENCH_REQUIRE_GO_TOOL(var, name, version) WIREBENCH_REQUIRE_CACHED_TOOL(var, name, version, "Go")
#define WIREBENCH_REQUIRE_NPM_TOOL(var, name, version) WIREBENCH_REQUIRE_CACHED_TOOL(var, name, version, "npm")
