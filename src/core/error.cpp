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

class wirebench_codes final : public std::error_category {
 public:
  const char* name() const noexcept override { return "wirebench"; }
  std::string message(int value) const override {
    if (value >= 0 && static_cast<std::size_t>(value) < std::size(entries))
      return std::string(entries[value].message);
    return "unknown wirebench error " + std::to_string(value);
  }
  // The standard's condition where one fits, so that `ec == std::errc::operation_canceled` and
  // `ec == std::errc::timed_out` hold for ours as for the system's (error_condition.hpp asks
  // across Asio's codes too).
  std::error_condition default_error_condition(int value) const noexcept override {
    switch (static_cast<errc>(value)) {
      case errc::canceled: return std::errc::operation_canceled;
      case errc::timeout:
      case errc::idle_timeout:
      case errc::read_timeout:
      case errc::write_timeout:
      case errc::keepalive_timeout: return std::errc::timed_out;
      default: return {value, *this};
    }
  }
};

// Names of the errno values a network library meets, as std::errc spells them (the system and
// generic categories, and standalone Asio's "asio.system", which holds errno values too).
std::string_view errno_name(int value) {
  switch (static_cast<std::errc>(value)) {
    case std::errc::connection_refused: return "connection_refused";
    case std::errc::connection_reset: return "connection_reset";
    case std::errc::connection_aborted: return "connection_aborted";
    case std::errc::broken_pipe: return "broken_pipe";
    case std::errc::timed_out: return "timed_out";
    case std::errc::too_many_files_open: return "too_many_files_open";
    case std::errc::too_many_files_open_in_system: return "too_many_files_open_in_system";
    case std::errc::operation_canceled: return "operation_canceled";
    case std::errc::network_unreachable: return "network_unreachable";
    case std::errc::network_down: return "network_down";
    case std::errc::host_unreachable: return "host_unreachable";
    case std::errc::address_in_use: return "address_in_use";
    case std::errc::address_not_available: return "address_not_available";
    case std::errc::not_connected: return "not_connected";
    case std::errc::already_connected: return "already_connected";
    case std::errc::connection_already_in_progress: return "connection_already_in_progress";
    case std::errc::operation_in_progress: return "operation_in_progress";
    case std::errc::operation_would_block: return "operation_would_block";
    case std::errc::interrupted: return "interrupted";
    case std::errc::bad_file_descriptor: return "bad_file_descriptor";
    case std::errc::no_buffer_space: return "no_buffer_space";
    case std::errc::not_enough_memory: return "not_enough_memory";
    case std::errc::message_size: return "message_size";
    case std::errc::permission_denied: return "permission_denied";
    case std::errc::operation_not_permitted: return "operation_not_permitted";
    case std::errc::no_such_file_or_directory: return "no_such_file_or_directory";
    case std::errc::invalid_argument: return "invalid_argument";
    case std::errc::address_family_not_supported: return "address_family_not_supported";
    case std::errc::protocol_not_supported: return "protocol_not_supported";
    default: return "system_error";
  }
}

// Standalone Asio's own categories, by name and value (asio/error.hpp; core includes no Asio).
std::string_view asio_name(std::string_view category, int value) {
  if (category == "asio.misc") {
    switch (value) {
      case 1: return "already_open";
      case 2: return "eof";
      case 3: return "not_found";
      case 4: return "fd_set_failure";
    }
  } else if (category == "asio.netdb") {
    switch (value) {
      case 1: return "host_not_found";
      case 2: return "host_not_found_try_again";
      case 3: return "no_data";
      case 4: return "no_recovery";
    }
  } else if (category == "asio.addrinfo") {
    return "address_lookup_failed";  // EAI_SERVICE, EAI_SOCKTYPE: a service or socket type
  } else if (category == "asio.ssl" || category == "asio.ssl.stream") {
    return "tls_error";
  }
  return "system_error";
}

}  // namespace

const std::error_category& error_category() noexcept {
  static const wirebench_codes instance;
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
  // which compares equal to no std::errc; then Asio's other categories.
  const std::string_view category = ec.category().name();
  if (category == "system" || category == "generic" || category == "asio.system")
    return errno_name(ec.value());
  return asio_name(category, ec.value());
}

}  // namespace wirebench
