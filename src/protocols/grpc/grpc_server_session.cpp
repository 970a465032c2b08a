#include "grpc_server_session.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <chrono>
#include <optional>

#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_reflection.hpp"
#include "grpc_server_records.hpp"
#include "protobuf_log.hpp"
#include "rpc_message_format.hpp"
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
      service_(config.max_message_bytes) {
  drop_protobuf_parse_complaints();  // a hostile client must not be able to flood our stderr
  for (const std::string_view name : header_names_)
    if (name.size() < 64) header_lengths_ |= std::uint64_t{1} << name.size();
}

grpc_server_session::~grpc_server_session() = default;

std::unique_ptr<http2::server_stream> grpc_server_session::make_stream() {
  return std::make_unique<grpc_stream>();
}

// The headers any dialect reads are kept (the content type that names the dialect may come after
// them), in slots that keep their capacity; no other header is copied.
void grpc_server_session::request_header(http2::server_stream& st, std::string_view name,
                                         std::string_view value) {
  auto& g = static_cast<grpc_stream&>(st);
  constexpr std::string_view content_type = "content-type";
  if (name.size() == content_type.size() && std::memcmp(name.data(), content_type.data(), name.size()) == 0) {
    g.content_type = value;
    return;
  }
  // Most headers (te, user-agent) are no dialect's: their length alone says so.
  if (name.size() < 64 && ((header_lengths_ >> name.size()) & 1) != 0) keep_header(g, name, value);
}

void grpc_server_session::keep_header(grpc_stream& st, std::string_view name, std::string_view value) {
  for (std::size_t i = 0; i < header_names_.size(); ++i) {
    const std::string_view known = header_names_[i];
    if (known.size() != name.size() || std::memcmp(known.data(), name.data(), name.size()) != 0) continue;
    st.values[i].assign(value);
    return;
  }
}

status_code grpc_server_session::accept(grpc_stream& st, bool streaming, std::string& why) {
  if (st.dialect != nullptr) return status_code::ok;  // accepted when its headers ended
  rpc_request request = st.request();
  request.side_effect_free = st.route.method && echo_service::side_effect_free(*st.route.method);
  st.dialect = dialect_for(request);
  if (st.dialect == nullptr) return status_code::unknown;  // not ours: answered in HTTP's terms
  const status_code code = st.dialect->accept(request, streaming, st.call, why);
  if (code != status_code::ok || !st.call.timeout) return code;
  // A timeout past the clock's range (99999999H is) is no deadline, not an overflow.
  const auto now = std::chrono::steady_clock::now();
  const auto left = std::chrono::steady_clock::time_point::max() - now;
  if (*st.call.timeout < left)
    st.deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(*st.call.timeout);
  return code;
}

void grpc_server_session::request_ended(std::int32_t stream_id, http2::server_stream& st) {
  auto& g = static_cast<grpc_stream&>(st);
  if (g.streaming) return stream_ended(stream_id, g);
  auto refuse = [&](status_code code, std::string_view why) {
    respond_error(stream_id, g, code, why);
    hand_out_answered(stream_id);
  };
  const auto method = g.route.method;  // read when its headers ended
  std::string why;
  // A bidirectional method is here only when its dialect refused it at its headers: still a stream.
  const status_code accepted = accept(
      g, method && (echo_service::half_streaming(*method) || echo_service::bidirectional(*method)), why);
  // Not a dialect's at all: answered in HTTP's terms (415 and a text body, as grpc-go's handler
  // does: HTTP clients and h2spec expect a body), the gRPC status in the headers too.
  if (g.dialect == nullptr) {
    constexpr std::string_view not_rpc = "content-type is not application/grpc";
    const std::string status = std::to_string(static_cast<int>(status_code::internal));
    const nghttp2_nv headers[] = {header(":status", "415"),
                                  header("content-type", "text/plain; charset=utf-8"),
                                  header("grpc-status", status), header("grpc-message", not_rpc)};
    g.response.assign(not_rpc).push_back('\n');
    respond(stream_id, g, headers, true);
    return hand_out_answered(stream_id);
  }
  if (accepted != status_code::ok) return refuse(accepted, why);
  if (!method) return refuse(status_code::unimplemented, "unknown service");
  std::string_view body = g.call.query_message;  // a Connect GET's
  if (!g.call.from_query && (!g.dialect->unwrap(g.body, g.pending, unwrapped_, body) || !g.pending.empty()))
    return refuse(status_code::internal, "the request body cannot be decoded");
  status_code code = status_code::ok;
  if (*method != "Greet" || !g.route.ours) {
    if (!service_.answer_echo(*method, *g.dialect, g.call, body, g.response, code, why)) return refuse(code, why);
    respond_ok(stream_id, g);
    return hand_out_answered(stream_id);
  }
  // Greet: exactly one message, a GreetRequest.
  std::string_view name;
  if (!service_.greet_name(*g.dialect, g.call, body, name, code, why)) return refuse(code, why);
  if (g.deadline) deadlines_.emplace_back(*g.deadline, stream_id);
  hand_out_call(stream_id, name);
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

void grpc_server_session::encode_reply(std::uint64_t key, bool ok, std::string_view body,
                                       gather_queue&) {
  if (key >= first_slot_key) return encode_stream_reply(key, ok, body);
  auto* st = static_cast<grpc_stream*>(unanswered(key));
  if (st == nullptr) return;  // reset by the client while the call was out
  const auto stream_id = static_cast<std::int32_t>(key);
  if (st->deadline && std::chrono::steady_clock::now() > *st->deadline)
    return respond_error(stream_id, *st, status_code::deadline_exceeded, "deadline exceeded");
  if (!ok) return respond_error(stream_id, *st, status_code::unknown, body);
  service_.append_greet_reply(*st->dialect, st->call, body, st->response);
  respond_ok(stream_id, *st);
}

// Before the request has ended: a unary request has no dialect yet, so it is answered in the one
// its headers name (gRPC's when none does), whatever else it would have been refused for.
void grpc_server_session::body_too_large(std::int32_t stream_id, http2::server_stream& st) {
  auto& g = static_cast<grpc_stream&>(st);
  if (g.dialect == nullptr) {
    const rpc_dialect* named = dialect_for(g.request());
    g.dialect = named != nullptr ? named : &grpc_dialect();
  }
  respond_error(stream_id, g, status_code::resource_exhausted, "message larger than the receive limit");
}

void grpc_server_session::append_message(grpc_stream& st, std::string_view bytes) {
  st.dialect->append_message(st.call, bytes, st.response);
}

void grpc_server_session::respond_ok(std::int32_t stream_id, grpc_stream& st) {
  const rpc_request request = st.request();
  head_.headers.clear();
  st.dialect->open(request, st.call, head_);
  st.dialect->finish(request, st.call, status_code::ok, {}, true, head_, st.response, st.trailers);
  respond(stream_id, st, head_nv(), true);
}

void grpc_server_session::respond_error(std::int32_t stream_id, grpc_stream& st,
                                        status_code code, std::string_view message) {
  head_.headers.clear();
  st.response.clear();
  st.dialect->finish(st.request(), st.call, code, message, false, head_, st.response, st.trailers);
  respond(stream_id, st, head_nv(), !st.response.empty());
}

std::span<const nghttp2_nv> grpc_server_session::head_nv() {
  // The status as text without a string built per response (to_string was 5% of a call).
  std::size_t n = 0;
  if (head_.status == 200) {
    head_nv_[n++] = header(":status", "200");
  } else {
    const auto [end, ec] = std::to_chars(status_text_, status_text_ + sizeof status_text_, head_.status);
    head_nv_[n++] = header(":status", std::string_view(status_text_, ec == std::errc() ? end - status_text_ : 0));
  }
  head_nv_[n++] = header("content-type", head_.content_type);
  for (const auto& [name, value] : head_.headers)
    if (n < head_nv_.size()) head_nv_[n++] = header(name, value);
  return {head_nv_.data(), n};
}

}  // namespace wirebench::grpc_wire
