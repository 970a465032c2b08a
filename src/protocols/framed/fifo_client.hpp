#pragma once
// The greet client for any stream framing whose replies come back in request order: C connections
// (calls spread round robin), each with a FIFO of pending completions. Pipelining is free: a call
// is written as soon as it is made, whatever is still pending on the connection.
// Every call completes exactly once: with the reply, or with an error when its connection fails
// (connection_closed, or timeout when the server went silent past reply_timeout).
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include <asio/dispatch.hpp>
#include <asio/post.hpp>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

template <class Framing>
class fifo_greet_client final : public protocol_client {
 public:
  explicit fifo_greet_client(const client_config& config)
      : config_(config),
        encoder_(Framing::make_encoder(config.max_frame_bytes)),
        pool_(io_pool_options{config.threads, config.cpus, "cli"}) {
    if (config.connections == 0) throw std::invalid_argument("client needs at least 1 connection");
    for (std::size_t i = 0; i < config.connections; ++i) {
      slots_.push_back(std::make_unique<slot>());
      slots_.back()->ctx = &pool_.context(i % pool_.size());
    }
    for (auto& s : slots_) connect(*s);
  }

  ~fifo_greet_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    slot& s = *slots_[next_.fetch_add(1, std::memory_order_relaxed) % slots_.size()];
    asio::dispatch(*s.ctx, [this, &s, n = std::string(name), d = std::move(done)]() mutable {
      issue(s, n, std::move(d));
    });
  }

  void close() override {
    std::call_once(closed_, [this] {
      if (!pool_.running_in_pool()) {
        std::vector<std::future<void>> done;
        for (auto& sp : slots_) {
          slot& s = *sp;
          auto finished = std::make_shared<std::promise<void>>();
          done.push_back(finished->get_future());
          asio::dispatch(*s.ctx, [&s, finished] {
            s.state = slot_state::closed;
            if (s.conn) s.conn->close(errc::shutting_down);
            fail_all(s.waiting, errc::connection_closed);
            finished->set_value();
          });
        }
        for (auto& f : done) f.wait();
      }
      pool_.stop();
    });
  }

 private:
  enum class slot_state { connecting, open, closed };
  struct waiting_call {
    std::string name;
    call_completion done;
  };
  struct slot {
    asio::io_context* ctx = nullptr;
    slot_state state = slot_state::connecting;
    // Why the slot is closed: what a call made after that completes with.
    std::error_code closed_reason = errc::connection_closed;
    std::shared_ptr<connection> conn;
    std::deque<call_completion>* pending = nullptr;  // the connection handler's FIFO
    std::vector<waiting_call> waiting;               // calls made before the connect finished
  };

  class reply_handler final : public connection_handler {
   public:
    reply_handler(slot& s, std::size_t max_frame)
        : slot_(s), decoder_(Framing::make_decoder(max_frame, oversize_policy::fail)) {
      s.pending = &pending_;
    }
    std::size_t on_data(connection&, std::span<const std::byte> data,
                        std::error_code& error) override {
      std::size_t consumed = 0;
      for (;;) {
        const decode_result r = decoder_.decode(data.subspan(consumed));
        consumed += r.consumed;
        if (r.status == decode_status::need_more) break;
        if (r.status != decode_status::frame) {
          error = r.status == decode_status::too_large ? errc::frame_too_long : errc::corrupt_frame;
          break;
        }
        if (pending_.empty()) {  // a reply nobody asked for: the stream is out of step
          error = errc::protocol_error;
          break;
        }
        call_completion done = std::move(pending_.front());
        pending_.pop_front();
        done({}, as_text(r.frame));
      }
      return consumed;
    }
    void on_close(connection&, std::error_code reason) override {
      slot_.state = slot_state::closed;
      slot_.pending = nullptr;
      // Moved aside first: a completion may issue a new call, which must not see this FIFO.
      std::deque<call_completion> failed = std::move(pending_);
      pending_.clear();
      const std::error_code ec =
          reason == errc::read_timeout ? errc::timeout : make_error_code(errc::connection_closed);
      for (auto& done : failed) done(ec, {});
    }
    bool awaiting_peer() const override { return !pending_.empty(); }
    bool mid_frame() const override { return decoder_.mid_frame(); }

   private:
    slot& slot_;
    typename Framing::decoder decoder_;
    std::deque<call_completion> pending_;
  };

  static void fail_all(std::vector<waiting_call>& calls, std::error_code why) {
    auto failed = std::move(calls);
    calls.clear();
    for (auto& c : failed) c.done(why, {});
  }

  void connect(slot& s) {
    async_connect(*s.ctx, config_.connect, config_.connect_timeout,
                  [this, &s](std::error_code ec, stream_socket socket) {
                    if (s.state == slot_state::closed) return;
                    if (ec) {
                      s.state = slot_state::closed;
                      s.closed_reason = connect_error(ec);
                      fail_all(s.waiting, s.closed_reason);
                      return;
                    }
                    connection_config cc;
                    cc.max_read_bytes = config_.max_frame_bytes + Framing::max_framing_bytes;
                    cc.read_timeout = config_.reply_timeout;
                    s.conn = std::make_shared<connection>(
                        std::move(socket), cc,
                        std::make_unique<reply_handler>(s, config_.max_frame_bytes));
                    s.state = slot_state::open;
                    s.conn->start();
                    auto calls = std::move(s.waiting);
                    s.waiting.clear();
                    for (auto& c : calls) issue(s, c.name, std::move(c.done));
                  });
  }

  // On the slot's thread.
  void issue(slot& s, const std::string& name, call_completion done) {
    if (s.state == slot_state::connecting) {
      s.waiting.push_back({name, std::move(done)});
      return;
    }
    if (s.state == slot_state::closed || s.pending == nullptr) {
      // Posted, not called: a closed-loop caller that retries at once must not recurse.
      asio::post(*s.ctx, [d = std::move(done), ec = s.closed_reason] { d(ec, {}); });
      return;
    }
    encoded_frame frame;
    if (auto ec = encoder_.encode(as_bytes(name), frame)) {
      asio::post(*s.ctx, [d = std::move(done), ec] { d(ec, {}); });
      return;
    }
    if (s.pending->empty()) s.conn->awaiting_from_now();
    s.pending->push_back(std::move(done));
    s.conn->send(frame);
  }

  client_config config_;
  typename Framing::encoder encoder_;
  io_pool pool_;
  std::vector<std::unique_ptr<slot>> slots_;
  std::atomic<std::size_t> next_{0};
  std::once_flag closed_;
};

}  // namespace wirebench
