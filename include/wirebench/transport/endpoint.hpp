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

namespace wirebench {

struct endpoint {
  enum class kind : std::uint8_t { tcp, unix_path, unix_abstract };

  kind type = kind::tcp;
  std::string address;  // tcp: numeric address; unix: the path, or the abstract name without '@'
  std::uint16_t port = 0;

  // Returns nullopt and a one-line reason in *error when `text` is not a valid endpoint.
  static std::optional<endpoint> parse(std::string_view text, std::string* error = nullptr);
  // Start-up form of parse(): throws std::invalid_argument with the reason.
  static endpoint parse_or_throw(std::string_view text);
  static endpoint from_asio(const asio::generic::stream_protocol::endpoint& ep);

  asio::generic::stream_protocol::endpoint to_asio() const;
  std::string to_string() const;
  bool is_tcp() const { return type == kind::tcp; }
  bool is_unix() const { return type != kind::tcp; }
  friend bool operator==(const endpoint&, const endpoint&) = default;
};

}  // namespace wirebench
