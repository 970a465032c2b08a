#include "keepalive_flags.hpp"

#include <optional>

#include "wirebench/core/duration_text.hpp"

namespace wirebench::app {

void add_keepalive_client_flags(CLI::App& cmd, keepalive_flags& flags) {
  cmd.add_option("--keepalive", flags.interval,
                 "Ping a connection whose server has sent nothing for this long (250ms, 10s) while "
                 "calls are in flight; a connection whose server answers no ping in time closes, "
                 "its calls fail with keepalive_timeout, and a new one is dialed (http2, grpc*, "
                 "mux)");
  cmd.add_option("--keepalive-timeout", flags.timeout,
                 "How long a keep-alive ping may go unanswered (default 20s)");
  cmd.add_flag("--keepalive-without-calls", flags.without_calls,
               "Keep-alive pings on idle connections too (gRPC servers refuse that by default)");
}

std::string settle_keepalive_flags(const keepalive_flags& flags, keepalive_settings& into) {
  into = {};
  if (flags.interval.empty()) {
    if (!flags.timeout.empty()) return "--keepalive-timeout needs --keepalive";
    if (flags.without_calls) return "--keepalive-without-calls needs --keepalive";
    return {};
  }
  const auto read = [](const std::string& text) -> std::optional<std::chrono::nanoseconds> {
    const auto d = parse_duration(text);
    if (!d || d->count() == 0) return std::nullopt;
    return d;
  };
  const auto interval = read(flags.interval);
  if (!interval) return "--keepalive " + flags.interval + ": a duration above 0, such as 250ms or 10s";
  into.interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(*interval);
  if (!flags.timeout.empty()) {
    const auto timeout = read(flags.timeout);
    if (!timeout)
      return "--keepalive-timeout " + flags.timeout + ": a duration above 0, such as 250ms or 20s";
    into.timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(*timeout);
  }
  into.without_calls = flags.without_calls;
  return {};
}

}  // namespace wirebench::app
