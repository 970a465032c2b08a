#include "wirebench/transport/io_pool.hpp"

#include <charconv>
#include <stdexcept>

#include <asio/post.hpp>
#include <pthread.h>
#include <sched.h>

#include "wirebench/core/error.hpp"
#include "wirebench/transport/connection_tracker.hpp"

namespace wirebench {

void connection_tracker::close_all(std::error_code reason) {
  // Copy first: closing a connection removes it from live_.
  std::vector<closable*> open(live_.begin(), live_.end());
  for (closable* c : open) c->close(reason);
}

io_pool::io_pool(io_pool_options options) {
  if (options.threads == 0) throw std::invalid_argument("io_pool: threads must be at least 1");
  slots_.reserve(options.threads);
  for (std::size_t i = 0; i < options.threads; ++i) {
    auto s = std::make_unique<slot>();
    s->own = std::make_unique<asio::io_context>(1);  // one thread per context: asio may skip its locking
    s->context = s->own.get();
    s->work.emplace(s->context->get_executor());
    slots_.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < options.threads; ++i) {
    std::vector<int> cpus;
    if (!options.cpus.empty()) cpus = {options.cpus[i % options.cpus.size()]};
    std::string name = (options.name + "-" + std::to_string(i)).substr(0, 15);
    slots_[i]->thread = std::thread([this, i, cpus = std::move(cpus), name] {
      pthread_setname_np(pthread_self(), name.c_str());
      pin_current_thread(cpus);
      slots_[i]->context->run();
    });
  }
}

io_pool::io_pool(asio::io_context& external) : external_(true) {
  auto s = std::make_unique<slot>();
  s->context = &external;
  slots_.push_back(std::move(s));
}

io_pool::~io_pool() { stop(); }

asio::io_context& io_pool::next() {
  return *slots_[next_.fetch_add(1, std::memory_order_relaxed) % slots_.size()]->context;
}

bool io_pool::running_in_pool() const {
  for (const auto& s : slots_)
    if (s->thread.get_id() == std::this_thread::get_id()) return true;
  return false;
}

void io_pool::stop_loop(std::size_t i) {
  if (external_) return;  // not ours to stop
  asio::io_context& ctx = *slots_[i]->context;
  asio::post(ctx, [&ctx] {
    asio::use_service<connection_tracker>(ctx).close_all(errc::shutting_down);
    ctx.stop();
  });
}

void io_pool::stop() {
  std::call_once(stop_asked_, [this] {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      stop_loop(i);
      slots_[i]->work.reset();  // (none for the caller's loop)
    }
  });
  join();
}

void io_pool::join() {
  if (running_in_pool()) return;  // a thread cannot join itself: joined by a later call
  std::call_once(joined_, [this] {
    for (auto& s : slots_)
      if (s->thread.joinable()) s->thread.join();
  });
}

std::vector<int> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  auto number = [&](std::string_view s) {
    int v = -1;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < 0 || v >= CPU_SETSIZE)
      throw std::invalid_argument("bad CPU list '" + std::string(text) +
                                  "': expected numbers like 0,1 or 0-3");
    return v;
  };
  if (text.empty()) throw std::invalid_argument("empty CPU list");
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    const std::string_view part = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    const auto dash = part.find('-');
    if (dash == std::string_view::npos) {
      cpus.push_back(number(part));
    } else {
      const int lo = number(part.substr(0, dash));
      const int hi = number(part.substr(dash + 1));
      if (hi < lo) throw std::invalid_argument("bad CPU range '" + std::string(part) + "'");
      for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return cpus;
}

bool pin_current_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

}  // namespace wirebench
