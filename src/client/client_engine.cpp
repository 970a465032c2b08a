#include "wirebench/client/client_engine.hpp"

#include <algorithm>
#include <stdexcept>

#include <asio/dispatch.hpp>
#include <asio/post.hpp>

#include "engine_core.hpp"
#include "engine_lane.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"

namespace wirebench {

namespace {
// Which engine thread the calling thread is, if any: set once on each engine thread before it
// runs anything else, so that a call made from a completion goes straight to its lane.
thread_local const client_engine* this_thread_engine = nullptr;
thread_local std::size_t this_thread_index = 0;
thread_local std::size_t this_thread_lanes = 0;  // lanes this thread owns (0 when more threads than lanes)
thread_local std::size_t this_thread_next_lane = 0;
}  // namespace

// A call crossing threads. If the loop it was posted to is destroyed without running it (a call
// racing close()), its destructor still completes it, so that no call is ever lost.
struct client_engine::call {
  std::string request;
  clock::time_point deadline;
  call_completion done;
  const void* token = nullptr;

  call(std::string r, clock::time_point d, call_completion c, const void* t)
      : request(std::move(r)), deadline(d), done(std::move(c)), token(t) {}
  call(call&&) noexcept = default;  // the moved-from call's completion is empty: no double run
  call& operator=(call&&) = delete;
  ~call() {
    if (done) done(errc::connection_closed, {});
  }
};

namespace {
void check(const client_engine_config& c) {
  if (c.connections == 0) throw std::invalid_argument("client_engine: connections is 0");
  if (c.max_in_flight == 0) throw std::invalid_argument("client_engine: max_in_flight is 0");
  if (!c.codec) throw std::invalid_argument("client_engine: no codec");
}
}  // namespace

client_engine::client_engine(client_engine_config config)
    : pool_((check(config), io_pool_options{config.threads, config.cpus, config.thread_name})),
      core_(std::make_shared<engine_core>(std::move(config))) {
  for (std::size_t t = 0; t < pool_.size(); ++t) {
    // The lanes of thread t are t, t + T, t + 2T, ...
    const std::size_t threads = pool_.size(), lanes = core_->config.connections;
    const std::size_t mine = t < lanes ? (lanes - t + threads - 1) / threads : 0;
    asio::post(pool_.context(t), [this, t, mine] {
      this_thread_engine = this;
      this_thread_index = t;
      this_thread_lanes = mine;
      this_thread_next_lane = 0;
    });
  }
  start();
}

client_engine::client_engine(const executor_type& executor, client_engine_config config)
    : pool_((check(config), asio::query(executor, asio::execution::context))),
      core_(std::make_shared<engine_core>(std::move(config))) {
  start();
}

// Makes the lanes (lane i on loop i % loops) and has each dial on its loop.
void client_engine::start() {
  for (std::size_t i = 0; i < core_->config.connections; ++i) {
    const std::size_t t = i % pool_.size();
    core_->lanes.push_back(std::make_unique<engine_lane>(*core_, pool_.context(t), t));
  }
  for (auto& lane : core_->lanes)
    asio::post(lane->context(), [l = lane.get(), keep = core_] { l->start(); });
}

client_engine::~client_engine() { close(); }

inline engine_lane& client_engine::lane_at(std::size_t index) {
  // A driver's lane numbers are mostly below the lane count already, or there is one lane (every
  // worker on one multiplexed connection): no division then.
  const auto& lanes = core_->lanes;
  const std::size_t n = lanes.size();
  return *lanes[index < n ? index : n == 1 ? 0 : index % n];
}

std::size_t client_engine::lanes() const { return core_->lanes.size(); }

engine_lane& client_engine::lane_for_this_thread() {
  if (this_thread_engine == this && this_thread_lanes != 0) {
    const std::size_t k = this_thread_next_lane;
    if (++this_thread_next_lane == this_thread_lanes) this_thread_next_lane = 0;
    return *core_->lanes[this_thread_index + k * pool_.size()];
  }
  return *core_->lanes[next_lane_.fetch_add(1, std::memory_order_relaxed) % core_->lanes.size()];
}

void client_engine::route(engine_lane& lane, call c) {
  if (core_->closed.load(std::memory_order_acquire)) {
    call_completion done = std::move(c.done);
    done(errc::connection_closed, {});
    return;
  }
  // `keep`: on the caller's io_context the engine may be gone when this runs (engine_core.hpp).
  asio::post(lane.context(), [&lane, keep = core_, c = std::move(c)]() mutable {
    call_completion done = std::move(c.done);
    lane.issue(c.request, c.deadline, std::move(done), c.token);
  });
}

// On the lane's own thread a call goes straight in; from any other thread it is posted there. The
// caller's io_context has one loop, every lane's.
inline bool client_engine::on_thread_of(const engine_lane& lane) const {
  if (this_thread_engine == this) return this_thread_index == lane.thread();
  return pool_.external() && lane.context().get_executor().running_in_this_thread();
}

inline engine_lane& client_engine::lane_for(std::size_t lane) {
  return lane == any_lane ? lane_for_this_thread() : lane_at(lane);
}

inline void client_engine::submit(engine_lane& lane, std::string_view request,
                                  clock::time_point deadline, call_completion&& done) {
  if (on_thread_of(lane)) return lane.issue(request, deadline, std::move(done), nullptr);
  route(lane, call(std::string(request), deadline, std::move(done), nullptr));
}

void client_engine::async_call(std::string_view request, clock::time_point deadline,
                               call_completion&& done, std::size_t lane) {
  submit(lane_for(lane), request, deadline, std::move(done));
}

// A timeout counts from the loop's turn when the call is made inside one (from a completion).
// The thread is asked once: the closed loop's every call comes this way (a second on_thread_of
// here cost 3% of the client's instructions per call).
void client_engine::async_call(std::string_view request, clock::duration timeout,
                               call_completion&& done, std::size_t lane) {
  engine_lane& to = lane_for(lane);
  if (on_thread_of(to)) return to.issue(request, loop_clock::now() + timeout, std::move(done), nullptr);
  route(to, call(std::string(request), clock::now() + timeout, std::move(done), nullptr));
}

client_engine::call_handle client_engine::async_call_cancelable(std::string_view request,
                                                                clock::time_point deadline,
                                                                call_completion done) {
  engine_lane& lane = lane_for_this_thread();
  call_handle handle;
  handle.state_ = std::make_shared<call_handle::state>();
  handle.state_->core = core_;
  handle.state_->lane = &lane;
  // The wrapper records completion, so that a later cancel() knows there is nothing to do.
  call_completion wrapped = [st = handle.state_, d = std::move(done)](std::error_code ec,
                                                                       std::string_view reply) {
    st->ph = call_handle::state::phase::done;
    st->link = nullptr;
    d(ec, reply);
  };
  route(lane, call(std::string(request), deadline, std::move(wrapped), handle.state_.get()));
  return handle;
}

void client_engine::call_handle::cancel() {
  if (!state_) return;
  engine_lane& lane = *state_->lane;
  asio::dispatch(lane.context(), [st = state_, &lane] { lane.cancel(*st); });
}

std::vector<asio::io_context*> client_engine::loops() {
  std::vector<asio::io_context*> out;
  for (std::size_t t = 0; t < std::min(pool_.size(), core_->lanes.size()); ++t)
    out.push_back(&pool_.context(t));
  return out;
}

void client_engine::close() {
  std::call_once(close_once_, [this] {
    core_->closed.store(true, std::memory_order_release);
    // Each loop closes its lanes (their calls fail with connection_closed, posted), then, on
    // threads of the engine's own, stops after what that posted, so that every failed call's
    // completion runs first. The caller's loop is not stopped, and may run this after the
    // engine is gone: it holds the core, not the engine.
    io_pool* own = pool_.external() ? nullptr : &pool_;
    const std::size_t loops = pool_.size();
    for (std::size_t t = 0; t < loops; ++t) {
      asio::post(pool_.context(t), [core = core_, own, t, loops] {
        for (std::size_t i = t; i < core->lanes.size(); i += loops) core->lanes[i]->close();
        if (own != nullptr) own->stop_loop(t);
      });
    }
  });
  // Joins the threads; on one of them, or on the caller's loop, returns at once.
  pool_.join();
}

client_engine_stats client_engine::stats() const {
  client_engine_stats out;
  auto get = [](const std::atomic<std::uint64_t>& c) { return c.load(std::memory_order_relaxed); };
  for (const auto& lane : core_->lanes) {
    const auto& c = lane->stats();
    out.late += get(c.late);
    out.unknown += get(c.unknown);
    out.rejected += get(c.rejected);
    out.connects += get(c.connects);
    out.connect_failures += get(c.connect_failures);
    out.reconnects += get(c.reconnects);
    out.resent += get(c.resent);
  }
  out.last_connect_error = core_->last_connect_error();
  return out;
}

}  // namespace wirebench
