#pragma once
// The mux protocol's server codec (sans-IO, codec/server_codec.hpp): a request frame is a call keyed
// by its id, a cancel frame withdraws one, a ping is answered with its pong (not counted), and a
// graceful stop sends a drain frame. Replies carry their id, so they may go in any order. A reply
// over the frame limit becomes the error reply "frame_too_long". mux_session hosts it for a
// handler returning a string (mux_session.hpp), mux_rpc_session for a coroutine.
#include <cstddef>
#include <string>

#include "wirebench/core/api.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/mux/mux_frame.hpp"

namespace wirebench {

/// The mux server codec (see above): one per connection, used only on its thread.
class WIREBENCH_API mux_server_codec final : public server_codec {
 public:
  /// `max_frame_bytes`: the largest request payload taken and reply payload sent.
  explicit mux_server_codec(std::size_t max_frame_bytes);

  bool ordered() const override { return false; }
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue& out,
                     std::error_code& error) override;
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;
  void encode_owned_reply(std::uint64_t key, bool ok, std::string&& body,
                          gather_queue& out) override;
  void going_away(gather_queue& out) override;
  bool ping(gather_queue& out) override;  // the client's pong is taken and dropped
  bool mid_request() const override { return decoder_.mid_frame(); }
  std::size_t max_read_bytes() const override { return max_frame_bytes_ + mux_header_bytes + 4; }

 private:
  std::size_t max_frame_bytes_;
  mux_frame_decoder decoder_;
};

}  // namespace wirebench
