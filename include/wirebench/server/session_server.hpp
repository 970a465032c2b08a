#pragma once
// The server every stream protocol runs on: a connection_server with one Session per connection, an
// optional worker pool for sessions that compute replies off the event loop, and the sessions'
// request count. A protocol's server is then only its Session:
//
//   class my_session : public server_session {  // not final: the session server derives from it
//    public:
//     // What every connection reads: owned by the session server, which outlives every session, and
//     // never changed once the session server is made (read from all transport threads at once).
//     struct settings { ... };
//     // The read buffer a connection needs for the largest request `s` allows.
//     static std::size_t max_read_bytes(const settings& s);
//     // Made on the connection's thread. A session that takes `workers` (the session server's pool,
//     // null when configured with none) may run work there; it keeps the connection alive
//     // (shared_from_this) until the work has posted its result back to the connection's thread.
//     explicit my_session(const settings& s);  // or (const settings&, asio::thread_pool* workers)
//     // connection_handler's callbacks; on_data calls count_requests(n).
//   };
//   session_server<my_session> server(config, my_session::settings{...});  // listening
#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include <asio/thread_pool.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/core/server_stats.hpp"
#include "wirebench/transport/connection_server.hpp"
#include "wirebench/server/server_session.hpp"

namespace wirebench {

/// What session_server needs of a Session: a server_session with `settings`, max_read_bytes(settings), and a constructor from settings (and optionally the worker pool).
template <class S>
concept servable_session =
    std::derived_from<S, server_session> &&
    requires(const typename S::settings& s) {
      { S::max_read_bytes(s) } -> std::convertible_to<std::size_t>;
    } &&
    (std::constructible_from<S, const typename S::settings&> ||
     std::constructible_from<S, const typename S::settings&, asio::thread_pool*>);

/// Settings of a session_server.
struct session_server_config {
  /// connection.max_read_bytes is ignored: the session's max_read_bytes() sets it.
  connection_server_config transport;
  /// Threads of the worker pool, made only for a Session that takes one; 0: no pool (the session
  /// computes on the event loop).
  std::size_t workers = 0;
  /// A layer every session runs under (TLS: tls_server_handler.hpp), or empty for none. Called
  /// with each new session on its connection's thread, any transport thread, concurrently; what
  /// it returns is the connection's handler.
  std::function<std::unique_ptr<connection_handler>(std::unique_ptr<connection_handler>)> layer;
};

/// The server every stream protocol runs on (see above): a connection_server making one Session per
/// connection. On threads of its own, or on the caller's io_context as connection_server is (see
/// connection_server.hpp): every session, and so every handler without workers, on that loop.
template <servable_session Session>
class WIREBENCH_API session_server {
 public:
  /// What every connection's Session reads (Session::settings).
  using settings = typename Session::settings;
  /// True when the Session takes the worker pool (asio::thread_pool*) in its constructor.
  static constexpr bool takes_workers =
      std::constructible_from<Session, const settings&, asio::thread_pool*>;

  /// Makes the worker pool and the transport, then listens: sessions are made only once every
  /// member they read exists. Throws std::system_error if the endpoint cannot be bound.
  session_server(session_server_config config, settings s)
      : core_(std::make_shared<core>(std::move(s), std::move(config.layer))),
        transport_(with_read_buffer(std::move(config.transport), core_->session_settings),
                   [c = core_] { return make_session(c); }) {
    if constexpr (takes_workers)
      if (config.workers != 0) core_->workers.emplace(config.workers);
    transport_.start();
  }
  /// The same on `executor`'s io_context, which the caller runs (connection_server.hpp): no thread of
  /// its own, so no worker pool (config.workers must be 0: std::invalid_argument).
  session_server(const asio::io_context::executor_type& executor, session_server_config config,
                  settings s)
      : core_(std::make_shared<core>(std::move(s), std::move(config.layer))),
        transport_(executor, with_read_buffer(std::move(config.transport), core_->session_settings),
                   [c = core_] { return make_session(c); }) {
    if (config.workers != 0)
      throw std::invalid_argument("session_server: no worker pool on a caller's io_context");
    transport_.start();
  }
  /// Stops the server (stop()).
  ~session_server() { stop(); }
  /// Not copyable.
  session_server(const session_server&) = delete;
  /// Not copyable.
  session_server& operator=(const session_server&) = delete;

  /// The endpoint it listens on (with the kernel's port when bound to port 0).
  endpoint local_endpoint() const { return transport_.local_endpoint(); }
  /// Graceful: the transport drains (work in flight on the pool finishes and its replies go out,
  /// within the grace), then the pool is stopped: work left on it was cut with its connection,
  /// and is dropped with the pool, while the connections it holds can still be destroyed.
  /// Idempotent; any thread but the server's own. On a caller's io_context it begins the drain
  /// and returns (connection_server::stop).
  void stop() {
    std::call_once(stopped_, [this] {
      core_->counts.stopping.store(true, std::memory_order_relaxed);
      transport_.stop();
      if (core_->workers) {
        core_->workers->stop();
        core_->workers->join();  // a handler holding its thread (busy:T) finishes first
        core_->workers.reset();
      }
    });
  }
  /// Ends the grace of a stop() under way at once (connection_server::end_grace). Any thread.
  void end_grace() { transport_.end_grace(); }
  /// The transport's counters plus the sessions' request and grace counts. Any thread.
  server_stats stats() const {
    server_stats s = transport_.stats();
    const books& b = core_->counts;
    s.requests = b.requests.load(std::memory_order_relaxed);
    s.grace_counted = true;
    s.grace_finished = b.grace_finished.load(std::memory_order_relaxed);
    s.grace_cut = b.grace_cut.load(std::memory_order_relaxed);
    return s;
  }

 private:
  using layer_function =
      std::function<std::unique_ptr<connection_handler>(std::unique_ptr<connection_handler>)>;

  // What every session adds to (statistics, relaxed: not fences).
  struct books {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> grace_finished{0};  // see server_stats
    std::atomic<std::uint64_t> grace_cut{0};
    std::atomic<bool> stopping{false};
  };

  // What the sessions read and add to, held by the session server and by every session: on a caller's
  // io_context a session may outlive the session server (connection_server.hpp). Fixed once the transport
  // starts, but for the counts.
  struct core {
    core(settings s, layer_function l) : session_settings(std::move(s)), layer(std::move(l)) {}
    const settings session_settings;
    const layer_function layer;
    books counts;
    std::optional<asio::thread_pool> workers;
  };

  // Keeps the core for as long as the session lives; a base before the Session, so that the
  // Session, which refers to the core's settings, goes first.
  struct core_holder {
    std::shared_ptr<core> shared_core;
  };

  // The Session, with its count added to the server's after every on_data: one relaxed add per
  // read, not per request. From a graceful stop on it also keeps the calls it owes: those in
  // flight when the drain began and those taken in since; at its close, what is still in flight
  // was cut, the rest finished.
  class counted_session final : private core_holder, public Session {
   public:
    template <class... Args>
    explicit counted_session(std::shared_ptr<core> c, Args&&... args)
        : core_holder{std::move(c)}, Session(std::forward<Args>(args)...) {}
    std::size_t on_data(connection& c, std::span<const std::byte> data,
                        std::error_code& error) override {
      const std::size_t consumed = Session::on_data(c, data, error);
      if (const std::uint64_t n = this->take_requests(); n != 0) {
        counts().requests.fetch_add(n, std::memory_order_relaxed);
        if (draining_) owed_ += n;
      }
      return consumed;
    }
    void on_drain(connection& c) override {
      draining_ = true;
      owed_ = this->calls_in_flight();
      Session::on_drain(c);
    }
    void on_close(connection& c, std::error_code reason) override {
      if (draining_ || counts().stopping.load(std::memory_order_relaxed)) {
        const std::uint64_t cut = this->calls_in_flight();
        counts().grace_cut.fetch_add(cut, std::memory_order_relaxed);
        counts().grace_finished.fetch_add(owed_ - std::min<std::uint64_t>(owed_, cut),
                                          std::memory_order_relaxed);
      }
      Session::on_close(c, reason);
    }

   private:
    books& counts() { return this->shared_core->counts; }
    bool draining_ = false;
    std::uint64_t owed_ = 0;
  };

  static connection_server_config with_read_buffer(connection_server_config t, const settings& s) {
    t.connection.max_read_bytes = Session::max_read_bytes(s);
    return t;
  }

  // On the new connection's thread, any transport thread, concurrently: reads only what is fixed
  // before start().
  static std::unique_ptr<connection_handler> make_session(const std::shared_ptr<core>& c) {
    std::unique_ptr<connection_handler> session;
    if constexpr (takes_workers) {
      asio::thread_pool* workers = c->workers ? &*c->workers : nullptr;
      session = std::make_unique<counted_session>(c, c->session_settings, workers);
    } else {
      session = std::make_unique<counted_session>(c, c->session_settings);
    }
    return c->layer ? c->layer(std::move(session)) : std::move(session);
  }

  std::shared_ptr<core> core_;
  connection_server transport_;  // after core_: its connections, and so the sessions, go first
  std::once_flag stopped_;
};

}  // namespace wirebench
