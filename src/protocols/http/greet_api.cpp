#include "greet_api.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "form_decode.hpp"
#include "json_string.hpp"

namespace wirebench::http {
namespace {

void error(int status, std::string_view why, api_response& out) {
  // Rare, so nlohmann's dump; the text may quote the client's bytes (a path): what is not UTF-8
  // becomes U+FFFD.
  out.status = status;
  out.body = nlohmann::json{{"error", std::string(why)}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

bool greet_call(std::string_view method, std::string_view target, std::string_view body,
                std::size_t max_name_bytes, std::string& name, api_response& refusal) {
  refusal.send_body = method != "HEAD";
  const auto q = target.find('?');
  const std::string_view path = target.substr(0, q);
  bool found = false;
  if (path != "/greet") {
    error(404, "no such resource: " + std::string(path), refusal);
    return false;
  }
  if (method == "GET" || method == "HEAD") {
    std::string_view query = q == std::string_view::npos ? "" : target.substr(q + 1);
    while (!query.empty() && !found) {
      const auto amp = query.find('&');
      const std::string_view pair = query.substr(0, amp);
      if (pair.starts_with("name=")) {
        if (!form_decoded(pair.substr(5), name)) {
          error(400, "bad %-escape in name", refusal);
          return false;
        }
        found = true;
      } else if (amp == std::string_view::npos) {
        break;
      } else {
        query.remove_prefix(amp + 1);
      }
    }
    if (!found) {
      error(400, "missing query parameter: name", refusal);
      return false;
    }
  } else if (method == "POST") {
    const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    const auto it = json.is_object() ? json.find("name") : json.end();
    if (json.is_discarded() || !json.is_object()) {
      error(400, "body must be a JSON object", refusal);
      return false;
    }
    if (it == json.end() || !it->is_string()) {
      error(400, "body needs a string \"name\"", refusal);
      return false;
    }
    name = it->get_ref<const std::string&>();
  } else {
    error(405, "use GET, HEAD or POST", refusal);
    return false;
  }
  if (name.size() > max_name_bytes) {
    error(method == "POST" ? 413 : 414,
          "name longer than " + std::to_string(max_name_bytes) + " bytes", refusal);
    return false;
  }
  // JSON holds only UTF-8, and a greeting must carry the name exactly: a name that is not UTF-8
  // (GET /greet?name=%FF) is refused.
  if (!is_utf8(name)) {
    error(400, "name is not valid UTF-8", refusal);
    return false;
  }
  return true;
}

void call_response(bool ok, std::string_view reply, api_response& out) {
  if (!ok) return error(500, reply, out);
  out.status = 200;
  out.body.assign("{\"greeting\":\"");
  append_json_escaped(out.body, reply);
  out.body.append("\"}");
}

std::string greet_target(std::string_view name) {
  std::string target;
  append_greet_target(target, name);
  return target;
}

void append_greet_target(std::string& target, std::string_view name) {
  static constexpr char digits[] = "0123456789ABCDEF";
  target.append(std::string_view("/greet?name="));
  for (unsigned char c : name) {
    // The unreserved characters (RFC 3986), tested without the locale's isalnum (a call per byte).
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alnum || c == '-' || c == '_' || c == '.' || c == '~') {
      target.push_back(static_cast<char>(c));
    } else {
      target.push_back('%');
      target.push_back(digits[c >> 4]);
      target.push_back(digits[c & 15]);
    }
  }
}

bool parse_greeting(std::string_view json_text, std::string_view& greeting, std::string& storage) {
  // The compact form, {"greeting":"..."} with no escape inside: the value is the bytes between.
  constexpr std::string_view head = "{\"greeting\":\"", tail = "\"}";
  if (json_text.size() >= head.size() + tail.size() && json_text.starts_with(head) &&
      json_text.ends_with(tail)) {
    const std::string_view value =
        json_text.substr(head.size(), json_text.size() - head.size() - tail.size());
    // One pass (find_first_of would call memchr on the two-character set for every byte).
    if (std::none_of(value.begin(), value.end(), [](char c) { return c == '"' || c == '\\'; })) {
      greeting = value;
      return true;
    }
  }
  const auto json = nlohmann::json::parse(json_text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return false;
  const auto it = json.find("greeting");
  if (it == json.end() || !it->is_string()) return false;
  storage = it->get<std::string>();
  greeting = storage;
  return true;
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 409: return "Conflict";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 499: return "Client Closed Request";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
  }
  return "Error";
}

}  // namespace wirebench::http
