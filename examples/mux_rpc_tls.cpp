// (d) The mux RPC client of mux_rpc.cpp over TLS: the same client engine and mux codec, wrapped
// in the library's TLS client codec, verifying the server's certificate. The server here is a
// short coroutine on asio::ssl::stream that answers mux frames with the framed operations; its
// certificate is made in memory at start-up and the client trusts exactly it (a CA file).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>  // getpid

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/client/async_call.hpp>
#include <wirebench/codec/bytes.hpp>
#include <wirebench/codec/length_prefix_encoder.hpp>
#include <wirebench/mux/mux_client_codec.hpp>
#include <wirebench/mux/mux_frame.hpp>
#include <wirebench/tls/tls_client_codec.hpp>
#include <wirebench/transport/async_read_frame.hpp>
#include <wirebench/transport/async_write_frame.hpp>

using namespace std::chrono_literals;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
namespace wb = wirebench;

// The largest request or reply text, the client codec's limit. A length-prefixed frame carries
// the mux header too, so the server's frame limit is this plus mux_header_bytes.
constexpr std::size_t max_text = 1 << 16;
constexpr std::size_t max_frame = max_text + wb::mux_header_bytes;

// One TLS connection: "name" is answered "hello, name" under its id until the client goes (its
// close ends the read). A name whose greeting exceeds max_text ends it too: the encoder refuses
// the reply, async_write_frame throws, and asio::detached drops the exception.
asio::awaitable<void> serve(asio::ssl::stream<tcp::socket> s) {
  co_await s.async_handshake(asio::ssl::stream_base::server, use_awaitable);
  wb::length_prefix_decoder decoder({.header_bytes = 4, .max_frame_bytes = max_frame});
  const wb::length_prefix_encoder encoder({.header_bytes = 4, .max_frame_bytes = max_frame});
  wb::frame_buffer buffer(max_frame + 4);
  wb::encoded_frame out;
  std::string reply;
  for (;;) {
    auto [ec, frame] = co_await wb::async_read_frame(s, buffer, decoder,
                                                     asio::experimental::as_tuple(use_awaitable));
    if (ec) co_return;
    const auto request = wb::parse_mux_frame(frame);
    if (!request || request->type != wb::mux_frame_type::request) co_return;
    // The reply frame: the mux header (type, id) then the text, as the length-prefixed payload.
    reply.assign(1, static_cast<char>(wb::mux_frame_type::reply));
    for (int shift = 24; shift >= 0; shift -= 8) reply += static_cast<char>(request->id >> shift);
    reply += "hello, " + std::string(wb::as_text(request->payload));
    co_await wb::async_write_frame(s, encoder, wb::as_bytes(reply), out, use_awaitable);
  }
}

int main() {
  // The server's certificate, and a CA file holding it for the client to verify against.
  const wb::tls::certificate_pem pem = wb::tls::make_self_signed_certificate("localhost");
  const auto ca_file = std::filesystem::temp_directory_path() /
                       ("wirebench-example-ca-" + std::to_string(::getpid()) + ".pem");
  std::ofstream(ca_file) << pem.certificate;

  asio::io_context server_io;
  asio::ssl::context server_tls(asio::ssl::context::tls_server);
  server_tls.use_certificate_chain(asio::buffer(pem.certificate));
  server_tls.use_private_key(asio::buffer(pem.private_key), asio::ssl::context::pem);
  tcp::acceptor acceptor(server_io, {asio::ip::make_address("127.0.0.1"), 0});
  asio::co_spawn(server_io, [&]() -> asio::awaitable<void> {
    tcp::socket socket = co_await acceptor.async_accept(use_awaitable);  // one client here
    // Its own statement: GCC 12 may destroy a temporary twice in a full expression with a co_await.
    asio::ssl::stream<tcp::socket> stream(std::move(socket), server_tls);
    co_await serve(std::move(stream));
  }, asio::detached);
  std::thread server_thread([&] { server_io.run(); });

  wb::tls_options verify;
  verify.ca_file = ca_file.string();
  wb::client_engine_config client_config;
  client_config.connect = wb::endpoint::parse_or_throw(
      "tcp://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()));
  // The only change from the plaintext client: the mux codec, wrapped in TLS for "localhost".
  client_config.codec = wb::tls::tls_client_codecs([] { return wb::make_mux_client_codec(max_text); },
                                                   wb::tls::make_client_context(verify, ""),
                                                   "localhost");
  int correct = 0, failed = 0;
  {
    wb::client_engine engine(client_config);
    asio::io_context io;
    for (int i = 0; i < 100; ++i)
      asio::co_spawn(io, [&engine, i]() -> asio::awaitable<bool> {
        const std::string name = std::to_string(i);
        const std::string reply = co_await wb::async_call(engine, name, 5s, use_awaitable);
        co_return reply == "hello, " + name;
      }, [&](std::exception_ptr e, bool ok) { (ok && !e ? correct : failed) += 1; });
    io.run();  // until all 100 have completed
  }  // the engine closes its connection: the server's read ends
  server_thread.join();
  std::filesystem::remove(ca_file);
  std::cout << correct << " of 100 replies correct over TLS, " << failed << " failed\n";
  return correct == 100 ? 0 : 1;
}
