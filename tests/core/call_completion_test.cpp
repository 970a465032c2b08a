#include "wirebench/core/call_completion.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

TEST(call_completion, starts_empty_and_is_emptied_by_nullptr) {
  call_completion none;
  EXPECT_FALSE(none);
  call_completion also_none = nullptr;
  EXPECT_FALSE(also_none);
  int runs = 0;
  call_completion some = [&runs](std::error_code, std::string_view) { ++runs; };
  EXPECT_TRUE(some);
  some = nullptr;
  EXPECT_FALSE(some);
  EXPECT_EQ(runs, 0);
}

TEST(call_completion, a_null_function_pointer_or_an_empty_std_function_is_empty) {
  void (*none)(std::error_code, std::string_view) = nullptr;
  EXPECT_FALSE(call_completion(none));
  EXPECT_FALSE(call_completion(std::function<void(std::error_code, std::string_view)>()));
  EXPECT_TRUE(call_completion(std::function<void(std::error_code, std::string_view)>(
      [](std::error_code, std::string_view) {})));
}

TEST(call_completion, passes_the_error_and_the_reply) {
  std::error_code seen_ec;
  std::string seen_reply;
  call_completion done = [&](std::error_code ec, std::string_view reply) {
    seen_ec = ec;
    seen_reply = reply;
  };
  done(errc::remote_error, "no such method");
  EXPECT_EQ(seen_ec, make_error_code(errc::remote_error));
  EXPECT_EQ(seen_reply, "no such method");
}

// A small trivially copyable lambda (inline) and one holding a string (on the heap) behave alike.
TEST(call_completion, moves_leave_the_source_empty_for_inline_and_heap_callables) {
  int runs = 0;
  std::string tag(100, 't');  // too big for the inline bytes, and not trivially copyable
  std::vector<call_completion> all;
  all.emplace_back([&runs](std::error_code, std::string_view) { ++runs; });
  all.emplace_back([&runs, tag](std::error_code, std::string_view) { runs += tag.size() == 100; });
  for (call_completion& c : all) {
    call_completion moved = std::move(c);
    EXPECT_FALSE(c);  // NOLINT(bugprone-use-after-move): the contract under test
    ASSERT_TRUE(moved);
    call_completion assigned;
    assigned = std::move(moved);
    EXPECT_FALSE(moved);  // NOLINT(bugprone-use-after-move)
    assigned({}, "x");
  }
  EXPECT_EQ(runs, 2);
}

// A heap-held callable is destroyed exactly once: when its last holder goes, or is reassigned.
TEST(call_completion, destroys_what_it_holds_once) {
  auto alive = std::make_shared<int>(0);
  {
    call_completion a = [alive](std::error_code, std::string_view) {};
    EXPECT_EQ(alive.use_count(), 2);
    call_completion b = std::move(a);
    EXPECT_EQ(alive.use_count(), 2);
    b = [](std::error_code, std::string_view) {};  // replaces: the old one is destroyed
    EXPECT_EQ(alive.use_count(), 1);
    b = [alive](std::error_code, std::string_view) {};
    EXPECT_EQ(alive.use_count(), 2);
  }
  EXPECT_EQ(alive.use_count(), 1);
}

TEST(call_completion, a_mutable_callable_keeps_its_state_between_runs) {
  std::vector<int> seen;
  const call_completion counter = [&seen, n = 0](std::error_code, std::string_view) mutable {
    seen.push_back(++n);
  };
  counter({}, "");  // through a const completion too, as std::function allows
  counter({}, "");
  EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace wirebench
