#pragma once
// gRPC-Web's wire pieces (grpc/grpc doc/PROTOCOL-WEB.md), shared by its server dialect and its
// client codec: the content types (binary, or -text: the body in base64), and the trailers frame
// that ends a response's body: the 5-byte envelope with flag 0x80, then an HTTP/1-style header
// block ("grpc-status:0\r\ngrpc-message:...\r\n", names lower-case). Sans-IO.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../grpc/grpc_status.hpp"
#include "../grpc/rpc_client_wire.hpp"

namespace wirebench::grpc_web {

using grpc_wire::message_format;
using grpc_wire::status_code;

/// application/grpc-web or application/grpc-web-text, each alone or with +proto or +json, and
/// ;parameters after. nullopt: not gRPC-Web.
struct content_type_info {
  bool text = false;  // -text: the body is base64
  message_format format = message_format::proto;
};
std::optional<content_type_info> parse_content_type(std::string_view content_type);
/// The content type a response in `info` is sent with (+proto or +json named).
std::string_view content_type_of(const content_type_info& info);

/// The trailers frame's flag: the most significant bit of the envelope's flag byte.
inline constexpr std::uint8_t flag_trailers = 0x80;

/// Appends a trailers frame: its envelope, then grpc-status (and a percent-encoded grpc-message
/// when `message` is not empty), each line ended by CRLF.
void append_trailers_frame(std::string& out, status_code code, std::string_view message);

/// What a trailers frame's header block says of the call: grpc-status (nullopt when absent or not
/// a number), and grpc-message as sent (percent-encoded). Names are read in any case, a value
/// after optional whitespace; nullopt when the block is not a header block.
struct call_status {
  std::optional<status_code> status;
  std::string message;
};
std::optional<call_status> parse_trailers_block(std::string_view block);

/// gRPC-Web's wire for the RPC client codec, binary or (`text`) base64 (grpc_web_client_wire.cpp).
const grpc_wire::rpc_client_wire& client_wire(bool text);

}  // namespace wirebench::grpc_web
