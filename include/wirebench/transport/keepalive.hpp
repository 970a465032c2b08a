#pragma once
// Keep-alive pings: how a connection tells a dead peer or path (a host gone, a partition, a
// stopped process: nothing TCP reports) from a slow one. After `interval` without a byte from the
// peer the protocol's ping goes out (HTTP/2 PING, mux ping); if not a byte comes back within
// `timeout`, the connection closes with errc::keepalive_timeout. gRPC's keepalive, generalised
// (its doc/keepalive.md): the same three settings, the same defaults.
#include <chrono>

namespace wirebench {

/// Keep-alive settings of a connection, a client or a server (see above).
struct keepalive_settings {
  /// Silence from the peer before a ping. 0: no pings (the default, as gRPC's clients).
  std::chrono::steady_clock::duration interval{};
  /// How long a ping may go unanswered.
  std::chrono::steady_clock::duration timeout = std::chrono::seconds(20);
  /// Pings also while no call is in flight. A client's choice (gRPC's permit_without_calls; its
  /// servers count such pings as abuse by default); a server pings idle connections always, since
  /// finding idle connections whose client vanished is what its pings are for.
  bool without_calls = false;
  bool enabled() const { return interval.count() != 0; }
  friend bool operator==(const keepalive_settings&, const keepalive_settings&) = default;
};

}  // namespace wirebench
