// (a) A line-protocol echo server written as coroutines over a plain asio::ip::tcp socket, with
// wirebench's framed read and write. The same program connects once, sends three lines and
// prints what comes back, then stops the server.
#include <iostream>
#include <string>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/codec/bytes.hpp>
#include <wirebench/codec/line_decoder.hpp>
#include <wirebench/codec/line_encoder.hpp>
#include <wirebench/transport/async_read_frame.hpp>
#include <wirebench/transport/async_write_frame.hpp>

using asio::ip::tcp;
using asio::use_awaitable;
namespace wb = wirebench;

// One connection: read a line, write it back, until the peer closes (async_read_frame then
// throws peer_closed) or sends a line over the limit (frame_too_long).
asio::awaitable<void> echo(tcp::socket socket) {
  wb::line_decoder decoder({.max_line_bytes = 1024});
  const wb::line_encoder encoder({.max_line_bytes = 1024});
  wb::frame_buffer buffer(1024 + 2);  // one line and its "\r\n", at most
  wb::encoded_frame out;              // the "\n" lives here while the write runs
  try {
    for (;;) {
      auto line = co_await wb::async_read_frame(socket, buffer, decoder, use_awaitable);
      co_await wb::async_write_frame(socket, encoder, line, out, use_awaitable);
    }
  } catch (const std::system_error& e) {
    if (e.code() != wb::errc::peer_closed) std::cerr << "echo: " << e.code().message() << "\n";
  }
}

// Accepts until the acceptor is closed.
asio::awaitable<void> serve(tcp::acceptor& acceptor) {
  for (;;) {
    auto [ec, socket] = co_await acceptor.async_accept(asio::experimental::as_tuple(use_awaitable));
    if (ec) co_return;
    asio::co_spawn(acceptor.get_executor(), echo(std::move(socket)), asio::detached);
  }
}

// The client: three lines out, each echo printed, then the server is stopped.
asio::awaitable<void> client(tcp::endpoint server, tcp::acceptor& acceptor) {
  tcp::socket socket(acceptor.get_executor());
  co_await socket.async_connect(server, use_awaitable);
  wb::line_decoder decoder;
  const wb::line_encoder encoder;
  wb::frame_buffer buffer;
  wb::encoded_frame out;
  for (std::string line : {"hello", "echo me", "bye"}) {
    co_await wb::async_write_frame(socket, encoder, wb::as_bytes(line), out, use_awaitable);
    auto echoed = co_await wb::async_read_frame(socket, buffer, decoder, use_awaitable);
    std::cout << "echo: " << wb::as_text(echoed) << "\n";
  }
  acceptor.close();  // ends serve(); the echo coroutine ends when our socket closes
}

int main() {
  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});  // an ephemeral port
  asio::co_spawn(io, serve(acceptor), asio::detached);
  asio::co_spawn(io, client(acceptor.local_endpoint(), acceptor), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);  // out of io.run(): the example fails loudly
  });
  io.run();  // returns once every coroutine has ended
}
