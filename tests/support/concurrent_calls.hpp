#pragma once
// Calls from several threads at once on one client: every call must complete exactly once, with
// the right greeting (GoogleTest expectations).
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::test {

inline void expect_each_call_completes_once(protocol_client& c, int threads = 4, int per_thread = 500) {
  std::vector<std::atomic<int>> completions(threads * per_thread);
  std::atomic<int> wrong{0}, done{0};
  std::mutex first_wrong_mutex;
  std::string first_wrong;  // what the first wrong completion got, for the failure message
  std::vector<std::thread> callers;
  for (int t = 0; t < threads; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        const int id = t * per_thread + i;
        const std::string name = "n" + std::to_string(id);
        c.async_greet(name, [&, id, name](std::error_code ec, std::string_view reply) {
          if (ec || reply != expected_greeting(name)) {
            std::lock_guard lock(first_wrong_mutex);
            // With an error, the reply is its detail (a peer's message, OpenSSL's or gRPC's reason).
            if (wrong++ == 0)
              first_wrong = ec ? ec.message() + (reply.empty() ? "" : ": " + std::string(reply))
                               : "reply '" + std::string(reply) + "'";
          }
          ++completions[id];
          ++done;
        });
      }
    });
  for (auto& t : callers) t.join();
  for (int i = 0; i < 4000 && done.load() < threads * per_thread; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(done.load(), threads * per_thread);
  std::lock_guard lock(first_wrong_mutex);
  EXPECT_EQ(wrong.load(), 0) << "the first: " << first_wrong;
  for (auto& n : completions) EXPECT_EQ(n.load(), 1);
}

}  // namespace wirebench::test
