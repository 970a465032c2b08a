#pragma once
// HTTP/1.1 messages (RFC 9112), sans-IO, over llhttp: one parser object runs across pipelined
// messages and reads split at any byte. A feed_decoder (core/feed_decoder.hpp): complete
// messages are handed out by next() and kept until release(), and their storage (strings'
// capacity) is reused for the next ones, so a steady stream of messages allocates nothing.
// Limits are checked as bytes arrive (never from a declared length): header bytes and header
// count -> 431, body bytes -> 413 (a Content-Length over the limit is refused as soon as the
// headers end), anything malformed -> 400. After an error the stream is lost; the server answers
// and closes.
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <llhttp.h>

#include "wirebench/core/feed_decoder.hpp"

namespace wirebench::http1 {

struct limits {
  std::size_t max_header_bytes = 16 * 1024;  // request line or status line + all headers
  std::size_t max_headers = 64;
  std::size_t max_body_bytes = 1 << 20;
};

struct message {
  std::string method;  // requests
  std::string target;  // requests
  int status = 0;      // responses
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool keep_alive = true;
  // The value of a header (names compare case-insensitively), or empty.
  std::string_view header(std::string_view name) const;
  void reset();  // empty again, keeping the strings' capacity
};

class parser {
 public:
  enum class kind { request, response };
  // `keep_headers` false: header lines are counted against the limits but not stored (a client
  // that needs only the status, the body and keep-alive).
  parser(kind k, limits l = {}, bool keep_headers = true);
  parser(const parser&) = delete;
  parser& operator=(const parser&) = delete;

  // Parses all of `data` (llhttp keeps what it needs of a message, in the message).
  void feed(std::span<const std::byte> data);
  // The next complete message, valid until release(); null when none is complete yet. After the
  // messages before it: a stream error, as `error` (protocol_error for 400, frame_too_long for
  // 413 or 431; see error_status()), and again on every later call.
  message* next(std::error_code& error);
  // Complete messages next() has not handed out yet.
  std::size_t ready() const { return count_ - handed_; }
  // The messages next() handed out are done with; a message still arriving is kept.
  void release();
  // The peer ended the stream: a message delimited by that end (a response with neither
  // Content-Length nor chunking) is complete now, for next(). False when the end cut a message
  // short (or the stream had failed already).
  bool finish();
  // The status a server answers the error with: 400, 413 or 431.
  int error_status() const { return error_status_; }
  std::string_view error_reason() const { return error_reason_; }
  bool mid_message() const { return in_message_; }
  // Responses only: every response answers a HEAD request, so none has a body whatever its
  // Content-Length says (RFC 9110 §9.3.2). Set before parsing.
  void expect_bodiless_responses(bool on) { bodiless_responses_ = on; }
  // True once for a request whose headers have arrived with `Expect: 100-continue` and whose body
  // has not: the server answers "100 Continue" now, or the client waits (curl: a second) before
  // sending the body. A body that arrives with its headers needs none (RFC 9110 §10.1.1).
  bool take_continue() { return std::exchange(continue_due_, false); }
  // The message being parsed once its headers are in and its body is not (method or status,
  // target and headers set; the body partial): for a server that answers before the body has
  // come, or a client that judges a body by its start. Null otherwise.
  const message* arriving() const { return headers_in_ ? current_ : nullptr; }

 private:
  static int on_message_begin(llhttp_t* p);
  static int on_url(llhttp_t* p, const char* at, std::size_t n);
  static int on_header_field(llhttp_t* p, const char* at, std::size_t n);
  static int on_header_value(llhttp_t* p, const char* at, std::size_t n);
  static int on_headers_complete(llhttp_t* p);
  static int on_body(llhttp_t* p, const char* at, std::size_t n);
  static int on_message_complete(llhttp_t* p);
  int fail(int status, const char* reason);
  bool count_header_bytes(std::size_t n);

  limits limits_;
  bool keep_headers_;
  llhttp_settings_t settings_;
  llhttp_t llhttp_;
  // [0, count_) complete; done_[count_] is being parsed. A deque: growing it leaves the messages
  // handed out where they are, valid until release() as the contract says.
  std::deque<message> done_;
  std::size_t count_ = 0;
  std::size_t handed_ = 0;     // [0, handed_) handed out by next(), until release()
  message* current_ = nullptr;
  bool headers_in_ = false;  // current_'s headers are complete
  std::size_t header_count_ = 0;
  std::size_t header_bytes_ = 0;
  bool in_value_ = false;
  bool in_message_ = false;
  bool continue_due_ = false;
  bool bodiless_responses_ = false;
  int error_status_ = 0;
  std::string error_reason_;
};

static_assert(feed_decoder<parser>);

}  // namespace wirebench::http1
