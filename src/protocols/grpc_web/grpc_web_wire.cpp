#include "grpc_web_wire.hpp"

#include "../http/ascii_case.hpp"

namespace wirebench::grpc_web {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<content_type_info> parse_content_type(std::string_view type) {
  constexpr std::string_view web = "application/grpc-web";
  if (!type.starts_with(web)) return std::nullopt;
  type.remove_prefix(web.size());
  content_type_info info;
  if (type.starts_with("-text")) {
    info.text = true;
    type.remove_prefix(5);
  }
  if (type.starts_with("+proto")) {
    type.remove_prefix(6);
  } else if (type.starts_with("+json")) {
    info.format = message_format::json;
    type.remove_prefix(5);
  }
  if (!type.empty() && type[0] != ';') return std::nullopt;
  return info;
}

std::string_view content_type_of(const content_type_info& info) {
  if (info.format == message_format::json)
    return info.text ? "application/grpc-web-text+json" : "application/grpc-web+json";
  return info.text ? "application/grpc-web-text+proto" : "application/grpc-web+proto";
}

void append_trailers_frame(std::string& out, status_code code, std::string_view message) {
  std::string block = "grpc-status:" + std::to_string(static_cast<int>(code)) + "\r\n";
  if (!message.empty()) {
    block += "grpc-message:";
    grpc_wire::append_percent_encoded(block, message);
    block += "\r\n";
  }
  const auto n = static_cast<std::uint32_t>(block.size());
  const char head[5] = {static_cast<char>(flag_trailers), static_cast<char>(n >> 24),
                        static_cast<char>(n >> 16), static_cast<char>(n >> 8), static_cast<char>(n)};
  out.append(head, 5).append(block);
}

std::optional<call_status> parse_trailers_block(std::string_view block) {
  call_status out;
  while (!block.empty()) {
    const std::size_t end = block.find("\r\n");
    std::string_view line = block.substr(0, end);
    block.remove_prefix(end == std::string_view::npos ? block.size() : end + 2);
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    const std::string_view name = line.substr(0, colon), value = trimmed(line.substr(colon + 1));
    if (http::equals_lower(name, "grpc-status")) {
      // Not a number: a status the peer did not send (UNKNOWN, as grpc's clients read it).
      out.status = grpc_wire::parse_status(value).value_or(status_code::unknown);
    } else if (http::equals_lower(name, "grpc-message")) {
      out.message = value;
    }
  }
  return out;
}

}  // namespace wirebench::grpc_web
