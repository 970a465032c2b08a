#pragma once
// The client side of our mux protocol (docs/PROTOCOLS.md) as a codec for the client engine:
// request frames out; reply, error-reply, ping and drain frames in, matched by request id.
#include <cstddef>
#include <memory>

#include "wirebench/core/api.hpp"
#include "wirebench/codec/client_codec.hpp"

namespace wirebench {

/// `max_frame_bytes`: the largest request payload sent and reply payload accepted. With
/// reply_order::in_order the server must answer in request order (mux_server's ordered mode):
/// the same frames matched as a FIFO, to measure what head-of-line blocking costs.
WIREBENCH_API std::unique_ptr<client_codec> make_mux_client_codec(
    std::size_t max_frame_bytes, reply_order order = reply_order::by_id);

}  // namespace wirebench
