// async_read_frame / async_write_frame over asio::ssl::stream: the operations need only an Asio
// stream, so TLS is a matter of the stream type. A TLS server and client on loopback, a
// throwaway self-signed certificate, length-prefixed frames both ways.
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl.hpp>
#include <asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include "wirebench/tls/tls_context.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/transport/async_read_frame.hpp"
#include "wirebench/transport/async_write_frame.hpp"

namespace wirebench {
namespace {

using tcp = asio::ip::tcp;
using tls_stream = asio::ssl::stream<tcp::socket>;

TEST(async_read_frame, frames_over_an_ssl_stream_both_ways) {
  asio::io_context ctx;
  const tls::certificate_pem pem = tls::make_self_signed_certificate();
  asio::ssl::context server_tls(asio::ssl::context::tls_server);
  server_tls.use_certificate_chain(asio::buffer(pem.certificate));
  server_tls.use_private_key(asio::buffer(pem.private_key), asio::ssl::context::pem);
  asio::ssl::context client_tls(asio::ssl::context::tls_client);
  client_tls.add_certificate_authority(asio::buffer(pem.certificate));
  client_tls.set_verify_mode(asio::ssl::verify_peer);

  tcp::acceptor acceptor(ctx, {asio::ip::make_address("127.0.0.1"), 0});
  std::vector<std::string> server_got;
  std::string client_got;

  // The server answers each frame with "hello, " + frame, until the client closes.
  auto server = [&]() -> asio::awaitable<void> {
    tls_stream s(co_await acceptor.async_accept(asio::use_awaitable), server_tls);
    co_await s.async_handshake(asio::ssl::stream_base::server, asio::use_awaitable);
    length_prefix_decoder decoder;
    const length_prefix_encoder encoder;
    frame_buffer buffer;
    encoded_frame frame;
    std::string reply;
    for (;;) {
      auto [ec, request] = co_await async_read_frame(s, buffer, decoder, asio::experimental::as_tuple(asio::use_awaitable));
      if (ec) break;  // the client's close_notify ends the stream
      server_got.emplace_back(as_text(request));
      reply = "hello, " + std::string(as_text(request));
      co_await async_write_frame(s, encoder, as_bytes(reply), frame, asio::use_awaitable);
    }
  };
  auto client = [&]() -> asio::awaitable<void> {
    tls_stream s(ctx, client_tls);
    co_await s.next_layer().async_connect(acceptor.local_endpoint(), asio::use_awaitable);
    co_await s.async_handshake(asio::ssl::stream_base::client, asio::use_awaitable);
    length_prefix_decoder decoder;
    const length_prefix_encoder encoder;
    frame_buffer buffer;
    encoded_frame frame;
    const std::string big(20000, 'x');  // more than one TLS record
    for (const std::string& name : {std::string("ann"), big}) {
      co_await async_write_frame(s, encoder, as_bytes(name), frame, asio::use_awaitable);
      const auto reply = co_await async_read_frame(s, buffer, decoder, asio::use_awaitable);
      client_got += std::string(as_text(reply)).substr(0, 10) + ";";
    }
    // The server ends its side by closing; whatever the shutdown then reports does not matter here.
    co_await s.async_shutdown(asio::experimental::as_tuple(asio::use_awaitable));
  };
  asio::co_spawn(ctx, server(), asio::detached);
  asio::co_spawn(ctx, client(), asio::detached);
  ctx.run();
  ASSERT_EQ(server_got.size(), 2u);
  EXPECT_EQ(server_got[0], "ann");
  EXPECT_EQ(server_got[1].size(), 20000u);
  EXPECT_EQ(client_got, "hello, ann;hello, xxx;");
}

}  // namespace
}  // namespace wirebench
