#include "echo_service.hpp"

#include <algorithm>

#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "rpc_message_format.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {

namespace pb = ::wirebench::echo;

namespace {

constexpr std::string_view our_prefix = "/wirebench.echo.Echo/", article_prefix = "/echo.v1.Echo/";

}  // namespace

echo_service::echo_service(std::size_t max_message_bytes)
    : max_message_(max_message_bytes), messages_(std::make_unique<messages>()) {}

echo_service::~echo_service() = default;

echo_service::route echo_service::route_of(std::string_view path) {
  route r;
  if (path.starts_with(our_prefix)) {
    path.remove_prefix(our_prefix.size());
    r.ours = true;
  } else if (path.starts_with(article_prefix)) {
    path.remove_prefix(article_prefix.size());
  } else {
    return r;
  }
  r.method = path.substr(0, path.find('?'));  // the method's name alone: short to search
  return r;
}

bool echo_service::message_bytes(const rpc_dialect& dialect, const rpc_call& call, bool compressed,
                                 std::span<const std::byte> bytes, std::string_view& message,
                                 status_code& code, std::string& why) {
  if (!compressed) {
    message = as_text(bytes);
    return true;
  }
  if (!call.gzip) {  // identity, or none: the flag contradicts the headers
    code = status_code::internal;
    why = "compressed message without " + std::string(dialect.encoding_header(call));
    return false;
  }
  if (const std::error_code ec = gunzip(bytes, max_message_, inflated_)) {
    code = ec == errc::frame_too_long ? status_code::resource_exhausted : status_code::internal;
    why = ec == errc::frame_too_long ? "message larger than the receive limit once inflated"
                                     : "cannot inflate the gzip message";
    return false;
  }
  message = inflated_;
  return true;
}

bool echo_service::only_message(const rpc_dialect& dialect, const rpc_call& call, std::string_view body,
                                std::string_view& message, status_code& code, std::string& why) {
  if (call.bare)  // the body is the message (an empty one is not compressed: nothing to inflate)
    return message_bytes(dialect, call, call.gzip && !body.empty(), as_bytes(body), message, code, why);
  grpc_message_decoder decoder(max_message_);
  const std::span<const std::byte> bytes = as_bytes(body);
  const auto step = decoder.decode(bytes);
  code = status_code::internal;
  if (step.status == decode_status::too_large) {
    code = status_code::resource_exhausted;
    why = "message larger than the receive limit";
  } else if (step.status == decode_status::corrupt) {
    why = "malformed message prefix";
  } else if (step.status == decode_status::need_more && !bytes.empty()) {
    why = "the request ends inside a message";
  } else if (step.status != decode_status::frame || step.consumed != bytes.size()) {
    why = "a unary call takes exactly one message";
  } else {
    return message_bytes(dialect, call, step.frame.compressed, step.frame.bytes, message, code, why);
  }
  return false;
}

bool echo_service::greet_name(const rpc_dialect& dialect, const rpc_call& call, std::string_view body,
                              std::string_view& name, status_code& code, std::string& why) {
  std::string_view bytes;
  if (!only_message(dialect, call, body, bytes, code, why)) return false;
  pb::GreetRequest& request = messages_->greet_request;
  if (!parse_message(call.format, bytes, request)) {
    code = status_code::internal;
    why = "cannot parse GreetRequest";
    return false;
  }
  name = request.name();
  return true;
}

bool echo_service::answer_echo(std::string_view method, const rpc_dialect& dialect, const rpc_call& call,
                               std::string_view request, std::string& response, status_code& code,
                               std::string& why) {
  const bool get = method == "Get", expand = method == "Expand", collect = method == "Collect";
  if (!get && !expand && !collect) {
    code = status_code::unimplemented;
    why = "unknown method " + std::string(method);
    return false;
  }
  pb::EchoRequest& in = messages_->echo_request;
  auto parse = [&](std::string_view bytes) {
    if (parse_message(call.format, bytes, in)) return true;
    code = status_code::internal;
    why = "cannot parse EchoRequest";
    return false;
  };
  std::string text;
  std::size_t count = 0, consumed = 0;
  const std::span<const std::byte> body = as_bytes(request);
  if (call.bare) {  // one message, the body itself (a unary call's)
    std::string_view bytes;
    if (!only_message(dialect, call, request, bytes, code, why) || !parse(bytes)) return false;
    text = in.text();
    count = 1;
    consumed = body.size();
  }
  // Every message of the request stream (it has ended), joined as Collect does.
  grpc_message_decoder decoder(max_message_);
  while (!call.bare) {
    std::error_code error;
    const auto step = decode_from(decoder, body, consumed, error);
    if (step.status == decode_status::need_more) break;
    if (step.status != decode_status::frame) {
      code = step.status == decode_status::too_large ? status_code::resource_exhausted : status_code::internal;
      why = error.message();
      return false;
    }
    std::string_view bytes;
    if (!message_bytes(dialect, call, step.frame.compressed, step.frame.bytes, bytes, code, why) || !parse(bytes))
      return false;
    text += in.text();
    ++count;
  }
  if (consumed != body.size() || (!collect && count != 1)) {
    code = status_code::internal;
    why = consumed != body.size() ? "the request ends inside a message" : "a unary call takes exactly one message";
    return false;
  }
  pb::EchoResponse& out = messages_->echo_response;
  auto reply = [&](std::string_view words) {
    out.mutable_text()->assign(words.data(), words.size());
    serialize_message(call.format, out, scratch_);
    dialect.append_message(call, scratch_, response);
  };
  if (!expand) {
    reply(text);
    return true;
  }
  // Expand: one reply per space-separated word.
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) reply(std::string_view(text).substr(at, end - at));
    at = end + 1;
  }
  return true;
}

void echo_service::append_greet_reply(const rpc_dialect& dialect, const rpc_call& call,
                                      std::string_view greeting, std::string& response) {
  pb::GreetReply& reply = messages_->greet_reply;
  reply.set_id(0);  // a unary call's (the message is reused by the streams' replies, which set it)
  reply.mutable_greeting()->assign(greeting.data(), greeting.size());
  serialize_message(call.format, reply, scratch_);
  dialect.append_message(call, scratch_, response);
}

}  // namespace wirebench::grpc_wire
