#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

std::string describe(const user_call& call) {
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
  if (text.find(random_int_placeholder) != std::string::npos)
    text += " (" + std::string(random_int_placeholder) + " in [0, " + std::to_string(call.keyspace) + "))";
  return text;
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
