#pragma once
// One endpoint syntax for every transport:
//   tcp://127.0.0.1:7000   tcp://[::1]:7000   tcp://localhost:0   (port 0: the kernel picks)
//   unix:/path/to/socket   (a filesystem Unix socket)
//   unix:@name             (a Linux abstract Unix socket: no file, gone with the last descriptor)
// Hosts are numeric IPv4/IPv6 addresses or "localhost" (127.0.0.1); we do no DNS.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <asio/generic/stream_protocol.hpp>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// A parsed endpoint (syntax above): TCP host and port, or a Unix socket path or abstract name.
struct WIREBENCH_API endpoint {
  /// Which transport: TCP, a filesystem Unix socket, or an abstract Unix socket.
  enum class kind : std::uint8_t { tcp, unix_path, unix_abstract };

  /// Which transport.
  kind type = kind::tcp;
  std::string address;  // tcp: numeric address; unix: the path, or the abstract name without '@'
  /// tcp: the port (0: the kernel picks).
  std::uint16_t port = 0;

  /// Returns nullopt and a one-line reason in *error when `text` is not a valid endpoint.
  static std::optional<endpoint> parse(std::string_view text, std::string* error = nullptr);
  /// Start-up form of parse(): throws std::invalid_argument with the reason.
  static endpoint parse_or_throw(std::string_view text);
  /// The endpoint of an Asio socket address (TCP, or a Unix path or abstract name).
  static endpoint from_asio(const asio::generic::stream_protocol::endpoint& ep);

  /// The Asio socket address, to bind or connect.
  asio::generic::stream_protocol::endpoint to_asio() const;
  /// The endpoint in the syntax parse() reads ("tcp://127.0.0.1:7000", "unix:@name").
  std::string to_string() const;
  /// True for TCP.
  bool is_tcp() const { return type == kind::tcp; }
  /// True for a Unix socket (path or abstract).
  bool is_unix() const { return type != kind::tcp; }
  /// Field-by-field equality.
  friend bool operator==(const endpoint&, const endpoint&) = default;
};

}  // namespace wirebench
