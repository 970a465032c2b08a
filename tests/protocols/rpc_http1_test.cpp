// The gRPC server's codec on HTTP/1.1 (rpc_server_codec.hpp, rpc_http1_session.hpp), driven with
// hand-written requests and no socket: the first bytes choose HTTP/1.1 or HTTP/2 on one port;
// Connect and gRPC-Web unary calls and half-streams answered with their exact bytes, pipelined
// requests answered in order though the calls between them answer later, a chunked request body,
// and what HTTP/1.1 cannot carry refused (gRPC, a bidirectional stream: 505, the latter at its
// headers), a content type no dialect serves (415).
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/protocols/connect/connect_wire.hpp"
#include "../../src/protocols/grpc/rpc_server_codec.hpp"
#include "../../src/protocols/grpc_web/grpc_web_wire.hpp"
#include "../../src/protocols/http/base64.hpp"
#include "support/grpc_frames.hpp"
#include "support/protocol_cases.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_wire {
namespace {

// A connection's codec fed `input` in one read: every call answered "hello, NAME" at once, or
// (`hold`) only after every request has been read, newest first; everything it wrote, its Date
// headers masked.
struct exchange {
  std::string out;
  std::error_code error;
  int calls = 0, answered = 0;
};
exchange run(const std::string& input, bool hold = false) {
  rpc_server_codec codec(grpc_server_config{.http2 = {}, .max_message_bytes = 1024});
  exchange e;
  gather_queue out;
  std::vector<std::pair<std::uint64_t, std::string>> held;
  std::span<const std::byte> data = as_bytes(std::string_view(input));
  for (int turns = 0; turns < 100 && !e.error; ++turns) {
    server_request r;
    data = data.subspan(codec.decode(data, r, out, e.error));
    if (r.what == server_request::kind::none) break;
    if (r.what == server_request::kind::call) {
      ++e.calls;
      if (hold) held.emplace_back(r.key, std::string(r.argument));
      else codec.encode_reply(r.key, true, "hello, " + std::string(r.argument), out);
    }
    if (r.what == server_request::kind::answered) ++e.answered;
  }
  for (auto it = held.rbegin(); it != held.rend(); ++it) codec.encode_reply(it->first, true, "hello, " + it->second, out);
  (void)codec.produce(out);
  out.for_each_segment([&](std::span<const std::byte> b) { e.out += as_text(b); });
  e.out = test::mask_http_dates(e.out);
  return e;
}

std::string post(std::string_view path, std::string_view content_type, std::string_view body,
                 std::string_view extra = {}) {
  return "POST " + std::string(path) + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + std::string(content_type) +
         "\r\n" + std::string(extra) + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         std::string(body);
}

std::string response(int status, std::string_view reason, std::string_view content_type, std::string_view body,
                     std::string_view extra = {}) {
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
         "\r\nServer: wirebench\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\nContent-Type: " + std::string(content_type) +
         "\r\nContent-Length: " + std::to_string(body.size()) + std::string(extra) + "\r\n\r\n" + std::string(body);
}

constexpr std::string_view greet = "/wirebench.echo.Echo/Greet";

TEST(rpc_http1, a_connect_call_in_json_is_answered_as_http_1_1) {
  const exchange e = run(post(greet, "application/json", R"({"name": "h1"})"));
  EXPECT_EQ(e.out, response(200, "OK", "application/json", R"({"greeting":"hello, h1"})"));
  EXPECT_EQ(e.calls, 1);
  EXPECT_FALSE(e.error);
}

TEST(rpc_http1, pipelined_requests_are_answered_in_order_though_calls_answer_late) {
  const std::string input = post(greet, "application/json", R"({"name": "a"})") +
                            post("/wirebench.echo.Echo/Get", "application/json", R"({"text": "b"})") +
                            post(greet, "application/json", R"({"name": "c"})");
  const exchange e = run(input, /*hold=*/true);
  EXPECT_EQ(e.out, response(200, "OK", "application/json", R"({"greeting":"hello, a"})") +
                       response(200, "OK", "application/json", R"({"text":"b"})") +
                       response(200, "OK", "application/json", R"({"greeting":"hello, c"})"));
  EXPECT_EQ(e.calls, 2);
  EXPECT_EQ(e.answered, 1);
}

TEST(rpc_http1, a_streams_chunked_body_and_grpc_web_text_are_read_whole) {
  std::string envelopes;
  connect::append_envelope(envelopes, 0, R"({"text":"x"})");
  connect::append_envelope(envelopes, 0, R"({"text":"y"})");
  char size[16];
  const std::string chunked =
      "POST /wirebench.echo.Echo/Collect HTTP/1.1\r\nHost: x\r\nContent-Type: application/connect+json\r\n"
      "Transfer-Encoding: chunked\r\n\r\n" +
      std::string(size, std::snprintf(size, sizeof size, "%zx", envelopes.size() - 3)) + "\r\n" +
      envelopes.substr(0, envelopes.size() - 3) + "\r\n3\r\n" + envelopes.substr(envelopes.size() - 3) +
      "\r\n0\r\n\r\n";
  std::string end_ok;
  connect::append_envelope(end_ok, 0, R"({"text":"xy"})");
  connect::append_envelope(end_ok, connect::flag_end_stream, "{}");
  EXPECT_EQ(run(chunked).out, response(200, "OK", "application/connect+json", end_ok));
  // gRPC-Web-text: base64 both ways, the trailers frame at the end of the body.
  std::string text;
  http::append_base64(text, test::grpc_frames::greet_message("t"));
  const exchange web = run(post(greet, "application/grpc-web-text", text));
  echo::GreetReply reply;
  reply.set_greeting("hello, t");
  std::string body, trailers;
  http::append_base64(body, test::grpc_frames::message(reply.SerializeAsString()));
  grpc_web::append_trailers_frame(trailers, status_code::ok, {});
  http::append_base64(body, trailers);
  EXPECT_EQ(web.out, response(200, "OK", "application/grpc-web-text+proto", body));
}

TEST(rpc_http1, what_http_1_1_cannot_carry_is_refused) {
  // gRPC needs HTTP/2's trailers.
  EXPECT_EQ(run(post(greet, "application/grpc", test::grpc_frames::greet_message("g"))).out,
            response(505, "HTTP Version Not Supported", "text/plain; charset=utf-8", "gRPC needs HTTP/2\n"));
  // A bidirectional stream: at its headers, before its body has come, saying Connection: close;
  // the connection stays open for the client to close (its body is read and dropped).
  const std::string update_headers =
      "POST /wirebench.echo.Echo/Update HTTP/1.1\r\nHost: x\r\nContent-Type: application/connect+proto\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  const exchange bidi = run(update_headers);
  EXPECT_EQ(bidi.out, response(505, "HTTP Version Not Supported", "application/json",
                               R"({"code":"unimplemented","message":"a bidirectional stream needs HTTP/2"})",
                               "\r\nConnection: close"));
  EXPECT_FALSE(bidi.error);
  // A content type no dialect serves.
  EXPECT_EQ(run(post(greet, "text/plain", "x")).out,
            response(415, "Unsupported Media Type", "text/plain; charset=utf-8",
                     "content-type is not a Connect or gRPC-Web one\n"));
}

TEST(rpc_http1, the_first_bytes_choose_http_2_on_the_same_port) {
  // The HTTP/2 preface cut after three bytes: nothing consumed until the fourth says which.
  rpc_server_codec codec(grpc_server_config{});
  gather_queue out;
  server_request r;
  std::error_code error;
  EXPECT_EQ(codec.decode(as_bytes(std::string_view("PRI")), r, out, error), 0u);
  EXPECT_FALSE(error);
  const exchange h2 = run(test::h2::opening() + test::grpc_frames::call(1, {}, test::grpc_frames::greet_message("two")));
  EXPECT_EQ(h2.calls, 1);
  ASSERT_GE(h2.out.size(), 9u);
  EXPECT_EQ(h2.out[3], '\x04') << "the server's SETTINGS first";
}

}  // namespace
}  // namespace wirebench::grpc_wire
