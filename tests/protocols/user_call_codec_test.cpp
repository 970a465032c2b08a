// Each client codec that takes a user call (http1, http2, resp): the exact bytes it sends, and
// its verdict on replies (a status other than the expected one fails with that status, another
// body or reply is wrong_reply, a RESP error reply is remote_error with its text). Then the same
// calls end to end against our own servers, and the registry refusing what a protocol cannot send.
#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"

#include "support/user_calls.hpp"
#include "support/queued_text.hpp"
#include "support/sync_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {


using test::queued_text;

struct decoded_replies {
  std::vector<codec_reply> replies;
  std::vector<std::string> texts;  // copies: the codec's views end with its next decode
  std::error_code error;
};

decoded_replies decode_all(client_codec& codec, std::string_view bytes) {
  decoded into;
  gather_queue out;
  decoded_replies r;
  codec.decode(as_bytes(bytes), into, out, r.error);
  r.replies = into.replies;
  for (const auto& reply : into.replies) r.texts.emplace_back(reply.body);
  return r;
}

client_config with_call(user_call call) {
  client_config c;
  c.calls = {std::move(call)};
  return c;
}

http_call post_items() {
  http_call h;
  h.method = "POST";
  h.target = "/items?id=__rand_int__";
  h.headers = {{"Accept", "*/*"}, {"X-Key", "k__rand_int__"}};
  h.body = "{\"n\":__rand_int__}";
  return h;
}

TEST(user_call_http1_codec, sends_the_request_built_once_with_the_placeholders_filled) {
  auto codec = test::builtin_protocol("http1").client_codecs(with_call(user_call{post_items(), 1}))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "w0-", out));
  ASSERT_FALSE(codec->encode(2, "w1-", out));
  const std::string one =
      "POST /items?id=000000000000 HTTP/1.1\r\nHost: 127.0.0.1:7000\r\nAccept: */*\r\n"
      "X-Key: k000000000000\r\nContent-Length: 18\r\n\r\n{\"n\":000000000000}";
  EXPECT_EQ(queued_text(out), one + one);
}

TEST(user_call_http1_codec, the_urls_authority_or_a_host_header_is_the_host_and_get_has_no_length) {
  http_call h;
  h.target = "/";
  h.authority = "example.com:8080";
  client_config c = with_call(user_call{h});
  gather_queue out;
  ASSERT_FALSE(test::builtin_protocol("http1-close").client_codecs(c)()->encode(1, "x", out));
  EXPECT_EQ(queued_text(out), "GET / HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\n");
  h.headers = {{"host", "other"}};
  gather_queue out2;
  ASSERT_FALSE(test::builtin_protocol("http1").client_codecs(with_call(user_call{h}))()->encode(1, "x", out2));
  EXPECT_EQ(queued_text(out2), "GET / HTTP/1.1\r\nhost: other\r\n\r\n");
}

TEST(user_call_http1_codec, judges_replies_by_status_and_expected_body) {
  http_call h;
  h.expect_body = "ok";
  auto codec = test::builtin_protocol("http1").client_codecs(with_call(user_call{h}))();
  const auto r = decode_all(*codec,
                            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                            "HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope"
                            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbad"
                            "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n");
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.replies.size(), 4u);
  EXPECT_FALSE(r.replies[0].error);
  EXPECT_EQ(r.texts[0], "ok");
  EXPECT_EQ(r.replies[1].error, unexpected_status(404));
  EXPECT_EQ(unexpected_status_of(r.replies[1].error), 404);
  EXPECT_EQ(error_name(r.replies[1].error), "status_404");
  EXPECT_EQ(r.texts[1], "404 nope");
  EXPECT_EQ(r.replies[2].error, errc::wrong_reply);
  EXPECT_EQ(r.texts[2], "bad");
  EXPECT_EQ(r.replies[3].error, unexpected_status(503));
  EXPECT_EQ(r.texts[3], "503");
}

TEST(user_call_http1_codec, another_expected_status_makes_200_the_failure) {
  http_call h;
  h.expect_status = 204;
  auto codec = test::builtin_protocol("http1").client_codecs(with_call(user_call{h}))();
  const auto r = decode_all(*codec, "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx");
  ASSERT_EQ(r.replies.size(), 2u);
  EXPECT_FALSE(r.replies[0].error);
  EXPECT_EQ(r.replies[1].error, unexpected_status(200));
}

TEST(user_call_http1_codec, responses_to_head_have_no_body_whatever_their_length_says) {
  http_call h;
  h.method = "HEAD";
  auto codec = test::builtin_protocol("http1").client_codecs(with_call(user_call{h}))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "x", out));
  EXPECT_EQ(queued_text(out), "HEAD / HTTP/1.1\r\nHost: 127.0.0.1:7000\r\n\r\n");
  const auto r = decode_all(*codec,
                            "HTTP/1.1 200 OK\r\nContent-Length: 612\r\n\r\n"
                            "HTTP/1.1 200 OK\r\nContent-Length: 612\r\n\r\n");
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.replies.size(), 2u);
  EXPECT_FALSE(codec->mid_reply());
}

TEST(user_call_resp_codec, sends_the_command_made_once_with_the_placeholders_filled) {
  auto codec = test::builtin_protocol("resp").client_codecs(with_call(user_call{resp_call{{"SET", "k:__rand_int__", "a b"}}, 1}))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "w0-", out));
  ASSERT_FALSE(codec->encode(2, "w0-", out));
  const std::string one = "*3\r\n$3\r\nSET\r\n$14\r\nk:000000000000\r\n$3\r\na b\r\n";
  EXPECT_EQ(queued_text(out), one + one);
}

TEST(user_call_resp_codec, any_reply_but_an_error_succeeds_and_an_error_keeps_its_text) {
  auto codec = test::builtin_protocol("resp").client_codecs(with_call(user_call{resp_call{{"GET", "k"}}}))();
  const auto r = decode_all(*codec, "+OK\r\n$1\r\nv\r\n:42\r\n$-1\r\n*1\r\n$1\r\na\r\n-ERR unknown command\r\n");
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.replies.size(), 6u);
  const std::vector<std::string> texts = {"OK", "v", "42", "(nil)", "(array)", "ERR unknown command"};
  EXPECT_EQ(r.texts, texts);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(r.replies[i].error) << i;
  EXPECT_EQ(r.replies[5].error, errc::remote_error);
}

TEST(user_call_resp_codec, an_expected_reply_must_match_a_string_or_an_integer) {
  auto codec = test::builtin_protocol("resp").client_codecs(with_call(user_call{resp_call{{"INCR", "n"}, "42"}}))();
  const auto r = decode_all(*codec, ":42\r\n$2\r\n42\r\n+42\r\n:41\r\n*1\r\n:42\r\n$-1\r\n");
  ASSERT_EQ(r.replies.size(), 6u);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(r.replies[i].error) << i;
  for (int i = 3; i < 6; ++i) EXPECT_EQ(r.replies[i].error, errc::wrong_reply) << i;
  EXPECT_EQ(r.texts[3], "41");
}

// End to end against our own servers: the request's method, target and body reach the server as
// sent (a POST's body is what it greets), and a path it does not serve fails with its 404.
class user_call_http : public ::testing::TestWithParam<const char*> {};

TEST_P(user_call_http, a_post_body_reaches_the_server_and_an_unknown_path_is_its_404) {
  const protocol& p = test::builtin_protocol(GetParam());
  auto server = p.make_server({});
  http_call post;
  post.target = "/greet";
  post.method = "POST";
  post.headers = {{"Content-Type", "application/json"}};
  post.body = R"({"name":"bo"})";
  post.expect_body = R"({"greeting":"hello, bo"})";
  client_config c = with_call(user_call{post});
  c.connect = server->local_endpoint();
  auto client = p.make_client(c);
  EXPECT_FALSE(client->greets());
  const auto ok = test::greet_sync(*client, "ignored");
  EXPECT_FALSE(ok.ec) << ok.ec.message() << ": " << ok.reply;
  EXPECT_EQ(ok.reply, R"({"greeting":"hello, bo"})");

  http_call wrong_body = post;
  wrong_body.expect_body = "something else";
  c.calls = {user_call{wrong_body}};
  auto client2 = p.make_client(c);
  EXPECT_EQ(test::greet_sync(*client2, "x").ec, errc::wrong_reply);

  http_call missing;
  missing.target = "/nope?x=__rand_int__";
  c.calls = {user_call{missing}};
  auto client3 = p.make_client(c);
  const auto r = test::greet_sync(*client3, "x");
  EXPECT_EQ(r.ec, unexpected_status(404));
  EXPECT_EQ(r.reply.substr(0, 4), "404 ") << r.reply;
  EXPECT_NE(r.reply.find("no such resource: /nope"), std::string::npos) << r.reply;
}

INSTANTIATE_TEST_SUITE_P(http, user_call_http, ::testing::Values("http1", "http2"));

TEST(user_call_resp, a_command_reaches_our_server_and_an_unknown_one_is_its_error) {
  const protocol& p = test::builtin_protocol("resp");
  auto server = p.make_server({});
  client_config c = with_call(user_call{resp_call{{"GREET", "x y"}, "hello, x y"}});
  c.connect = server->local_endpoint();
  auto client = p.make_client(c);
  const auto ok = test::greet_sync(*client, "ignored");
  EXPECT_FALSE(ok.ec) << ok.ec.message() << ": " << ok.reply;
  EXPECT_EQ(ok.reply, "hello, x y");
  c.calls = {user_call{resp_call{{"NOSUCH"}}}};
  auto client2 = p.make_client(c);
  const auto r = test::greet_sync(*client2, "x");
  EXPECT_EQ(r.ec, errc::remote_error);
  EXPECT_NE(r.reply.find("ERR"), std::string::npos) << r.reply;
}

TEST(user_call_registry, protocols_refuse_calls_they_cannot_send) {
  const client_config http = with_call(user_call{http_call{}});
  const client_config resp = with_call(user_call{resp_call{{"PING"}}});
  auto message = [](const protocol& p, const client_config& c) {
    try {
      p.make_client(c);
    } catch (const user_call_refused& e) {
      EXPECT_EQ(e.protocol, p.name);
      EXPECT_EQ(e.sends, p.can.user_calls);
      EXPECT_EQ(e.given, c.calls.front().form());
      return std::string(e.detail());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(test::builtin_protocol("line"), http), "protocol 'line' sends only its greet call, not an HTTP request");
  EXPECT_EQ(message(test::builtin_protocol("resp"), http), "protocol 'resp' sends a RESP command, not an HTTP request");
  EXPECT_EQ(message(test::builtin_protocol("resp-sync"), resp),
            "protocol 'resp-sync' sends only its greet call, not a RESP command");
  EXPECT_EQ(message(test::builtin_protocol("http2"), resp), "protocol 'http2' sends an HTTP request, not a RESP command");
  EXPECT_THROW(test::builtin_protocol("http1").client_codecs(resp), user_call_refused);
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (p.can.user_calls != &http_call_form()) {
      EXPECT_NE(message(p, http), "accepted") << p.name;
    }
  }
}

TEST(user_call_registry, headers_the_client_writes_itself_are_refused) {
  http_call h;
  h.headers = {{"Content-Length", "5"}};
  EXPECT_THROW(test::builtin_protocol("http1").client_codecs(with_call(user_call{h})), std::invalid_argument);
  h.headers = {{"Connection", "keep-alive"}};
  EXPECT_NO_THROW(test::builtin_protocol("http1").client_codecs(with_call(user_call{h})));
  EXPECT_THROW(test::builtin_protocol("http2").client_codecs(with_call(user_call{h})), std::invalid_argument);
}

}  // namespace
}  // namespace wirebench
