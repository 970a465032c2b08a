// The HTTP family's user-call form (user_call_form.hpp): --url/--path and curl's -X, -H, -d;
// "[METHOD] URL-or-/path" lines (h2load's -i takes the URL alone); workload entries; results.
#include <sstream>
#include <stdexcept>

#include "http_call.hpp"
#include "http_url.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/protocols/input_file.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench {
// Its functions and data, as the_form takes them; a struct, not an anonymous namespace: a unity
// build compiles several forms as one file.
struct http_form {

[[noreturn]] static void refuse(const std::string& why) { throw std::invalid_argument(why); }

static void check_method(const std::string& method, const std::string& where) {
  if (method.empty()) refuse(where + ": no method");
  for (const char c : method)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_'))
      refuse(where + ": method '" + method + "' is not a word (GET, POST, ...)");
}

// A URL's parts into `h`.
static void set_url(http_call& h, const http::http_url& u) {
  h.target = u.target;
  h.authority = u.authority;
  h.https = u.https;
}

// An HTTP request's target, a URL or a path, into `h`.
static void set_target(http_call& h, const std::string& target, const std::string& where) {
  if (target.starts_with("http://") || target.starts_with("https://")) {
    try {
      set_url(h, http::parse_http_url(target));
    } catch (const std::exception& e) {
      refuse(where + ": " + e.what());
    }
    return;
  }
  if (!target.starts_with('/')) refuse(where + ": '" + target + "' is neither a URL nor a /path");
  for (const char c : target)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      refuse(where + ": spaces and control characters in a path must be %-escaped");
  h.target = target;
}

// What each request of a mix starts from: -H, -d and the expectations given beside it.
static http_call defaults(const given_flags& d) {
  http_call h;
  for (const auto& line : d.all("--header")) h.headers.push_back(parse_header(line));
  if (d.has("--data")) h.body = read_data_argument(d.last("--data"));
  h.method = d.has("--data") ? "POST" : "GET";
  h.expect_status = std::stoi(d.last("--expect-status", "200"));
  if (d.has("--expect-body")) h.expect_body = d.last("--expect-body");
  return h;
}

static user_request from_flags(const given_flags& g) {
  if (g.has("--url") && g.has("--path")) refuse("give --url or --path, not both");
  http_call h = defaults(g);
  if (g.has("--url")) {
    set_url(h, http::parse_http_url(g.last("--url")));
  } else {
    const std::string path = g.last("--path");
    if (!path.starts_with('/')) refuse("--path " + path + ": a path starts with /");
    for (const char c : path)
      if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
        refuse("--path: spaces and control characters must be %-escaped");
    h.target = path;
  }
  if (g.has("--method") && !g.last("--method").empty()) h.method = g.last("--method");
  for (const char c : h.method)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_'))
      refuse("-X " + h.method + ": a method is a word (GET, POST, ...)");
  return h;
}

// "[METHOD] URL-or-PATH".
static user_request from_line(std::string_view line, const given_flags& d, const std::string& where) {
  std::istringstream words{std::string(line)};
  std::vector<std::string> w{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
  if (w.empty() || w.size() > 2)
    refuse(where + ": '" + std::string(line) + "': give [METHOD] URL or [METHOD] /path");
  http_call h = defaults(d);
  if (w.size() == 2) {
    check_method(w[0], where);
    h.method = w[0];
  }
  set_target(h, w.back(), where);
  return h;
}

static user_request from_entry(const json_fields& f, const given_flags& d) {
  http_call h = defaults(d);
  if (f.has("url") == f.has("path")) refuse(f.at("url") + ": give \"url\" or \"path\" (one)");
  if (f.has("body") && f.has("body_file")) refuse(f.at("body") + ": give \"body\" or \"body_file\", not both");
  if (f.has("body")) h.body = f.text("body");
  if (f.has("body_file")) h.body = read_input_file(f.text("body_file"), max_call_file_bytes, f.at("body_file"));
  const bool body = f.has("body") || f.has("body_file") || d.has("--data");
  h.method = body ? "POST" : "GET";
  if (f.has("method")) {
    h.method = f.text("method");
    check_method(h.method, f.at("method"));
  }
  const char* target = f.has("url") ? "url" : "path";
  set_target(h, f.text(target), f.at(target));
  if (f.has("headers")) {
    const auto more = f.headers("headers");
    h.headers.insert(h.headers.end(), more.begin(), more.end());
  }
  if (f.has("expect_status")) h.expect_status = static_cast<int>(f.whole("expect_status", 100, 999));
  if (f.has("expect_body")) h.expect_body = f.text("expect_body");
  return h;
}

static std::string text(const user_request& r) {
  const http_call& h = *r.as<http_call>();
  std::string text = h.method + " " + h.target;
  if (!h.authority.empty())
    text = h.method + " " + (h.https ? "https://" : "http://") + h.authority + h.target;
  for (const auto& [name, value] : h.headers) text += " -H '" + name + ": " + value + "'";
  if (!h.body.empty()) text += " (" + std::to_string(h.body.size()) + "-byte body)";
  text += " expecting " + std::to_string(h.expect_status);
  if (h.expect_body) text += " and the body '" + *h.expect_body + "'";
  return text;
}

static std::vector<request_field> fields(user_request& r) {
  http_call& h = *r.as<http_call>();
  std::vector<request_field> out{{&h.target, request_field_kind::url_target}};
  for (auto& header : h.headers) out.push_back({&header.second, request_field_kind::header_value});
  out.push_back({&h.body, request_field_kind::text});
  if (h.expect_body) out.push_back({&*h.expect_body, request_field_kind::text, false});
  return out;
}

static nlohmann::json to_results(const user_request& r) {
  const http_call& h = *r.as<http_call>();
  return {{"method", h.method},
          {"target", h.target},
          {"authority", h.authority},
          {"https", h.https},
          {"headers", h.headers},
          {"body", h.body},
          {"expect_status", h.expect_status},
          {"expect_body", h.expect_body ? nlohmann::json(*h.expect_body) : nlohmann::json(nullptr)}};
}

static user_request from_results(const json_fields& f) {
  http_call h;
  h.method = f.text("method");
  h.target = f.text("target");
  h.authority = f.text("authority");
  h.https = f.flag("https");
  h.headers = f.headers("headers");
  h.body = f.text("body");
  h.expect_status = static_cast<int>(f.whole("expect_status", 100, 999));
  if (f.has_value("expect_body")) h.expect_body = f.text("expect_body");
  return h;
}

static std::optional<named_server> server(const user_request& r) {
  const http_call& h = *r.as<http_call>();
  if (h.authority.empty()) return std::nullopt;
  const std::string origin = (h.https ? "https://" : "http://") + h.authority;
  const http::http_url u = http::parse_http_url(origin);
  return named_server{u.https, u.host, u.port, origin};
}

using flag = user_call_flag;

static std::vector<std::string> examples(const std::string& /*proto_file*/) {
  return std::vector<std::string>{R"({"method": "GET", "path": "/k/__rand_int__", "expect_body": "ok"})",
                                  R"({"method": "HEAD", "path": "/k/__rand_int__", "expect_body": "ok"})"};
}

static user_call_form make_form() {
  return {.name = "http", .what = "HTTP request", .article = "an", .asked_with = "--url or --path", .rank = 10,
          .heading = "User call (http1, http2)",
          .flags = {
              {.names = "--url",
               .help = "Send this request instead of the greet call: http://host:port/path?query "
                       "(its host:port, a name resolved, is dialed unless --connect is given)",
               .asks = true},
              {.names = "--path",
               .help = "The same with a path only: /path?query, on the --connect server (or the one run starts)",
               .asks = true},
              {.names = "-X,--method", .help = "Request method (default GET, or POST with -d)"},
              {.names = "-H,--header",
               .help = "Request header 'name: value' (repeatable)",
               .takes = flag::arity::repeated,
               .in_mix = true},
              {.names = "-d,--data",
               .help = "Request body, or @FILE for a file's bytes (sent with Content-Length)",
               .in_mix = true},
              {.names = "--expect-status",
               .help = "The status of a successful call",
               .in_mix = true,
               .default_text = "200",
               .range = std::pair<std::uint64_t, std::uint64_t>{100, 999}},
              {.names = "--expect-body", .help = "A successful call's whole body, byte for byte", .in_mix = true},
          },
          .line_help = "[METHOD] URL-or-/path (http1, http2)",
          .entry_fields = {"method", "url", "path", "headers", "body", "body_file", "expect_status", "expect_body"}};
}

};

const user_call_form& form_of(const http_call*) { return the_form<http_form>(); }

}  // namespace wirebench
