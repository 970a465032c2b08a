// A user call as the flags give it (URL, -H, -d @file, a redis-cli command line) and the per-call
// placeholder: what each parser makes of the text, and what it refuses.
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/user_calls.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/protocols/user_call.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"
#include "../../src/protocols/http/http_url.hpp"

namespace wirebench {
namespace {

using strings = std::vector<std::string>;

TEST(user_call_parsing, a_url_gives_scheme_host_port_authority_and_target) {
  const http::http_url u = http::parse_http_url("http://127.0.0.1:8080/a/b?x=1&y=2#frag");
  EXPECT_FALSE(u.https);
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 8080);
  EXPECT_EQ(u.authority, "127.0.0.1:8080");
  EXPECT_EQ(u.target, "/a/b?x=1&y=2");  // the fragment is the client's, never sent
}

TEST(user_call_parsing, a_url_without_port_or_path_takes_the_defaults) {
  const http::http_url plain = http::parse_http_url("http://example.com");
  EXPECT_EQ(plain.port, 80);
  EXPECT_EQ(plain.authority, "example.com");
  EXPECT_EQ(plain.target, "/");
  const http::http_url tls = http::parse_http_url("https://example.com?q");
  EXPECT_TRUE(tls.https);
  EXPECT_EQ(tls.port, 443);
  EXPECT_EQ(tls.target, "/?q");
}

TEST(user_call_parsing, an_ipv6_url_keeps_its_brackets_in_the_authority_only) {
  const http::http_url u = http::parse_http_url("http://[::1]:81/x");
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, 81);
  EXPECT_EQ(u.authority, "[::1]:81");
  EXPECT_EQ(u.target, "/x");
}

TEST(user_call_parsing, bad_urls_are_refused_with_a_reason) {
  for (const char* bad : {"127.0.0.1:80/x", "ftp://h/x", "http:///x", "http://h:0/", "http://h:70000/",
                          "http://h:8x/", "http://u:p@h/", "http://h/a b", "http://[::1/"})
    EXPECT_THROW(http::parse_http_url(bad), std::invalid_argument) << bad;
}

TEST(user_call_parsing, a_header_is_a_token_a_colon_and_a_trimmed_value) {
  EXPECT_EQ(parse_header("Accept: text/plain"), std::make_pair(std::string("Accept"), std::string("text/plain")));
  EXPECT_EQ(parse_header("X-Empty:"), std::make_pair(std::string("X-Empty"), std::string()));
  EXPECT_EQ(parse_header("a:  b c \t"), std::make_pair(std::string("a"), std::string("b c")));
  for (const char* bad : {"no colon", ": value", "bad name: v", "x: a\r\nInjected: 1"})
    EXPECT_THROW(parse_header(bad), std::invalid_argument) << bad;
}

TEST(user_call_parsing, data_is_the_text_or_at_a_file_its_exact_bytes) {
  EXPECT_EQ(read_data_argument("{\"a\":1}"), "{\"a\":1}");
  const auto path = std::filesystem::temp_directory_path() /
                    ("wirebench-data-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << std::string("line 1\nline\0 2\n", 15);
  EXPECT_EQ(read_data_argument("@" + path.string()), std::string("line 1\nline\0 2\n", 15));
  std::filesystem::remove(path);
  EXPECT_THROW(read_data_argument("@" + path.string()), std::invalid_argument);
}

TEST(user_call_parsing, a_command_splits_on_blanks) {
  EXPECT_EQ(split_command("SET key:__rand_int__ value"), (strings{"SET", "key:__rand_int__", "value"}));
  EXPECT_EQ(split_command("  PING  "), (strings{"PING"}));
  EXPECT_EQ(split_command("a\tb\nc"), (strings{"a", "b", "c"}));
}

TEST(user_call_parsing, quotes_work_as_in_redis_cli) {
  EXPECT_EQ(split_command(R"(SET k "hello world")"), (strings{"SET", "k", "hello world"}));
  EXPECT_EQ(split_command(R"(SET k "a\"b\\c\n\x41")"), (strings{"SET", "k", "a\"b\\c\nA"}));
  EXPECT_EQ(split_command(R"(SET k 'it\'s \n')"), (strings{"SET", "k", "it's \\n"}));
  EXPECT_EQ(split_command(R"(SET k:"a b" "")"), (strings{"SET", "k:a b", ""}));
}

TEST(user_call_parsing, unbalanced_or_glued_quotes_and_empty_commands_are_refused) {
  for (const char* bad : {R"(SET k "open)", "SET k 'open", R"(SET k "a"b)", "", "   "})
    EXPECT_THROW(split_command(bad), std::invalid_argument) << bad;
}

TEST(call_placeholder, every_placeholder_gets_twelve_digits_in_the_keyspace) {
  std::string bytes = "k:__rand_int__ f:__rand_int__";
  placeholder_filler filler(bytes, 1, 7);
  ASSERT_FALSE(filler.empty());
  filler.fill(bytes);
  EXPECT_EQ(bytes, "k:000000000000 f:000000000000");  // keyspace 1: only 0
  filler.fill(bytes);  // the same bytes again: the positions still hold
  EXPECT_EQ(bytes, "k:000000000000 f:000000000000");
}

// `layout` filled `calls` times by one filler (one connection's), each fill the same length.
std::vector<std::string> fills(const std::string& layout, std::uint64_t keyspace, std::uint64_t seed, int calls) {
  placeholder_filler filler(layout, keyspace, seed);
  std::vector<std::string> out;
  std::string bytes = layout;
  for (int i = 0; i < calls; ++i) {
    filler.fill(bytes);
    EXPECT_EQ(bytes.size(), layout.size());
    out.push_back(bytes);
  }
  return out;
}

TEST(call_placeholder, numbers_vary_per_call_and_per_placeholder_and_stay_below_the_keyspace) {
  std::set<std::string> seen;
  for (const std::string& bytes : fills("__rand_int__|__rand_int__", 1000, 42, 200)) {
    ASSERT_EQ(bytes[12], '|');
    for (const std::size_t at : {0u, 13u}) {
      const std::string digits = bytes.substr(at, 12);
      ASSERT_EQ(digits.find_first_not_of("0123456789"), std::string::npos) << digits;
      ASSERT_LT(std::stoull(digits), 1000u);
      ASSERT_EQ(digits.substr(0, 9), "000000000");
      seen.insert(digits);
    }
  }
  EXPECT_GT(seen.size(), 150u);  // 400 draws from 1000 values
}

TEST(call_placeholder, the_same_seed_gives_the_same_numbers_and_no_placeholder_changes_nothing) {
  placeholder_filler a("__rand_int__", 1'000'000'000'000, 5), b("__rand_int__", 1'000'000'000'000, 5);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.next(), b.next());
  std::string plain = "GET / HTTP/1.1";
  placeholder_filler none(plain, 10, 1);
  EXPECT_TRUE(none.empty());
  none.fill(plain);
  EXPECT_EQ(plain, "GET / HTTP/1.1");
  EXPECT_NE(next_placeholder_seed(), next_placeholder_seed());
}

TEST(call_placeholder, a_sequence_number_is_the_calls_own_and_counts_up) {
  const std::string layout = "a=__sequence__ b=__sequence__";
  placeholder_filler one(layout, 1, 1), other(layout, 1, 2);
  std::string x = layout, y = layout;
  one.fill(x);
  other.fill(y);  // another connection's codec: the next number of the same count
  const auto first = std::stoull(x.substr(2, 12)), second = std::stoull(y.substr(2, 12));
  EXPECT_EQ(x.substr(2, 12), x.substr(17, 12)) << "one number per call, however often it appears";
  EXPECT_EQ(second, first + 1);
  one.fill(x);
  EXPECT_EQ(std::stoull(x.substr(2, 12)), first + 2);
}

TEST(call_placeholder, a_random_string_is_twelve_fresh_characters_each_time) {
  std::set<std::string> seen;
  for (const std::string& bytes : fills("k:__rand_str____rand_str__", 1, 9, 100)) {  // twice: 24 characters
    ASSERT_EQ(bytes.substr(0, 2), "k:");
    ASSERT_EQ(bytes.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz", 2), std::string::npos) << bytes;
    ASSERT_NE(bytes.substr(2, 12), bytes.substr(14, 12));
    seen.insert(bytes);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(call_placeholder, payloads_are_expanded_once_into_n_bytes) {
  EXPECT_EQ(expand_payloads("a__payload_3__b__payload_0__c"), "axxxbc");
  EXPECT_EQ(expand_payloads("no placeholder"), "no placeholder");
  EXPECT_EQ(expand_payloads("__payload_1000__").size(), 1000u);
  for (const char* bad : {"__payload___", "__payload_x__", "__payload_5_", "__payload_99999999999__"})
    EXPECT_THROW(expand_payloads(bad), std::invalid_argument) << bad;
  http_call h;
  h.target = "/p?x=__payload_2__";
  h.headers = {{"X-Pad", "__payload_4__"}};
  h.body = "__payload_5__";
  const user_call expanded = with_payloads(user_call{h});
  EXPECT_EQ(expanded.as<http_call>()->target, "/p?x=xx");
  EXPECT_EQ(expanded.as<http_call>()->headers[0].second, "xxxx");
  EXPECT_EQ(expanded.as<http_call>()->body, "xxxxx");
  EXPECT_EQ(with_payloads(user_call{resp_call{{"SET", "k", "__payload_3__"}}}).as<resp_call>()->args[2], "xxx");
}

// __rand_str_N__: N bytes that name their length once expanded, which the filler finds wherever
// they sit (the end of the bytes too, as a short one in a body) and fills, N characters per call.
TEST(call_placeholder, a_random_string_of_n_characters_is_filled_in_its_n_bytes) {
  EXPECT_EQ(expand_random_strings("a__rand_str_4__b"), "a__s4b");
  EXPECT_EQ(expand_random_strings("__rand_str_20__"), "__s20_______________");
  for (const char* bad : {"__rand_str_3__", "__rand_str_0__", "__rand_str_x__", "__rand_str_1048577__",
                          "__rand_str_5_"})
    EXPECT_THROW(expand_random_strings(bad), std::invalid_argument) << bad;
  EXPECT_EQ(expand_random_strings("__rand_str__ and __sequence__"), "__rand_str__ and __sequence__");
  const user_call call = with_payloads(
      user_call{resp_call{{"SET", "k:__rand_str_30__:__rand_int__", "__payload_2__v__rand_str_5__"}}});
  const std::string bytes = call.as<resp_call>()->args[1] + "|" + call.as<resp_call>()->args[2];
  ASSERT_EQ(bytes.size(), 2 + 30 + 1 + 12 + 1 + 2 + 1 + 5);
  placeholder_filler filler(bytes, 10, 7);
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    std::string filled = bytes;
    filler.fill(filled);
    const std::string_view alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
    const std::string random = filled.substr(2, 30), tail = filled.substr(filled.size() - 5);
    EXPECT_EQ(random.find_first_not_of(alphabet), std::string::npos) << filled;
    EXPECT_EQ(tail.find_first_not_of(alphabet), std::string::npos) << filled;
    EXPECT_EQ(filled.substr(33, 12).find_first_not_of("0123456789"), std::string::npos) << filled;
    EXPECT_EQ(filled.substr(45, 4), "|xxv");
    seen.insert(random);
  }
  EXPECT_EQ(seen.size(), 50u);
  // A text that only looks like one is left alone: a leading zero, digits past the bytes, no pad.
  for (const char* text : {"__s05__", "__s9___", "__s5x_", "__s0"})
    EXPECT_TRUE(placeholder_filler(text, 10, 1).empty()) << text;
  // Four characters, whose marker is all digits, right before the user's own digits: filled, and
  // the digits after it kept.
  const std::string before_digits = expand_random_strings("id=__rand_str_4__77");
  ASSERT_EQ(before_digits, "id=__s477");
  placeholder_filler digits_after(before_digits, 10, 3);
  ASSERT_FALSE(digits_after.empty());
  std::string filled = before_digits;
  digits_after.fill(filled);
  EXPECT_EQ(filled.substr(0, 3), "id=");
  EXPECT_EQ(filled.substr(3, 4).find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz"), std::string::npos) << filled;
  EXPECT_NE(filled.substr(3, 4), "__s4") << filled;
  EXPECT_EQ(filled.substr(7), "77");
}

TEST(user_call, describe_says_what_is_sent) {
  http_call h;
  h.method = "POST";
  h.target = "/items";
  h.authority = "127.0.0.1:8080";
  h.headers = {{"Accept", "*/*"}};
  h.body = "{}";
  EXPECT_EQ(describe(user_call{h}),
            "POST http://127.0.0.1:8080/items -H 'Accept: */*' (2-byte body) expecting 200");
  resp_call r{{"SET", "k:__rand_int__", "a b"}, "OK"};
  EXPECT_EQ(describe(user_call{r, 100}),
            "SET k:__rand_int__ \"a b\" expecting 'OK' (__rand_int__ in [0, 100))");
  EXPECT_EQ(user_call{r}.form(), &resp_call_form());
  // A line, whatever was sent: a megabyte of data cut at 200 bytes, saying how long it was, and
  // control bytes escaped.
  const user_call big{grpc_call{.method = "p.S/M", .request_json = R"({"text": ")" + std::string(1 << 20, 'x') + "\"}"}};
  const std::string said = describe(big);
  EXPECT_LT(said.size(), 260u) << said;
  EXPECT_NE(said.find(" bytes)"), std::string::npos) << said;
  EXPECT_EQ(describe(user_call{resp_call{{"SET", "k", "a\x1b[2Jb"}}}).find('\x1b'), std::string::npos);
  EXPECT_EQ(user_call{h}.form(), &http_call_form());
}

}  // namespace
}  // namespace wirebench
