#pragma once
// The host of every server_codec (codec/server_codec.hpp) on the server skeleton: one connection's
// session that feeds the codec the bytes read, hands each call to the application through a
// request_dispatcher (inline, or on the skeleton's worker pool, with the configured service time;
// replies in request order for an ordered codec), writes what the codec encodes, counts requests
// and relays a graceful stop. A protocol's server is then its codec: make_codec_server() puts it on
// the skeleton, under TLS when the config asks.
#include <memory>
#include <string>

#include "wirebench/codec/server_codec.hpp"
#include "wirebench/calls/request_dispatcher.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/transport/stream_session.hpp"

namespace wirebench {

class codec_session : public stream_session {
 public:
  struct settings {
    server_codec_factory codecs;
    dispatch_settings dispatch;  // the application: the greet call and its service time
    std::size_t max_read_bytes;  // a codec's max_read_bytes(): every codec of a server asks alike
  };
  static std::size_t max_read_bytes(const settings& s) { return s.max_read_bytes; }

  // On the connection's thread. `workers`: the skeleton's pool, or null (replies computed inline).
  codec_session(const settings& s, asio::thread_pool* workers);

  // connection_handler's callbacks: on the connection's thread, as connection.hpp says.
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override;
  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return codec_->mid_request(); }
  std::size_t calls_in_flight() const override {
    return dispatcher_.in_flight() + codec_->replies_in_flight();
  }
  void on_drain(connection& c) override;
  void on_last_read(connection& c) override;
  void before_write(connection& c, std::error_code& error) override;

  // The codec, for tests that look at it through the session.
  server_codec& codec() { return *codec_; }

 private:
  const dispatch_settings& dispatch_;
  // No pool and no service time: each call is answered as it is decoded, without the
  // dispatcher's bookkeeping (the common case, and the one a per-request cost shows in).
  const bool inline_;
  std::unique_ptr<server_codec> codec_;
  request_dispatcher dispatcher_;
  server_request request_;  // reused by every decode: its answer's buffer stays warm inline
  std::string reply_;       // reused by every inline call
};

// The greet server of a protocol with a server codec (protocol::server_codecs): the registry's
// make_server for it. `thread_name` names the event-loop threads. Throws at start-up.
std::unique_ptr<protocol_server> make_codec_server(const server_config& c,
                                                   server_codec_factory codecs, alpn_choice alpn,
                                                   std::string thread_name);

}  // namespace wirebench
