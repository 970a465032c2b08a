#include "grpc_server_session.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_reflection.hpp"
#include "grpc_server_records.hpp"
#include "grpc_timeout.hpp"
#include "protobuf_log.hpp"
#include "proto/echo.pb.h"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace pb = ::wirebench::echo;
using http2::header;

}  // namespace

grpc_server_session::grpc_server_session(const grpc_server_config& config)
    : server_core([&] {
        http2::server_session_config c = config.http2;
        c.max_body_bytes = config.max_message_bytes + 5;  // one message and its prefix
        return c;
      }()),
      max_message_(config.max_message_bytes),
      messages_(std::make_unique<messages>()) {
  drop_protobuf_parse_complaints();  // a hostile client must not be able to flood our stderr
}

grpc_server_session::~grpc_server_session() = default;

std::unique_ptr<http2::server_stream> grpc_server_session::make_stream() {
  return std::make_unique<grpc_stream>();
}

void grpc_server_session::request_header(http2::server_stream& st, std::string_view name,
                                         std::string_view value) {
  auto& g = static_cast<grpc_stream&>(st);
  if (name == "content-type") g.content_type = value;
  else if (name == "grpc-timeout") g.timeout = value;
  else if (name == "grpc-encoding") g.encoding = value;
}

bool grpc_server_session::set_deadline(grpc_stream& st) {
  if (st.timeout.empty() || st.deadline) return true;  // none, or set when the headers ended
  const auto timeout = parse_timeout(st.timeout);
  if (!timeout) return false;
  // A timeout past the clock's range (99999999H is) is no deadline, not an overflow.
  const auto now = std::chrono::steady_clock::now();
  const auto left = std::chrono::steady_clock::time_point::max() - now;
  if (*timeout < left)
    st.deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(*timeout);
  return true;
}

void grpc_server_session::request_ended(std::int32_t stream_id, http2::server_stream& st) {
  auto& g = static_cast<grpc_stream&>(st);
  if (g.streaming) return stream_ended(stream_id, g);
  auto refuse = [&](status_code code, std::string_view why, int http_status = 200) {
    respond_error(stream_id, g, code, why, http_status);
    hand_out_answered(stream_id);
  };
  // Not gRPC at all: answered in HTTP's terms (415 and a text body, as grpc-go's handler does:
  // HTTP clients and h2spec expect a body), the gRPC status in the headers too.
  if (!is_grpc_content_type(g.content_type)) {
    constexpr std::string_view why = "content-type is not application/grpc";
    const std::string status = std::to_string(static_cast<int>(status_code::internal));
    const nghttp2_nv headers[] = {header(":status", "415"),
                                  header("content-type", "text/plain; charset=utf-8"),
                                  header("grpc-status", status), header("grpc-message", why)};
    g.response.assign(why).push_back('\n');
    respond(stream_id, g, headers, true);
    return hand_out_answered(stream_id);
  }
  if (g.method != "POST") return refuse(status_code::unimplemented, "gRPC is POST only", 405);
  if (!set_deadline(g)) return refuse(status_code::internal, "malformed grpc-timeout");
  if (!g.encoding.empty() && g.encoding != "identity" && g.encoding != "gzip") {
    respond_error(stream_id, g, status_code::unimplemented,
                  "grpc-encoding not supported: " + g.encoding, 200, true);
    return hand_out_answered(stream_id);
  }

  const std::string_view path = g.path;
  if (path.substr(0, echo_service_prefix.size()) != echo_service_prefix)
    return refuse(status_code::unimplemented, "unknown service");
  const std::string_view method = path.substr(echo_service_prefix.size());
  if (method != "Greet") {
    status_code code = status_code::ok;
    std::string why;
    if (!answer_echo(method, g, code, why)) return refuse(code, why);
    respond_ok(stream_id, g);
    return hand_out_answered(stream_id);
  }
  // Greet: exactly one message, a GreetRequest.
  grpc_message_decoder decoder(max_message_);
  const std::span<const std::byte> body = as_bytes(std::string_view(g.body));
  const auto step = decoder.decode(body);
  if (step.status == decode_status::too_large)
    return refuse(status_code::resource_exhausted, "message larger than the receive limit");
  if (step.status == decode_status::corrupt)
    return refuse(status_code::internal, "malformed message prefix");
  if (step.status == decode_status::need_more && !body.empty())
    return refuse(status_code::internal, "the request ends inside a message");
  if (step.status != decode_status::frame || step.consumed != body.size())
    return refuse(status_code::internal, "a unary call takes exactly one message");
  std::string_view bytes;
  status_code code = status_code::ok;
  std::string why;
  if (!message_bytes(g, step.frame.compressed, step.frame.bytes, bytes, code, why))
    return refuse(code, why);
  pb::GreetRequest& request = messages_->greet_request;
  if (!request.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return refuse(status_code::internal, "cannot parse GreetRequest");
  if (g.deadline) deadlines_.emplace_back(*g.deadline, stream_id);
  hand_out_call(stream_id, request.name());
}

std::chrono::steady_clock::time_point grpc_server_session::next_deadline() {
  auto next = std::chrono::steady_clock::time_point::max();
  std::erase_if(deadlines_, [&](const auto& entry) {
    const http2::server_stream* st = open_record(entry.second);
    if (st == nullptr || st->answered) return true;  // answered, or reset, since
    next = std::min(next, entry.first);
    return false;
  });
  return next;
}

void grpc_server_session::expire(std::chrono::steady_clock::time_point now, gather_queue&) {
  std::erase_if(deadlines_, [&](const auto& entry) {
    if (entry.first > now) return false;
    auto* st = static_cast<grpc_stream*>(open_record(entry.second));
    if (st == nullptr || st->answered) return true;
    if (st->streaming) fail_stream(entry.second, *st, status_code::deadline_exceeded, "deadline exceeded");
    else respond_error(entry.second, *st, status_code::deadline_exceeded, "deadline exceeded");
    return true;
  });
}

bool grpc_server_session::message_bytes(const grpc_stream& st, bool compressed,
                                        std::span<const std::byte> bytes, std::string_view& message,
                                        status_code& code, std::string& why) {
  if (!compressed) {
    message = as_text(bytes);
    return true;
  }
  if (st.encoding != "gzip") {  // identity, or none: the flag contradicts the headers
    code = status_code::internal;
    why = "compressed message without grpc-encoding";
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

bool grpc_server_session::answer_echo(std::string_view method, grpc_stream& st,
                                      status_code& code, std::string& why) {
  const bool get = method == "Get", expand = method == "Expand", collect = method == "Collect";
  if (!get && !expand && !collect) {
    code = status_code::unimplemented;
    why = "unknown method " + std::string(method);
    return false;
  }
  // Every message of the request stream (it has ended), joined as Collect does.
  grpc_message_decoder decoder(max_message_);
  const std::span<const std::byte> body = as_bytes(std::string_view(st.body));
  std::size_t consumed = 0, count = 0;
  std::string text;
  for (;;) {
    std::error_code error;
    const auto step = decode_from(decoder, body, consumed, error);
    if (step.status == decode_status::need_more) break;
    if (step.status != decode_status::frame) {
      code = step.status == decode_status::too_large ? status_code::resource_exhausted
                                                     : status_code::internal;
      why = error.message();
      return false;
    }
    std::string_view bytes;
    if (!message_bytes(st, step.frame.compressed, step.frame.bytes, bytes, code, why)) return false;
    pb::EchoRequest& in = messages_->echo_request;
    if (!in.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      code = status_code::internal;
      why = "cannot parse EchoRequest";
      return false;
    }
    text += in.text();
    ++count;
  }
  if (consumed != body.size() || (!collect && count != 1)) {
    code = status_code::internal;
    why = consumed != body.size() ? "the request ends inside a message"
                                  : "a unary call takes exactly one message";
    return false;
  }
  pb::EchoResponse& out = messages_->echo_response;
  auto reply = [&](std::string_view words) {
    out.mutable_text()->assign(words.data(), words.size());
    out.SerializeToString(&scratch_);
    append_message(st, scratch_);
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

void grpc_server_session::encode_reply(std::uint64_t key, bool ok, std::string_view body,
                                       gather_queue&) {
  if (key >= first_slot_key) return encode_stream_reply(key, ok, body);
  auto* st = static_cast<grpc_stream*>(unanswered(key));
  if (st == nullptr) return;  // reset by the client while the call was out
  const auto stream_id = static_cast<std::int32_t>(key);
  if (st->deadline && std::chrono::steady_clock::now() > *st->deadline)
    return respond_error(stream_id, *st, status_code::deadline_exceeded, "deadline exceeded");
  if (!ok) return respond_error(stream_id, *st, status_code::unknown, body);
  pb::GreetReply& reply = messages_->greet_reply;
  reply.mutable_greeting()->assign(body.data(), body.size());
  reply.SerializeToString(&scratch_);
  append_message(*st, scratch_);
  respond_ok(stream_id, *st);
}

void grpc_server_session::body_too_large(std::int32_t stream_id, http2::server_stream& st) {
  respond_error(stream_id, static_cast<grpc_stream&>(st), status_code::resource_exhausted,
                "message larger than the receive limit");
}

void grpc_server_session::append_message(grpc_stream& st, std::string_view bytes) {
  append_grpc_prefix(bytes.size(), false, st.response);
  st.response.append(bytes);
}

void grpc_server_session::respond_ok(std::int32_t stream_id, grpc_stream& st) {
  const nghttp2_nv headers[] = {header(":status", "200"),
                                header("content-type", "application/grpc")};
  st.trailers.emplace_back("grpc-status", "0");
  respond(stream_id, st, headers, true);
}

void grpc_server_session::respond_error(std::int32_t stream_id, grpc_stream& st,
                                        status_code code, std::string_view message,
                                        int http_status, bool accept_encodings) {
  const std::string status = std::to_string(static_cast<int>(code));
  const std::string http = std::to_string(http_status);
  std::string encoded;
  append_percent_encoded(encoded, message);
  nghttp2_nv headers[5] = {header(":status", http), header("content-type", "application/grpc"),
                           header("grpc-status", status)};
  std::size_t count = 3;
  if (!encoded.empty()) headers[count++] = header("grpc-message", encoded);
  if (accept_encodings) headers[count++] = header("grpc-accept-encoding", "identity,gzip");
  st.response.clear();
  respond(stream_id, st, {headers, count}, false);
}

}  // namespace wirebench::grpc_wire
