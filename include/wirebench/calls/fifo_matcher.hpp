#pragma once
// Calls in flight on a connection whose replies come back in request order (RESP, HTTP/1.1
// pipelining, line framing, our ordered mode): the same interface as pending_table. Ids are
// handed out in sequence and the replies must carry them in that order; a call that timed out or
// was canceled keeps its place (its reply is still coming) and its reply is counted as late.
// A fixed ring of max_in_flight entries (rounded up to a power of two, so that a position is a
// mask, not a division), each keeping its request string's capacity: a steady load allocates
// nothing.
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/calls/call_matcher.hpp"

namespace wirebench {

/// The call_matcher for replies that come in request order (see above).
class WIREBENCH_API fifo_matcher final : public call_matcher {
 public:
  /// Room for `max_in_flight` calls (the ring rounds it up to a power of two); throws std::invalid_argument for 0.
  explicit fifo_matcher(std::size_t max_in_flight = 1024);

  /// See call_matcher::add(); ids are handed out in sequence.
  std::uint32_t add(call_completion&& done, clock::time_point deadline, const void* token,
                    std::string_view request = {}) override;
  /// `id` must be the oldest outstanding id; anything else is unknown (the stream is out of step).
  reply_match take(std::uint32_t id, call_completion& done) override;
  /// The oldest outstanding id; nullopt when nothing is outstanding.
  std::optional<std::uint32_t> next_in_order() const override;
  /// See call_matcher::cancel(); the call keeps its place until its reply comes.
  bool cancel(std::uint32_t id, const void* token, call_completion& done) override;
  /// See call_matcher::expire(); expired calls keep their places until their replies come.
  std::size_t expire(clock::time_point now, std::vector<call_completion>& expired) override;
  /// See call_matcher::next_deadline().
  std::optional<clock::time_point> next_deadline() const override;
  /// See call_matcher::take_all().
  void take_all(std::vector<unanswered_call>& out) override;
  /// Only the oldest call (a server that refused it) or the newest (a call that could not be
  /// encoded) can leave this way: the rest keep their order.
  bool take_unanswered(std::uint32_t id, unanswered_call& out) override;

  /// Where the id sequence continues from.
  void set_next_id(std::uint32_t id) { next_id_ = id; }

 private:
  struct entry {
    std::uint32_t id = 0;
    clock::time_point deadline{};
    const void* token = nullptr;
    call_completion done;  // empty once completed early (timeout, cancel)
    std::string request;
  };
  entry& at(std::size_t i) { return ring_[(head_ + i) & mask_]; }
  const entry& at(std::size_t i) const { return ring_[(head_ + i) & mask_]; }
  void pop_front();

  std::size_t capacity_;  // max_in_flight
  std::vector<entry> ring_;
  std::size_t mask_;
  std::size_t head_ = 0;  // the oldest entry
  std::size_t live_ = 0;  // entries whose completion is still held (not timed out or canceled)
  std::uint32_t next_id_ = 1;
};

}  // namespace wirebench
