// HTTP/1.1 client over persistent connections: the shared multiplexing client in ordered (FIFO)
// mode with an HTTP/1.1 wire. Responses carry no id, so the wire numbers them in arrival order
// the way the FIFO matcher numbers calls (1, 2, ..., skipping 0), and pipelining is the client's
// in-flight cap per connection (depth).
#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../http_common/greet_api.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "../common/backend_support.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::http1 {
namespace {

class wire final : public client_wire {
 public:
  explicit wire(std::string host, std::size_t max_body)
      : host_(std::move(host)), parser_(parser::kind::response, limits{16 * 1024, 64, max_body}) {}

  std::size_t decode(connection&, std::span<const std::byte> data, reply_sink& sink,
                     std::error_code& error) override {
    error = parser_.parse(data, ready_);
    for (message& m : ready_) {
      std::uint32_t id = next_id_++;  // numbered as fifo_matcher numbers calls
      if (id == 0) id = next_id_++;
      std::string greeting;
      bool matched;
      if (m.status == 200 && http::parse_greeting(m.body, greeting))
        matched = sink.reply(id, {}, greeting);
      else if (m.status == 200)
        matched = sink.reply(id, errc::wrong_reply, {});
      else
        matched = sink.reply(id, errc::remote_error, std::to_string(m.status) + " " + m.body);
      if (!matched) {
        error = errc::protocol_error;
        break;
      }
    }
    ready_.clear();
    return data.size();
  }
  void write_request(connection& c, std::uint32_t, std::string&& name) override {
    c.send({}, greet_request(name, host_, true), {});
  }
  bool write_cancel(connection&, std::uint32_t) override { return false; }
  bool mid_frame() const override { return parser_.mid_message(); }
  std::size_t max_frame_bytes() const override { return 64 * 1024; }

 private:
  std::string host_;
  parser parser_;
  std::vector<message> ready_;
  std::uint32_t next_id_ = 1;
};

}  // namespace

std::string host_header(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

std::string greet_request(std::string_view name, const std::string& host, bool keep_alive) {
  std::string out = "GET ";
  out.append(http::greet_target(name)).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
  if (!keep_alive) out.append("Connection: close\r\n");
  out.append("\r\n");
  return out;
}

std::unique_ptr<protocol_client> make_client(const client_config& config) {
  mux_client_config m = multiplexing_config(config);
  m.ordered = true;
  m.max_in_flight = config.depth == 0 ? 1 : config.depth;  // the pipelining depth
  m.max_queued = 1 << 20;  // calls wait for their connection; the closed loop bounds them
  m.wire = [host = host_header(config.connect), max = config.max_frame_bytes] {
    return std::make_unique<wire>(host, max);
  };
  return std::make_unique<multiplexed_greet_client>(config, std::move(m));
}

}  // namespace wirebench::http1
