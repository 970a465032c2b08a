#pragma once
// h2load, the HTTP/2 load tool users know, posting one body at load: every request must succeed
// with a 2xx. (It counts HTTP statuses only: a gRPC or gRPC-Web error inside a 200 passes it, so
// the tests that use it check our own server's replies elsewhere.)
#include <fstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "support/child_process.hpp"

namespace wirebench::test {

// `body` (written to a file named `file_name` in the test's temporary folder) posted `calls` times
// to `url` over one h2c connection, 16 in flight, with `headers` (h2load's -H options).
inline void expect_h2load_posts_all_2xx(const std::string& file_name, std::string_view body,
                                        const std::string& headers, const std::string& url,
                                        int calls = 500) {
  const std::string file = ::testing::TempDir() + "/" + file_name;
  std::ofstream(file, std::ios::binary) << body;
  int rc = 0;
  const std::string out = run_shell("h2load -n " + std::to_string(calls) + " -c 1 -m 16 -d " + file + " " +
                                        headers + " " + url + " 2>&1",
                                    &rc);
  EXPECT_EQ(rc, 0) << out;
  const std::string n = std::to_string(calls);
  EXPECT_NE(out.find(n + " succeeded, 0 failed, 0 errored"), std::string::npos) << out;
  EXPECT_NE(out.find("status codes: " + n + " 2xx"), std::string::npos) << out;
}

}  // namespace wirebench::test
