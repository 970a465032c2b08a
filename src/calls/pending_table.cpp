#include "wirebench/calls/pending_table.hpp"

#include <bit>
#include <stdexcept>

#include "wirebench/core/error.hpp"

namespace wirebench {

pending_table::pending_table(pending_table_config config) : config_(config) {
  if (config_.max_in_flight == 0) throw std::invalid_argument("pending_table: max_in_flight is 0");
  const std::size_t reserved = config_.max_in_flight + config_.max_abandoned;
  if (reserved > (1u << 28)) throw std::invalid_argument("pending_table: limits too large");
  max_slots_ = std::bit_ceil(std::max<std::size_t>(16, 2 * reserved));
  const std::size_t size = std::min<std::size_t>(max_slots_, 128);
  slots_.resize(size);
  requests_.resize(size);
  mask_ = static_cast<std::uint32_t>(size - 1);
}

void pending_table::grow() {
  std::vector<slot> old = std::move(slots_);
  std::vector<std::string> old_requests = std::move(requests_);
  slots_ = std::vector<slot>(old.size() * 2);
  requests_ = std::vector<std::string>(old.size() * 2);
  mask_ = static_cast<std::uint32_t>(slots_.size() - 1);
  // Distinct in the old mask's bits, distinct in the new one's: no two ids meet.
  for (std::size_t i = 0; i < old.size(); ++i) {
    if (old[i].st == state::free) continue;
    const std::size_t j = old[i].id & mask_;
    slots_[j] = std::move(old[i]);
    requests_[j] = std::move(old_requests[i]);
  }
  // The deadline list, in its order, by the new positions.
  const std::int32_t old_head = head_;
  head_ = tail_ = -1;
  for (std::int32_t i = old_head; i != -1; i = old[static_cast<std::size_t>(i)].next) {
    const auto j = static_cast<std::int32_t>(old[static_cast<std::size_t>(i)].id & mask_);
    slot& s = slots_[static_cast<std::size_t>(j)];
    s.prev = tail_;
    s.next = -1;
    if (tail_ == -1) head_ = j; else slots_[static_cast<std::size_t>(tail_)].next = j;
    tail_ = j;
  }
}

// Inline here (add and take are the per-call path), like unlink().
inline void pending_table::link_by_deadline(std::int32_t index) {
  slot& s = slots_[static_cast<std::size_t>(index)];
  // Walk back from the tail past later deadlines: O(1) when every call has the same timeout.
  std::int32_t after = tail_;
  while (after != -1 && slots_[static_cast<std::size_t>(after)].deadline > s.deadline)
    after = slots_[static_cast<std::size_t>(after)].prev;
  s.prev = after;
  s.next = after == -1 ? head_ : slots_[static_cast<std::size_t>(after)].next;
  if (s.prev == -1) head_ = index; else slots_[static_cast<std::size_t>(s.prev)].next = index;
  if (s.next == -1) tail_ = index; else slots_[static_cast<std::size_t>(s.next)].prev = index;
}

inline void pending_table::unlink(std::int32_t index) {
  slot& s = slots_[static_cast<std::size_t>(index)];
  if (s.prev == -1) head_ = s.next; else slots_[static_cast<std::size_t>(s.prev)].next = s.next;
  if (s.next == -1) tail_ = s.prev; else slots_[static_cast<std::size_t>(s.next)].prev = s.prev;
  s.prev = s.next = -1;
}

pending_table::slot* pending_table::find(std::uint32_t id, state st) {
  slot& s = slots_[id & mask_];
  return s.id == id && s.st == st ? &s : nullptr;
}

std::uint32_t pending_table::add(call_completion&& done, clock::time_point deadline,
                                 const void* token, std::string_view request) {
  if (in_flight_ >= config_.max_in_flight) return 0;
  if (2 * (in_flight_ + abandoned_count_ + 1) > slots_.size() && slots_.size() < max_slots_) grow();
  // At least half the slots are free, so this ends after ~2 probes on average. Id 0 is skipped.
  std::uint32_t id;
  for (;;) {
    id = next_id_++;
    if (id != 0 && slots_[id & mask_].st == state::free) break;
  }
  const auto index = static_cast<std::int32_t>(id & mask_);
  slot& s = slots_[static_cast<std::size_t>(index)];
  s.id = id;
  s.st = state::pending;
  s.deadline = deadline;
  s.token = token;
  s.done = std::move(done);
  s.has_request = !request.empty();
  if (s.has_request) requests_[static_cast<std::size_t>(index)].assign(request);
  link_by_deadline(index);
  ++in_flight_;
  return id;
}

void pending_table::abandon(std::int32_t index) {
  slot& s = slots_[static_cast<std::size_t>(index)];
  unlink(index);
  s.st = state::abandoned;
  s.token = nullptr;
  --in_flight_;
  abandoned_.push_back(s.id);
  ++abandoned_count_;
  // Past the limit, release the oldest abandoned id (skipping entries already answered late).
  while (abandoned_count_ > config_.max_abandoned && !abandoned_.empty()) {
    const std::uint32_t old = abandoned_.front();
    abandoned_.pop_front();
    if (slot* o = find(old, state::abandoned)) {
      o->st = state::free;
      --abandoned_count_;
    }
  }
}

reply_match pending_table::take(std::uint32_t id, call_completion& done) {
  slot& s = slots_[id & mask_];
  if (s.id != id || s.st == state::free) {
    ++unknown_;
    return reply_match::unknown;
  }
  if (s.st == state::abandoned) {
    s.st = state::free;  // its entry in abandoned_ is skipped when reached
    --abandoned_count_;
    ++late_;
    return reply_match::late;
  }
  unlink(static_cast<std::int32_t>(id & mask_));
  done = std::move(s.done);
  s.st = state::free;
  --in_flight_;
  return reply_match::completed;
}

bool pending_table::cancel(std::uint32_t id, const void* token, call_completion& done) {
  slot* s = find(id, state::pending);
  if (s == nullptr || s->token != token) return false;
  done = std::move(s->done);
  abandon(static_cast<std::int32_t>(id & mask_));
  return true;
}

std::size_t pending_table::expire(clock::time_point now, std::vector<call_completion>& expired) {
  std::size_t count = 0;
  while (head_ != -1 && slots_[static_cast<std::size_t>(head_)].deadline <= now) {
    const std::int32_t index = head_;
    expired.push_back(std::move(slots_[static_cast<std::size_t>(index)].done));
    abandon(index);
    ++count;
  }
  return count;
}

std::optional<call_matcher::clock::time_point> pending_table::next_deadline() const {
  if (head_ == -1) return std::nullopt;
  return slots_[static_cast<std::size_t>(head_)].deadline;
}

void pending_table::release(slot& s, unanswered_call& out) {
  if (s.has_request) out.request = std::move(requests_[static_cast<std::size_t>(&s - slots_.data())]);
  else out.request.clear();
  s.has_request = false;
  out.done = std::move(s.done);
  out.deadline = s.deadline;
  out.token = s.token;
  s.token = nullptr;
  s.st = state::free;
}

void pending_table::take_all(std::vector<unanswered_call>& out) {
  for (std::int32_t i = head_; i != -1;) {
    slot& s = slots_[static_cast<std::size_t>(i)];
    const std::int32_t next = s.next;
    release(s, out.emplace_back());
    s.prev = s.next = -1;
    i = next;
  }
  for (slot& s : slots_) s.st = state::free;  // abandoned ids too: no reply will come for them
  head_ = tail_ = -1;
  in_flight_ = 0;
  abandoned_.clear();
  abandoned_count_ = 0;
}

bool pending_table::take_unanswered(std::uint32_t id, unanswered_call& out) {
  slot* s = find(id, state::pending);
  if (s == nullptr) return false;
  unlink(static_cast<std::int32_t>(id & mask_));
  release(*s, out);
  --in_flight_;
  return true;
}

}  // namespace wirebench
