#include "wirebench/mux/fifo_matcher.hpp"

#include <stdexcept>
#include <vector>

#include "wirebench/core/error.hpp"

namespace wirebench {

fifo_matcher::fifo_matcher(std::size_t max_in_flight) : max_in_flight_(max_in_flight) {
  if (max_in_flight_ == 0) throw std::invalid_argument("fifo_matcher: max_in_flight is 0");
}

std::optional<std::uint32_t> fifo_matcher::add(call_completion done, clock::time_point deadline,
                                               const void* token) {
  if (queue_.size() >= max_in_flight_) return std::nullopt;
  std::uint32_t id = next_id_++;
  if (id == 0) id = next_id_++;
  queue_.push_back({id, deadline, token, std::move(done)});
  return id;
}

reply_match fifo_matcher::complete(std::uint32_t id, std::error_code ec, std::string_view reply) {
  if (queue_.empty() || queue_.front().id != id) {
    ++unknown_;
    return reply_match::unknown;
  }
  call_completion done = std::move(queue_.front().done);
  queue_.pop_front();
  if (!done) {
    ++late_;
    return reply_match::late;
  }
  done(ec, reply);
  return reply_match::completed;
}

bool fifo_matcher::cancel(std::uint32_t id, const void* token) {
  for (entry& e : queue_) {
    if (e.id != id) continue;
    if (!e.done || e.token != token) return false;
    call_completion done = std::move(e.done);
    e.done = nullptr;
    done(errc::canceled, {});
    return true;
  }
  return false;
}

// Deadlines are scanned in full: the queue is bounded by max_in_flight, and this runs only when
// the connection's deadline timer fires.
std::size_t fifo_matcher::expire(clock::time_point now) {
  std::vector<call_completion> expired;
  for (entry& e : queue_)
    if (e.done && e.deadline <= now) expired.push_back(std::move(e.done)), e.done = nullptr;
  for (auto& done : expired) done(errc::timeout, {});
  return expired.size();
}

std::optional<call_matcher::clock::time_point> fifo_matcher::next_deadline() const {
  std::optional<clock::time_point> earliest;
  for (const entry& e : queue_)
    if (e.done && (!earliest || e.deadline < *earliest)) earliest = e.deadline;
  return earliest;
}

void fifo_matcher::fail_all(std::error_code ec) {
  std::deque<entry> failed = std::move(queue_);
  queue_.clear();
  for (entry& e : failed)
    if (e.done) e.done(ec, {});
}

}  // namespace wirebench
