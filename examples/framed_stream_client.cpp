// (e) framed_stream: a socket, its read buffer, the line codec and timeouts in one object, as
// Beast's tcp_stream is for HTTP. The server first reads a greeting line with Asio's own
// async_read_until, through the same buffer its frames are then decoded from
// (wirebench::dynamic_buffer), and answers every line but "silent". The client's read timeout
// turns the unanswered request into errc::read_timeout, and the stream goes on.
#include <chrono>
#include <iostream>
#include <string>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read_until.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <wirebench/codec.hpp>
#include <wirebench/core.hpp>
#include <wirebench/transport.hpp>

using namespace std::chrono_literals;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
namespace wb = wirebench;

// Lines of at most 1 KiB each way.
using line_stream = wb::framed_stream<wb::line_decoder, wb::line_encoder>;
constexpr std::size_t max_line = 1024;

line_stream make_stream(tcp::socket socket) {
  return line_stream(std::move(socket), wb::line_decoder({.max_line_bytes = max_line}),
                     wb::line_encoder({.max_line_bytes = max_line}),
                     {.max_buffer_bytes = max_line + 2});
}

// One client: its greeting, then "name" answered "hello, name" until it goes.
asio::awaitable<void> serve(tcp::socket socket) {
  line_stream s = make_stream(std::move(socket));
  const std::size_t n = co_await asio::async_read_until(
      s.next_layer(), wb::dynamic_buffer(s.buffer()), "\r\n", use_awaitable);
  std::cout << "server: greeting \"" << wb::as_text(s.buffer().data().first(n - 2)) << "\"\n";
  s.buffer().consume(n);  // the frames that came with it stay in the buffer
  for (;;) {
    auto [ec, frame] = co_await s.async_read_frame(asio::experimental::as_tuple(use_awaitable));
    if (ec == wb::errc::peer_closed) co_return;  // the client went, between frames
    if (ec) throw std::system_error(ec);
    const std::string name(wb::as_text(frame));
    if (name == "silent") continue;
    const std::string reply = "hello, " + name;
    co_await s.async_write_frame(reply, use_awaitable);
  }
}

asio::awaitable<void> client(tcp::endpoint server) {
  tcp::socket socket(co_await asio::this_coro::executor);
  co_await socket.async_connect(server, use_awaitable);
  line_stream s = make_stream(std::move(socket));  // TCP_NODELAY set
  co_await asio::async_write(s.next_layer(), asio::buffer(std::string_view("HELLO example\r\n")),
                             use_awaitable);
  for (const std::string name : {"ann", "silent", "bob"}) {
    s.set_read_timeout(name == "silent" ? 200ms : 10s);
    co_await s.async_write_frame(name, use_awaitable);
    auto [ec, reply] = co_await s.async_read_frame(asio::experimental::as_tuple(use_awaitable));
    if (ec == std::errc::timed_out)
      std::cout << name << ": " << wb::error_name(ec) << "\n";
    else if (ec)
      throw std::system_error(ec);
    else
      std::cout << name << ": " << wb::as_text(reply) << "\n";
  }
}  // the client's socket closes: the server's read ends with peer_closed

int main() {
  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    tcp::socket socket = co_await acceptor.async_accept(use_awaitable);  // one client here
    co_await serve(std::move(socket));
  }, asio::detached);
  bool ok = false;
  asio::co_spawn(io, client(acceptor.local_endpoint()), [&](std::exception_ptr e) { ok = !e; });
  io.run();
  return ok ? 0 : 1;
}
