#include "wirebench/mux/fifo_matcher.hpp"

#include <gtest/gtest.h>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = call_matcher::clock;

TEST(fifo_matcher, replies_complete_calls_in_request_order) {
  fifo_matcher m(8);
  std::vector<std::string> seen;
  auto track = [&](std::string tag) {
    return [&seen, tag](std::error_code ec, std::string_view r) {
      seen.push_back(tag + "=" + (ec ? std::string(error_name(ec)) : std::string(r)));
    };
  };
  const auto far = clock_type::now() + 1h;
  auto a = *m.add(track("a"), far, nullptr);
  auto b = *m.add(track("b"), far, nullptr);
  EXPECT_EQ(b, a + 1);
  EXPECT_EQ(m.complete(b, {}, "x"), reply_match::unknown) << "out of order";
  EXPECT_EQ(m.complete(a, {}, "1"), reply_match::completed);
  EXPECT_EQ(m.complete(b, {}, "2"), reply_match::completed);
  EXPECT_EQ(seen, (std::vector<std::string>{"a=1", "b=2"}));
}

TEST(fifo_matcher, a_timed_out_call_keeps_its_place_and_its_reply_is_late) {
  fifo_matcher m(8);
  std::vector<std::string> seen;
  const auto now = clock_type::now();
  auto a = *m.add([&](std::error_code ec, std::string_view) { seen.push_back(std::string(error_name(ec))); },
                  now + 5ms, nullptr);
  auto b = *m.add([&](std::error_code ec, std::string_view r) { seen.push_back(ec ? "?" : std::string(r)); },
                  now + 1h, nullptr);
  EXPECT_EQ(m.next_deadline(), now + 5ms);
  EXPECT_EQ(m.expire(now + 10ms), 1u);
  EXPECT_EQ(m.in_flight(), 2u) << "its reply is still due";
  EXPECT_EQ(m.complete(a, {}, "late"), reply_match::late);
  EXPECT_EQ(m.complete(b, {}, "ok"), reply_match::completed);
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
  auto a = *m.add(count, far, &token);
  m.add(count, far, nullptr);
  EXPECT_FALSE(m.add(count, far, nullptr)) << "cap";
  EXPECT_TRUE(m.cancel(a, &token));
  EXPECT_FALSE(m.cancel(a, &token));
  m.fail_all(errc::connection_closed);
  EXPECT_EQ(canceled, 1);
  EXPECT_EQ(closed, 1);
  EXPECT_EQ(m.in_flight(), 0u);
}

}  // namespace
}  // namespace wirebench
