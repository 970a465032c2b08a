#pragma once
// A protocol's client, whatever made it (the client engine under the protocol's codecs, gRPC's
// channels, blocking hiredis): one way to make a call, the rule every completion follows, and
// what it saw beside its calls. The load drivers only ever talk to this (h2load's Session).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "wirebench/core/call_completion.hpp"

namespace asio {
class io_context;
}

namespace wirebench {

// What a client saw beside its calls' outcomes, since it was made (any thread). Clients that do
// not match replies by id or own no connections (gRPC's channels, resp-sync's blocking sockets)
// leave the fields they cannot know at 0.
struct client_counters {
  std::uint64_t late_replies = 0;      // replies for calls that had timed out or been canceled
  std::uint64_t unknown_replies = 0;   // replies for no call ever issued (or out of order on a FIFO)
  std::uint64_t connects = 0;          // connections made
  std::uint64_t connect_failures = 0;  // dials that failed
  std::uint64_t reconnects = 0;        // connections made to replace one that closed or went away
  std::uint64_t resent = 0;            // calls sent again: the server had not processed them
  std::error_code last_connect_error;  // why the last failed dial failed
};

// How one call is made, beside its payload: by default, with the client's reply timeout, on any
// of its connections. Two words, passed by value: it is on every call's path.
struct call_options {
  static constexpr std::size_t any_lane = static_cast<std::size_t>(-1);
  // Fail with errc::timeout at this time rather than at the reply timeout from now: an open loop
  // gives a call that waited to be sent only the time it has left of its timeout from its
  // intended start. The clock's epoch: none.
  std::chrono::steady_clock::time_point deadline = {};
  // On connection `lane % connections`: a load driver keeps each caller on one connection, so
  // that `depth` callers share each. gRPC's streams take the lane as their stream; clients
  // without connections of their own (gRPC unary, resp-sync) ignore it.
  std::size_t lane = any_lane;

  bool has_deadline() const { return deadline != std::chrono::steady_clock::time_point{}; }
  bool has_lane() const { return lane != any_lane; }
};

// The completion rule, for every client. A call's completion runs exactly once, on one of the
// client's own threads, and never inside async_greet() itself (a failure known at once is posted),
// nor while the client is decoding (replies are decoded, then matched, then completed). So a
// completion may make the next call at once, with no recursion and no lock held; the load
// drivers rely on this. Only after close() has returned, when no client thread is left, does a
// call complete at once on the caller's thread, with connection_closed.
class protocol_client {
 public:
  virtual ~protocol_client() = default;
  // One greet call (or the user's call its payload names); callable from any thread, including
  // from inside a completion.
  virtual void async_greet(std::string_view name, call_options options, call_completion done) = 0;
  void async_greet(std::string_view name, call_completion done) {
    async_greet(name, {}, std::move(done));
  }
  // Closes every connection: pending calls fail with connection_closed. Joins the client's
  // threads, so never call it from inside a completion. Idempotent; the destructor calls it.
  virtual void close() = 0;
  virtual client_counters counters() const { return {}; }
  // The event loops the client runs its connections on, one per thread, each owning at least one
  // connection: a load driver that keeps its schedule on them makes calls that go out without
  // crossing a thread, and their completions run on the loop that made them. Empty for a client
  // whose threads are not Asio loops (gRPC's completion queues, resp-sync's blocking sockets).
  // Valid until close().
  virtual std::vector<asio::io_context*> event_loops() { return {}; }
  // True when every reply answers a greet call, which the harness checks against
  // expected_greeting(name); false for a client made with a user call (client_config::calls),
  // whose codec has judged each reply already (a reply it passes is the call's success).
  virtual bool greets() const { return true; }
};

// The reply a correct server sends to a greet call, which the harness checks every reply against.
inline std::string expected_greeting(std::string_view name) {
  std::string reply = "hello, ";
  reply.append(name);
  return reply;
}

}  // namespace wirebench
