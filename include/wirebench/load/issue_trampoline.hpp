#pragma once
// A client may complete a call inside async_greet itself (a gRPC stream that has ended fails new
// calls at once). A closed loop that issues the next call from that completion would then
// recurse without bound. issue_trampolined(owner, w, issue_now) calls (owner->*issue_now)(w) at
// once, unless this thread is already inside such a call: then it is queued, and the outermost
// call runs it once the current one has returned.
#include <cstddef>
#include <utility>
#include <vector>

namespace wirebench {

template <typename Owner>
void issue_trampolined(Owner* owner, std::size_t w, void (Owner::*issue_now)(std::size_t)) {
  thread_local std::vector<std::pair<Owner*, std::size_t>> deferred;
  thread_local bool issuing = false;
  if (issuing) {
    deferred.emplace_back(owner, w);
    return;
  }
  issuing = true;
  (owner->*issue_now)(w);
  while (!deferred.empty()) {
    const auto [next_owner, next_w] = deferred.back();
    deferred.pop_back();
    (next_owner->*issue_now)(next_w);
  }
  issuing = false;
}

}  // namespace wirebench
