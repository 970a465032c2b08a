// RESP server (RESP2; RESP3 after HELLO 3, resp_commands.hpp) on our transport: the sans-IO request parser, pipelining with replies in request
// order, every reply of one read gathered into one send (Redis's "reply before the loop sleeps").
// A protocol error is answered with Redis's text, flushed, and closes that connection only.
#include <algorithm>

#include "resp_backend.hpp"
#include "resp_commands.hpp"
#include "../common/greet_server.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

class session : public stream_session {
 public:
  using settings = request_limits;
  // The parser refuses a command past max_query_bytes before the read buffer is full.
  static std::size_t max_read_bytes(const settings& l) { return l.max_query_bytes + 64 * 1024; }
  explicit session(const settings& l) : parser_(l) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    std::string out;
    std::size_t used = 0;
    std::uint64_t served = 0;
    for (;;) {
      const auto r = parser_.parse(data.subspan(used));
      used += r.consumed;
      if (r.what == request_parser::status::need_more) break;
      if (r.what == request_parser::status::error) {
        if (!parser_.error_message().empty())
          append_error(out, "ERR " + std::string(parser_.error_message()));
        error = parser_.error();
        break;
      }
      ++served;
      if (answer(parser_.args(), client_, out) == after_reply::close) {
        error = errc::peer_closed;  // QUIT: the client asked to close, after its +OK
        break;
      }
    }
    if (!out.empty()) c.send({}, std::move(out), {});
    count_requests(served);
    return error ? data.size() : used;
  }
  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return parser_.mid_command(); }

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

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<greet_server<session>>(config, "resp-srv", server_limits(config));
}

}  // namespace wirebench::resp
