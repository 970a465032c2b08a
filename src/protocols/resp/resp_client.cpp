// The pipelined resp client: a RESP2 codec on the client engine, replies in request order (FIFO);
// depth = pipelining depth. Commands are RESP arrays of bulk strings (the bytes
// redisFormatCommandArgv makes, written straight into the output without its allocation);
// replies go through hiredis's sans-IO reader. A bulk string is the greeting; an error reply is
// remote_error with its text; any other reply is wrong_reply.
// With user calls (client_config::calls) every call sends the user's command instead (the one
// its payload names, in a mix), its bytes made once per connection (the placeholders filled in
// per call); any reply but an error reply is its success, or, with an expected reply, only that
// one (others are wrong_reply).
#include <charconv>
#include <deque>
#include <memory>
#include <optional>

#include "resp_backend.hpp"
#include "resp_call.hpp"
#include "resp_reply_reader.hpp"
#include "../user_call/in_order_requests.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

void append_bulk_arg(std::string& out, std::string_view prefix, std::string_view arg) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, prefix.size() + arg.size()).ptr;
  out.push_back('$');
  out.append(digits, end);
  out.append("\r\n").append(prefix).append(arg).append("\r\n");
}

// What the user's call makes of a reply: an error reply fails with its text; with an expected
// reply, a simple or bulk string or an integer equal to it succeeds and anything else is
// wrong_reply (its text kept); without, any other reply succeeds (nil as a word; an array as
// redis-cli shows it when the reader renders it, else as a word).
codec_reply judge_reply(const resp_call& call, const reply_view& r) {
  if (r.kind == reply_kind::error) return {0, errc::remote_error, r.text};
  const std::string_view text = r.kind == reply_kind::nil                       ? "(nil)"
                                : r.kind == reply_kind::array && r.text.empty() ? "(array)"
                                                                                : r.text;
  const bool comparable = r.kind == reply_kind::string || r.kind == reply_kind::status ||
                          r.kind == reply_kind::integer;
  if (call.expect_reply && !(comparable && r.text == *call.expect_reply))
    return {0, errc::wrong_reply, text};
  return {0, {}, text};
}

class resp_client_codec final : public client_codec {
 public:
  // `calls`: the user's commands (several: a mix), or empty for the greet call.
  // `show_replies`: client_config's (an array's elements are rendered).
  resp_client_codec(greet_command how, std::size_t max_reply, bool show_replies,
                    std::shared_ptr<const std::vector<user_call>> calls)
      : how_(how), max_reply_(max_reply), show_(show_replies), reader_(max_reply, 1024, show_replies), calls_(std::move(calls)),
        commands_(*calls_, [](const resp_call& c) {
          std::string bytes = "*" + std::to_string(c.args.size()) + "\r\n";
          for (const std::string& arg : c.args) append_bulk_arg(bytes, {}, arg);
          return bytes;
        }) {}

  reply_order order() const override { return reply_order::in_order; }

  std::error_code encode(std::uint32_t, std::string_view name, gather_queue& out) override {
    if (!commands_.empty()) return commands_.append(name, out);  // a user command
    command_.clear();
    if (how_ == greet_command::echo) {  // a real Redis has no GREET: ECHO "hello, name"
      command_.append("*2\r\n$4\r\nECHO\r\n");
      append_bulk_arg(command_, "hello, ", name);
    } else {
      command_.append("*2\r\n$5\r\nGREET\r\n");
      append_bulk_arg(command_, {}, name);
    }
    out.append_bytes(as_bytes(command_));
    return {};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    reader_.release();  // the replies handed out by the last decode are done with
    shown_.clear();
    reader_.feed(data);
    while (const auto got = reader_.next(error)) {
      const reply_view& r = *got;
      if (!commands_.empty()) {
        codec_reply reply = judge_reply(commands_.answered(), r);
        // Shown to a user: a string quoted and an integer marked, as redis-cli prints them.
        if (show_ && !reply.error && (r.kind == reply_kind::string || r.kind == reply_kind::integer)) {
          std::string& text = shown_.emplace_back(r.kind == reply_kind::integer ? "(integer) " : "");
          if (r.kind == reply_kind::integer) text += r.text;
          else append_redis_cli_quoted(text, r.text);
          reply.body = text;
        }
        into.replies.push_back(reply);
      }
      else if (r.kind == reply_kind::string)
        into.replies.push_back({0, {}, r.text});
      else if (r.kind == reply_kind::error)
        into.replies.push_back({0, errc::remote_error, r.text});
      else
        into.replies.push_back({0, errc::wrong_reply, {}});
    }
    return data.size();  // hiredis's reader keeps what it needs
  }

  bool mid_reply() const override { return reader_.mid_reply(); }
  std::size_t max_read_bytes() const override { return max_reply_; }

 private:
  greet_command how_;
  std::size_t max_reply_;
  bool show_;
  reply_reader reader_;
  std::deque<std::string> shown_;  // this decode's replies as shown (a deque: they stay put)
  std::string command_;  // the greet command's bytes, capacity reused
  std::shared_ptr<const std::vector<user_call>> calls_;  // empty: the greet call
  in_order_requests<resp_call> commands_;                // theirs, in order
};

}  // namespace

client_codec_factory client_codecs(const client_config& config, greet_command how) {
  auto calls = std::make_shared<const std::vector<user_call>>(config.calls);
  return [how, max = config.max_frame_bytes, show = config.show_replies, calls] {
    return std::make_unique<resp_client_codec>(how, max, show, calls);
  };
}

}  // namespace wirebench::resp
