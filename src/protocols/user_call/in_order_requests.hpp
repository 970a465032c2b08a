#pragma once
// The user's requests (client_config::calls) as a client codec sends them on a connection whose
// replies come in request order and carry nothing to match them by (RESP, HTTP/1.1): each one's
// bytes made once per connection, the one a call's payload names (request_index) sent with its
// placeholders filled in place (call_placeholder.hpp); in a mix, each noted as it is sent and
// taken as its reply is decoded, so that the reply is judged by that request's expectation. One
// per connection, on its thread.
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "wirebench/core/error.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

template <class Call>
class in_order_requests {
 public:
  // `bytes_of(const Call&)`: a request's bytes as sent, placeholders unfilled.
  template <class BytesOf>
  in_order_requests(const std::vector<user_call>& calls, BytesOf&& bytes_of) {
    for (const user_call& call : calls) {
      const Call& request = *call.as<Call>();
      std::string bytes = bytes_of(request);
      placeholder_filler filler(bytes, call.keyspace, next_placeholder_seed());
      requests_.push_back({&request, std::move(bytes), std::move(filler)});
    }
  }

  bool empty() const { return requests_.empty(); }  // the greet call

  // Appends the request `payload` names, filled; invalid_argument when it names none.
  std::error_code append(std::string_view payload, gather_queue& out) {
    const auto index = request_index(payload, requests_.size());
    if (!index) return make_error_code(errc::invalid_argument);
    entry& e = requests_[*index];
    e.filler.append_filled(e.bytes, out);
    if (requests_.size() > 1) in_flight_.push_back(*index);  // replies come in this order
    return {};
  }

  // The request the next reply answers. A reply beyond what was sent (a lying server) is taken
  // as the first request's; the engine then finds no call for it and counts it unknown.
  const Call& answered() {
    std::size_t index = 0;
    if (!in_flight_.empty()) {
      index = in_flight_.front();
      in_flight_.pop_front();
    }
    return *requests_[index].call;
  }

 private:
  struct entry {
    const Call* call;
    std::string bytes;
    placeholder_filler filler;
  };
  std::vector<entry> requests_;
  std::deque<std::size_t> in_flight_;  // a mix: which request each unanswered call sent
};

}  // namespace wirebench
