#pragma once
/// TLS under any client codec: wraps a protocol's client_codec (mux, line, RESP, HTTP/1.1, ...)
/// so that the client engine speaks it over TLS, with no change to the engine or the protocol.
///
/// Sans-IO, like the codec it wraps: the inner codec encodes into a plaintext queue; before each
/// write (produce) everything queued in that loop turn goes through the TLS channel at once, so a
/// batch of calls becomes one or a few TLS records; ciphertext read is decrypted into a plaintext
/// buffer the inner codec decodes from. The handshake starts when the connection opens (the
/// ClientHello is the connection's preface); calls encoded before it completes are held and sent
/// once it does.
///
/// Errors: errc::tls_failed when the handshake or a record fails (a certificate that does not
/// verify, no agreed ALPN protocol, garbage from the server): the connection closes with it and
/// its calls fail with tls_failed (the engine re-dials, backing off); errc::peer_closed
/// on the server's close_notify; the inner codec's errors otherwise. Decrypted bytes the inner
/// codec has not consumed are bounded by its max_read_bytes() (frame_too_long past it).
///
/// Threads: as every codec, one per connection, used only on that connection's thread.
#include <memory>
#include <string>
#include <string_view>

#include "wirebench/core/api.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/tls/tls_context.hpp"

namespace wirebench::tls {

/// `inner` made for each connection by `inner_codecs`; `context` a client context
/// (make_client_context, or the user's own SSL_CTX: it is shared by every connection, so it must
/// not be changed while they run); `server_name` the SNI sent and, when the context verifies, the
/// name or address the certificate must carry; `alpn` the protocol the handshake must agree on
/// (empty: none asked for).
WIREBENCH_API client_codec_factory tls_client_codecs(client_codec_factory inner_codecs,
                                                     context_ptr context, std::string server_name,
                                                     std::string alpn = {});

/// One connection's codec: `inner` under a new TLS channel on `context`.
WIREBENCH_API std::unique_ptr<client_codec> make_tls_client_codec(
    std::unique_ptr<client_codec> inner, context_ptr context, std::string_view server_name,
    std::string_view alpn = {});

}  // namespace wirebench::tls
