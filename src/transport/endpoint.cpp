#include "wirebench/transport/endpoint.hpp"

#include <charconv>
#include <cstring>
#include <stdexcept>

#include <asio/ip/address.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>
#include <sys/un.h>

namespace wirebench {
namespace {

constexpr std::size_t max_unix_path = sizeof(sockaddr_un{}.sun_path) - 1;

std::optional<endpoint> fail(std::string* error, std::string why) {
  if (error != nullptr) *error = std::move(why);
  return std::nullopt;
}

}  // namespace

std::optional<endpoint> endpoint::parse(std::string_view text, std::string* error) {
  endpoint ep;
  if (text.starts_with("unix:")) {
    std::string_view rest = text.substr(5);
    if (rest.starts_with("@")) {
      ep.type = kind::unix_abstract;
      rest.remove_prefix(1);
    } else {
      ep.type = kind::unix_path;
    }
    if (rest.empty()) return fail(error, "'" + std::string(text) + "': empty Unix socket name");
    if (rest.size() > max_unix_path)
      return fail(error, "'" + std::string(text) + "': Unix socket name longer than " +
                             std::to_string(max_unix_path) + " bytes");
    if (rest.find('\0') != std::string_view::npos)
      return fail(error, "'" + std::string(text) + "': Unix socket name holds a NUL byte");
    ep.address = std::string(rest);
    return ep;
  }
  if (!text.starts_with("tcp://"))
    return fail(error, "'" + std::string(text) +
                           "': expected tcp://HOST:PORT, unix:/path or unix:@name");
  std::string_view rest = text.substr(6);
  std::string_view host;
  std::string_view port;
  if (rest.starts_with("[")) {  // [v6]:port
    auto close = rest.find(']');
    if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':')
      return fail(error, "'" + std::string(text) + "': expected tcp://[IPv6]:PORT");
    host = rest.substr(1, close - 1);
    port = rest.substr(close + 2);
  } else {
    auto colon = rest.rfind(':');
    if (colon == std::string_view::npos)
      return fail(error, "'" + std::string(text) + "': missing :PORT");
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value > 65535)
    return fail(error, "'" + std::string(text) + "': port must be a number from 0 to 65535");
  if (host == "localhost") host = "127.0.0.1";
  asio::error_code parse_error;
  auto address = asio::ip::make_address(std::string(host), parse_error);
  if (parse_error)
    return fail(error, "'" + std::string(text) + "': host must be a numeric IP address or localhost");
  ep.type = kind::tcp;
  ep.address = address.to_string();
  ep.port = static_cast<std::uint16_t>(value);
  return ep;
}

endpoint endpoint::parse_or_throw(std::string_view text) {
  std::string error;
  auto ep = parse(text, &error);
  if (!ep) throw std::invalid_argument(error);
  return *ep;
}

asio::generic::stream_protocol::endpoint endpoint::to_asio() const {
  switch (type) {
    case kind::tcp:
      return asio::ip::tcp::endpoint(asio::ip::make_address(address), port);
    case kind::unix_path:
      return asio::local::stream_protocol::endpoint(address);
    case kind::unix_abstract:
      // A leading NUL makes the name abstract; the length excludes any terminator.
      return asio::local::stream_protocol::endpoint(std::string(1, '\0') + address);
  }
  return {};
}

endpoint endpoint::from_asio(const asio::generic::stream_protocol::endpoint& ep) {
  endpoint out;
  if (ep.protocol().family() == AF_UNIX) {
    asio::local::stream_protocol::endpoint local;
    // Copy first: resize() looks at the path's last byte to drop a NUL terminator.
    std::memcpy(local.data(), ep.data(), ep.size());
    local.resize(ep.size());
    std::string path = local.path();
    if (!path.empty() && path[0] == '\0') {
      out.type = kind::unix_abstract;
      out.address = path.substr(1);
    } else {
      out.type = kind::unix_path;
      out.address = path;
    }
    return out;
  }
  asio::ip::tcp::endpoint tcp;
  std::memcpy(tcp.data(), ep.data(), ep.size());
  tcp.resize(ep.size());
  out.type = kind::tcp;
  out.address = tcp.address().to_string();
  out.port = tcp.port();
  return out;
}

std::string endpoint::to_string() const {
  switch (type) {
    case kind::tcp:
      if (address.find(':') != std::string::npos)
        return "tcp://[" + address + "]:" + std::to_string(port);
      return "tcp://" + address + ":" + std::to_string(port);
    case kind::unix_path:
      return "unix:" + address;
    case kind::unix_abstract:
      return "unix:@" + address;
  }
  return {};
}

}  // namespace wirebench
