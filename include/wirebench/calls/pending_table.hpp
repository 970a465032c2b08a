#pragma once
// Calls in flight on one multiplexed connection, by request id.
//
// Ids: a 32-bit counter (0 is never used) that skips every id still reserved, pending or
// abandoned (timed out or canceled, its reply possibly still on the way), so an id is never
// handed out while the server may still answer it, across the 2^32 wrap-around too.
// Lookup: slot = id & mask, in an array at least twice the reserved ids, so allocation probes a
// couple of slots and lookup is one. The array starts small and doubles only when the ids
// actually reserved need it (up to what the limits allow): sequential ids walk every slot, and a
// table sized for the limits (16 K slots for 1024 in flight and 4096 abandoned) would make each
// call touch cold memory, where one sized for 64 calls in flight stays in L1. A slot is one
// 64-byte line; requests (kept only when given) live apart, in an array touched only for them.
// Deadlines: an intrusive list in deadline order, inserted from the tail, so with one timeout for
// all calls insert, remove and expire are O(1), and one timer per connection (armed at
// next_deadline()) replaces a timer per call. Strings keep their capacity, so a steady load
// allocates nothing.
#include <deque>
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/calls/call_matcher.hpp"

namespace wirebench {

/// Limits of a pending_table.
struct pending_table_config {
  std::size_t max_in_flight = 1024;  // pending calls per connection
  /// Timed-out or canceled ids kept reserved for their late replies; past this the oldest is
  /// released (its reply, should it come, then counts as unknown rather than late).
  std::size_t max_abandoned = 4096;
};

/// The call_matcher by request id (see above).
class WIREBENCH_API pending_table final : public call_matcher {
 public:
  /// Throws std::invalid_argument when max_in_flight is 0 or the limits are too large.
  explicit pending_table(pending_table_config config = {});

  /// See call_matcher::add(); the id is one not reserved (see above).
  std::uint32_t add(call_completion&& done, clock::time_point deadline, const void* token,
                    std::string_view request = {}) override;
  /// See call_matcher::take().
  reply_match take(std::uint32_t id, call_completion& done) override;
  /// See call_matcher::cancel(); the id stays reserved for its late reply.
  bool cancel(std::uint32_t id, const void* token, call_completion& done) override;
  /// See call_matcher::expire(); expired ids stay reserved for their late replies.
  std::size_t expire(clock::time_point now, std::vector<call_completion>& expired) override;
  /// See call_matcher::next_deadline().
  std::optional<clock::time_point> next_deadline() const override;
  /// See call_matcher::take_all().
  void take_all(std::vector<unanswered_call>& out) override;
  /// See call_matcher::take_unanswered().
  bool take_unanswered(std::uint32_t id, unanswered_call& out) override;
  /// Ids reserved for late replies (timed out or canceled), at most max_abandoned.
  std::size_t abandoned() const { return abandoned_count_; }

  /// Where the id counter continues from (tests use it to cross the 2^32 wrap-around).
  void set_next_id(std::uint32_t id) { next_id_ = id; }

 private:
  enum class state : std::uint8_t { free, pending, abandoned };
  struct alignas(64) slot {
    std::uint32_t id = 0;
    state st = state::free;
    bool has_request = false;  // requests_ holds this call's request
    std::int32_t prev = -1;  // deadline list neighbours (pending slots only)
    std::int32_t next = -1;
    clock::time_point deadline{};
    const void* token = nullptr;
    call_completion done;
  };
  slot* find(std::uint32_t id, state st);
  void grow();  // doubles the array, every reserved id moving to its new slot
  // Inline, defined in pending_table.cpp (the only place they are called): add and take use them.
  inline void link_by_deadline(std::int32_t index);
  inline void unlink(std::int32_t index);
  void abandon(std::int32_t index);  // pending -> abandoned, completion moved out by the caller
  void release(slot& s, unanswered_call& out);  // pending -> free, everything moved to `out`

  pending_table_config config_;
  std::vector<slot> slots_;
  std::vector<std::string> requests_;  // by slot, beside slots_
  std::size_t max_slots_;
  std::uint32_t mask_;
  std::uint32_t next_id_ = 1;
  std::int32_t head_ = -1;  // earliest deadline
  std::int32_t tail_ = -1;  // latest deadline
  std::deque<std::uint32_t> abandoned_;  // oldest first (may hold ids since answered late)
  std::size_t abandoned_count_ = 0;
};

}  // namespace wirebench
