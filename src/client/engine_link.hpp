#pragma once
// One connection of the client engine: the connection_handler that joins a codec (bytes <-> calls)
// to a matcher (calls in flight). Owned by its connection; everything on the lane's thread.
//
// Reading: decode every reply of the read first, then match them, then run the completions, so
// that no completion runs while the codec is decoding, and the calls those completions make go
// out in this read's write (the connection flushes once on_data returns).
#include <memory>
#include <optional>
#include <vector>

#include "wirebench/codec/client_codec.hpp"
#include "wirebench/core/loop_clock.hpp"
#include "wirebench/calls/call_matcher.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {

class engine_lane;
struct client_engine_config;

class engine_link final : public connection_handler {
 public:
  using clock = std::chrono::steady_clock;

  // `keep` keeps the lane for as long as the connection (and so this link) lives: its pending
  // operations may outlive the engine (engine_core.hpp).
  engine_link(engine_lane& lane, std::shared_ptr<const void> keep, std::unique_ptr<client_codec> codec,
              const client_engine_config& config);

  // Set once the connection that owns this handler exists; writes the protocol's preface.
  std::error_code open(connection& c);

  // Sends one call: the matcher keeps it, the codec encodes it. On an encode error the call is
  // taken back, `done` is left with the caller and the error returned. Returns the call's id.
  // Inline: every call passes here, from engine_lane::issue()'s fast path.
  std::error_code send(std::string_view request, clock::time_point deadline, call_completion& done,
                       const void* token, std::uint32_t& id) {
    if (matcher_->in_flight() == 0) conn_->awaiting_from(loop_clock::now());  // silence clock starts
    // can_take() was checked: there is room, and the id is not 0.
    id = matcher_->add(std::move(done), deadline, token, may_refuse_ ? request : std::string_view());
    std::error_code ec = codec_->encode(id, request, conn_->outbox());
    if (ec) [[unlikely]] {
      take_back(id, done);
      return ec;
    }
    dirty_ = true;
    conn_->request_flush();
    return ec;  // the codec's empty code: a new one would cost a call into libstdc++
  }
  bool can_take(std::size_t max_in_flight) const {
    return conn_ != nullptr && !closed_ && !going_ && matcher_->in_flight() < max_in_flight;
  }
  bool cancel(std::uint32_t id, const void* token, call_completion& done);
  void expire(clock::time_point now, std::vector<call_completion>& expired);
  std::optional<clock::time_point> next_deadline() const { return matcher_->next_deadline(); }
  std::size_t in_flight() const { return matcher_->in_flight(); }
  bool answered() const { return answered_; }
  bool closed() const { return closed_; }
  void close(std::error_code reason);
  std::size_t max_read_bytes() const { return codec_->max_read_bytes(); }

  // connection_handler
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override;
  void on_close(connection& c, std::error_code reason) override;
  bool awaiting_peer() const override { return matcher_->in_flight() > 0; }
  bool mid_frame() const override { return codec_->mid_reply(); }
  void before_write(connection& c, std::error_code& error) override;
  bool on_keepalive(connection& c) override;

 private:
  struct ready_call {
    ready_call(const std::error_code& e, std::string_view b) : ec(e), body(b) {}
    call_completion done;
    std::error_code ec;
    std::string_view body;
  };
  inline void match(const codec_reply& r, std::error_code& error);  // in the .cpp, per reply
  void run_ready();  // the matched replies' completions
  void end_of_stream(bool clean);  // on close: what the server's end still gives (codec)
  void take_back(std::uint32_t id, call_completion& done);  // an encode failed: `done` back

  engine_lane& lane_;
  std::shared_ptr<const void> keep_;  // the lane's owner
  std::unique_ptr<client_codec> codec_;
  std::unique_ptr<call_matcher> matcher_;
  const bool in_order_;
  const bool may_refuse_;  // the codec may ask for a call to be sent again: keep the requests
  connection* conn_ = nullptr;
  decoded decoded_;                          // reused: capacity kept across reads
  std::vector<ready_call> ready_;            // matched replies, completed after decoding
  std::vector<unanswered_call> unanswered_;  // taken back to send again
  bool going_ = false;     // the server takes no new calls here
  bool answered_ = false;  // a reply came: the connection worked
  bool closed_ = false;
  bool dirty_ = false;  // the codec may have output for produce()
};

}  // namespace wirebench
