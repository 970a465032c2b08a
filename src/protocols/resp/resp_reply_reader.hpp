#pragma once
// RESP2 replies through hiredis's sans-IO reader (redisReaderFeed / redisReaderGetReply), with
// the limits hiredis 0.14.1 lacks. 0.14.1 has `maxbuf`, which only says when an idle buffer is
// given back, and no `maxelements` (hiredis >= 1.0): so the element cap is enforced in our own
// createArray (hiredis then reports an error instead of allocating from the declared count), and
// the bytes of one unfinished reply are bounded here, after each feed.
// The reply objects hiredis builds through our functions come from a pool and keep their
// strings' capacity, so a steady stream of replies allocates nothing.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "wirebench/core/feed_decoder.hpp"

struct redisReader;

namespace wirebench::resp {

enum class reply_kind { string, status, error, integer, nil, array };

// One reply, as next() hands it out: valid until release().
struct reply_view {
  reply_kind kind = reply_kind::nil;
  // String, status and error replies; an integer's decimal digits; an array's elements as
  // redis-cli shows them when the reader renders arrays (else empty).
  std::string_view text;
};

// `text` as redis-cli quotes a string reply (its sdscatrepr): "...", with escapes for quotes,
// backslashes and control bytes, \xHH for other bytes that do not print.
void append_redis_cli_quoted(std::string& out, std::string_view text);

class reply_reader {
 public:
  // `render_arrays`: an array reply's text is its elements as redis-cli prints them (1) "a",
  // (integer) 2, nested arrays indented): for a reply shown to a user, not for a load, which
  // would pay for it on every call.
  explicit reply_reader(std::size_t max_reply_bytes, std::size_t max_elements = 1024,
                        bool render_arrays = false);
  ~reply_reader();
  reply_reader(const reply_reader&) = delete;
  reply_reader& operator=(const reply_reader&) = delete;

  // A feed_decoder (core/feed_decoder.hpp). feed() copies `data` into hiredis's buffer. A reply
  // of more than max_reply_bytes (framing included) is refused by next(), complete or not,
  // however its bytes arrived.
  void feed(std::span<const std::byte> data);
  // The next complete reply, valid until release(); empty when none is complete yet. Sets `error`
  // on malformed input (protocol_error) or a reply over the bound (frame_too_long): the stream is
  // then lost.
  std::optional<reply_view> next(std::error_code& error);
  // The replies handed out by next() are done with: their storage is reused.
  void release();
  bool mid_reply() const;

  struct value;  // a reply object (and its elements), from the pool

 private:
  friend struct reply_functions;
  value* take_value(reply_kind kind);
  void recycle(value* v);

  std::size_t max_reply_bytes_;
  std::size_t max_elements_;
  bool render_arrays_;
  bool feed_failed_ = false;  // hiredis could not take bytes (out of memory): the stream is lost
  std::size_t parsed_ = 0;  // bytes of the reply in progress that hiredis has parsed
  redisReader* reader_ = nullptr;
  std::vector<std::unique_ptr<value>> values_;  // every object made
  std::vector<value*> free_;
  std::vector<value*> handed_out_;  // roots returned by next(), until release()
};

static_assert(feed_decoder<reply_reader>);

}  // namespace wirebench::resp
