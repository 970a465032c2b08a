#include "wirebench/calls/fifo_matcher.hpp"

#include <bit>
#include <stdexcept>

#include "wirebench/core/error.hpp"

namespace wirebench {

fifo_matcher::fifo_matcher(std::size_t max_in_flight)
    : capacity_(max_in_flight), ring_(std::bit_ceil(max_in_flight)), mask_(ring_.size() - 1) {
  if (max_in_flight == 0) throw std::invalid_argument("fifo_matcher: max_in_flight is 0");
}

std::uint32_t fifo_matcher::add(call_completion&& done, clock::time_point deadline,
                                const void* token, std::string_view request) {
  if (in_flight_ == capacity_) return 0;
  std::uint32_t id = next_id_++;
  if (id == 0) id = next_id_++;
  entry& e = at(in_flight_);
  e.id = id;
  e.deadline = deadline;
  e.token = token;
  e.done = std::move(done);
  e.request.assign(request);
  ++in_flight_;
  ++live_;
  return id;
}

void fifo_matcher::pop_front() {
  ring_[head_].done = nullptr;
  ring_[head_].token = nullptr;
  head_ = (head_ + 1) & mask_;
  --in_flight_;
}

std::optional<std::uint32_t> fifo_matcher::next_in_order() const {
  if (in_flight_ == 0) return std::nullopt;
  return at(0).id;
}

reply_match fifo_matcher::take(std::uint32_t id, call_completion& done) {
  if (in_flight_ == 0 || at(0).id != id) {
    ++unknown_;
    return reply_match::unknown;
  }
  entry& e = at(0);
  if (!e.done) {
    pop_front();
    ++late_;
    return reply_match::late;
  }
  done = std::move(e.done);
  pop_front();
  --live_;
  return reply_match::completed;
}

bool fifo_matcher::cancel(std::uint32_t id, const void* token, call_completion& done) {
  for (std::size_t i = 0; i < in_flight_; ++i) {
    entry& e = at(i);
    if (e.id != id) continue;
    if (!e.done || e.token != token) return false;
    done = std::move(e.done);
    --live_;
    return true;
  }
  return false;
}

// Deadlines are scanned in full: the ring is bounded by max_in_flight, and this runs only when
// the connection's deadline timer fires.
std::size_t fifo_matcher::expire(clock::time_point now, std::vector<call_completion>& expired) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < in_flight_ && live_ > 0; ++i) {
    entry& e = at(i);
    if (!e.done || e.deadline > now) continue;
    expired.push_back(std::move(e.done));
    --live_;
    ++count;
  }
  return count;
}

std::optional<call_matcher::clock::time_point> fifo_matcher::next_deadline() const {
  std::optional<clock::time_point> earliest;
  for (std::size_t i = 0; i < in_flight_ && live_ > 0; ++i) {
    const entry& e = at(i);
    if (e.done && (!earliest || e.deadline < *earliest)) earliest = e.deadline;
  }
  return earliest;
}

void fifo_matcher::take_all(std::vector<unanswered_call>& out) {
  while (in_flight_ > 0) {
    entry& e = at(0);
    if (e.done) out.push_back({std::move(e.request), std::move(e.done), e.deadline, e.token});
    pop_front();
  }
  live_ = 0;
}

bool fifo_matcher::take_unanswered(std::uint32_t id, unanswered_call& out) {
  if (in_flight_ == 0) return false;
  const bool oldest = at(0).id == id, newest = at(in_flight_ - 1).id == id;
  entry& e = oldest ? at(0) : at(in_flight_ - 1);
  if ((!oldest && !newest) || !e.done) return false;
  out = {std::move(e.request), std::move(e.done), e.deadline, e.token};
  e.token = nullptr;
  if (oldest) head_ = (head_ + 1) & mask_;
  --in_flight_;
  --live_;
  return true;
}

}  // namespace wirebench
