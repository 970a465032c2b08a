// Uses the codecs and the transport from the installed headers and library: a line server on an
// abstract Unix socket answers one request.
#include <future>
#include <iostream>
#include <string>
#include <unistd.h>

#include <asio/buffers_iterator.hpp>
#include <asio/read_until.hpp>
#include <asio/streambuf.hpp>
#include <asio/write.hpp>
#include <wirebench/codec/bytes.hpp>
#include <wirebench/codec/line_decoder.hpp>
#include <wirebench/codec/line_encoder.hpp>
#include <wirebench/transport/stream_server.hpp>

namespace wb = wirebench;

class greeter final : public wb::connection_handler {
 public:
  std::size_t on_data(wb::connection& c, std::span<const std::byte> data, std::error_code&) override {
    std::size_t used = 0;
    for (;;) {
      auto r = decoder_.decode(data.subspan(used));
      used += r.consumed;
      if (r.status != wb::decode_status::frame) break;
      reply_ = "hello, " + std::string(wb::as_text(r.frame));
      wb::encoded_frame f;
      if (!encoder_.encode(wb::as_bytes(reply_), f)) c.send(f);
    }
    return used;
  }
  void on_close(wb::connection&, std::error_code) override {}

 private:
  wb::line_decoder decoder_;
  wb::line_encoder encoder_;
  std::string reply_;
};

int main() {
  wb::stream_server_config config;
  config.listen = wb::endpoint::parse_or_throw("unix:@wirebench-consumer-" + std::to_string(getpid()));
  wb::stream_server server(config, [] { return std::make_unique<greeter>(); });
  server.start();

  wb::io_pool client_pool;
  std::promise<std::string> reply;
  wb::async_connect(client_pool.context(0), server.local_endpoint(), std::chrono::seconds(5),
                    [&](std::error_code ec, wb::stream_socket s) {
                      if (ec) return reply.set_value("connect failed: " + ec.message());
                      asio::write(s, asio::buffer(std::string("consumer\n")));
                      asio::streambuf buf;
                      asio::read_until(s, buf, '\n');
                      std::string line{asio::buffers_begin(buf.data()), asio::buffers_end(buf.data())};
                      reply.set_value(line.substr(0, line.size() - 1));
                    });
  std::cout << "consumer: " << reply.get_future().get() << "\n";
  client_pool.stop();
  server.stop();
}
