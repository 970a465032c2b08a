#include "wirebench/calls/fifo_matcher.hpp"

#include <gtest/gtest.h>

#include "calls/take_and_complete.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = call_matcher::clock;

using test::take_and_complete;

TEST(fifo_matcher, replies_complete_calls_in_request_order) {
  fifo_matcher m(8);
  std::vector<std::string> seen;
  auto track = [&](std::string tag) {
    return [&seen, tag](std::error_code ec, std::string_view r) {
      seen.push_back(tag + "=" + (ec ? std::string(error_name(ec)) : std::string(r)));
    };
  };
  const auto far = clock_type::now() + 1h;
  auto a = m.add(track("a"), far, nullptr);
  auto b = m.add(track("b"), far, nullptr);
  EXPECT_EQ(b, a + 1);
  EXPECT_EQ(take_and_complete(m, b, "x"), reply_match::unknown) << "out of order";
  EXPECT_EQ(take_and_complete(m, a, "1"), reply_match::completed);
  EXPECT_EQ(take_and_complete(m, b, "2"), reply_match::completed);
  EXPECT_EQ(seen, (std::vector<std::string>{"a=1", "b=2"}));
}

TEST(fifo_matcher, a_timed_out_call_keeps_its_place_and_its_reply_is_late) {
  fifo_matcher m(8);
  std::vector<std::string> seen;
  const auto now = clock_type::now();
  auto a = m.add([&](std::error_code ec, std::string_view) { seen.push_back(std::string(error_name(ec))); },
                  now + 5ms, nullptr);
  auto b = m.add([&](std::error_code ec, std::string_view r) { seen.push_back(ec ? "?" : std::string(r)); },
                  now + 1h, nullptr);
  EXPECT_EQ(m.next_deadline(), now + 5ms);
  std::vector<call_completion> expired;
  EXPECT_EQ(m.expire(now + 10ms, expired), 1u);
  for (auto& done : expired) done(errc::timeout, {});
  EXPECT_EQ(m.in_flight(), 2u) << "its reply is still due";
  EXPECT_EQ(take_and_complete(m, a, "late"), reply_match::late);
  EXPECT_EQ(take_and_complete(m, b, "ok"), reply_match::completed);
  EXPECT_EQ(seen, (std::vector<std::string>{"timeout", "ok"}));
  EXPECT_EQ(m.late(), 1u);
}

TEST(fifo_matcher, cancel_cap_and_fail_all) {
  fifo_matcher m(2);
  int canceled = 0, closed = 0;
  int token = 0;
  auto count = [&](std::error_code ec, std::string_view) {
    if (ec == errc::canceled) ++canceled;
    if (ec == errc::connection_closed) ++closed;
  };
  const auto far = clock_type::now() + 1h;
  auto a = m.add(count, far, &token, "a");
  m.add(count, far, nullptr, "b");
  EXPECT_FALSE(m.add(count, far, nullptr)) << "cap";
  call_completion done;
  EXPECT_TRUE(m.cancel(a, &token, done));
  done(errc::canceled, {});
  EXPECT_FALSE(m.cancel(a, &token, done));
  std::vector<unanswered_call> taken;
  m.take_all(taken);
  ASSERT_EQ(taken.size(), 1u) << "the canceled call is not handed back";
  EXPECT_EQ(taken[0].request, "b");
  fail_calls(taken, errc::connection_closed);
  EXPECT_EQ(canceled, 1);
  EXPECT_EQ(closed, 1);
  EXPECT_EQ(m.in_flight(), 0u);
}

TEST(fifo_matcher, the_ring_wraps_around_without_losing_order) {
  fifo_matcher m(3);
  std::vector<std::string> seen;
  const auto far = clock_type::now() + 1h;
  auto record = [&](std::error_code, std::string_view r) { seen.push_back(std::string(r)); };
  for (int round = 0; round < 10; ++round) {
    ASSERT_TRUE(m.add(record, far, nullptr, "x"));
    ASSERT_TRUE(m.add(record, far, nullptr, "y"));
    EXPECT_EQ(take_and_complete(m, *m.next_in_order(), std::to_string(2 * round)), reply_match::completed);
    EXPECT_EQ(take_and_complete(m, *m.next_in_order(), std::to_string(2 * round + 1)), reply_match::completed);
  }
  ASSERT_EQ(seen.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(seen[i], std::to_string(i));
  EXPECT_FALSE(m.next_in_order());
}

TEST(fifo_matcher, only_the_oldest_or_newest_call_can_be_taken_back) {
  fifo_matcher m(4);
  const auto far = clock_type::now() + 1h;
  auto nop = [](std::error_code, std::string_view) {};
  const auto a = m.add(nop, far, nullptr, "a");
  const auto b = m.add(nop, far, nullptr, "b");
  const auto c = m.add(nop, far, nullptr, "c");
  unanswered_call back;
  EXPECT_FALSE(m.take_unanswered(b, back)) << "the middle keeps its place";
  ASSERT_TRUE(m.take_unanswered(c, back)) << "the newest: a call that could not be encoded";
  EXPECT_EQ(back.request, "c");
  ASSERT_TRUE(m.take_unanswered(a, back));
  EXPECT_EQ(back.request, "a");
  EXPECT_EQ(m.next_in_order(), b);
}

}  // namespace
}  // namespace wirebench
