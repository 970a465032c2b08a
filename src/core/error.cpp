#include "wirebench/core/error.hpp"

#include <string>

#include "wirebench/core/named_error_category.hpp"

namespace wirebench {
namespace {

struct entry {
  std::string_view name;
  std::string_view message;
};

constexpr entry entries[] = {
    {"ok", "success"},
    {"frame_too_long", "frame longer than the configured limit"},
    {"corrupt_frame", "corrupt frame"},
    {"truncated_frame", "stream ended in the middle of a frame"},
    {"timeout", "deadline expired"},
    {"idle_timeout", "connection idle for too long"},
    {"read_timeout", "peer sent nothing in time"},
    {"write_timeout", "peer did not read in time"},
    {"canceled", "canceled"},
    {"connection_closed", "connection closed"},
    {"connect_failed", "could not connect"},
    {"rejected", "rejected: over a configured limit"},
    {"remote_error", "the peer replied with an error"},
    {"unknown_id", "reply for an unknown request id"},
    {"wrong_reply", "reply does not answer the request"},
    {"late", "reply arrived after the call completed"},
    {"shutting_down", "shutting down"},
    {"slow_consumer", "peer is not reading its replies"},
    {"peer_closed", "peer closed the connection"},
    {"protocol_error", "protocol error"},
    {"invalid_argument", "invalid argument"},
    {"tls_failed", "TLS failed (handshake, record or ALPN)"},
    {"unfinished", "still in flight when the run had to end"},
    {"keepalive_timeout", "peer did not answer a keep-alive ping in time"},
};

class category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "wirebench"; }
  std::string message(int value) const override {
    if (value >= 0 && static_cast<std::size_t>(value) < std::size(entries))
      return std::string(entries[value].message);
    return "unknown wirebench error " + std::to_string(value);
  }
};

}  // namespace

const std::error_category& error_category() noexcept {
  static const category instance;
  return instance;
}

std::string_view error_name(const std::error_code& ec) {
  if (!ec) return "ok";
  if (ec.category() == error_category()) {
    auto v = static_cast<std::size_t>(ec.value());
    if (v < std::size(entries)) return entries[v].name;
  }
  if (const auto* named = dynamic_cast<const named_error_category*>(&ec.category()))
    return named->code_name(ec.value());
  // errno values, from the standard's system category or standalone Asio's own ("asio.system"),
  // which compares equal to no std::errc.
  const std::string_view category = ec.category().name();
  if (category != "system" && category != "generic" && category != "asio.system")
    return "system_error";
  switch (static_cast<std::errc>(ec.value())) {
    case std::errc::connection_refused: return "connection_refused";
    case std::errc::connection_reset: return "connection_reset";
    case std::errc::broken_pipe: return "broken_pipe";
    case std::errc::too_many_files_open: return "too_many_files_open";
    case std::errc::operation_canceled: return "operation_canceled";
    default: return "system_error";
  }
}

}  // namespace wirebench
