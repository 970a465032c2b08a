// The RESP2 request parser alone: what each input parses to, Redis's exact error texts, the same
// outcome under every split of the stream, and limits that hold against declared sizes.
#include <malloc.h>

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "../../src/protocols/resp/resp_request_parser.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

std::span<const std::byte> bytes(std::string_view s) { return std::as_bytes(std::span(s.data(), s.size())); }

// What feeding a stream in pieces gives: one event per command ("[a][b]") or error ("error: ..."),
// plus what stayed unconsumed and the parser's state at the end.
struct outcome {
  std::vector<std::string> events;
  std::size_t unconsumed = 0;
  bool mid = false;
  bool failed = false;
  std::string violation;
  friend bool operator==(const outcome&, const outcome&) = default;
};

outcome feed(std::string_view input, const std::vector<std::size_t>& cuts, request_limits l = {}) {
  request_parser p(l);
  outcome o;
  std::string buffer;
  auto drain = [&] {
    while (!p.failed()) {
      const auto r = p.decode(bytes(buffer));
      if (r.consumed > buffer.size()) o.violation = "consumed more than available";
      if (r.status == decode_status::frame) {
        std::string e;
        for (auto a : r.frame) e += "[" + std::string(a) + "]";
        o.events.push_back(e);
      } else if (r.status != decode_status::need_more) {
        o.events.push_back("error: " + std::string(p.error_message()));
      }
      buffer.erase(0, std::min(r.consumed, buffer.size()));
      if (r.status != decode_status::frame) return;
    }
  };
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    buffer.append(input.substr(at, cut - at));
    drain();
    at = cut;
  }
  buffer.append(input.substr(at));
  drain();
  o.unconsumed = buffer.size();
  o.mid = p.mid_command();
  o.failed = p.failed();
  return o;
}

// The outcome of `input` whole; checks it is the same byte by byte, at every single cut, and
// under random cuts.
outcome parse_all_ways(std::string_view input, request_limits l = {}) {
  const outcome whole = feed(input, {}, l);
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < input.size(); ++i) every.push_back(i);
  EXPECT_EQ(feed(input, every, l), whole) << "byte by byte";
  for (std::size_t cut = 0; input.size() < 4096 && cut <= input.size(); ++cut)  // quadratic
    EXPECT_EQ(feed(input, {cut}, l), whole) << "cut at " << cut;
  std::mt19937 rng(7);
  for (int run = 0; run < 200; ++run) {
    std::vector<std::size_t> cuts;
    for (int k = 0; k < 8; ++k) cuts.push_back(std::uniform_int_distribution<std::size_t>(0, input.size())(rng));
    std::sort(cuts.begin(), cuts.end());
    EXPECT_EQ(feed(input, cuts, l), whole) << "random run " << run;
  }
  EXPECT_EQ(whole.violation, "");
  return whole;
}

using events = std::vector<std::string>;

TEST(resp_parser, multibulk_and_inline_commands_round_trip_under_every_split) {
  const std::string stream =
      "*2\r\n$5\r\nGREET\r\n$5\r\nalice\r\n"
      "PING\r\n"
      "\r\n\n"                      // empty lines: skipped, no reply
      "*0\r\n*-1\r\n"               // empty multibulks: skipped
      "ECHO \"a b\\x41\\n\" 'it\\'s'\n"
      "  spaced   out  \r\n"
      "*1\r\n$0\r\n\r\n"            // an empty argument
      "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\n0123456789\r\n"
      "*2\r\n$4\r\nECHO\r\n$3\r\nhal";  // unfinished
  const outcome o = parse_all_ways(stream);
  EXPECT_EQ(o.events, (events{"[GREET][alice]", "[PING]", "[ECHO][a bA\n][it's]", "[spaced][out]", "[]",
                              "[SET][k][0123456789]"}));
  EXPECT_TRUE(o.mid);
  EXPECT_FALSE(o.failed);
  EXPECT_EQ(o.unconsumed, std::string("*2\r\n$4\r\nECHO\r\n$3\r\nhal").size());
}

TEST(resp_parser, binary_arguments_are_taken_as_they_are) {
  const std::string arg("a\0\r\nb", 5);
  const outcome o = parse_all_ways("*2\r\n$4\r\nECHO\r\n$5\r\n" + arg + "\r\n");
  EXPECT_EQ(o.events, events{"[ECHO][" + arg + "]"});
  EXPECT_FALSE(o.mid);
}

struct error_case {
  std::string input;
  std::string message;
};

TEST(resp_parser, protocol_errors_have_redis_messages_under_every_split) {
  const std::vector<error_case> cases = {
      {"*x\r\n", "Protocol error: invalid multibulk length"},
      {"*+1\r\n", "Protocol error: invalid multibulk length"},
      {"*01\r\n", "Protocol error: invalid multibulk length"},
      {"*1048577\r\n", "Protocol error: invalid multibulk length"},  // over the element limit
      {"*99999999999999999999\r\n", "Protocol error: invalid multibulk length"},
      {"*2\r\n$4\r\nECHO\r\nx3\r\n", "Protocol error: expected '$', got 'x'"},
      {"*1\r\n$-1\r\n", "Protocol error: invalid bulk length"},
      {"*1\r\n$1x\r\n", "Protocol error: invalid bulk length"},
      {"*1\r\n$65537\r\n", "Protocol error: invalid bulk length"},  // over the bulk limit
      {"ECHO \"abc\r\n", "Protocol error: unbalanced quotes in request"},
      {"ECHO \"abc\"d\r\n", "Protocol error: unbalanced quotes in request"},
      {"ECHO 'abc\n", "Protocol error: unbalanced quotes in request"},
      {std::string(64 * 1024 + 1, 'A'), "Protocol error: too big inline request"},
      {std::string(64 * 1024 + 1, 'A') + "\r\n", "Protocol error: too big inline request"},
      {"*" + std::string(64 * 1024 + 1, '1'), "Protocol error: too big mbulk count string"},
      {"*1\r\n$" + std::string(64 * 1024 + 1, '1'), "Protocol error: too big bulk count string"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input.substr(0, 40));
    const outcome o = parse_all_ways("PING\r\n" + c.input);
    EXPECT_EQ(o.events, (events{"[PING]", "error: " + c.message}));
    EXPECT_TRUE(o.failed);
  }
}

TEST(resp_parser, limits_are_configurable_and_a_command_of_exactly_the_limit_passes) {
  request_limits l;
  l.max_bulk_bytes = 3;
  l.max_multibulk_elements = 2;
  l.max_inline_bytes = 8;
  EXPECT_EQ(parse_all_ways("*2\r\n$3\r\nabc\r\n$3\r\ndef\r\n", l).events, events{"[abc][def]"});
  EXPECT_EQ(parse_all_ways("*1\r\n$4\r\n", l).events, events{"error: Protocol error: invalid bulk length"});
  EXPECT_EQ(parse_all_ways("*3\r\n", l).events, events{"error: Protocol error: invalid multibulk length"});
  EXPECT_EQ(parse_all_ways("PING abc\n", l).events, events{"[PING][abc]"});  // 8 bytes before '\n'
  EXPECT_EQ(parse_all_ways("PING abc\r\n", l).events, events{"error: Protocol error: too big inline request"});
}

TEST(resp_parser, the_query_bound_closes_without_a_reply) {
  const std::string fits = "*2\r\n$4\r\nECHO\r\n$6\r\n123456\r\n";
  request_limits l;
  l.max_query_bytes = fits.size();  // a command of exactly the bound passes
  EXPECT_EQ(parse_all_ways(fits + fits, l).events, (events{"[ECHO][123456]", "[ECHO][123456]"}));
  const outcome o = parse_all_ways("*2\r\n$4\r\nECHO\r\n$7\r\n1234567\r\n", l);
  EXPECT_EQ(o.events, events{"error: "});
  request_parser p(l);
  p.decode(bytes(std::string(fits.size() + 1, 'x')));
  EXPECT_EQ(p.error(), errc::frame_too_long);
  EXPECT_EQ(p.error_message(), "");
}

TEST(resp_parser, declared_counts_and_lengths_are_never_allocated) {
  request_limits l;
  l.max_bulk_bytes = std::size_t{1} << 30;  // a gigabyte may be declared...
  l.max_query_bytes = std::size_t{2} << 30;
  // Heap in use before and after (glibc; under ASan this reads 0 and ASan itself watches).
  const std::size_t before = mallinfo2().uordblks;
  request_parser p(l);
  std::string in = "*1048576\r\n$1000000000\r\nabc";  // ...but only what arrives is held
  auto r = p.decode(bytes(in));
  in += std::string(4096, 'x');
  r = p.decode(bytes(in));
  const std::size_t after = mallinfo2().uordblks;
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_TRUE(p.mid_command());
  EXPECT_LT(after > before ? after - before : 0, std::size_t{256} * 1024);
}

TEST(resp_parser, redis_integers_and_inline_splitting_follow_redis) {
  std::int64_t v = 0;
  EXPECT_TRUE(parse_redis_integer("0", v));
  EXPECT_TRUE(parse_redis_integer("-9223372036854775808", v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_FALSE(parse_redis_integer("9223372036854775808", v));
  EXPECT_FALSE(parse_redis_integer("-0", v));
  EXPECT_FALSE(parse_redis_integer("", v));
  EXPECT_FALSE(parse_redis_integer(" 1", v));
  std::string storage;
  std::vector<std::size_t> ends;
  EXPECT_TRUE(split_inline_args("a\"b c\"d e", storage, ends) == false);  // quote then 'd': unbalanced
  storage.clear();
  ends.clear();
  EXPECT_TRUE(split_inline_args("set \"\\x4g\" '\\n'", storage, ends));
  EXPECT_EQ(storage, "setx4g\\n");  // \x needs two hex digits; '...' keeps backslashes
}

}  // namespace
}  // namespace wirebench::resp
