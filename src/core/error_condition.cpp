#include "wirebench/core/error_condition.hpp"

#include <cerrno>
#include <string>
#include <string_view>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

// Asio's end of stream: asio::error::eof, value 2 of its "asio.misc" category. Named here, not
// included: core knows no Asio.
bool is_asio_eof(const std::error_code& ec) {
  return ec.value() == 2 && std::string_view(ec.category().name()) == "asio.misc";
}

class wirebench_conditions final : public std::error_category {
 public:
  const char* name() const noexcept override { return "wirebench.condition"; }
  std::string message(int value) const override {
    switch (static_cast<condition>(value)) {
      case condition::canceled: return "canceled";
      case condition::peer_gone: return "the peer closed or left the connection";
      case condition::timed_out: return "timed out";
    }
    return "unknown wirebench condition " + std::to_string(value);
  }
  bool equivalent(const std::error_code& ec, int value) const noexcept override {
    const int e = system_errno(ec);
    const bool ours = ec.category() == wirebench::error_category();
    const auto code = static_cast<errc>(ec.value());
    switch (static_cast<condition>(value)) {
      case condition::canceled:
        return e == ECANCELED || (ours && (code == errc::canceled || code == errc::shutting_down));
      case condition::peer_gone:
        return e == ECONNRESET || e == EPIPE || e == ECONNABORTED || is_asio_eof(ec) ||
               (ours && (code == errc::peer_closed || code == errc::connection_closed ||
                         code == errc::truncated_frame));
      case condition::timed_out:
        return e == ETIMEDOUT ||
               (ours && (code == errc::timeout || code == errc::idle_timeout ||
                         code == errc::read_timeout || code == errc::write_timeout ||
                         code == errc::keepalive_timeout));
    }
    return false;
  }
};

}  // namespace

const std::error_category& condition_category() noexcept {
  static const wirebench_conditions instance;
  return instance;
}

int system_errno(const std::error_code& ec) noexcept {
  if (!ec) return 0;
  const std::string_view name = ec.category().name();
  return name == "system" || name == "generic" || name == "asio.system" ? ec.value() : 0;
}

}  // namespace wirebench
