#include "rpc_server_codec.hpp"

#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_wire {
namespace {

// RFC 9113 §3.4: what an HTTP/2 client sends first. No HTTP/1.1 request line begins with "PRI *
// HTTP/2.0": its first bytes decide, before the whole preface is in.
constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

}  // namespace

// `data` is every byte the host has not seen consumed: until four of them have come (while they
// could begin the preface), nothing is consumed and the host keeps them for the next call.
std::size_t rpc_server_codec::decode(std::span<const std::byte> data, server_request& into,
                                     gather_queue& out, std::error_code& error) {
  if (!chosen_) {
    const std::string_view first = as_text(data).substr(0, 4);
    const bool http2 = first == preface.substr(0, first.size());
    if (http2 && first.size() < 4) return 0;
    if (http2) chosen_ = std::make_unique<grpc_server_session>(config_);
    else chosen_ = std::make_unique<rpc_http1_session>(config_.max_message_bytes);
  }
  return chosen_->decode(data, into, out, error);
}

}  // namespace wirebench::grpc_wire
