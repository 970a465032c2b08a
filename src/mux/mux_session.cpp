#include "wirebench/mux/mux_session.hpp"

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "mux_server_frames.hpp"

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
  std::uint64_t requests = 0;
  const std::size_t consumed = detail::read_mux_server_frames(
      c, decoder_, data, error, requests, [this] { return accepting_input(); },
      [this, &c](const mux_frame& f) {
        dispatcher_.start(c, f.id, as_text(f.payload));
        return std::error_code{};
      },
      [this](std::uint32_t id) { dispatcher_.cancel(id); });
  count_requests(requests);
  return consumed;
}

void mux_session::on_drain(connection& c) { detail::send_mux_drain(c); }

}  // namespace wirebench
