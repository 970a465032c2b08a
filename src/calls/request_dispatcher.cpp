#include "wirebench/calls/request_dispatcher.hpp"

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>

#include <thread>

namespace wirebench {

request_dispatcher::ready_reply request_dispatcher::compute(std::string_view request,
                                                            std::uint64_t key) const {
  std::error_code ec;
  std::string body = settings_.handler(request, ec);
  return {key, !ec, ec ? ec.message() : std::move(body)};
}

std::error_code request_dispatcher::start(connection& c, std::uint64_t key,
                                          std::string_view request) {
  ++in_flight_;
  const std::uint64_t seq = next_seq_++;
  if (pool_ == nullptr) {
    ready_reply reply = compute(request, key);
    const auto delay = settings_.service_time.sample(rng_);
    if (delay.count() == 0 || settings_.service_time.holds_thread()) {
      // busy: the event loop itself is held, as a server with a blocking handler and no pool is.
      if (delay.count() != 0) std::this_thread::sleep_for(delay);
      deliver(c, seq, std::move(reply));
      return {};
    }
    ++running_[key];
    reply.ran = true;
    auto conn = c.shared_from_this();
    auto timer = std::make_shared<asio::steady_timer>(c.executor(), delay);
    timer->async_wait([this, conn, seq, timer, r = std::move(reply)](std::error_code) mutable {
      deliver(*conn, seq, std::move(r));
    });
    return {};
  }
  ++running_[key];
  auto conn = c.shared_from_this();
  asio::post(*pool_, [this, conn, seq, key, req = std::string(request)] {
    ready_reply reply = compute(req, key);
    reply.ran = true;
    thread_local std::mt19937_64 rng{std::random_device{}()};
    const auto delay = settings_.service_time.sample(rng);
    if (delay.count() == 0 || settings_.service_time.holds_thread()) {
      if (delay.count() != 0) std::this_thread::sleep_for(delay);  // busy: the worker is held
      finish(conn, seq, std::move(reply));
      return;
    }
    auto timer = std::make_shared<asio::steady_timer>(*pool_, delay);
    timer->async_wait([this, conn, seq, timer, r = std::move(reply)](std::error_code) mutable {
      finish(conn, seq, std::move(r));
    });
  });
  return {};
}

void request_dispatcher::start_answered(connection& c, std::uint64_t key, std::string bytes) {
  ++in_flight_;
  deliver(c, next_seq_++, {key, true, std::move(bytes), true});
}

// From a worker thread: back to the connection's thread.
void request_dispatcher::finish(const std::shared_ptr<connection>& conn, std::uint64_t seq,
                                ready_reply reply) {
  asio::post(conn->executor(), [this, conn, seq, r = std::move(reply)]() mutable {
    deliver(*conn, seq, std::move(r));
  });
}

void request_dispatcher::deliver(connection& c, std::uint64_t seq, ready_reply reply) {
  --in_flight_;
  if (reply.ran) {
    const auto running = running_.find(reply.key);
    if (--running->second == 0) running_.erase(running);
  }
  if (!ordered_) {
    write(c, std::move(reply));
  } else {
    held_.emplace(seq, std::move(reply));
    while (!held_.empty() && held_.begin()->first == next_to_write_) {
      write(c, std::move(held_.begin()->second));
      held_.erase(held_.begin());
      ++next_to_write_;
    }
  }
  c.work_finished();  // a drain may have been waiting for this
}

void request_dispatcher::write(connection& c, ready_reply reply) {
  if (!canceled_.empty() && canceled_.erase(reply.key) != 0) return;
  if (reply.encoded) {
    c.send({}, std::move(reply.body), {});
    return;
  }
  write_(c, reply.key, reply.ok, std::move(reply.body));
}

}  // namespace wirebench
