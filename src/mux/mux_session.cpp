#include "wirebench/mux/mux_session.hpp"

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

// Work runs on the worker pool and comes back through post(); the session outlives it because
// the connection (which owns the session) is kept alive by the shared_ptr the work captures.
mux_session::mux_session(const settings& s, asio::thread_pool* workers)
    : max_in_flight_(s.max_in_flight),
      decoder_({4, s.max_frame_bytes + mux_header_bytes, oversize_policy::fail}),
      dispatcher_(s.dispatch, workers,
                  [](connection& c, std::uint64_t id, bool ok, std::string&& body) {
                    const auto type = ok ? mux_frame_type::reply : mux_frame_type::error_reply;
                    encoded_frame f;
                    if (!encode_mux_frame(type, static_cast<std::uint32_t>(id), as_bytes(body),
                                          SIZE_MAX, f))
                      c.send(f.prefix(), std::move(body), {});
                  }) {}

std::size_t mux_session::on_data(connection& c, std::span<const std::byte> data,
                                 std::error_code& error) {
  std::size_t consumed = 0;
  std::uint64_t requests = 0;
  // Backpressure: with max_in_flight requests being worked on, leave the rest in the buffer;
  // accepting_input() then pauses reading until replies have gone out.
  while (accepting_input()) {
    const auto f = next_mux_frame(decoder_, data, consumed, error);
    if (!f) break;
    switch (f->type) {
      case mux_frame_type::request:
        dispatcher_.start(c, f->id, as_text(f->payload));
        ++requests;
        break;
      case mux_frame_type::cancel:
        dispatcher_.cancel(f->id);
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
  count_requests(requests);
  return consumed;
}

void mux_session::on_drain(connection& c) {
  encoded_frame f;
  if (!encode_mux_frame(mux_frame_type::drain, 0, {}, 0, f)) c.send(f);
}

}  // namespace wirebench
