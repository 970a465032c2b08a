// The pipelined resp client: a RESP2 codec on the client engine, replies in request order (FIFO);
// depth = pipelining depth. Commands are RESP arrays of bulk strings (the bytes
// redisFormatCommandArgv makes, written straight into the output without its allocation);
// replies go through hiredis's sans-IO reader. A bulk string is the greeting; an error reply is
// remote_error with its text; any other reply is wrong_reply.
#include <charconv>

#include "resp_backend.hpp"
#include "resp_reply_reader.hpp"
#include "../common/backend_support.hpp"
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

class resp_client_codec final : public client_codec {
 public:
  resp_client_codec(greet_command how, std::size_t max_reply)
      : how_(how), max_reply_(max_reply), reader_(max_reply) {}

  reply_order order() const override { return reply_order::in_order; }

  std::error_code encode(std::uint32_t, std::string_view name, gather_queue& out) override {
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
    error = reader_.feed(data);
    reply_view r;
    while (!error && reader_.next(r, error)) {
      if (r.kind == reply_kind::string)
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
  reply_reader reader_;
  std::string command_;  // one command's bytes, capacity reused
};

}  // namespace

client_codec_factory client_codecs(const client_config& config, greet_command how) {
  return [how, max = config.max_frame_bytes] { return std::make_unique<resp_client_codec>(how, max); };
}

std::unique_ptr<protocol_client> make_client(const client_config& config, greet_command how) {
  return make_engine_client(config, 1, client_codecs(config, how));
}

}  // namespace wirebench::resp
