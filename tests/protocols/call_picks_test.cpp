// Per-call picks (call_picks.hpp): each request expanded into its variants, a file's picks taking
// one line or row together, values escaped where they land in JSON and refused where an HTTP
// request cannot carry them; and the registry's clients and codecs naming one variant per call.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "support/user_calls.hpp"
#include "support/queued_text.hpp"
#include "support/temp_dir.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

user_call command(std::vector<std::string> args, std::optional<std::string> expect = {}) {
  return user_call{resp_call{std::move(args), std::move(expect)}};
}

std::vector<std::string> args_of(const picked_calls& p, std::size_t arg) {
  std::vector<std::string> out;
  for (const user_call& c : p.variants) out.push_back(c.as<resp_call>()->args.at(arg));
  return out;
}

// The message of expand_picks' refusal ("" when it takes the calls).
std::string refusal(const std::vector<user_call>& calls) {
  try {
    (void)expand_picks(calls);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(call_picks, an_inline_list_makes_one_variant_per_value_and_a_request_without_picks_stays_one) {
  const picked_calls p = expand_picks({command({"GET", "a"}), command({"SET", "k:__pick(x|yy|)__", "v"})});
  EXPECT_EQ(p.first, (std::vector<std::size_t>{0, 1, 4}));
  EXPECT_TRUE(p.has_picks());
  EXPECT_EQ(args_of(p, 1), (std::vector<std::string>{"a", "k:x", "k:yy", "k:"}));
  const picked_calls none = expand_picks({command({"GET", "a"}), command({"GET", "__rand_int__"})});
  EXPECT_FALSE(none.has_picks());
  EXPECT_EQ(none.variants, (std::vector<user_call>{command({"GET", "a"}), command({"GET", "__rand_int__"})}));
}

TEST(call_picks, two_lists_are_independent_and_every_combination_is_a_variant) {
  const picked_calls p = expand_picks({command({"SET", "__pick(a|b)__", "__pick(1|2|3)__"})});
  ASSERT_EQ(p.variants.size(), 6u);
  std::set<std::pair<std::string, std::string>> seen;
  for (const user_call& c : p.variants) seen.emplace(c.as<resp_call>()->args[1], c.as<resp_call>()->args[2]);
  EXPECT_EQ(seen.size(), 6u);
}

TEST(call_picks, a_files_lines_skip_blanks_and_carriage_returns) {
  test::temp_dir dir("picks-lines");
  std::ofstream(dir.path("keys.txt")) << "alpha\r\n\nbeta gamma\n";
  const picked_calls p = expand_picks({command({"GET", "__pick(@" + dir.path("keys.txt") + ")__"})});
  EXPECT_EQ(args_of(p, 1), (std::vector<std::string>{"alpha", "beta gamma"}));
}

// RFC 4180: a quoted field with a comma, a doubled quote and a line break; a column by its name
// or its number; and the picks of one file in one request (and its expected reply) from one row.
TEST(call_picks, a_csv_files_picks_in_one_request_take_one_row_by_column_name_or_number) {
  test::temp_dir dir("picks-csv");
  const std::string users = dir.path("users.csv");
  std::ofstream(users) << "id,name,note\r\n1,ann,plain\r\n2,\"bo, \"\"the\"\"\nsecond\",x\r\n3,cy,\n";
  const picked_calls p = expand_picks({command(
      {"SET", "user:__csv(" + users + ":id)__", "__csv(" + users + ":2)__"}, "__csv(" + users + ":name)__")});
  ASSERT_EQ(p.variants.size(), 3u);
  EXPECT_EQ(args_of(p, 1), (std::vector<std::string>{"user:1", "user:2", "user:3"}));
  EXPECT_EQ(args_of(p, 2), (std::vector<std::string>{"ann", "bo, \"the\"\nsecond", "cy"}));
  for (const user_call& c : p.variants) EXPECT_EQ(c.as<resp_call>()->expect_reply, c.as<resp_call>()->args[2]);
  // The empty last field is a value too.
  EXPECT_EQ(args_of(expand_picks({command({"GET", "n__csv(" + users + ":note)__"})}), 1),
            (std::vector<std::string>{"nplain", "nx", "n"}));
}

TEST(call_picks, values_are_json_escaped_in_grpc_messages_and_msgpack_params) {
  grpc_call g;
  g.method = "wirebench.echo.Echo/Greet";
  g.request_json = R"({"name": "__pick(a"b|c\d)__"})";
  const picked_calls p = expand_picks({user_call{g}});
  ASSERT_EQ(p.variants.size(), 2u);
  EXPECT_EQ(p.variants[0].as<grpc_call>()->request_json, R"({"name": "a\"b"})");
  EXPECT_EQ(p.variants[1].as<grpc_call>()->request_json, R"({"name": "c\\d"})");
  const picked_calls m = expand_picks({user_call{msgpack_call{"add", "[__pick(1|22)__, \"__pick(x|y)__\"]"}}});
  ASSERT_EQ(m.variants.size(), 4u);
  EXPECT_EQ(m.variants[3].as<msgpack_call>()->params_json, "[22, \"y\"]");
}

TEST(call_picks, http_targets_and_headers_refuse_values_they_cannot_carry) {
  http_call h;
  h.target = "/u/__pick(a|b c)__";
  EXPECT_NE(refusal({user_call{h}}).find("'__pick(a|b c)__': the value 'b c' has a space or control character"),
            std::string::npos);
  h.target = "/u/__pick(a|b)__";
  h.headers = {{"X-Id", "__pick(1|2\r\nX: y)__"}};
  EXPECT_NE(refusal({user_call{h}}).find("has a line break, which a header cannot carry"), std::string::npos);
  h.headers = {{"X-Id", "__pick(1|2)__"}};
  h.body = "__pick(a b|c)__";  // a body takes anything
  EXPECT_EQ(expand_picks({user_call{h}}).variants.size(), 8u);
}

TEST(call_picks, mistakes_are_refused_naming_the_request_and_the_placeholder) {
  test::temp_dir dir("picks-bad");
  const std::string csv = dir.path("u.csv");
  std::ofstream(csv) << "id,name\n1,ann\n2\n";
  std::ofstream(dir.path("header-only.csv")) << "id\n";
  std::ofstream(dir.path("broken.csv")) << "id\n\"open\n";
  std::ofstream(dir.path("empty.txt")) << "\n\n";
  auto why = [](const std::string& arg) { return refusal({command({"GET", "a"}), command({"GET", arg})}); };
  EXPECT_NE(why("__pick(@/nonexistent/keys)__").find("request 2 (GET __pick(@/nonexistent/keys)__): "),
            std::string::npos) << why("__pick(@/nonexistent/keys)__");
  EXPECT_NE(why("__pick(@/nonexistent/keys)__").find("/nonexistent/keys: cannot read it: No such file"),
            std::string::npos);
  EXPECT_NE(why("__pick(@" + dir.path("empty.txt") + ")__").find("has no lines"), std::string::npos);
  EXPECT_NE(why("__pick()__").find("'__pick()__': an empty list"), std::string::npos);
  EXPECT_NE(why("__pick(a|b").find("a pick ends in )__"), std::string::npos);
  EXPECT_NE(why("__csv(" + csv + ")__").find("give __csv(FILE:COLUMN)__"), std::string::npos);
  EXPECT_NE(why("__csv(" + csv + ":email)__").find("has no column 'email' (its header has 2)"), std::string::npos);
  EXPECT_NE(why("__csv(" + csv + ":3)__").find("has no column '3'"), std::string::npos);
  EXPECT_NE(why("__csv(" + csv + ":name)__").find("'s row 3 has 1 fields, no column 2"), std::string::npos);
  EXPECT_NE(why("__csv(" + dir.path("header-only.csv") + ":id)__").find("has no rows under its header"),
            std::string::npos);
  EXPECT_NE(why("__csv(" + dir.path("broken.csv") + ":id)__").find("is not CSV ("), std::string::npos);
  EXPECT_EQ(why("__csv(" + csv + ":id)__"), "");  // the short row has the id column
}

// A run picks from the file as it first read it: edited mid-run (between points, or protocols),
// it still gives the lines it gave.
TEST(call_picks, a_file_is_read_once_whatever_happens_to_it_after) {
  test::temp_dir dir("picks-once");
  const std::string keys = dir.path("keys.txt");
  std::ofstream(keys) << "a\nb\n";
  const std::vector<user_call> calls = {command({"GET", "__pick(@" + keys + ")__"})};
  EXPECT_EQ(args_of(expand_picks(calls), 1), (std::vector<std::string>{"a", "b"}));
  std::ofstream(keys) << "c\n";
  EXPECT_EQ(args_of(expand_picks(calls), 1), (std::vector<std::string>{"a", "b"}));
  std::filesystem::remove(keys);
  EXPECT_EQ(args_of(expand_picks(calls), 1), (std::vector<std::string>{"a", "b"}));
}

TEST(call_picks, the_variants_of_all_requests_are_bounded) {
  std::string hundred, hundred_and_one;
  for (int i = 0; i < 100; ++i) hundred += (i ? "|" : "") + std::to_string(i);
  hundred_and_one = hundred + "|100";
  const std::string list = "__pick(" + hundred + ")__";
  EXPECT_EQ(expand_picks({command({"SET", list, list})}).variants.size(), max_pick_variants);
  EXPECT_NE(refusal({command({"SET", list, "__pick(" + hundred_and_one + ")__"})})
                .find("its picks make more than 10000 variants of it"),
            std::string::npos);
  EXPECT_NE(refusal({command({"GET", list}), command({"SET", list, list})}).find("request 2"), std::string::npos);
}

using test::queued_text;

// Through the registry: a codec made for a mix of a request with picks and one without names a
// variant of the request each call's payload names, at random, and fails a payload naming none.
TEST(call_picks, the_registrys_codecs_send_a_random_variant_of_the_request_named) {
  client_config c;
  c.calls = {command({"GET", "__pick(a|b|c)__"}), command({"INCR", "n"})};
  auto codec = protocol_registry::builtin().find("resp")->client_codecs(c)();
  std::map<std::string, int> seen;
  for (std::uint32_t i = 0; i < 300; ++i) {
    gather_queue out;
    ASSERT_FALSE(codec->encode(i, "0", out));
    ++seen[queued_text(out)];
  }
  ASSERT_EQ(seen.size(), 3u);
  for (const char* key : {"a", "b", "c"})
    EXPECT_GT((seen[std::string("*2\r\n$3\r\nGET\r\n$1\r\n") + key + "\r\n"]), 50) << key;
  gather_queue out;
  ASSERT_FALSE(codec->encode(300, "1", out));
  EXPECT_EQ(queued_text(out), "*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n");
  EXPECT_EQ(codec->encode(301, "2", out), make_error_code(errc::invalid_argument));
}

}  // namespace
}  // namespace wirebench
