// What HTTP/1.1 and HTTP/2 share: the greet routes, the JSON string writer (byte for byte what
// nlohmann::json writes, which it replaced on the reply path), UTF-8 checking, and Date.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../../src/protocols/http/greet_api.hpp"
#include "../../src/protocols/http/http_date.hpp"
#include "../../src/protocols/http/json_string.hpp"

namespace wirebench::http {
namespace {

std::string escaped(std::string_view text) {
  std::string out = "\"";
  append_json_escaped(out, text);
  return out + "\"";
}

TEST(json_string, escapes_every_ascii_byte_as_nlohmann_does) {
  for (int c = 1; c < 0x80; ++c) {
    const std::string text = "a" + std::string(1, static_cast<char>(c)) + "b";
    EXPECT_EQ(escaped(text), nlohmann::json(text).dump()) << "byte " << c;
  }
  const std::string nul("x\0y", 3);
  EXPECT_EQ(escaped(nul), nlohmann::json(nul).dump());
  const std::string multibyte = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \"q\"\\";
  EXPECT_EQ(escaped(multibyte), nlohmann::json(multibyte).dump()) << "UTF-8 passes as is";
  EXPECT_EQ(escaped(""), "\"\"");
}

TEST(json_string, is_utf8_accepts_well_formed_text_and_nothing_else) {
  for (const char* good : {"", "plain", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
                           "\xee\x80\x80", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "a\xc3\xa9z"})
    EXPECT_TRUE(is_utf8(good)) << good;
  for (const char* bad : {"\x80", "\xbf", "\xc0\x80", "\xc1\xbf",  // stray tail, overlong 2-byte
                          "\xc3", "\xe2\x82", "\xf0\x9f\x98",      // cut short
                          "\xe0\x9f\xbf",                          // overlong 3-byte
                          "\xed\xa0\x80", "\xed\xbf\xbf",          // surrogates
                          "\xf0\x8f\xbf\xbf",                      // overlong 4-byte
                          "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",  // past U+10FFFF
                          "\xff", "\xc3\x28", "a\xe2\x28\xa1"})
    EXPECT_FALSE(is_utf8(bad)) << "bad sequence " << ::testing::PrintToString(std::string(bad));
}

// Whatever nlohmann accepts as UTF-8, is_utf8 does, and the reverse: every 1- and 2-byte string,
// and 3-byte strings led by each lead byte.
TEST(json_string, is_utf8_agrees_with_nlohmann_on_short_strings) {
  auto nlohmann_accepts = [](const std::string& s) {
    try {
      (void)nlohmann::json(s).dump();
      return true;
    } catch (const nlohmann::json::type_error&) {
      return false;
    }
  };
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      const std::string s{static_cast<char>(a), static_cast<char>(b)};
      ASSERT_EQ(is_utf8(s), nlohmann_accepts(s)) << a << " " << b;
      if (a >= 0xe0 && b >= 0x80 && b < 0xc0) {
        const std::string three = s + "\x80";
        ASSERT_EQ(is_utf8(three), nlohmann_accepts(three)) << a << " " << b;
      }
    }
}

TEST(http_date, is_the_imf_fixdate_of_rfc_9110) {
  char out[http_date_size];
  format_http_date(784111777, out);  // RFC 9110 §5.6.7's example
  EXPECT_EQ(std::string_view(out, sizeof out), "Sun, 06 Nov 1994 08:49:37 GMT");
  format_http_date(0, out);
  EXPECT_EQ(std::string_view(out, sizeof out), "Thu, 01 Jan 1970 00:00:00 GMT");
  format_http_date(4102444799, out);
  EXPECT_EQ(std::string_view(out, sizeof out), "Thu, 31 Dec 2099 23:59:59 GMT");
  EXPECT_EQ(http_date().size(), http_date_size);
}

// A server's two steps at once: the route, then the greet call's reply "hello, NAME".
void handle_greet(std::string_view method, std::string_view target, std::string_view body,
                  api_response& out) {
  std::string name;
  if (greet_call(method, target, body, 64, name, out)) call_response(true, "hello, " + name, out);
}

TEST(greet_api, answers_each_route_into_the_same_response) {
  api_response r;
  handle_greet("GET", "/greet?a=1&name=ann%20l%C3%A9e", "", r);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{\"greeting\":\"hello, ann l\xc3\xa9" "e\"}");
  EXPECT_TRUE(r.send_body);
  handle_greet("HEAD", "/greet?name=x", "", r);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{\"greeting\":\"hello, x\"}") << "the length a GET would get";
  EXPECT_FALSE(r.send_body);
  handle_greet("POST", "/greet", R"({"name":"q\"\n"})", r);
  EXPECT_EQ(r.body, R"({"greeting":"hello, q\"\n"})");
  EXPECT_TRUE(r.send_body);
  handle_greet("PUT", "/greet", "", r);
  EXPECT_EQ(r.status, 405);
  handle_greet("GET", "/greet?name=%FF", "", r);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":"name is not valid UTF-8"})");
  handle_greet("GET", "/other", "", r);
  EXPECT_EQ(r.status, 404);
  handle_greet("GET", "/greet?name=%4", "", r);
  EXPECT_EQ(r.status, 400);
  // Over the server's request limit (64 bytes here): 414 from the query, 413 from a body.
  handle_greet("GET", "/greet?name=" + std::string(64, 'a'), "", r);
  EXPECT_EQ(r.status, 200);
  handle_greet("GET", "/greet?name=" + std::string(65, 'a'), "", r);
  EXPECT_EQ(r.status, 414);
  EXPECT_EQ(r.body, R"({"error":"name longer than 64 bytes"})");
  handle_greet("POST", "/greet", R"({"name":")" + std::string(65, 'b') + R"("})", r);
  EXPECT_EQ(r.status, 413);
}

}  // namespace
}  // namespace wirebench::http
