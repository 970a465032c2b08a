// (c) An RPC server and client on the mux framing with many calls in flight on one connection.
// The server's handler is a coroutine that takes a different time per call, so replies come back
// out of order; the client engine matches each to its call by id. 100 calls are started at once
// from coroutines and every reply is checked.
#include <chrono>
#include <iostream>
#include <string>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/client/async_call.hpp>
#include <wirebench/mux/mux_client_codec.hpp>
#include <wirebench/mux/mux_rpc_session.hpp>

using namespace std::chrono_literals;
namespace wb = wirebench;

// The server's handler: runs on the connection's event loop, so it waits with a timer (never
// sleeps). Request "7" waits 7 % 5 ms and answers "hello, 7".
asio::awaitable<wb::rpc_reply> greet(std::string name) {
  // (GCC 12 mishandles temporaries in a full expression that holds a co_await: keep them apart.)
  const auto executor = co_await asio::this_coro::executor;
  asio::steady_timer work(executor, std::chrono::milliseconds(std::stoi(name) % 5));
  co_await work.async_wait(asio::use_awaitable);
  co_return "hello, " + name;
}

// One call from the client: 2 s to answer; true when the reply is the right one.
asio::awaitable<bool> one_call(wb::client_engine& engine, int i) {
  const std::string name = std::to_string(i);
  const std::string reply = co_await wb::async_call(engine, name, 2s, asio::use_awaitable);
  co_return reply == "hello, " + name;
}

int main() {
  wb::session_server_config server_config;
  server_config.transport.listen = wb::endpoint::parse_or_throw("tcp://127.0.0.1:0");
  wb::mux_rpc_server server(server_config, {.handler = greet});  // listening from here

  wb::client_engine_config client_config;
  client_config.connect = server.local_endpoint();
  client_config.codec = [] { return wb::make_mux_client_codec(1 << 20); };
  wb::client_engine engine(client_config);  // one connection: all 100 calls share it

  // The calls' coroutines run here; each completion comes back to this io_context.
  asio::io_context io;
  int correct = 0, failed = 0;
  for (int i = 0; i < 100; ++i)
    asio::co_spawn(io, one_call(engine, i), [&](std::exception_ptr e, bool ok) {
      (ok && !e ? correct : failed) += 1;
    });
  io.run();  // until all 100 have completed
  std::cout << correct << " of 100 replies correct, " << failed << " failed\n";
  engine.close();
  server.stop();
  return correct == 100 ? 0 : 1;
}
