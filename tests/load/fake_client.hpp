#pragma once
// A protocol_client without a network, for testing the load drivers: it answers each call from its
// own thread (as a real client's event loop would, never inside async_greet) after a fixed
// delay, in call order, with the greeting or with what `answer` decides for the call's index.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/error.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::testing {

struct fake_answer {
  std::error_code ec;
  std::optional<std::string> reply;  // nullopt: the correct greeting
};

class fake_client final : public protocol_client {
 public:
  explicit fake_client(std::chrono::milliseconds delay = {},
                       std::function<fake_answer(std::uint64_t)> answer = {})
      : delay_(delay), answer_(std::move(answer)), thread_([this] { serve(); }) {}
  ~fake_client() override { close(); }

  using protocol_client::async_greet;
  void async_greet(std::string_view name, call_options, call_completion done) override {
    if (on_call) on_call(name);
    std::lock_guard lock(mutex_);
    queue_.push_back({std::chrono::steady_clock::now() + delay_, std::string(name), std::move(done),
                      calls_++});
    wake_.notify_one();
  }

  void close() override {
    if (close_blocked_until.valid()) close_blocked_until.wait();
    {
      std::lock_guard lock(mutex_);
      if (closing_) return;
      closing_ = true;
    }
    wake_.notify_one();
    thread_.join();
    // What it still holds fails, as a real client's calls do when it closes.
    std::vector<call> held;
    {
      std::lock_guard lock(mutex_);
      held.swap(held_);
      answered_ += held.size();
    }
    for (call& c : held) c.done(errc::connection_closed, {});
  }

  // Set before the first call. Calls for which it is true are never answered (a client that
  // broke its promise): only close() completes them, with connection_closed.
  std::function<bool(std::uint64_t index)> lose;
  // Set before the first call: close() waits for it first (a client whose close hangs).
  std::shared_future<void> close_blocked_until;

  // Sees each call's name as it is made (set before the first call).
  std::function<void(std::string_view)> on_call;
  // Set before the first call: play a client with a user call (its replies judged already).
  bool user_call = false;
  bool greets() const override { return !user_call; }
  // What counters() says it re-dialed: any thread may bump it (a test's answer does).
  std::atomic<std::uint64_t> reconnects{0};
  client_counters counters() const override {
    client_counters c;
    c.reconnects = reconnects.load();
    return c;
  }

  std::uint64_t calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  // Calls not yet answered (counted as answered just before their completion runs: a driver that
  // returns early would be caught, one that returns from inside the last completion is fine).
  std::uint64_t unanswered() const {
    std::lock_guard lock(mutex_);
    return calls_ - answered_;
  }

 private:
  struct call {
    std::chrono::steady_clock::time_point due;
    std::string name;
    call_completion done;
    std::uint64_t index;
  };

  void serve() {
    std::unique_lock lock(mutex_);
    while (true) {
      if (queue_.empty()) {
        if (closing_) return;
        wake_.wait(lock);
        continue;
      }
      if (std::chrono::steady_clock::now() < queue_.front().due) {
        wake_.wait_until(lock, queue_.front().due);
        continue;
      }
      call c = std::move(queue_.front());
      queue_.pop_front();
      if (lose && lose(c.index)) {
        held_.push_back(std::move(c));
        continue;
      }
      ++answered_;
      lock.unlock();  // the completion may call async_greet
      fake_answer a = answer_ ? answer_(c.index) : fake_answer{};
      const std::string reply = a.ec ? "" : a.reply.value_or(expected_greeting(c.name));
      c.done(a.ec, reply);
      lock.lock();
    }
  }

  const std::chrono::milliseconds delay_;
  const std::function<fake_answer(std::uint64_t)> answer_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<call> queue_;
  std::vector<call> held_;  // lost calls (see lose), until close()
  std::uint64_t calls_ = 0;
  std::uint64_t answered_ = 0;
  bool closing_ = false;
  std::thread thread_;
};

// A client with an event loop of its own (protocol_client::event_loops), as the client engine
// has: an open loop then runs its schedule there. Each call is answered on that loop after
// `delay`, with the greeting; it notes any call made from another thread.
class loop_client final : public protocol_client {
 public:
  explicit loop_client(std::chrono::milliseconds delay = {})
      : delay_(delay), thread_([this] {
          loop_thread_ = std::this_thread::get_id();
          loop_.run();
        }) {}
  ~loop_client() override { close(); }

  using protocol_client::async_greet;
  void async_greet(std::string_view name, call_options, call_completion done) override {
    if (std::this_thread::get_id() != loop_thread_) ++calls_off_loop;
    ++calls;
    auto timer = std::make_shared<asio::steady_timer>(loop_, delay_);
    timer->async_wait([timer, name = std::string(name), d = std::move(done)](std::error_code) {
      d({}, expected_greeting(name));
    });
  }
  void close() override {
    if (!thread_.joinable()) return;
    work_.reset();
    thread_.join();
  }
  std::vector<asio::io_context*> event_loops() override { return {&loop_}; }

  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> calls_off_loop{0};

 private:
  const std::chrono::milliseconds delay_;
  asio::io_context loop_{1};
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{
      loop_.get_executor()};
  std::atomic<std::thread::id> loop_thread_{};
  std::thread thread_;
};

}  // namespace wirebench::testing
