#include "connect_wire.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "../http/json_string.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

namespace wirebench::connect {
namespace {

constexpr std::size_t max_error_json_bytes = 64 * 1024;
constexpr std::size_t max_error_json_depth = 16;

// A peer's JSON, or a discarded value: bounded in size and depth, and never an exception.
nlohmann::json parse_bounded(std::string_view text) {
  if (text.size() > max_error_json_bytes || !nesting_within(text, max_error_json_depth))
    return nlohmann::json::value_t::discarded;
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::optional<error_body> error_of(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto code = j.find("code");
  if (code == j.end() || !code->is_string()) return std::nullopt;
  error_body e;
  // An unknown code is read as unknown (connect-go does the same), not as no error.
  e.code = parse_code(code->get_ref<const std::string&>()).value_or(status_code::unknown);
  if (const auto message = j.find("message"); message != j.end() && message->is_string())
    e.message = message->get<std::string>();
  return e;
}

// `text` as a JSON string's contents; bytes that are not UTF-8 become '?' (a JSON text must be).
void append_string(std::string& out, std::string_view text) {
  out.push_back('"');
  if (http::is_utf8(text)) {
    http::append_json_escaped(out, text);
  } else {
    std::string ascii(text);
    std::replace_if(ascii.begin(), ascii.end(), [](char c) { return (c & 0x80) != 0; }, '?');
    http::append_json_escaped(out, ascii);
  }
  out.push_back('"');
}

bool is_token_end(std::string_view rest) { return rest.empty() || rest[0] == ';' || rest[0] == ' '; }

}  // namespace

std::optional<content_type_info> parse_content_type(std::string_view type) {
  content_type_info info;
  constexpr std::string_view application = "application/", stream = "connect+";
  if (!type.starts_with(application)) return std::nullopt;
  type.remove_prefix(application.size());
  if (type.starts_with(stream)) {
    info.streaming = true;
    type.remove_prefix(stream.size());
  }
  if (type.starts_with("proto") && is_token_end(type.substr(5))) {
    info.format = message_format::proto;
  } else if (type.starts_with("json") && is_token_end(type.substr(4))) {
    info.format = message_format::json;
  } else {
    return std::nullopt;
  }
  return info;
}

std::string_view content_type_of(bool streaming, message_format format) {
  if (streaming)
    return format == message_format::json ? "application/connect+json" : "application/connect+proto";
  return format == message_format::json ? "application/json" : "application/proto";
}

std::optional<std::chrono::milliseconds> parse_timeout_ms(std::string_view text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::int64_t ms = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    ms = ms * 10 + (c - '0');
  }
  return std::chrono::milliseconds(ms);
}

std::string format_timeout_ms(std::chrono::nanoseconds timeout) {
  constexpr std::int64_t most = 9'999'999'999;
  const std::int64_t ns = std::max<std::int64_t>(timeout.count(), 1);
  const std::int64_t ms = std::min(most, ns / 1'000'000 + (ns % 1'000'000 != 0 ? 1 : 0));
  return std::to_string(ms);
}

void append_envelope(std::string& out, std::uint8_t flags, std::string_view message) {
  const auto n = static_cast<std::uint32_t>(message.size());
  const char head[5] = {static_cast<char>(flags), static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                        static_cast<char>(n >> 8), static_cast<char>(n)};
  out.append(head, 5).append(message);
}

void append_error_json(std::string& out, status_code code, std::string_view message) {
  out.append("{\"code\":");
  append_string(out, code_name(code));
  if (!message.empty()) {
    out.append(",\"message\":");
    append_string(out, message);
  }
  out.push_back('}');
}

void append_end_stream_json(std::string& out, status_code code, std::string_view message) {
  if (code == status_code::ok) {
    out.append("{}");
    return;
  }
  out.append("{\"error\":");
  append_error_json(out, code, message);
  out.push_back('}');
}

std::optional<error_body> parse_error_json(std::string_view body) {
  return error_of(parse_bounded(body));
}

std::optional<error_body> parse_end_stream_json(std::string_view body) {
  const nlohmann::json j = parse_bounded(body);
  if (!j.is_object()) return std::nullopt;
  const auto error = j.find("error");
  if (error == j.end()) return error_body{status_code::ok, {}};
  return error_of(*error);  // {"error": null} or {} is not a valid end
}

}  // namespace wirebench::connect
