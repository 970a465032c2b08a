#pragma once
// The `grpc` protocol's client codec, and `connect`'s and `grpc-web`'s with their wires
// (rpc_client_wire.hpp): the greet call as unary Echo.Greet on our HTTP/2 client core
// (../http2/h2_client_core.hpp). Sans-IO. What follows says it in gRPC's terms; another wire
// writes the same call in its own (its headers, bare or enveloped messages, where the status is).
//
// Each call is a stream: POST /wirebench.echo.Echo/Greet with content-type application/grpc,
// te: trailers, user-agent, grpc-accept-encoding (identity and gzip: a gzip reply is inflated)
// and grpc-timeout (the call's deadline, so that the server stops waiting when the client does),
// and one GreetRequest message. The reply is the GreetReply's greeting when the trailers say
// grpc-status 0 and exactly one message came; a status other than
// OK fails the call with grpc_status_error (counted as status_NAME), its text the decoded
// grpc-message; an HTTP status other than 200 with unexpected_status (status_415); a response
// without grpc-status, or with a message that is not one GreetReply, with wrong_reply.
//
// With user calls (config.requests: any method of a .proto, every shape, as grpcpp's user calls),
// each call is one stream of the method its payload names (request_payload, user_call.hpp; one
// request takes any payload): every request message (one per element of -d's JSON array for a
// client-streaming method; for any other method a JSON array's messages go one per call, in turn),
// the request side ended, then every reply; the call's text is the reply in JSON, or for a
// server-streaming method the replies as a JSON array, each of them parsed as the method's reply
// type (else wrong_reply).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rpc_client_wire.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_wire {

class grpc_dynamic_method;

// A user call (a request of a mix): its method, made once from the .proto and the JSON.
struct grpc_user_request {
  std::shared_ptr<const grpc_dynamic_method> method;
  std::uint64_t keyspace = 1;  // bounds its __rand_int__ placeholders
  // Its metadata (grpc_metadata.hpp's checked_metadata): sent after the call's own headers.
  std::vector<std::pair<std::string, std::string>> metadata = {};
};

struct grpc_client_config {
  std::string authority;                       // :authority
  bool https = false;                          // :scheme https (TLS under the codec)
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // the largest reply message accepted
  std::chrono::nanoseconds timeout{0};         // sent as the wire's timeout header; 0: none
  // The user's calls (unary codec only), one or a mix; empty: the greet call.
  std::vector<grpc_user_request> requests = {};
  // A raw call (start-up only: grpc_reflection_fetch.hpp): each call's argument is the bytes of
  // its one request message, sent to this path with this metadata, and its reply the bytes of
  // the one reply message.
  std::string raw_path = {};
  std::vector<std::pair<std::string, std::string>> raw_metadata = {};
  // The protocol the calls are written in (gRPC's; Connect's and gRPC-Web's from their folders),
  // which says the messages' format on it too (rpc_client_wire::format).
  const rpc_client_wire* wire = &grpc_client_wire();
};

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config);
// The same calls on HTTP/1.1 (rpc_http1_client_codec.cpp: `connect-h1`, `grpc-web-h1`), for the
// wires HTTP/1.1 can carry (not gRPC's): pipelined, answered in order.
std::unique_ptr<client_codec> make_rpc_http1_client_codec(const grpc_client_config& config);

// `grpc-stream` and `grpc-batch` (grpc_stream_client_codec.cpp): every call of the connection a
// message on one bidirectional stream, matched by id (the call's id in GreetRequest.id, echoed in
// GreetReply.id; the replies come in any order). With `batch` 1, one GreetRequest per message on
// Echo.GreetStream; above 1, the calls encoded in one loop turn packed `batch` at a time into
// GreetBatch messages on Echo.GreetBatchStream. The stream opens with the first call (no
// grpc-timeout: deadlines are per call, the engine's) and lasts as long as the connection; after
// a GOAWAY the client ends its side. When the stream ends, the calls still on it fail with the
// stream's grpc-status (status_NAME, the grpc-message as the text), or connection_closed, and
// the engine re-dials. A reply that is not a message of the method's type, or whose id no call
// could have (beyond 32 bits), breaks the connection with wrong_reply; one for an id the engine
// no longer waits for is counted late or unknown by the engine.
std::unique_ptr<client_codec> make_grpc_stream_client_codec(const grpc_client_config& config,
                                                            std::size_t batch);

}  // namespace wirebench::grpc_wire
