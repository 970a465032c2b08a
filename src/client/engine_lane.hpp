#pragma once
// One lane of the client engine: a stable place calls go to, on one thread. It holds the open
// connection (at most one that takes new calls, plus any going away that still finish theirs),
// the queue of calls that cannot go out yet, the dialing and its back-off, and the one deadline
// timer for every call on the lane. Everything here runs on the lane's thread.
#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>

#include "engine_link.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/client/redial_backoff.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {

struct engine_core;

// Where a cancelable call is, as seen from its lane's thread (the only thread touching it).
struct client_engine::call_handle::state {
  enum class phase : std::uint8_t { queued, sent, done };
  std::shared_ptr<engine_core> core;  // keeps `lane` (see engine_core.hpp)
  engine_lane* lane = nullptr;
  phase ph = phase::queued;
  engine_link* link = nullptr;  // while sent
  std::uint32_t id = 0;         // while sent
};

class engine_lane {
 public:
  using clock = std::chrono::steady_clock;
  using cancel_state = client_engine::call_handle::state;

  engine_lane(engine_core& core, asio::io_context& ctx, std::size_t thread);
  asio::io_context& context() const { return ctx_; }
  std::size_t thread() const { return thread_; }

  // On the lane's thread from here on.
  void start();
  // A call: sent at once when the open connection has room and nothing is queued ahead of it
  // (inline: every call of a closed loop takes this path), else queued, rejected or failed.
  void issue(std::string_view request, clock::time_point deadline, call_completion&& done,
             const void* token) {
    if (link_ != nullptr && !closed_ && queue_.empty() && link_->can_take(config_.max_in_flight))
        [[likely]]
      return send_now(request, deadline, done, token);
    queue_or_fail(request, deadline, std::move(done), token);
  }
  void cancel(cancel_state& st);
  // The engine is closing: every call fails with connection_closed, every connection closes.
  void close();
  bool closed() const { return closed_; }

  // From the links.
  // Inline: every call passes here, and nearly always the timer is already armed earlier.
  void arm(clock::time_point deadline) {
    if (armed_ && *armed_ <= deadline) return;
    rearm(deadline);
  }
  void link_answered();
  void link_going(engine_link& link);
  // `why`: the codec's words for a broken stream (client_codec::failure()), given to the calls lost.
  void link_closed(engine_link& link, std::error_code reason,
                   std::vector<unanswered_call>& in_flight, std::string why = {});
  void resend(unanswered_call&& call);
  void pump();
  void complete_later(call_completion done, std::error_code ec);

  // Counters: written only on the lane's thread, read from any (relaxed; no read-modify-write).
  struct counters {
    std::atomic<std::uint64_t> rejected{0}, connects{0}, connect_failures{0}, reconnects{0},
        resent{0}, late{0}, unknown{0};
    static void bump(std::atomic<std::uint64_t>& c, std::uint64_t by = 1) {
      c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
  };
  const counters& stats() const { return counters_; }
  counters& stats() { return counters_; }

 private:
  struct queued_call {
    std::string request;
    clock::time_point deadline;
    call_completion done;
    const void* token;
  };
  enum class dialing : std::uint8_t { idle, dialing, backing_off };
  void send_now(std::string_view request, clock::time_point deadline, call_completion& done,
                const void* token) {
    std::uint32_t id = 0;
    if (const std::error_code ec = link_->send(request, deadline, done, token, id)) [[unlikely]]
      return complete_later(std::move(done), ec);
    set_phase(token, cancel_state::phase::sent, link_, id);
    arm(deadline);
  }
  void queue_or_fail(std::string_view request, clock::time_point deadline, call_completion&& done,
                     const void* token);
  void dial();
  void on_dialed(std::error_code ec, stream_socket socket);
  void dial_if_needed();
  void on_deadline();
  void fail_queue(std::error_code ec);
  void forget(engine_link& link);
  static void set_phase(const void* token, cancel_state::phase ph, engine_link* link = nullptr,
                        std::uint32_t id = 0) {
    if (token == nullptr) return;  // not a cancelable call
    auto* st = static_cast<cancel_state*>(const_cast<void*>(token));
    st->ph = ph;
    st->link = link;
    st->id = id;
  }
  void rearm(clock::time_point deadline);

  engine_core& core_;  // owns this lane
  const client_engine_config& config_;
  asio::io_context& ctx_;
  std::size_t thread_;
  std::deque<queued_call> queue_;
  std::shared_ptr<connection> current_;  // takes new calls (with link_)
  engine_link* link_ = nullptr;
  std::vector<std::shared_ptr<connection>> retiring_;  // going away: finishing their calls
  dialing dialing_ = dialing::idle;
  asio::steady_timer redial_timer_;
  redial_backoff backoff_;  // no dial before backoff_.next_dial()
  asio::steady_timer deadline_timer_;
  std::optional<clock::time_point> armed_;
  bool ever_connected_ = false;
  bool closed_ = false;
  counters counters_;
};

}  // namespace wirebench
