#pragma once
// A mux server (test_handler below, 4 workers) and a client engine connected to it, for the
// engine's tests.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "wirebench/client/client_engine.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_session.hpp"

namespace wirebench::test {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

// "sleep:MS:TEXT" answers TEXT after MS ms; "error" is an error reply; anything else is greeted.
inline std::string test_handler(std::string_view request, std::error_code& error) {
  if (request.starts_with("sleep:")) {
    const auto colon = request.find(':', 6);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(std::string(request.substr(6, colon - 6)))));
    return std::string(request.substr(colon + 1));
  }
  if (request == "error") {
    error = errc::rejected;
    return {};
  }
  return "hello, " + std::string(request);
}

// The engine with our mux codec (matched by id unless a test gives another codec).
inline client_engine_config mux_config(reply_order order = reply_order::by_id) {
  client_engine_config cc;
  cc.codec = [order] { return make_mux_client_codec(1 << 20, order); };
  return cc;
}

// One call in flight per connection, and `queued` more waiting for it.
inline client_engine_config one_in_flight(std::size_t queued) {
  client_engine_config cc = mux_config();
  cc.max_in_flight = 1;
  cc.max_queued = queued;
  return cc;
}

struct mux_pair {
  explicit mux_pair(client_engine_config cc = mux_config(), mux_session::settings ms = {}) {
    session_server_config sc;
    sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
    sc.workers = 4;
    ms.dispatch.handler = test_handler;
    server = std::make_unique<mux_server>(sc, ms);
    cc.connect = server->local_endpoint();
    client = std::make_unique<client_engine>(cc);
  }
  clock_type::time_point in(std::chrono::milliseconds d) { return clock_type::now() + d; }
  std::unique_ptr<mux_server> server;
  std::unique_ptr<client_engine> client;
};

template <class F>
bool eventually(F f, std::chrono::milliseconds cap = 5s) {
  const auto until = clock_type::now() + cap;
  while (clock_type::now() < until) {
    if (f()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return f();
}

}  // namespace wirebench::test
