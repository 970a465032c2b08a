#pragma once
// RESP2 requests, sans-IO, as a Redis server reads them (networking.c): multibulk
// (`*N\r\n$len\r\narg\r\n...`) and inline commands (one line, space-separated, with Redis's
// quoting). A zero-copy frame_decoder (core/frame_decoder.hpp) fed the *unconsumed* bytes of a
// stream: after `frame` (a command) the caller uses its arguments and then drops `consumed`
// bytes; after `need_more` it drops `consumed` bytes (empty lines and `*0` are skipped that way)
// and calls again with the same bytes plus whatever arrived. The parser
// remembers how far it got, so no byte is scanned twice. Multibulk arguments are views into the
// caller's bytes (no copy); inline ones, which need unescaping, live in the parser.
//
// Limits are checked against bytes received, never against a length or count the peer declared:
// a declared `*1000000000` or `$1000000000` is refused or waited on, never allocated.
// After an error (corrupt: protocol_error; too_large: the query bound, frame_too_long) the stream
// is lost: the parser keeps failing; the server replies `-ERR <error_message()>` and closes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/decode_result.hpp"

namespace wirebench::resp {

struct request_limits {
  std::size_t max_bulk_bytes = 64 * 1024;           // one argument ($len); Redis: 512 MiB
  std::size_t max_multibulk_elements = 1024 * 1024;  // arguments per command (*N)
  std::size_t max_inline_bytes = 64 * 1024;          // an inline line, or a *N / $len line
  std::size_t max_query_bytes = 1 << 20;             // one command's bytes; Redis: 1 GiB
};

class request_parser {
 public:
  /// A step: with status frame, the command's arguments (valid until the caller drops its bytes).
  using result = decode_step<std::span<const std::string_view>>;

  explicit request_parser(request_limits limits = {}) : limits_(limits) {}

  result decode(std::span<const std::byte> data);
  // After an error: Redis's text ("Protocol error: invalid bulk length") and our code
  // (errc::protocol_error, or errc::frame_too_long for the query-buffer bound, which Redis
  // answers with no reply at all: error_message() is then empty).
  std::string_view error_message() const { return error_message_; }
  std::error_code error() const { return error_; }
  bool failed() const { return static_cast<bool>(error_); }
  bool mid_command() const { return state_ != state::idle; }
  const request_limits& limits() const { return limits_; }

 private:
  enum class state : std::uint8_t { idle, inline_line, multibulk_count, bulk_header, bulk_data };

  result fail(std::string message);
  result failure() const;  // the step that reports error_
  result parse_inline(std::string_view in, std::size_t start);
  result parse_multibulk(std::string_view in, std::size_t start);
  // Finds the '\r' that ends the header line at line_ (relative to `start`); npos: not yet.
  std::size_t find_header_end(std::string_view in, std::size_t start, const char* too_big);
  result finish(std::size_t end);

  request_limits limits_;
  state state_ = state::idle;
  // Offsets are relative to the start of the command being parsed (the first unconsumed byte).
  std::size_t scanned_ = 0;   // bytes already searched for the end of the current line
  std::size_t line_ = 0;      // where the current header line starts
  std::int64_t remaining_ = 0;  // multibulk arguments still to read
  std::size_t bulk_len_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // multibulk args: offset, length
  std::vector<std::string_view> args_;
  std::string inline_storage_;
  std::string error_message_;
  std::error_code error_;
};

static_assert(frame_decoder<request_parser>);

// Redis's string2ll: an optional '-', no leading zeros, no '+', no spaces, within int64.
bool parse_redis_integer(std::string_view text, std::int64_t& value);
// Redis's sdssplitargs: splits an inline line into arguments with "..." (\n \r \t \b \a \xHH
// escapes) and '...' (\' only) quoting. Appends each argument to `storage`, its end offset to
// `ends`; false for unbalanced quotes (or a closing quote not followed by a space).
bool split_inline_args(std::string_view line, std::string& storage, std::vector<std::size_t>& ends);

}  // namespace wirebench::resp
