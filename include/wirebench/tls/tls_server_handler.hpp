#pragma once
/// TLS under any server session: wraps a protocol's connection_handler (line, mux, HTTP/1.1,
/// HTTP/2, RESP, ...) so that it serves over TLS with no change to the protocol. The server-side
/// twin of tls_client_codec.hpp.
///
/// Ciphertext read from the socket goes through a sans-IO TLS channel; the plaintext it yields is
/// handed to the inner handler's on_data, and what the inner handler leaves unconsumed is kept for
/// its next call. The inner handler writes plaintext to the connection's outbox() as always: the
/// connection's output is diverted (connection::divert_output) into a queue this handler seals
/// in before_write(), so a loop turn's replies become one or a few TLS records in one writev.
///
/// Errors: errc::tls_failed when the handshake or a record fails (the alert for the peer is
/// flushed first, then the connection closes; the reason is failure()); errc::peer_closed on the
/// client's close_notify; the inner handler's errors otherwise. Decrypted bytes the inner handler
/// has not consumed are bounded by twice `max_plain_bytes` (errc::frame_too_long past it): a
/// partial request and one more read.
///
/// Threads: as every connection_handler, used only on its connection's thread.
#include <cstddef>
#include <memory>
#include <string_view>

#include "wirebench/core/api.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::tls {

/// `inner` under a new TLS channel on `context` (a server context: make_server_context, shared by
/// every connection and never changed while they run). `max_plain_bytes`: the inner handler's read
/// buffer limit (see above).
WIREBENCH_API std::unique_ptr<connection_handler> make_tls_server_handler(
    std::unique_ptr<connection_handler> inner, context_ptr context, std::size_t max_plain_bytes);

}  // namespace wirebench::tls
