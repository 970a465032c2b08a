#include "wirebench/transport/endpoint.hpp"

#include <gtest/gtest.h>

namespace wirebench {
namespace {

TEST(endpoint, parses_tcp_v4_v6_and_localhost) {
  auto a = endpoint::parse("tcp://127.0.0.1:7000");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->type, endpoint::kind::tcp);
  EXPECT_EQ(a->address, "127.0.0.1");
  EXPECT_EQ(a->port, 7000);
  EXPECT_EQ(a->to_string(), "tcp://127.0.0.1:7000");

  auto b = endpoint::parse("tcp://[::1]:0");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->address, "::1");
  EXPECT_EQ(b->port, 0);
  EXPECT_EQ(b->to_string(), "tcp://[::1]:0");

  auto c = endpoint::parse("tcp://localhost:65535");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->address, "127.0.0.1");
  EXPECT_EQ(c->port, 65535);
}

TEST(endpoint, parses_unix_path_and_abstract) {
  auto p = endpoint::parse("unix:/tmp/wb.sock");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->type, endpoint::kind::unix_path);
  EXPECT_EQ(p->address, "/tmp/wb.sock");
  EXPECT_EQ(p->to_string(), "unix:/tmp/wb.sock");

  auto a = endpoint::parse("unix:@wirebench");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->type, endpoint::kind::unix_abstract);
  EXPECT_EQ(a->address, "wirebench");
  EXPECT_EQ(a->to_string(), "unix:@wirebench");
  // The abstract name round-trips through asio with its leading NUL and no terminator.
  EXPECT_EQ(endpoint::from_asio(a->to_asio()), *a);
  EXPECT_EQ(endpoint::from_asio(p->to_asio()), *p);
  EXPECT_EQ(endpoint::from_asio(endpoint::parse("tcp://[::1]:9")->to_asio()),
            *endpoint::parse("tcp://[::1]:9"));
}

TEST(endpoint, rejects_malformed_with_a_reason) {
  for (const char* bad :
       {"", "127.0.0.1:80", "tcp://", "tcp://127.0.0.1", "tcp://127.0.0.1:", "tcp://127.0.0.1:65536",
        "tcp://127.0.0.1:-1", "tcp://127.0.0.1:80x", "tcp://example.com:80", "tcp://[::1:80",
        "tcp://[::1]80", "unix:", "unix:@", "http://127.0.0.1:80"}) {
    std::string why;
    EXPECT_FALSE(endpoint::parse(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
  std::string too_long = "unix:/" + std::string(200, 'x');
  std::string why;
  EXPECT_FALSE(endpoint::parse(too_long, &why));
  EXPECT_NE(why.find("longer than"), std::string::npos);
  EXPECT_THROW(endpoint::parse_or_throw("nope"), std::invalid_argument);
}

}  // namespace
}  // namespace wirebench
