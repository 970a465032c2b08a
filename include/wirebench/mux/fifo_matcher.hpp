#pragma once
// Calls in flight on a connection whose replies come back in request order (RESP, HTTP/1.1
// pipelining, our ordered mode): the same interface as pending_table. Ids are handed out in
// sequence and the replies must carry them in that order; a call that timed out or was canceled
// keeps its place in the queue (its reply is still coming) and its reply is counted as late.
#include <deque>

#include "wirebench/mux/call_matcher.hpp"

namespace wirebench {

class fifo_matcher final : public call_matcher {
 public:
  explicit fifo_matcher(std::size_t max_in_flight = 1024);

  std::optional<std::uint32_t> add(call_completion done, clock::time_point deadline,
                                   const void* token) override;
  // `id` must be the oldest outstanding id; anything else is unknown (the stream is out of step).
  reply_match complete(std::uint32_t id, std::error_code ec, std::string_view reply) override;
  bool cancel(std::uint32_t id, const void* token) override;
  std::size_t expire(clock::time_point now) override;
  std::optional<clock::time_point> next_deadline() const override;
  void fail_all(std::error_code ec) override;
  std::size_t in_flight() const override { return queue_.size(); }

  void set_next_id(std::uint32_t id) { next_id_ = id; }

 private:
  struct entry {
    std::uint32_t id;
    clock::time_point deadline;
    const void* token;
    call_completion done;  // empty once completed early (timeout, cancel)
  };
  std::size_t max_in_flight_;
  std::uint32_t next_id_ = 1;
  std::deque<entry> queue_;
};

}  // namespace wirebench
