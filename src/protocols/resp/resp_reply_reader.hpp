#pragma once
// RESP2 replies through hiredis's sans-IO reader (redisReaderFeed / redisReaderGetReply), with
// the limits hiredis 0.14.1 lacks. 0.14.1 has `maxbuf`, which only says when an idle buffer is
// given back, and no `maxelements` (hiredis >= 1.0): so the element cap is enforced in our own
// createArray (hiredis then reports an error instead of allocating from the declared count), and
// the bytes of one unfinished reply are bounded here, after each feed.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

struct redisReader;

namespace wirebench::resp {

enum class reply_kind { string, status, error, integer, nil, array };

struct reply {
  reply_kind kind = reply_kind::nil;
  std::string text;  // string, status and error replies
};

// The greet call's verdict on a reply: a bulk string equal to `expected` is the answer; an error
// reply is errc::remote_error (its text the reason); anything else is errc::wrong_reply.
std::error_code check_greeting(reply_kind kind, std::string_view text, std::string_view expected);

class reply_reader {
 public:
  explicit reply_reader(std::size_t max_reply_bytes, std::size_t max_elements = 1024);
  ~reply_reader();
  reply_reader(const reply_reader&) = delete;
  reply_reader& operator=(const reply_reader&) = delete;

  // Copies `data` into hiredis's buffer. errc::frame_too_long once an unfinished reply holds more
  // than max_reply_bytes.
  std::error_code feed(std::span<const std::byte> data);
  // The next complete reply into `out`: true if there was one. Sets `error` (protocol_error) on
  // malformed input; the stream is then lost.
  bool next(reply& out, std::error_code& error);
  bool mid_reply() const;

 private:
  std::size_t max_reply_bytes_;
  std::size_t max_elements_;
  redisReader* reader_ = nullptr;
};

}  // namespace wirebench::resp
