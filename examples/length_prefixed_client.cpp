// (b) A length-prefixed client with a timeout on every call: the read of the reply races a timer
// (awaitable_operators' ||); the first to finish, reply, read error or timeout, cancels the
// other. The server in the same program greets every name but never answers "slow".
#include <chrono>
#include <iostream>
#include <string>
#include <variant>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/codec/bytes.hpp>
#include <wirebench/codec/length_prefix_decoder.hpp>
#include <wirebench/codec/length_prefix_encoder.hpp>
#include <wirebench/transport/async_read_frame.hpp>
#include <wirebench/transport/async_write_frame.hpp>

using asio::experimental::as_tuple;
using asio::ip::tcp;
using asio::use_awaitable;
using namespace asio::experimental::awaitable_operators;
using namespace std::chrono_literals;
namespace wb = wirebench;

constexpr wb::length_prefix_config framing{.header_bytes = 4, .max_frame_bytes = 64 * 1024};

// The server's side of one connection: "hello, <name>" for every name but "slow".
asio::awaitable<void> greet(tcp::socket socket) {
  wb::length_prefix_decoder decoder(framing);
  const wb::length_prefix_encoder encoder(framing);
  wb::frame_buffer buffer(framing.max_frame_bytes + framing.header_bytes);
  wb::encoded_frame out;
  try {
    for (;;) {
      const auto request = co_await wb::async_read_frame(socket, buffer, decoder, use_awaitable);
      const std::string name(wb::as_text(request));
      if (name == "slow") continue;  // never answered: the client's timeout must fire
      const std::string reply = "hello, " + name;
      co_await wb::async_write_frame(socket, encoder, wb::as_bytes(reply), out, use_awaitable);
    }
  } catch (const std::system_error&) {  // peer_closed: the client is done
  }
}

// One call: the request out, then its reply or the timeout, whichever comes first.
asio::awaitable<std::string> call(tcp::socket& socket, wb::frame_buffer& buffer,
                                  wb::length_prefix_decoder& decoder, std::string name,
                                  std::chrono::milliseconds timeout) {
  const wb::length_prefix_encoder encoder(framing);
  wb::encoded_frame out;
  co_await wb::async_write_frame(socket, encoder, wb::as_bytes(name), out, use_awaitable);
  asio::steady_timer timer(socket.get_executor(), timeout);
  // The read completes with its error code (as_tuple) instead of throwing it: Asio's || waits for
  // the first success, so a read that threw (peer_closed, frame_too_long) would wait out the timer.
  auto first = co_await (wb::async_read_frame(socket, buffer, decoder, as_tuple(use_awaitable)) ||
                         timer.async_wait(use_awaitable));
  if (first.index() == 1) co_return "timed out";  // the read was canceled
  const auto [ec, frame] = std::get<0>(first);
  if (ec) co_return "failed: " + ec.message();
  co_return std::string(wb::as_text(frame));
}

asio::awaitable<void> client(tcp::endpoint server) {
  tcp::socket socket(co_await asio::this_coro::executor);
  co_await socket.async_connect(server, use_awaitable);
  wb::length_prefix_decoder decoder(framing);
  wb::frame_buffer buffer(framing.max_frame_bytes + framing.header_bytes);
  for (const std::string name : {"ann", "bob", "slow"}) {
    // 100 ms for "slow", which the server never answers. (The call is its own statement: GCC 12
    // mishandles temporaries in a full expression that holds a co_await.)
    const auto timeout = name == "slow" ? std::chrono::milliseconds(100) : 5000ms;
    const std::string reply = co_await call(socket, buffer, decoder, name, timeout);
    std::cout << name << ": " << reply << "\n";
  }
  // After a timeout the late reply could still arrive and be taken for the next call's, so a
  // real client would close this connection here (or use the mux framing: replies carry ids).
}

int main() {
  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    tcp::socket socket = co_await acceptor.async_accept(use_awaitable);  // one client
    asio::co_spawn(io, greet(std::move(socket)), asio::detached);
  }, asio::detached);
  asio::co_spawn(io, client(acceptor.local_endpoint()), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
}
