#include "wirebench/calls/pending_table.hpp"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "calls/take_and_complete.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using clock_type = call_matcher::clock;
using namespace std::chrono_literals;

// Records how each call ended, by a label, and checks each ends exactly once.
struct outcomes {
  std::map<int, std::vector<std::string>> ended;  // label -> ["ok:reply" | error name]
  call_completion track(int label) {
    return [this, label](std::error_code ec, std::string_view reply) {
      ended[label].push_back(ec ? std::string(error_name(ec)) : "ok:" + std::string(reply));
    };
  }
  std::string only(int label) {
    EXPECT_EQ(ended[label].size(), 1u) << "call " << label << " must end exactly once";
    return ended[label].empty() ? "" : ended[label].front();
  }
};

const auto far = clock_type::now() + 1h;

// The matcher hands completions back; these run them as its caller would.
using test::take_and_complete;
std::size_t expire(call_matcher& t, clock_type::time_point now) {
  std::vector<call_completion> expired;
  const std::size_t n = t.expire(now, expired);
  for (auto& done : expired) done(errc::timeout, {});
  return n;
}
bool cancel(call_matcher& t, std::uint32_t id, const void* token) {
  call_completion done;
  if (!t.cancel(id, token, done)) return false;
  done(errc::canceled, {});
  return true;
}

TEST(pending_table, replies_in_any_order_reach_their_calls) {
  pending_table t;
  outcomes o;
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(t.add(o.track(i), far, nullptr));
  EXPECT_EQ(std::set<std::uint32_t>(ids.begin(), ids.end()).size(), 5u);
  for (int i : {3, 0, 4, 1, 2})
    EXPECT_EQ(take_and_complete(t, ids[i], "r" + std::to_string(i)), reply_match::completed);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(o.only(i), "ok:r" + std::to_string(i));
  EXPECT_EQ(t.in_flight(), 0u);
}

TEST(pending_table, ids_are_never_zero_and_never_reused_while_reserved_across_the_wrap) {
  pending_table t({.max_in_flight = 64, .max_abandoned = 64});
  outcomes o;
  t.set_next_id(0xfffffff0u);
  std::set<std::uint32_t> live;
  // A call that stays pending across the whole wrap, and one that is abandoned (timed out).
  const std::uint32_t held = t.add(o.track(-1), far, nullptr);
  const std::uint32_t abandoned = t.add(o.track(-2), clock_type::now() - 1s, nullptr);
  expire(t, clock_type::now());
  EXPECT_EQ(o.only(-2), "timeout");
  for (int round = 0; round < 20000; ++round) {
    const auto id = t.add(o.track(round), far, nullptr);
    ASSERT_NE(id, 0u);
    ASSERT_NE(id, held);
    ASSERT_NE(id, abandoned);
    ASSERT_TRUE(live.insert(id).second) << "id " << id << " handed out while in flight";
    if (live.size() > 40) {  // complete the oldest-ish to keep ~40 in flight
      auto victim = *live.begin();
      live.erase(live.begin());
      ASSERT_EQ(take_and_complete(t, victim, "x"), reply_match::completed);
    }
  }
  EXPECT_EQ(take_and_complete(t, held, "held"), reply_match::completed);
  EXPECT_EQ(o.only(-1), "ok:held");
  EXPECT_EQ(take_and_complete(t, abandoned, "late"), reply_match::late);
}

TEST(pending_table, deadline_expiry_then_the_late_reply_is_counted_and_dropped) {
  pending_table t;
  outcomes o;
  const auto now = clock_type::now();
  const auto a = t.add(o.track(1), now + 10ms, nullptr);
  const auto b = t.add(o.track(2), now + 30ms, nullptr);
  const auto c = t.add(o.track(3), now + 20ms, nullptr);  // inserted out of deadline order
  EXPECT_EQ(t.next_deadline(), now + 10ms);
  EXPECT_EQ(expire(t, now + 25ms), 2u);
  EXPECT_EQ(o.only(1), "timeout");
  EXPECT_EQ(o.only(3), "timeout");
  EXPECT_TRUE(o.ended[2].empty());
  EXPECT_EQ(t.next_deadline(), now + 30ms);
  EXPECT_EQ(take_and_complete(t, a, "late"), reply_match::late);
  EXPECT_EQ(take_and_complete(t, c, "late"), reply_match::late);
  EXPECT_EQ(take_and_complete(t, a, "again"), reply_match::unknown);
  EXPECT_EQ(t.late(), 2u);
  EXPECT_EQ(t.unknown(), 1u);
  EXPECT_EQ(take_and_complete(t, b, "ok"), reply_match::completed);
  EXPECT_EQ(o.only(2), "ok:ok");
  EXPECT_FALSE(t.next_deadline());
}

TEST(pending_table, never_issued_ids_are_unknown) {
  pending_table t;
  EXPECT_EQ(take_and_complete(t, 12345, "?"), reply_match::unknown);
  EXPECT_EQ(t.unknown(), 1u);
}

TEST(pending_table, cancel_after_send_completes_once_and_the_reply_is_late) {
  pending_table t;
  outcomes o;
  int token = 0, other = 0;
  const auto id = t.add(o.track(1), far, &token);
  EXPECT_FALSE(cancel(t, id, &other)) << "a different caller's token cancels nothing";
  EXPECT_TRUE(cancel(t, id, &token));
  EXPECT_FALSE(cancel(t, id, &token)) << "second cancel is a no-op";
  EXPECT_EQ(o.only(1), "canceled");
  EXPECT_EQ(t.in_flight(), 0u);
  EXPECT_EQ(t.abandoned(), 1u);
  EXPECT_EQ(take_and_complete(t, id, "r"), reply_match::late);
  EXPECT_EQ(t.abandoned(), 0u);
  EXPECT_EQ(o.only(1), "canceled");
}

TEST(pending_table, the_in_flight_cap_refuses_a_call) {
  pending_table t({.max_in_flight = 2, .max_abandoned = 4});
  outcomes o;
  auto a = t.add(o.track(1), far, nullptr);
  ASSERT_TRUE(t.add(o.track(2), far, nullptr));
  EXPECT_FALSE(t.add(o.track(3), far, nullptr));
  take_and_complete(t, a, "x");
  EXPECT_TRUE(t.add(o.track(4), far, nullptr));
}

TEST(pending_table, abandoned_ids_past_the_limit_are_released_oldest_first) {
  pending_table t({.max_in_flight = 8, .max_abandoned = 2});
  outcomes o;
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(t.add(o.track(i), clock_type::now() - 1s, nullptr));
  expire(t, clock_type::now());
  EXPECT_EQ(t.abandoned(), 2u);
  EXPECT_EQ(take_and_complete(t, ids[0], "r"), reply_match::unknown);  // released: no longer known
  EXPECT_EQ(take_and_complete(t, ids[1], "r"), reply_match::late);
  EXPECT_EQ(take_and_complete(t, ids[2], "r"), reply_match::late);
}

TEST(pending_table, take_all_hands_back_every_pending_call_once_with_its_request) {
  pending_table t;
  outcomes o;
  int added_from_completion = 0;
  for (int i = 0; i < 1000; ++i) t.add(o.track(i), far, nullptr, "r" + std::to_string(i));
  const auto gone = t.add(o.track(-1), clock_type::now() - 1s, nullptr, "gone");
  expire(t, clock_type::now());  // abandoned: forgotten by take_all, not handed back
  t.add(
      [&](std::error_code ec, std::string_view) {
        EXPECT_EQ(ec, errc::connection_closed);
        // The table was emptied before completions run: this call is new and stays pending.
        if (t.add(o.track(5000), far, nullptr)) ++added_from_completion;
      },
      far, nullptr, "adder");
  std::vector<unanswered_call> taken;
  t.take_all(taken);
  ASSERT_EQ(taken.size(), 1001u);
  EXPECT_EQ(t.in_flight(), 0u);
  EXPECT_EQ(t.abandoned(), 0u);
  std::set<std::string> requests;
  for (const auto& c : taken) requests.insert(c.request);
  EXPECT_EQ(requests.count("r0") + requests.count("r999") + requests.count("adder"), 3u);
  EXPECT_EQ(requests.count("gone"), 0u);
  fail_calls(taken, errc::connection_closed);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(o.only(i), "connection_closed");
  EXPECT_EQ(added_from_completion, 1);
  EXPECT_EQ(t.in_flight(), 1u);
  EXPECT_EQ(take_and_complete(t, gone, "late"), reply_match::unknown) << "forgotten, not late";
}

TEST(pending_table, grows_past_its_first_size_keeping_every_call_and_the_deadline_order) {
  pending_table t({.max_in_flight = 1000, .max_abandoned = 64});
  outcomes o;
  const auto now = clock_type::now();
  std::vector<std::uint32_t> ids;
  // Deadlines in reverse order of issue, so that the list order differs from the id order.
  for (int i = 0; i < 1000; ++i)
    ids.push_back(t.add(o.track(i), now + std::chrono::milliseconds(2000 - i), nullptr,
                         "r" + std::to_string(i)));
  EXPECT_EQ(t.in_flight(), 1000u);
  EXPECT_EQ(t.next_deadline(), now + std::chrono::milliseconds(1001));
  EXPECT_EQ(expire(t, now + std::chrono::milliseconds(1010)), 10u);  // the last ten issued
  for (int i = 990; i < 1000; ++i) EXPECT_EQ(o.only(i), "timeout");
  unanswered_call back;
  ASSERT_TRUE(t.take_unanswered(ids[500], back));
  EXPECT_EQ(back.request, "r500");
  for (int i = 0; i < 990; ++i) {
    if (i == 500) continue;  // taken back above
    EXPECT_EQ(take_and_complete(t, ids[i], "x"), reply_match::completed) << i;
  }
  for (int i = 990; i < 1000; ++i) EXPECT_EQ(take_and_complete(t, ids[i], "x"), reply_match::late);
  EXPECT_EQ(t.in_flight(), 0u);
  EXPECT_FALSE(t.next_deadline());
}

TEST(pending_table, one_unanswered_call_can_be_taken_back_for_a_resend) {
  pending_table t;
  outcomes o;
  const auto a = t.add(o.track(1), far, nullptr, "first");
  const auto b = t.add(o.track(2), far, nullptr, "second");
  unanswered_call back;
  ASSERT_TRUE(t.take_unanswered(a, back));
  EXPECT_EQ(back.request, "first");
  EXPECT_FALSE(t.take_unanswered(a, back)) << "already taken";
  EXPECT_EQ(t.in_flight(), 1u);
  EXPECT_EQ(t.next_deadline(), far);
  EXPECT_EQ(take_and_complete(t, a, "x"), reply_match::unknown);
  back.done({}, "resent");
  EXPECT_EQ(o.only(1), "ok:resent");
  EXPECT_EQ(take_and_complete(t, b, "y"), reply_match::completed);
}

TEST(pending_table, a_completion_may_issue_the_next_call) {
  pending_table t;
  int chain = 0;
  std::function<void(std::error_code, std::string_view)> next;
  std::uint32_t current = 0;
  next = [&](std::error_code, std::string_view) {
    if (++chain < 100) current = t.add(call_completion(next), far, nullptr);
  };
  current = t.add(call_completion(next), far, nullptr);
  for (int i = 0; i < 100; ++i) take_and_complete(t, current, "r");
  EXPECT_EQ(chain, 100);
  EXPECT_EQ(t.in_flight(), 0u);
}

}  // namespace
}  // namespace wirebench
