// (g) The server and the client of mux_rpc.cpp on the caller's io_context instead of threads of
// their own, as Asio I/O objects: the listener, both ends of the connection, the handler's
// coroutines, the calls' coroutines and every completion run on the main thread's io.run().
// When the last call is answered, its completion closes the engine and stops the server from
// the loop; the loop finishes both, and io.run() returns.
#include <chrono>
#include <iostream>
#include <string>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/client.hpp>
#include <wirebench/mux.hpp>

using namespace std::chrono_literals;
namespace wb = wirebench;

asio::awaitable<wb::rpc_reply> greet(std::string name) { co_return "hello, " + name; }

int main() {
  asio::io_context io;
  wb::session_server_config server_config;
  server_config.transport.listen = wb::endpoint::parse_or_throw("tcp://127.0.0.1:0");
  wb::mux_rpc_server server(io.get_executor(), server_config, {.handler = greet});

  wb::client_engine_config client_config;
  client_config.connect = server.local_endpoint();
  client_config.codec = [] { return wb::make_mux_client_codec(1 << 20); };
  wb::client_engine engine(io.get_executor(), client_config);  // runs where io runs

  int correct = 0, failed = 0;
  for (int i = 0; i < 100; ++i)
    asio::co_spawn(io, [&engine, i]() -> asio::awaitable<bool> {
      const std::string name = std::to_string(i);
      const std::string reply = co_await wb::async_call(engine, name, 2s, asio::use_awaitable);
      co_return reply == "hello, " + name;
    }, [&](std::exception_ptr e, bool ok) {
      (ok && !e ? correct : failed) += 1;
      if (correct + failed < 100) return;
      engine.close();  // on the loop, both return at once: the loop does the rest
      server.stop();
    });
  io.run();  // until neither has anything left on it
  std::cout << correct << " of 100 replies correct on one loop, " << failed << " failed\n";
  return correct == 100 ? 0 : 1;
}
