// The pipelined resp client: the shared multiplexing client in ordered (FIFO) mode with a RESP2
// wire. hiredis formats the commands (redisFormatCommandArgv) and parses the replies (its sans-IO
// reader); our transport moves the bytes. Replies carry no id, so the wire numbers them in arrival
// order the way the FIFO matcher numbers calls (1, 2, ..., skipping 0); depth = pipelining depth.
#include <deque>

#include <hiredis/hiredis.h>

#include "resp_backend.hpp"
#include "resp_reply_reader.hpp"
#include "../common/backend_support.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::resp {
namespace {

class wire final : public client_wire {
 public:
  wire(greet_command how, std::size_t max_reply) : how_(how), max_reply_(max_reply), reader_(max_reply) {}

  std::size_t decode(connection&, std::span<const std::byte> data, reply_sink& sink,
                     std::error_code& error) override {
    error = reader_.feed(data);
    while (!error && reader_.next(reply_, error)) {
      if (expected_.empty()) {  // a reply nobody asked for: the stream cannot be matched
        error = errc::protocol_error;
        break;
      }
      std::uint32_t id = next_id_++;  // numbered as fifo_matcher numbers calls
      if (id == 0) id = next_id_++;
      const std::error_code verdict = check_greeting(reply_.kind, reply_.text, expected_.front());
      expected_.pop_front();
      const bool matched = verdict == errc::wrong_reply ? sink.reply(id, verdict, {})
                                                        : sink.reply(id, verdict, reply_.text);
      if (!matched) {
        error = errc::protocol_error;
        break;
      }
    }
    return data.size();  // hiredis's reader keeps what it needs
  }

  void write_request(connection& c, std::uint32_t, std::string&& name) override {
    std::string greeting = expected_greeting(name);
    const bool echo = how_ == greet_command::echo;
    const char* argv[2] = {echo ? "ECHO" : "GREET", echo ? greeting.data() : name.data()};
    const std::size_t lens[2] = {echo ? 4u : 5u, echo ? greeting.size() : name.size()};
    char* command = nullptr;
    const int n = redisFormatCommandArgv(&command, 2, argv, lens);
    if (n > 0) c.send({}, std::string(command, static_cast<std::size_t>(n)), {});
    redisFreeCommand(command);
    expected_.push_back(std::move(greeting));
  }
  bool write_cancel(connection&, std::uint32_t) override { return false; }
  bool mid_frame() const override { return reader_.mid_reply(); }
  std::size_t max_frame_bytes() const override { return max_reply_; }

 private:
  greet_command how_;
  std::size_t max_reply_;
  reply_reader reader_;
  reply reply_;
  std::deque<std::string> expected_;  // the greeting each call in flight must get, in order
  std::uint32_t next_id_ = 1;
};

}  // namespace

std::unique_ptr<protocol_client> make_client(const client_config& config, greet_command how) {
  mux_client_config m = multiplexing_config(config);
  m.ordered = true;
  m.max_in_flight = config.depth == 0 ? 1 : config.depth;  // the pipelining depth
  m.max_queued = 1 << 20;  // calls wait for their connection; the closed loop bounds them
  m.wire = [how, max = config.max_frame_bytes] { return std::make_unique<wire>(how, max); };
  return std::make_unique<multiplexed_greet_client>(config, std::move(m));
}

}  // namespace wirebench::resp
