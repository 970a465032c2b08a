#include "wirebench/protocols/user_call.hpp"

#include <array>
#include <charconv>

namespace wirebench {

namespace {

// What the call sends and expects, without the placeholder's range.
std::string request_text(const user_call& call) {
  std::string text;
  if (const http_call* h = call.http()) {
    text = h->method + " " + h->target;
    if (!h->authority.empty()) text = h->method + " " + (h->https ? "https://" : "http://") +
                                      h->authority + h->target;
    for (const auto& [name, value] : h->headers) text += " -H '" + name + ": " + value + "'";
    if (!h->body.empty()) text += " (" + std::to_string(h->body.size()) + "-byte body)";
    text += " expecting " + std::to_string(h->expect_status);
    if (h->expect_body) text += " and the body '" + *h->expect_body + "'";
  } else if (const resp_call* r = call.resp()) {
    for (const auto& arg : r->args) {
      if (!text.empty()) text += ' ';
      // Quoted where a blank or a quote would otherwise make it read as something else.
      const bool quote = arg.empty() || arg.find_first_of(" \t\r\n\"'\\") != std::string::npos;
      if (!quote) {
        text += arg;
        continue;
      }
      text += '"';
      for (const char c : arg) {
        switch (c) {
          case '\n': text += "\\n"; break;
          case '\r': text += "\\r"; break;
          case '\t': text += "\\t"; break;
          case '"': text += "\\\""; break;
          case '\\': text += "\\\\"; break;
          default: text += c;
        }
      }
      text += '"';
    }
    if (r->expect_reply) text += " expecting '" + *r->expect_reply + "'";
  } else if (const grpc_call* g = call.grpc()) {
    text = g->method + " " + g->request_json + " (" + (g->reflect ? "by reflection" : g->proto_file) + ")";
  } else if (const msgpack_call* m = call.msgpack()) {
    text = m->method + " " + m->params_json;
  }
  return text;
}

}  // namespace

std::string describe(const user_call& call) {
  std::string text = request_text(call);
  if (text.find(random_int_placeholder) != std::string::npos)
    text += " (" + std::string(random_int_placeholder) + " in [0, " + std::to_string(call.keyspace) + "))";
  return text;
}

std::string label(const user_call& call) { return call.name.empty() ? request_text(call) : call.name; }

std::string_view request_payload(std::size_t index) {
  // Made once, at first use (a static: thread-safe), so a driver's pick costs a table lookup.
  static const auto payloads = [] {
    std::array<std::string, max_mix_requests> all;
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = std::to_string(i);
    return all;
  }();
  return payloads.at(index);
}

std::optional<std::size_t> request_index(std::string_view payload, std::size_t count) {
  if (count == 1) return 0;
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(payload.data(), payload.data() + payload.size(), index);
  if (ec != std::errc{} || end != payload.data() + payload.size() || index >= count)
    return std::nullopt;
  return index;
}

std::string_view kind_name(user_call_kind kind) {
  switch (kind) {
    case user_call_kind::none: return "greet call";
    case user_call_kind::http: return "HTTP request";
    case user_call_kind::resp: return "RESP command";
    case user_call_kind::grpc: return "gRPC call";
    case user_call_kind::msgpack: return "MessagePack-RPC call";
  }
  return "greet call";
}

std::string sends_phrase(user_call_kind kind) {
  if (kind == user_call_kind::none) return "only its greet call";
  return (kind == user_call_kind::http ? "an " : "a ") + std::string(kind_name(kind));
}

}  // namespace wirebench
