#include "resp_request_parser.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// C-locale isspace, as sdssplitargs uses it.
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char unescape(char c) {
  switch (c) {
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'b': return '\b';
    case 'a': return '\a';
    default: return c;
  }
}

}  // namespace

bool parse_redis_integer(std::string_view s, std::int64_t& value) {
  if (s.empty() || s.size() > 20) return false;
  if (s == "0") {
    value = 0;
    return true;
  }
  const bool negative = s[0] == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty() || s[0] < '1' || s[0] > '9') return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (v > max + 1) return false;
    value = v == max + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
  } else {
    if (v > max) return false;
    value = static_cast<std::int64_t>(v);
  }
  return true;
}

bool split_inline_args(std::string_view line, std::string& storage, std::vector<std::size_t>& ends) {
  line = line.substr(0, line.find('\0'));  // Redis splits a C string: a NUL ends the line
  const std::size_t n = line.size();
  std::size_t i = 0;
  for (;;) {
    while (i < n && is_space(line[i])) ++i;
    if (i == n) return true;
    char quote = 0;  // '"' or '\'' while inside quotes
    for (;;) {
      if (quote != 0) {
        if (i == n) return false;
        const char c = line[i];
        if (c == quote) {
          // A closing quote must be followed by a space or the end of the line.
          if (i + 1 < n && !is_space(line[i + 1])) return false;
          ++i;
          break;
        }
        if (quote == '\'' && c == '\\' && i + 1 < n && line[i + 1] == '\'') {
          storage += '\'';
          i += 2;
        } else if (quote == '"' && c == '\\' && i + 3 < n && line[i + 1] == 'x' &&
                   hex_value(line[i + 2]) >= 0 && hex_value(line[i + 3]) >= 0) {
          storage += static_cast<char>(hex_value(line[i + 2]) * 16 + hex_value(line[i + 3]));
          i += 4;
        } else if (quote == '"' && c == '\\' && i + 1 < n) {
          storage += unescape(line[i + 1]);
          i += 2;
        } else {
          storage += c;
          ++i;
        }
      } else {
        if (i == n) break;
        const char c = line[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') break;
        if (c == '"' || c == '\'') quote = c;
        else storage += c;
        ++i;
      }
    }
    ends.push_back(storage.size());
  }
}

request_parser::result request_parser::fail(std::string message) {
  error_ = errc::protocol_error;
  error_message_ = std::move(message);
  return failure();
}

request_parser::result request_parser::failure() const {
  return {error_ == errc::frame_too_long ? decode_status::too_large : decode_status::corrupt, 0, {}};
}

request_parser::result request_parser::decode(std::span<const std::byte> data) {
  if (failed()) return failure();
  std::string_view in(reinterpret_cast<const char*>(data.data()), data.size());
  std::size_t start = 0;
  for (;;) {
    if (state_ == state::idle) {
      if (start == in.size()) return {decode_status::need_more, start, {}};
      state_ = in[start] == '*' ? state::multibulk_count : state::inline_line;
      scanned_ = line_ = 0;
    }
    // A command may not exceed the query bound, so the parser never looks past it: whatever way
    // the stream is split, the same bytes give the same outcome.
    const std::string_view view = in.substr(0, start + std::min(in.size() - start, limits_.max_query_bytes));
    const result r = state_ == state::inline_line ? parse_inline(view, start) : parse_multibulk(view, start);
    if (r.status != decode_status::need_more) return r;  // a command, or an error
    if (r.consumed != 0) {  // a command with no arguments (empty line, `*0`): skipped, as Redis does
      state_ = state::idle;
      start = r.consumed;
      continue;
    }
    if (view.size() - start >= limits_.max_query_bytes) {
      error_ = errc::frame_too_long;  // Redis closes such a client without a reply
      error_message_.clear();
      return failure();
    }
    return {decode_status::need_more, start, {}};
  }
}

// need_more with consumed = 0: wait; need_more with consumed = end: skip to end; or a command.
request_parser::result request_parser::parse_inline(std::string_view in, std::size_t start) {
  const std::size_t from = start + scanned_;
  const void* hit = from < in.size() ? std::memchr(in.data() + from, '\n', in.size() - from) : nullptr;
  if (hit == nullptr) {
    scanned_ = in.size() - start;
    if (scanned_ > limits_.max_inline_bytes) return fail("Protocol error: too big inline request");
    return {decode_status::need_more, 0, {}};
  }
  const std::size_t nl = static_cast<std::size_t>(static_cast<const char*>(hit) - in.data());
  if (nl - start > limits_.max_inline_bytes) return fail("Protocol error: too big inline request");
  std::string_view line = in.substr(start, nl - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  inline_storage_.clear();
  std::vector<std::size_t> ends;
  if (!split_inline_args(line, inline_storage_, ends))
    return fail("Protocol error: unbalanced quotes in request");
  if (ends.empty()) return {decode_status::need_more, nl + 1, {}};
  args_.clear();
  std::size_t at = 0;
  for (std::size_t end : ends) {
    args_.push_back(std::string_view(inline_storage_).substr(at, end - at));
    at = end;
  }
  return finish(nl + 1);
}

std::size_t request_parser::find_header_end(std::string_view in, std::size_t start, const char* too_big) {
  const std::size_t from = start + std::max(scanned_, line_);
  const void* hit = from < in.size() ? std::memchr(in.data() + from, '\r', in.size() - from) : nullptr;
  const std::size_t end = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - in.data()) : in.size();
  scanned_ = end - start;
  if (scanned_ - line_ > limits_.max_inline_bytes) {
    fail(too_big);
    return npos;
  }
  // Like Redis: the byte after '\r' must have arrived, and is skipped unchecked.
  return hit && end + 1 < in.size() ? end : npos;
}

request_parser::result request_parser::parse_multibulk(std::string_view in, std::size_t start) {
  for (;;) {
    switch (state_) {
      case state::multibulk_count: {
        const std::size_t e = find_header_end(in, start, "Protocol error: too big mbulk count string");
        if (failed()) return failure();
        if (e == npos) return {decode_status::need_more, 0, {}};
        std::int64_t n = 0;
        const std::size_t digits = start + line_ + 1;
        if (!parse_redis_integer(in.substr(digits, e - digits), n) ||
            n > static_cast<std::int64_t>(limits_.max_multibulk_elements))
          return fail("Protocol error: invalid multibulk length");
        if (n <= 0) return {decode_status::need_more, e + 2, {}};
        remaining_ = n;
        spans_.clear();  // grows with arguments received, never sized from n
        line_ = scanned_ = e + 2 - start;
        state_ = state::bulk_header;
        break;
      }
      case state::bulk_header: {
        if (start + line_ >= in.size()) return {decode_status::need_more, 0, {}};
        if (const char c = in[start + line_]; c != '$')
          return fail(std::string("Protocol error: expected '$', got '") + c + "'");
        const std::size_t e = find_header_end(in, start, "Protocol error: too big bulk count string");
        if (failed()) return failure();
        if (e == npos) return {decode_status::need_more, 0, {}};
        std::int64_t n = 0;
        const std::size_t digits = start + line_ + 1;
        if (!parse_redis_integer(in.substr(digits, e - digits), n) || n < 0 ||
            static_cast<std::uint64_t>(n) > limits_.max_bulk_bytes)
          return fail("Protocol error: invalid bulk length");
        bulk_len_ = static_cast<std::size_t>(n);
        line_ = scanned_ = e + 2 - start;
        state_ = state::bulk_data;
        break;
      }
      case state::bulk_data: {
        // Like Redis, the two bytes after the data are skipped unchecked.
        if (in.size() - start - line_ < bulk_len_ + 2) return {decode_status::need_more, 0, {}};
        spans_.emplace_back(line_, bulk_len_);
        line_ = scanned_ = line_ + bulk_len_ + 2;
        if (--remaining_ > 0) {
          state_ = state::bulk_header;
          break;
        }
        args_.clear();
        for (auto [offset, length] : spans_) args_.push_back(in.substr(start + offset, length));
        return finish(start + line_);
      }
      default:
        return {decode_status::need_more, 0, {}};
    }
  }
}

request_parser::result request_parser::finish(std::size_t end) {
  state_ = state::idle;
  scanned_ = line_ = 0;
  return {decode_status::frame, end, args_};
}

}  // namespace wirebench::resp
