// Uses the codecs and the transport from the installed headers and library: a line server on an
// abstract Unix socket answers one request, which a coroutine sends and reads back with the
// library's framed operations. Then a dial nobody answers: the error made inside the library (a
// shared one too) must compare equal to Asio's enum in this program, which needs one instance of
// Asio's error category per process (src/core/asio_error_identity.hpp).
#include <future>
#include <iostream>
#include <string>
#include <string_view>
#include <unistd.h>

#include <asio/co_spawn.hpp>
#include <asio/error.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/codec/bytes.hpp>
#include <wirebench/codec/line_decoder.hpp>
#include <wirebench/codec/line_encoder.hpp>
#include <wirebench/transport/async_read_frame.hpp>
#include <wirebench/transport/async_write_frame.hpp>
#include <wirebench/transport/listener.hpp>
#include <wirebench/transport/connection_server.hpp>
#include <wirebench/version.hpp>

namespace wb = wirebench;

static_assert(WIREBENCH_VERSION_NUMBER ==
              WIREBENCH_VERSION_MAJOR * 10000 + WIREBENCH_VERSION_MINOR * 100 + WIREBENCH_VERSION_PATCH);
#ifdef WIREBENCH_EXPECTED_VERSION  // built with find_package: the package config's version
static_assert(std::string_view(WIREBENCH_VERSION_STRING) == WIREBENCH_EXPECTED_VERSION);
#endif

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

// One line out, one line back. The coroutine owns the socket and the frame's buffers.
asio::awaitable<std::string> greet(wb::stream_socket socket, std::string name) {
  const wb::line_encoder encoder;
  wb::encoded_frame frame;
  co_await wb::async_write_frame(socket, encoder, wb::as_bytes(name), frame, asio::use_awaitable);
  wb::line_decoder decoder;
  wb::frame_buffer buffer(64 * 1024 + 2);
  const auto reply = co_await wb::async_read_frame(socket, buffer, decoder, asio::use_awaitable);
  co_return std::string(wb::as_text(reply));
}

int main() {
  wb::connection_server_config config;
  config.listen = wb::endpoint::parse_or_throw("unix:@wirebench-consumer-" + std::to_string(getpid()));
  wb::connection_server server(config, [] { return std::make_unique<greeter>(); });
  server.start();

  wb::io_pool client_pool;
  std::promise<std::string> reply;
  wb::async_connect(client_pool.context(0), server.local_endpoint(), std::chrono::seconds(5),
                    [&](std::error_code ec, wb::stream_socket s) {
                      if (ec) return reply.set_value("connect failed: " + ec.message());
                      asio::co_spawn(client_pool.context(0), greet(std::move(s), "consumer"),
                                     [&](std::exception_ptr failed, std::string r) {
                                       reply.set_value(failed ? "greet failed" : r);
                                     });
                    });
  std::cout << "consumer: " << reply.get_future().get() << "\n";

  std::promise<std::error_code> refused;
  wb::async_connect(client_pool.context(0),
                    wb::endpoint::parse_or_throw("unix:@wirebench-nobody-" + std::to_string(getpid())),
                    std::chrono::seconds(5),
                    [&](std::error_code ec, wb::stream_socket) { refused.set_value(ec); });
  const std::error_code ec = refused.get_future().get();
  if (ec != asio::error::connection_refused) {
    std::cout << "a refused dial gave " << ec.category().name() << ":" << ec.value()
              << ", not asio::error::connection_refused\n";
    return 1;
  }
  client_pool.stop();
  server.stop();
}
