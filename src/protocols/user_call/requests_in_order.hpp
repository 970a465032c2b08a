#pragma once
// Which request of a mix (client_config::calls) each reply answers, on a connection whose
// replies come in request order and carry nothing to match them by (RESP, HTTP/1.1): the codec
// notes each request as it encodes it, and takes the oldest as each reply is decoded, to judge
// the reply by that request's expectation. One per connection, on its thread.
#include <cstddef>
#include <deque>

namespace wirebench {

class requests_in_order {
 public:
  void sent(std::size_t index) { in_flight_.push_back(index); }
  // The request the next reply answers. A reply beyond what was sent (a lying server) is taken as
  // request 0's; the engine then finds no call for it and counts it unknown.
  std::size_t answered() {
    if (in_flight_.empty()) return 0;
    const std::size_t index = in_flight_.front();
    in_flight_.pop_front();
    return index;
  }

 private:
  std::deque<std::size_t> in_flight_;
};

}  // namespace wirebench
