#pragma once
// A call the user defines, sent instead of the greet call (client_config::calls): any HTTP request
// (http1, http2), any RESP command (resp, redis-server), any gRPC method (grpc) or any
// MessagePack-RPC method (msgpack-rpc), so that
// wirebench loads a server it did not write (h2load's URL, redis-benchmark's command, ghz's
// --proto and --call). The codec that sends it also judges each
// reply (the expected status or body, or not an error reply): the harness then checks nothing of
// its own, since it cannot know what a correct reply is.
//
// Built once at start-up (user_call_parsing.hpp reads it from the command line); each client
// codec turns it into request bytes once per connection and sends those for every call, with
// the placeholder below filled in per call.
//
// Several user calls make a mix (client_config::calls): each call sends one of them, the one
// its payload names (request_payload below), which the load drivers pick by weight.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace wirebench {

// Replaced in each call's bytes by 12 decimal digits, random in [0, user_call::keyspace), as
// redis-benchmark -r does (same name, same width: the bytes keep their length, so the request is
// built once and the digits written over the placeholder). In a RESP argument, an HTTP target, a
// header value or a body, a string param of a MessagePack-RPC call, or a string field of a gRPC
// request. call_placeholder.hpp has the others (__sequence__, __rand_str__, __payload_N__), and
// call_picks.hpp those picked from a list (__pick(a|b)__, __csv(FILE:COLUMN)__).
inline constexpr std::string_view random_int_placeholder = "__rand_int__";

struct http_call {
  std::string method = "GET";
  std::string target = "/";  // origin form: /path?query, sent as given
  // The Host header (HTTP/1.1) or :authority (HTTP/2); "" = the endpoint the client dials.
  std::string authority;
  bool https = false;  // the URL said https:// (the client must then speak TLS)
  std::vector<std::pair<std::string, std::string>> headers;  // in order, as given
  std::string body;                                           // sent with Content-Length
  int expect_status = 200;                 // any other status fails the call (status_error.hpp)
  std::optional<std::string> expect_body = {};  // the whole body, byte for byte
  friend bool operator==(const http_call&, const http_call&) = default;
};

struct resp_call {
  std::vector<std::string> args;  // the command and its arguments, each a bulk string
  // The whole reply, when given: a simple or bulk string's text, an integer's decimal digits.
  // Otherwise any reply but an error reply succeeds.
  std::optional<std::string> expect_reply = {};
  friend bool operator==(const resp_call&, const resp_call&) = default;
};

// A method of any gRPC service, unary or streaming, from its .proto (no code generated: the
// request is built from JSON into dynamic messages once, and their bytes sent for every call).
struct grpc_call {
  std::string method;      // "package.Service/Method"
  std::string proto_file;  // the .proto that defines it (its imports searched from import_paths)
  bool reflect = false;    // no .proto: the server's reflection says what the method is
  std::vector<std::string> import_paths = {};  // empty: the file's own folder
  // The request message, proto3's JSON mapping; a JSON array is several: a client-streaming
  // method's stream, or for any other method one per call, in turn.
  std::string request_json = "{}";
  // Request metadata (-H 'name: value'), in order; a "-bin" key's value is the raw bytes.
  std::vector<std::pair<std::string, std::string>> metadata = {};
  friend bool operator==(const grpc_call&, const grpc_call&) = default;
};

// A MessagePack-RPC method of any server: [0, msgid, method, params], params given as a JSON
// array (packed once; each call only gets its own msgid).
struct msgpack_call {
  std::string method;
  std::string params_json = "[]";
  friend bool operator==(const msgpack_call&, const msgpack_call&) = default;
};

enum class user_call_kind : std::uint8_t { none, http, resp, grpc, msgpack };

struct user_call {
  std::variant<http_call, resp_call, grpc_call, msgpack_call> request;
  std::uint64_t keyspace = 1'000'000;  // the placeholder's range, [0, keyspace); at least 1
  // In a mix: its share of the calls is weight / (the sum of the mix's weights); at least 1.
  std::uint32_t weight = 1;
  // What results call it ("" = describe()'s text): a workload file's `name`.
  std::string name = {};

  user_call_kind kind() const {
    switch (request.index()) {
      case 0: return user_call_kind::http;
      case 1: return user_call_kind::resp;
      case 2: return user_call_kind::grpc;
      default: return user_call_kind::msgpack;
    }
  }
  const http_call* http() const { return std::get_if<http_call>(&request); }
  const resp_call* resp() const { return std::get_if<resp_call>(&request); }
  const grpc_call* grpc() const { return std::get_if<grpc_call>(&request); }
  const msgpack_call* msgpack() const { return std::get_if<msgpack_call>(&request); }
  friend bool operator==(const user_call&, const user_call&) = default;
};

// What a person reads: "GET /x (expect 200)", "SET k:__rand_int__ v"; for tables and logs.
std::string describe(const user_call& call);
// Its name if it has one, else describe()'s text without the placeholder's range: what a
// mix's results label it with.
std::string label(const user_call& call);

// The most requests a mix may have: each keeps latency histograms of its own per recording
// thread (216 KB each), so a mix is sized for distinct calls, not for a log to replay.
inline constexpr std::size_t max_mix_requests = 100;

// With user calls, a call's payload (the name the greet call would carry) names which of them it
// sends: request `index`'s payload is its decimal digits ("0", "1", ...), a static string.
// index < max_mix_requests.
std::string_view request_payload(std::size_t index);
// The index a payload names; nullopt when it names none of `count` requests (a codec then fails
// the call with invalid_argument). A single user call takes any payload as its own (index 0), as
// callers that know nothing of mixes (`call`, the benchmarks) send names.
std::optional<std::size_t> request_index(std::string_view payload, std::size_t count);
// "greet call", "HTTP request", "RESP command", "gRPC call", "MessagePack-RPC call"
std::string_view kind_name(user_call_kind kind);
// What a client sends, in a sentence: "only its greet call", "an HTTP request", "a RESP command".
std::string sends_phrase(user_call_kind kind);

}  // namespace wirebench
