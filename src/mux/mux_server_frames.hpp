#pragma once
// What every mux server session does with the frames it reads (internal to src/mux): requests
// and cancels go to the session, pings are answered, anything a client must not send breaks the
// stream; and the drain frame a graceful stop sends. mux_session and mux_rpc_session differ only
// in how they run a request.
#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>

#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::detail {

// Inside on_data, on the connection's thread. Reads frames while `accepting()` (backpressure:
// the rest stays in the buffer, and the connection pauses reading until work_finished()).
// `on_request(frame)` returns an error that breaks the stream, or none; `on_cancel(id)`.
// Returns the bytes consumed; `requests` counts the requests taken.
template <class Accepting, class OnRequest, class OnCancel>
std::size_t read_mux_server_frames(connection& c, length_prefix_decoder& decoder,
                                   std::span<const std::byte> data, std::error_code& error,
                                   std::uint64_t& requests, Accepting accepting,
                                   OnRequest on_request, OnCancel on_cancel) {
  std::size_t consumed = 0;
  while (accepting()) {
    const auto f = next_mux_frame(decoder, data, consumed, error);
    if (!f) break;
    switch (f->type) {
      case mux_frame_type::request:
        error = on_request(*f);
        ++requests;
        break;
      case mux_frame_type::cancel:
        on_cancel(f->id);
        break;
      case mux_frame_type::ping: {
        encoded_frame pong;
        if (!encode_mux_frame(mux_frame_type::pong, f->id, f->payload, SIZE_MAX, pong))
          c.send(pong);
        break;
      }
      case mux_frame_type::pong:
        break;
      default:
        error = errc::protocol_error;  // replies and drains do not flow to servers
        break;
    }
    if (error) break;
  }
  return consumed;
}

// on_drain's frame: the client sends no more calls on this connection.
inline void send_mux_drain(connection& c) {
  encoded_frame f;
  if (!encode_mux_frame(mux_frame_type::drain, 0, {}, 0, f)) c.send(f);
}

}  // namespace wirebench::detail
