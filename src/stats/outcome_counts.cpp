#include "wirebench/stats/outcome_counts.hpp"

#include <cerrno>
#include <numeric>

#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench {

std::string_view outcome_name(outcome o) {
  switch (o) {
    case outcome::ok: return "ok";
    case outcome::timeout: return "timeout";
    case outcome::canceled: return "canceled";
    case outcome::connection_closed: return "connection_closed";
    case outcome::rejected: return "rejected";
    case outcome::wrong_reply: return "wrong_reply";
    case outcome::other_error: return "other_error";
    case outcome::unfinished: return "unfinished";
  }
  return "other_error";
}

outcome classify(const std::error_code& ec) {
  if (!ec) return outcome::ok;
  if (ec.category() == error_category()) {
    switch (static_cast<errc>(ec.value())) {
      case errc::timeout:
      case errc::read_timeout:
      case errc::idle_timeout:
      case errc::keepalive_timeout:
      case errc::write_timeout: return outcome::timeout;
      case errc::canceled:
      case errc::shutting_down: return outcome::canceled;
      case errc::connection_closed:
      case errc::connect_failed:
      case errc::peer_closed:
      case errc::truncated_frame: return outcome::connection_closed;
      case errc::rejected:
      case errc::slow_consumer: return outcome::rejected;
      case errc::wrong_reply:
      case errc::unknown_id: return outcome::wrong_reply;
      case errc::unfinished: return outcome::unfinished;
      default: return outcome::other_error;
    }
  }
  // By condition and errno, not std::errc: Asio's codes compare equal to no std::errc.
  const int e = system_errno(ec);
  if (e == EMFILE || e == ENFILE) return outcome::rejected;
  if (ec == condition::canceled) return outcome::canceled;
  if (ec == condition::timed_out) return outcome::timeout;
  if (ec == condition::peer_gone || e == ECONNREFUSED) return outcome::connection_closed;
  return outcome::other_error;
}

void outcome_counts::add_error(const std::error_code& ec, std::string_view detail) {
  ++by_outcome_[static_cast<std::size_t>(classify(ec))];
  const std::string_view name = error_name(ec);
  ++errors_[std::string(name)];
  if (!detail.empty()) consider_sample(name, detail.substr(0, max_sample_bytes));
}

void outcome_counts::add_sample(error_sample sample) { consider_sample(sample.error, sample.text); }

// Compared before anything is copied: once the samples are full, or this one is known, a failed
// call costs no allocation here.
void outcome_counts::consider_sample(std::string_view error, std::string_view text) {
  if (samples_.size() >= max_samples) return;
  std::size_t of_this_error = 0;
  for (const auto& s : samples_) {
    if (s.error != error) continue;
    if (s.text == text || ++of_this_error >= max_samples_per_error) return;
  }
  samples_.push_back({std::string(error), std::string(text)});
}

void outcome_counts::merge(const outcome_counts& other) {
  for (std::size_t i = 0; i < outcome_count; ++i) by_outcome_[i] += other.by_outcome_[i];
  for (const auto& [name, n] : other.errors_) errors_[name] += n;
  for (const auto& s : other.samples_) add_sample(s);
}

std::uint64_t outcome_counts::total() const {
  return std::accumulate(by_outcome_.begin(), by_outcome_.end(), std::uint64_t{0});
}

}  // namespace wirebench
