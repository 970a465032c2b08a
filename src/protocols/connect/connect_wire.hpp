#pragma once
// The Connect protocol's wire pieces (connectrpc.com/docs/protocol), shared by its server dialect
// and its client codec: the content types, Connect-Timeout-Ms, the envelope flags of a stream,
// and the JSON of an error and of a stream's end (EndStreamResponse). Sans-IO.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "connect_code.hpp"
#include "../grpc/rpc_client_wire.hpp"

namespace wirebench::connect {

using grpc_wire::message_format;

/// What a content type says: a unary call's bare message (application/proto, application/json)
/// or a stream's envelopes (application/connect+proto, +json), and the codec. nullopt: neither
/// (parameters after ';' are allowed; any other codec is not ours).
struct content_type_info {
  bool streaming = false;
  message_format format = message_format::proto;
};
std::optional<content_type_info> parse_content_type(std::string_view content_type);
/// The content type of `streaming` calls in `format`.
std::string_view content_type_of(bool streaming, message_format format);

/// Connect-Timeout-Ms: 1 to 10 ASCII digits, milliseconds; nullopt for anything else.
std::optional<std::chrono::milliseconds> parse_timeout_ms(std::string_view text);
/// A timeout as Connect-Timeout-Ms: whole milliseconds rounded up (at least 1), capped at 10 digits.
std::string format_timeout_ms(std::chrono::nanoseconds timeout);

/// A stream's envelope flags: compressed (as gRPC's), and end of stream (the last message of a
/// response: EndStreamResponse JSON, not a reply).
inline constexpr std::uint8_t flag_compressed = 0x01;
inline constexpr std::uint8_t flag_end_stream = 0x02;
/// Appends one envelope: the flags, the 4-byte big-endian length, the message (under 4 GiB).
void append_envelope(std::string& out, std::uint8_t flags, std::string_view message);

/// An Error's JSON: {"code":"unavailable","message":"..."} (no message when empty). `message`
/// must be UTF-8; bytes that are not are replaced.
void append_error_json(std::string& out, status_code code, std::string_view message);
/// An EndStreamResponse's JSON: {} for OK, else {"error":{...}}.
void append_end_stream_json(std::string& out, status_code code, std::string_view message);

/// An error read back (a unary error body, or an EndStreamResponse's "error").
struct error_body {
  status_code code = status_code::unknown;
  std::string message;
};
/// A unary error body: its Error, or nullopt when it is not one (the client then infers the code
/// from the HTTP status). Bodies over 64 KiB are not read.
std::optional<error_body> parse_error_json(std::string_view body);
/// An EndStreamResponse: nullopt when it is not one; an OK end has code ok.
std::optional<error_body> parse_end_stream_json(std::string_view body);

/// Connect's wire for the RPC client codec (connect_client_wire.cpp), its messages in `format`.
const grpc_wire::rpc_client_wire& client_wire(message_format format);

}  // namespace wirebench::connect
