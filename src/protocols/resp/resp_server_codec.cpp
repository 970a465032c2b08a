// Our RESP server's codec (RESP2; RESP3 after HELLO 3, resp_commands.hpp): the sans-IO request
// parser, GREET handed to the application as a call, every other command answered here
// (resp_commands.hpp). Ordered: replies go out in request order, every reply of one read gathered
// into one write (Redis's "reply before the loop sleeps"). A protocol error is answered with
// Redis's text, written, and closes that connection only.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <memory>

#include "resp_backend.hpp"
#include "resp_commands.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

// GREET name, in any case: the one command that is the application's.
bool is_greet_call(std::span<const std::string_view> args) {
  constexpr std::string_view greet = "GREET";
  return args.size() == 2 && args[0].size() == greet.size() &&
         std::equal(greet.begin(), greet.end(), args[0].begin(),
                    [](char g, char c) { return g == (c & ~0x20); });
}

class server_codec_impl final : public server_codec {
 public:
  server_codec_impl(const request_limits& l, std::uint64_t client_id)
      : parser_(l), client_(client_id) {}

  bool ordered() const override { return true; }

  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue&,
                     std::error_code& error) override {
    std::size_t used = 0;
    request_parser::result r;
    for (;;) {  // need_more may consume (empty lines, *0): go on with what is left
      r = decode_from(parser_, data, used, error);
      if (r.status == decode_status::frame) break;
      if (error) {
        if (parser_.error_message().empty()) return data.size();
        into.what = server_request::kind::notice;  // bytes that are no command
        into.answer.clear();
        append_error(into.answer, "ERR " + std::string(parser_.error_message()));
        return data.size();
      }
      if (r.consumed == 0 || used == data.size()) return used;
    }
    const auto args = r.frame;
    if (is_greet_call(args)) {
      into.what = server_request::kind::call;
      into.argument = args[1];
      return used;
    }
    into.what = server_request::kind::answered;
    into.answer.clear();
    if (answer(args, client_, into.answer) == after_reply::close)
      error = errc::peer_closed;  // QUIT: the client asked to close, after its +OK
    return used;
  }

  void encode_reply(std::uint64_t, bool ok, std::string_view body, gather_queue& out) override {
    if (!ok) {
      std::string error;
      append_error(error, "ERR " + std::string(body));
      out.append_bytes(as_bytes(error));
      return;
    }
    // "$<length>\r\n<body>\r\n", written in place: no copy but the one into the queue.
    char header[24] = {'$'};
    char* end = std::to_chars(header + 1, header + sizeof header - 2, body.size()).ptr;
    *end++ = '\r';
    *end++ = '\n';
    const auto header_size = static_cast<std::size_t>(end - header);
    std::byte* at = out.append_in_place(header_size + body.size() + 2);
    std::memcpy(at, header, header_size);
    std::memcpy(at + header_size, body.data(), body.size());
    std::memcpy(at + header_size + body.size(), "\r\n", 2);
  }

  bool mid_request() const override { return parser_.mid_command(); }
  // The parser refuses a command past max_query_bytes before the read buffer is full.
  std::size_t max_read_bytes() const override {
    return parser_.limits().max_query_bytes + 64 * 1024;
  }

 private:
  request_parser parser_;
  client_state client_;  // what HELLO, CLIENT SETNAME and SETINFO set on this connection
};

}  // namespace

request_limits server_limits(const server_config& config) {
  request_limits l;
  l.max_bulk_bytes = config.max_frame_bytes;
  // Room for a command of a few maximal arguments, and never less than 1 MiB.
  l.max_query_bytes = std::max<std::size_t>(1 << 20, 2 * config.max_frame_bytes + l.max_inline_bytes);
  return l;
}

server_codec_factory server_codecs(const server_config& config) {
  // CLIENT ID, as Redis counts it: per server, from 1, in the order connections open (any
  // transport thread makes codecs, concurrently).
  auto next_id = std::make_shared<std::atomic<std::uint64_t>>(1);
  return [limits = server_limits(config), next_id] {
    return std::make_unique<server_codec_impl>(limits,
                                               next_id->fetch_add(1, std::memory_order_relaxed));
  };
}

}  // namespace wirebench::resp
