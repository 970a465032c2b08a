#include "rpc_http1_session.hpp"

#include <algorithm>
#include <charconv>

#include "../http/ascii_case.hpp"
#include "../http/greet_api.hpp"
#include "../http/http_date.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {
namespace {

// Methods whose request and replies cross on one stream: HTTP/1.1 cannot carry them.
bool bidirectional(std::string_view path) {
  if (path.find("ServerReflection/ServerReflectionInfo") != std::string_view::npos) return true;
  const auto method = echo_service::method_of(path);
  return method && echo_service::bidirectional(*method);
}

// A whole HTTP/1.1 response: the status line, Date, the content type, the head's headers, the
// body's length, and the body.
void append_response(std::string& out, const rpc_response_head& head, std::string_view body, bool keep_alive) {
  char number[24];
  out.append("HTTP/1.1 ");
  out.append(number, std::to_chars(number, number + sizeof number, head.status).ptr);
  out.push_back(' ');
  out.append(http::reason_phrase(head.status));
  out.append("\r\nServer: wirebench\r\nDate: ").append(http::http_date());
  out.append("\r\nContent-Type: ").append(head.content_type);
  for (const auto& [name, value] : head.headers) out.append("\r\n").append(name).append(": ").append(value);
  out.append("\r\nContent-Length: ");
  out.append(number, std::to_chars(number, number + sizeof number, body.size()).ptr);
  if (!keep_alive) out.append("\r\nConnection: close");
  out.append("\r\n\r\n").append(body);
}

}  // namespace

rpc_http1_session::rpc_http1_session(std::size_t max_message_bytes)
    : service_(max_message_bytes),
      // A body holds one message and its envelope, or a text dialect's base64 of it.
      parser_(http1::parser::kind::request,
              http1::limits{.max_body_bytes = (max_message_bytes + 5) / 3 * 4 + 64}) {}

rpc_http1_session::owed& rpc_http1_session::push_owed() {
  if (spare_.empty()) {
    owed& o = owed_.emplace_back();
    o.values.resize(header_names_.size());
    return o;
  }
  owed_.push_back(std::move(spare_.back()));
  spare_.pop_back();
  owed& o = owed_.back();
  o.key = 0;
  o.ready = false;
  o.keep_alive = true;
  o.bytes.clear();
  o.dialect = nullptr;
  o.call = {};
  o.content_type.clear();
  for (std::string& value : o.values) value.clear();
  o.deadline.reset();
  return o;
}

rpc_request rpc_http1_session::request_of(const owed& o) const {
  return {.method = "POST", .path = {}, .content_type = o.content_type, .names = header_names_,
          .values = o.values.data()};
}

std::size_t rpc_http1_session::decode(std::span<const std::byte> data, server_request& into,
                                      gather_queue&, std::error_code& error) {
  std::size_t consumed = 0;
  if (parser_.ready() == 0 && !data.empty()) {  // the parser copies what it keeps
    parser_.release();
    parser_.feed(data);
    consumed = data.size();
  }
  http1::message* m = parser_.next(error);
  if (m != nullptr && answered_early_) {  // its answer went at its headers: the rest is dropped
    answered_early_ = false;
    m = parser_.next(error);
  }
  if (m != nullptr) {
    take(*m, into, error);
  } else if (const http1::message* a = parser_.arriving();
             a != nullptr && !answered_early_ && bidirectional(a->target) && !error) {
    // A bidirectional method's client may wait for a reply before it ends its body: answered at
    // its headers (505, as the whole request would be), saying Connection: close. The connection
    // stays open, the body read and dropped, until the client closes it: closing first, with its
    // body unread, would reset the connection and could take the answer with it.
    http1::message early = *a;
    early.keep_alive = false;
    answered_early_ = true;
    std::error_code ignored;  // keep reading: the client closes once it has the answer
    take(early, into, ignored);
  } else if (error && !spoke_http1_ && parser_.error_status() == 400) {
    // The connection's first bytes are malformed as HTTP/1.1 (and are not HTTP/2's preface): a
    // peer that speaks neither gets no answer in either, only the close (h2spec's invalid
    // preface). A first request over a limit (413, 431) is HTTP/1.1, and is answered.
  } else if (error) {  // after the answers owed: the parser's status, and the close
    owed& o = push_owed();
    o.ready = true;
    head_ = {.status = parser_.error_status(), .content_type = "text/plain; charset=utf-8", .headers = {}};
    body_.assign(parser_.error_reason()).push_back('\n');
    append_response(o.bytes, head_, body_, false);
    into.what = server_request::kind::notice;  // the session holds it: produce() sends it
  } else if (parser_.take_continue()) {
    owed& o = push_owed();
    o.ready = true;
    o.bytes.assign("HTTP/1.1 100 Continue\r\n\r\n");
    into.what = server_request::kind::notice;
  }
  return consumed;
}

void rpc_http1_session::take(http1::message& m, server_request& into, std::error_code& error) {
  spoke_http1_ = true;
  const bool last_before_stop = closing_ && parser_.ready() == 0;
  owed& o = push_owed();
  o.keep_alive = m.keep_alive && !last_before_stop;
  for (const auto& [name, value] : m.headers) {  // by length first: most compare no byte
    if (name.size() == 12 && http::equals_lower(name, "content-type")) o.content_type = value;
    for (std::size_t i = 0; i < header_names_.size(); ++i)
      if (name.size() == header_names_[i].size() && http::equals_lower(name, header_names_[i])) o.values[i] = value;
  }
  into.what = server_request::kind::answered;  // unless it is a call (below); the session holds it
  if (!m.keep_alive) error = errc::peer_closed;  // the client asked to close: answer, then close
  else if (last_before_stop) error = errc::shutting_down;  // nothing after Connection: close
  rpc_request request = request_of(o);
  request.method = m.method;
  request.path = m.target;
  const auto method = echo_service::method_of(m.target);
  request.side_effect_free = method && echo_service::side_effect_free(*method);
  o.dialect = dialect_for(request);
  if (o.dialect == nullptr || o.dialect == &grpc_dialect()) {
    // Not a dialect's, or gRPC, which needs HTTP/2: answered in HTTP's terms, with a text body.
    const bool grpc = o.dialect != nullptr;
    head_ = {.status = grpc ? 505 : 415, .content_type = "text/plain; charset=utf-8", .headers = {}};
    body_.assign(grpc ? "gRPC needs HTTP/2\n" : "content-type is not a Connect or gRPC-Web one\n");
    append_response(o.bytes, head_, body_, o.keep_alive);
    o.ready = true;
    return;
  }
  std::string why;
  const bool bidi = bidirectional(m.target);
  status_code code =
      o.dialect->accept(request, bidi || (method && echo_service::half_streaming(*method)), o.call, why);
  if (code == status_code::ok && bidi) {
    o.call.refusal_status = 505;
    code = status_code::unimplemented;
    why = "a bidirectional stream needs HTTP/2";
  }
  if (code == status_code::ok && !method) {
    code = status_code::unimplemented;
    why = "unknown service";
  }
  std::string_view body = o.call.query_message;  // a Connect GET's
  std::string pending;
  if (code == status_code::ok && !o.call.from_query &&
      (!o.dialect->unwrap(m.body, pending, unwrapped_, body) || !pending.empty())) {
    code = status_code::internal;
    why = "the request body cannot be decoded";
  }
  if (code != status_code::ok) return respond(o, request, code, why, false);
  if (*method == "Greet" && echo_service::ours(m.target)) {
    std::string_view name;
    if (!service_.greet_name(*o.dialect, o.call, body, name, code, why))
      return respond(o, request, code, why, false);
    name_.assign(name);
    o.key = next_key_++;
    if (o.call.timeout)
      o.deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::min<std::chrono::nanoseconds>(*o.call.timeout, std::chrono::hours(24 * 365 * 100)));
    into.what = server_request::kind::call;
    into.key = o.key;
    into.argument = name_;
    return;
  }
  body_.clear();
  if (!service_.answer_echo(*method, *o.dialect, o.call, body, body_, code, why))
    return respond(o, request, code, why, false);
  respond(o, request, status_code::ok, {}, true);
}

void rpc_http1_session::respond(owed& o, const rpc_request& request, status_code code,
                                std::string_view message, bool with_messages) {
  head_.headers.clear();
  std::vector<std::pair<std::string_view, std::string>> trailers;  // none on HTTP/1.1's dialects
  if (with_messages) {
    o.dialect->open(request, o.call, head_);
    o.dialect->finish(request, o.call, code, message, true, head_, body_, trailers);
  } else {
    body_.clear();
    o.dialect->finish(request, o.call, code, message, false, head_, body_, trailers);
  }
  o.bytes.clear();
  append_response(o.bytes, head_, body_, o.keep_alive);
  o.ready = true;
}

void rpc_http1_session::encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue&) {
  const auto at = std::find_if(owed_.begin(), owed_.end(), [&](const owed& o) { return o.key == key; });
  if (at == owed_.end() || at->ready) return;  // answered at its deadline already
  const rpc_request request = request_of(*at);
  if (at->deadline && std::chrono::steady_clock::now() > *at->deadline)
    return respond(*at, request, status_code::deadline_exceeded, "deadline exceeded", false);
  if (!ok) return respond(*at, request, status_code::unknown, body, false);
  body_.clear();
  service_.append_greet_reply(*at->dialect, at->call, body, body_);
  respond(*at, request, status_code::ok, {}, true);
}

std::error_code rpc_http1_session::produce(gather_queue& out) {
  while (!owed_.empty() && owed_.front().ready) {
    out.append_bytes(as_bytes(owed_.front().bytes));  // the queue copies: the record may go
    spare_.push_back(std::move(owed_.front()));       // its strings' capacity, for the next
    owed_.pop_front();
  }
  return {};
}

std::chrono::steady_clock::time_point rpc_http1_session::next_deadline() {
  auto next = std::chrono::steady_clock::time_point::max();
  for (const owed& o : owed_)
    if (!o.ready && o.deadline) next = std::min(next, *o.deadline);
  return next;
}

void rpc_http1_session::expire(std::chrono::steady_clock::time_point now, gather_queue&) {
  for (owed& o : owed_)
    if (!o.ready && o.deadline && *o.deadline <= now)
      respond(o, request_of(o), status_code::deadline_exceeded, "deadline exceeded", false);
}

}  // namespace wirebench::grpc_wire
