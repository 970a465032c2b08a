#include "connect_get.hpp"

#include "../http/base64.hpp"
#include "../http/form_decode.hpp"

namespace wirebench::connect {
namespace {

// Calls `each(key, value)` for the query's parameters (raw, undecoded); the query is what
// follows the path's first '?'.
template <class F>
void for_each_parameter(std::string_view path, F each) {
  const auto mark = path.find('?');
  if (mark == std::string_view::npos) return;
  std::string_view query = path.substr(mark + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    each(pair.substr(0, eq), eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
}

}  // namespace

bool is_get_query(std::string_view path) {
  bool encoding = false, message = false;
  for_each_parameter(path, [&](std::string_view key, std::string_view) {
    encoding = encoding || key == "encoding";
    message = message || key == "message";
  });
  return encoding && message;
}

status_code parse_get_query(std::string_view path, get_query& out, int& refusal_status, std::string& why) {
  std::string_view encoding, compression, message, version, base64;
  bool has_message = false;
  for_each_parameter(path, [&](std::string_view key, std::string_view value) {
    if (key == "encoding") encoding = value;
    else if (key == "compression") compression = value;
    else if (key == "connect") version = value;
    else if (key == "base64") base64 = value;
    else if (key == "message") message = value, has_message = true;
  });
  refusal_status = 0;
  if (!version.empty() && version != "v1") {
    why = "connect must be v1";
    return status_code::invalid_argument;
  }
  if (encoding == "proto") out.format = grpc_wire::message_format::proto;
  else if (encoding == "json") out.format = grpc_wire::message_format::json;
  else {
    refusal_status = 415;
    why = "encoding " + std::string(encoding) + " is not supported; supported: proto, json";
    return status_code::unimplemented;
  }
  if (!grpc_wire::is_known_encoding(compression)) {
    refusal_status = 415;
    why = "compression " + std::string(compression) + " is not supported; supported: gzip, identity";
    return status_code::unimplemented;
  }
  out.gzip = compression == "gzip";
  std::string decoded;
  if (!has_message || !http::form_decoded(message, decoded)) {
    why = has_message ? "the message is not percent-encoded" : "a GET names its message";
    return status_code::invalid_argument;
  }
  if (base64 == "1") {
    if (!http::decode_base64(decoded, out.message)) {
      why = "the message is not base64";
      return status_code::invalid_argument;
    }
  } else {
    out.message = std::move(decoded);
  }
  return status_code::ok;
}

}  // namespace wirebench::connect
