// (f) The other way round from mux_rpc_tls.cpp: the library's mux RPC server over TLS (its
// sessions wrapped by tls_server_handler through session_server_config::layer), and a client
// written with Asio alone: a framed_stream over asio::ssl::stream that sends mux request frames
// by hand, verifying the server's certificate, and reads each reply.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>  // getpid

#include <asio/co_spawn.hpp>
#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <wirebench/codec.hpp>
#include <wirebench/mux.hpp>
#include <wirebench/tls.hpp>
#include <wirebench/transport.hpp>

using namespace std::chrono_literals;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
namespace wb = wirebench;

constexpr std::size_t max_frame = (1 << 16) + wb::mux_header_bytes;
using mux_tls_stream = wb::framed_stream<wb::length_prefix_decoder, wb::length_prefix_encoder,
                                         asio::ssl::stream<tcp::socket>>;

asio::awaitable<wb::rpc_reply> greet(std::string name) { co_return "hello, " + name; }

// Calls 1..20 one after the other; true when each reply is the right one, under the right id.
asio::awaitable<bool> client(tcp::endpoint server, asio::ssl::context& tls) {
  asio::ssl::stream<tcp::socket> socket(co_await asio::this_coro::executor, tls);
  co_await socket.next_layer().async_connect(server, use_awaitable);
  socket.set_verify_mode(asio::ssl::verify_peer);
  socket.set_verify_callback(asio::ssl::host_name_verification("localhost"));
  co_await socket.async_handshake(asio::ssl::stream_base::client, use_awaitable);
  mux_tls_stream s(std::move(socket),
                   wb::length_prefix_decoder({.header_bytes = 4, .max_frame_bytes = max_frame}),
                   wb::length_prefix_encoder({.header_bytes = 4, .max_frame_bytes = max_frame}),
                   {.max_buffer_bytes = max_frame + 4, .read_timeout = 5s});
  for (std::uint32_t id = 1; id <= 20; ++id) {
    // A request frame's payload: the mux header (type, 4-byte id), then the text.
    std::string request(1, static_cast<char>(wb::mux_frame_type::request));
    for (int shift = 24; shift >= 0; shift -= 8) request += static_cast<char>(id >> shift);
    request += "n" + std::to_string(id);
    co_await s.async_write_frame(request, use_awaitable);
    const auto frame = co_await s.async_read_frame(use_awaitable);
    const auto reply = wb::parse_mux_frame(frame);
    if (!reply || reply->type != wb::mux_frame_type::reply || reply->id != id ||
        wb::as_text(reply->payload) != "hello, n" + std::to_string(id))
      co_return false;
  }
  co_return true;  // the socket closes with the stream
}

int main() {
  // The server's certificate and key, made in memory and written where the server reads them.
  const wb::tls::certificate_pem pem = wb::tls::make_self_signed_certificate("localhost");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("wirebench-example-" + std::to_string(::getpid()));
  std::filesystem::create_directory(dir);
  std::ofstream(dir / "cert.pem") << pem.certificate;
  std::ofstream(dir / "key.pem") << pem.private_key;
  wb::tls_options server_tls;
  server_tls.certificate_file = (dir / "cert.pem").string();
  server_tls.private_key_file = (dir / "key.pem").string();

  wb::session_server_config config;
  config.transport.listen = wb::endpoint::parse_or_throw("tcp://127.0.0.1:0");
  // Every session under TLS: the mux protocol itself does not change.
  config.layer = [context = wb::tls::make_server_context(server_tls, {})](
                     std::unique_ptr<wb::connection_handler> session) {
    return wb::tls::make_tls_server_handler(std::move(session), context, max_frame + 4);
  };
  wb::mux_rpc_server server(config, {.handler = greet});
  std::filesystem::remove_all(dir);  // read at start-up

  asio::ssl::context client_tls(asio::ssl::context::tls_client);
  client_tls.add_certificate_authority(asio::buffer(pem.certificate));  // trusts exactly it
  asio::io_context io;
  const tcp::endpoint where(asio::ip::make_address("127.0.0.1"), server.local_endpoint().port);
  bool ok = false;
  asio::co_spawn(io, client(where, client_tls), [&](std::exception_ptr e, bool right) {
    ok = right && !e;
  });
  io.run();
  server.stop();
  std::cout << (ok ? "20 of 20 replies correct from the TLS server\n" : "failed\n");
  return ok ? 0 : 1;
}
