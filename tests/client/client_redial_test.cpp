// The client engine when the server closes, refuses, drains, or is not there: a new connection
// takes the old one's place, calls the server did not process are sent again, calls lost in
// flight fail once with connection_closed, and failed dials back off. Driven by a line codec with
// markers (below) against a scripted server, so that each path is forced, not hoped for.
#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "support/scripted_line_server.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/codec/text_frames.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
using action = test::scripted_line_server::action;

// Replies in request order, one line each:
//   "hello, x"   a reply
//   "!hello, x"  a reply, and the server goes: calls behind it were not processed (HTTP/1.1's
//                Connection: close)
//   "?"          the oldest call was refused unprocessed (HTTP/2's REFUSED_STREAM)
//   "~"          the server goes, answering what is in flight (a mux drain, a GOAWAY)
class marker_codec final : public client_codec {
 public:
  reply_order order() const override { return reply_order::in_order; }
  bool may_refuse() const override { return true; }
  std::error_code encode(std::uint32_t, std::string_view request, gather_queue& out) override {
    return encode_frame(encoder_, request, out);
  }
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    return decode_frames(decoder_, data, error, [&](std::string_view line) {
      if (line == "?") {
        into.replies.push_back({0, {}, {}, /*not_processed=*/true});
      } else if (line == "~") {
        into.going_away = true;
      } else if (line.starts_with("!")) {
        into.replies.push_back({0, {}, line.substr(1)});
        into.going_away = into.rest_not_processed = true;
      } else {
        into.replies.push_back({0, {}, line});
      }
    });
  }
  bool mid_reply() const override { return decoder_.mid_frame(); }
  std::size_t max_read_bytes() const override { return 4096; }

 private:
  line_decoder decoder_{{.max_line_bytes = 1024}};
  line_encoder encoder_;
};

client_engine_config config_for(const endpoint& where, std::size_t depth = 1) {
  client_engine_config c;
  c.connect = where;
  c.max_in_flight = depth;
  c.connect_timeout = 2s;
  c.codec = [] { return std::make_unique<marker_codec>(); };
  return c;
}

std::string greeting(std::string_view line) { return "hello, " + std::string(line); }

// Counts completions per call; each must be exactly one.
struct tally {
  std::mutex m;
  std::map<std::string, int> times;
  std::map<std::string, std::string> outcome;  // name -> "ok" | error name | "wrong:<reply>"
  std::atomic<int> done{0};
  call_completion track(const std::string& name) {
    return [this, name](std::error_code ec, std::string_view reply) {
      std::lock_guard lock(m);
      ++times[name];
      outcome[name] = ec ? std::string(error_name(ec))
                         : reply == greeting(name) ? "ok" : "wrong:" + std::string(reply);
      ++done;
    };
  }
  // Calls `name` and waits until it has completed.
  bool call_and_wait(client_engine& client, const std::string& name) {
    const int before = done.load();
    client.async_call(name, clock_type::now() + 10s, track(name));
    return wait_for(before + 1);
  }
  bool wait_for(int n, std::chrono::milliseconds cap = 10s) {
    const auto until = clock_type::now() + cap;
    while (done.load() < n && clock_type::now() < until) std::this_thread::sleep_for(1ms);
    return done.load() >= n;
  }
  std::map<std::string, int> count_by_outcome() {
    std::lock_guard lock(m);
    std::map<std::string, int> by;
    for (const auto& [name, o] : outcome) ++by[o];
    for (const auto& [name, n] : times) EXPECT_EQ(n, 1) << name << " completed " << n << " times";
    return by;
  }
};

// One caller that calls again the moment its call completes, for `how_long`: a tight loop of
// failures unless the engine backs its dials off. Returns each outcome's count.
std::map<std::string, int> call_repeatedly(client_engine& client, std::chrono::milliseconds how_long) {
  std::mutex m;
  std::map<std::string, int> outcomes;
  std::atomic<bool> stop{false};
  std::promise<void> stopped;
  std::function<void()> call = [&] {
    client.async_call("x", clock_type::now() + 10s, [&](std::error_code ec, std::string_view) {
      {
        std::lock_guard lock(m);
        ++outcomes[ec ? std::string(error_name(ec)) : "ok"];
      }
      if (!stop) call();
      else stopped.set_value();
    });
  };
  call();
  std::this_thread::sleep_for(how_long);
  stop = true;
  EXPECT_EQ(stopped.get_future().wait_for(5s), std::future_status::ready);
  std::lock_guard lock(m);
  return outcomes;
}

TEST(client_redial, a_server_that_closes_after_every_third_reply_loses_no_call) {
  // Like nginx's keepalive_requests 3: the third reply says the connection ends, and the
  // requests pipelined behind it were never read.
  test::scripted_line_server server([](int, int request, const std::string& line) {
    if (request == 2) return action{action::reply_then_close, "!" + greeting(line)};
    return action{action::reply, greeting(line)};
  });
  client_engine client(config_for(server.where(), /*depth=*/4));
  tally t;
  constexpr int n = 300;
  for (int i = 0; i < n; ++i) {
    const std::string name = "c" + std::to_string(i);
    client.async_call(name, clock_type::now() + 20s, t.track(name));
  }
  ASSERT_TRUE(t.wait_for(n)) << t.done.load();
  EXPECT_EQ(t.count_by_outcome()["ok"], n);
  const auto s = client.stats();
  EXPECT_GE(s.reconnects, static_cast<std::uint64_t>(n / 3 - 1));
  EXPECT_GT(s.resent, 0u) << "with 4 pipelined, calls behind the closing reply were sent again";
  EXPECT_EQ(s.connect_failures, 0u);
}

TEST(client_redial, calls_lost_in_flight_fail_once_and_the_next_call_gets_a_new_connection) {
  test::scripted_line_server server([](int connection, int, const std::string& line) {
    if (connection == 0) return action{action::close_now, {}};  // read it, then vanish
    return action{action::reply, greeting(line)};
  });
  client_engine client(config_for(server.where()));
  tally t;
  ASSERT_TRUE(t.call_and_wait(client, "lost"));
  ASSERT_TRUE(t.call_and_wait(client, "next"));
  EXPECT_EQ(t.outcome["lost"], "connection_closed") << "it may have been processed: not resent";
  EXPECT_EQ(t.outcome["next"], "ok");
  EXPECT_EQ(server.accepted(), 2);
  EXPECT_EQ(client.stats().reconnects, 1u);
  EXPECT_EQ(client.stats().resent, 0u);
}

TEST(client_redial, a_refused_call_is_sent_again_and_answered_once) {
  test::scripted_line_server server([](int, int request, const std::string& line) {
    if (request == 0) return action{action::reply, "?"};
    return action{action::reply, greeting(line)};
  });
  client_engine client(config_for(server.where()));
  tally t;
  ASSERT_TRUE(t.call_and_wait(client, "x"));
  EXPECT_EQ(t.outcome["x"], "ok");
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(server.accepted(), 1) << "a refusal alone does not end the connection";
  EXPECT_EQ(client.stats().resent, 1u);
}

TEST(client_redial, a_drain_answers_what_is_in_flight_and_later_calls_use_a_new_connection) {
  test::scripted_line_server server([](int connection, int, const std::string& line) {
    if (connection == 0) return action{action::reply, "~\n" + greeting(line)};  // going, then answer
    return action{action::reply, greeting(line)};
  });
  client_engine client(config_for(server.where()));
  tally t;
  ASSERT_TRUE(t.call_and_wait(client, "a"));
  ASSERT_TRUE(t.call_and_wait(client, "b"));
  EXPECT_EQ(t.count_by_outcome()["ok"], 2);
  EXPECT_EQ(server.accepted(), 2);
  EXPECT_EQ(server.requests(), 2) << "nothing was sent to the connection that was going";
}

TEST(client_redial, nobody_listening_fails_calls_with_connect_failed_and_backs_off) {
  const auto nowhere = endpoint::parse_or_throw("unix:/tmp/wirebench-redial-nobody-" +
                                                std::to_string(::getpid()) + ".sock");
  client_engine client(config_for(nowhere));
  // 400 ms of calls: the dials back off 10, 20, 40, 80, 160 ms.
  auto outcomes = call_repeatedly(client, 400ms);
  const auto s = client.stats();
  EXPECT_EQ(outcomes.size(), 1u);
  EXPECT_GE(s.connect_failures, 3u);
  EXPECT_LE(s.connect_failures, 12u) << "dials must back off";
  EXPECT_LE(outcomes["connect_failed"], 14)
      << "each failed dial fails the calls that waited for it, no more";
  EXPECT_EQ(s.connects, 0u);
  EXPECT_TRUE(s.last_connect_error) << "the reason is kept for the report";
}

// Fail-fast (wait_for_connection false, an open loop's choice): while the lane backs off after a
// failed dial a call fails at once with connect_failed, without a dial of its own; once the
// back-off has passed, the next call dials again and waits for that dial.
TEST(client_redial, without_waiting_for_a_connection_calls_fail_at_once_during_the_back_off) {
  const std::string path = "/tmp/wirebench-redial-fast-" + std::to_string(::getpid()) + ".sock";
  client_engine_config c = config_for(endpoint::parse_or_throw("unix:" + path));
  c.wait_for_connection = false;
  c.redial_backoff = c.max_redial_backoff = 300ms;
  client_engine client(c);
  tally t;
  client.async_call("first", clock_type::now() + 10s, t.track("first"));  // waits for the dial
  ASSERT_TRUE(t.wait_for(1));
  const auto dials = client.stats().connect_failures;
  const auto started = clock_type::now();
  for (int i = 0; i < 100; ++i)
    client.async_call("fast" + std::to_string(i), clock_type::now() + 10s,
                      t.track("fast" + std::to_string(i)));
  ASSERT_TRUE(t.wait_for(101));
  EXPECT_LT(clock_type::now() - started, 200ms) << "they waited for the next dial";
  EXPECT_EQ(client.stats().connect_failures, dials) << "no call dials during the back-off";
  test::scripted_line_server server(
      [](int, int, const std::string& line) { return action{action::reply, greeting(line)}; }, path);
  std::this_thread::sleep_for(350ms);  // the back-off is over
  ASSERT_TRUE(t.call_and_wait(client, "late"));
  const auto by = t.count_by_outcome();
  EXPECT_EQ(by.at("connect_failed"), 101);
  EXPECT_EQ(t.outcome["late"], "ok");
}

TEST(client_redial, a_server_that_comes_back_is_dialed_again) {
  const std::string path = "/tmp/wirebench-redial-back-" + std::to_string(::getpid()) + ".sock";
  client_engine client(config_for(endpoint::parse_or_throw("unix:" + path)));
  tally t;
  ASSERT_TRUE(t.call_and_wait(client, "early"));
  EXPECT_EQ(t.outcome["early"], "connect_failed");
  test::scripted_line_server server(
      [](int, int, const std::string& line) { return action{action::reply, greeting(line)}; }, path);
  // The next call waits for the next dial (after the back-off), which now succeeds.
  ASSERT_TRUE(t.call_and_wait(client, "late"));
  EXPECT_EQ(t.outcome["late"], "ok");
  EXPECT_EQ(client.stats().connects, 1u);
}

TEST(client_redial, a_server_that_accepts_and_closes_is_not_redialed_in_a_tight_loop) {
  test::scripted_line_server server(
      [](int, int, const std::string&) { return action{action::close_now, {}}; });
  client_engine client(config_for(server.where()));
  auto outcomes = call_repeatedly(client, 400ms);
  EXPECT_GE(server.accepted(), 3);
  EXPECT_LE(server.accepted(), 12) << "a connection that never answered backs the dials off";
  EXPECT_GE(outcomes["connection_closed"], 3);
}

TEST(client_redial, a_deadline_holds_while_a_new_connection_is_dialed) {
  // Calls waiting in the lane for a connection time out on their own deadline.
  const auto nowhere = endpoint::parse_or_throw("unix:/tmp/wirebench-redial-slow-" +
                                                std::to_string(::getpid()) + ".sock");
  client_engine_config c = config_for(nowhere);
  c.redial_backoff = 1s;  // the first dial fails at once; the next is 1 s away
  client_engine client(c);
  std::this_thread::sleep_for(50ms);  // let the first dial fail
  tally t;
  const auto t0 = clock_type::now();
  client.async_call("x", t0 + 100ms, t.track("x"));
  ASSERT_TRUE(t.wait_for(1));
  EXPECT_EQ(t.outcome["x"], "timeout");
  EXPECT_LT(clock_type::now() - t0, 600ms);
}

TEST(client_redial, close_while_backing_off_completes_every_call) {
  const auto nowhere = endpoint::parse_or_throw("unix:/tmp/wirebench-redial-close-" +
                                                std::to_string(::getpid()) + ".sock");
  client_engine_config c = config_for(nowhere);
  c.redial_backoff = 10s;
  client_engine client(c);
  std::this_thread::sleep_for(50ms);
  tally t;
  for (int i = 0; i < 100; ++i) client.async_call("x" + std::to_string(i), clock_type::now() + 60s,
                                                  t.track("x" + std::to_string(i)));
  client.close();
  ASSERT_TRUE(t.wait_for(100, 2s));
  EXPECT_EQ(t.count_by_outcome()["connection_closed"], 100);
  // After close() there is no thread left: a call completes at once, here.
  client.async_call("after", clock_type::now() + 1s, t.track("after"));
  EXPECT_EQ(t.done.load(), 101);
}

}  // namespace
}  // namespace wirebench
