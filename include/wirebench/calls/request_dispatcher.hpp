#pragma once
// The server half of request multiplexing, for one connection: each request is computed (on the
// event-loop thread, or on a worker pool), optionally delayed by a service-time model (a timer,
// holding no thread), and its reply handed back to the connection's thread to be written in
// completion order — or, when `ordered`, held until every earlier reply has gone. Cancels drop a
// reply not yet written. Protocols supply the reply encoding; mux and msgpack-rpc share this.
//
// Lives on its connection's thread (it is part of the connection's handler); work on the pool
// keeps the connection, and so the dispatcher, alive through a shared_ptr.
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include <asio/thread_pool.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/calls/call_runner.hpp"
#include "wirebench/calls/service_time.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {

/// What every connection's dispatcher shares (made once per server, read-only).
struct dispatch_settings {
  /// Computes the reply body, or sets `error` (on a worker thread, or inline).
  std::function<std::string(std::string_view request, std::error_code& error)> handler;
  /// Optional: the same reply written into `reply` (cleared by the caller, its capacity reused),
  /// for a host that answers inline with no allocation per request (codec_session). Must agree
  /// with `handler`; empty: `handler` is used.
  std::function<void(std::string_view request, std::string& reply, std::error_code& error)>
      handler_into;
  /// The delay added to each request (a timer, holding no thread).
  service_time_model service_time;
  /// True: replies go out in request order; false: as they are ready.
  bool ordered = false;
};

/// The server half of request multiplexing for one connection (see above). Connection thread only.
class WIREBENCH_API request_dispatcher final : public call_runner {
 public:
  /// `pool` (the server's worker pool) computes the replies; null: the event-loop thread does.
  request_dispatcher(const dispatch_settings& settings, asio::thread_pool* pool, reply_writer write)
      : request_dispatcher(settings, pool, std::move(write), settings.ordered) {}
  /// As above, with the order of replies given here rather than by `settings` (a host of several
  /// protocols' codecs shares one dispatch_settings among ordered and unordered ones).
  request_dispatcher(const dispatch_settings& settings, asio::thread_pool* pool, reply_writer write,
                     bool ordered)
      : settings_(settings), pool_(pool), write_(std::move(write)), ordered_(ordered) {}

  /// call_runner's. start() never refuses a key: a reused one gets two replies, which its client
  /// matches as it does any reply.
  std::error_code start(connection& c, std::uint64_t key, std::string_view request) override;
  void start_answered(connection& c, std::uint64_t key, std::string bytes) override;
  /// Kept only for a call still running (on a worker or a service-time timer): one for a call
  /// already answered, or never made, would drop the reply of a later call with that key, and
  /// a peer cancelling at random could grow them without bound. Each is used up by its reply.
  void cancel(std::uint64_t key) override {
    if (running_.contains(key)) canceled_.insert(key);
  }
  std::size_t in_flight() const override { return in_flight_; }

 private:
  struct ready_reply {
    std::uint64_t key;
    bool ok;
    std::string body;
    bool encoded = false;  // start_answered: `body` is the reply's bytes
    bool ran = false;      // counted in running_ until delivered
  };
  ready_reply compute(std::string_view request, std::uint64_t key) const;
  void finish(const std::shared_ptr<connection>& conn, std::uint64_t seq, ready_reply reply);
  void deliver(connection& c, std::uint64_t seq, ready_reply reply);
  void write(connection& c, ready_reply reply);

  const dispatch_settings& settings_;
  asio::thread_pool* pool_;
  reply_writer write_;
  bool ordered_;
  std::size_t in_flight_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t next_to_write_ = 0;
  std::map<std::uint64_t, ready_reply> held_;  // ordered: replies waiting for earlier ones
  // Keys of the calls running off the read path (workers, timers), with how many share each; the
  // inline path, done before the next request is read, is never in it, and pays nothing for it.
  std::unordered_map<std::uint64_t, std::uint32_t> running_;
  std::unordered_set<std::uint64_t> canceled_;  // keys in running_ whose reply is dropped
  std::mt19937_64 rng_{std::random_device{}()};  // service times sampled inline
};

}  // namespace wirebench
