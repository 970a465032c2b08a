#pragma once
// Completions of engine calls by tag, for tests: the completion order, each call's outcome, and
// how many times each completed (each must complete exactly once).
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "wirebench/core/call_completion.hpp"

namespace wirebench::test {

struct call_outcome {
  std::error_code ec;
  std::string reply;
};

struct call_collector {
  std::mutex m;
  std::vector<std::string> order;
  std::map<std::string, call_outcome> by_tag;
  std::map<std::string, int> times;

  // From any thread the completion runs on.
  call_completion track(const std::string& tag) {
    return [this, tag](std::error_code ec, std::string_view reply) {
      std::lock_guard lock(m);
      order.push_back(tag);
      by_tag[tag] = {ec, std::string(reply)};
      ++times[tag];
    };
  }
  // Until `n` calls have completed; the cap turns a lost completion into a failure, not a hang.
  bool wait_for(std::size_t n, std::chrono::milliseconds cap = std::chrono::seconds(10)) {
    const auto until = std::chrono::steady_clock::now() + cap;
    while (std::chrono::steady_clock::now() < until) {
      {
        std::lock_guard lock(m);
        if (order.size() >= n) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }
  call_outcome get(const std::string& tag) {
    std::lock_guard lock(m);
    EXPECT_EQ(times[tag], 1) << tag << " must complete exactly once";
    return by_tag[tag];
  }
};

}  // namespace wirebench::test
