#pragma once
// Blocking helpers over protocol_client for tests: every call completes, so these waits end
// (with a generous cap so that a bug shows as a failure, not a hung test run).
#include <chrono>
#include <future>
#include <string>
#include <system_error>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::test {

struct call_result {
  std::error_code ec;
  std::string reply;
  bool completed = false;
};

inline call_result greet_sync(protocol_client& client, std::string_view name,
                              std::chrono::seconds cap = std::chrono::seconds(20)) {
  auto p = std::make_shared<std::promise<call_result>>();
  auto f = p->get_future();
  client.async_greet(name, [p](std::error_code ec, std::string_view reply) {
    p->set_value({ec, std::string(reply), true});
  });
  if (f.wait_for(cap) != std::future_status::ready) return {};
  return f.get();
}

}  // namespace wirebench::test
