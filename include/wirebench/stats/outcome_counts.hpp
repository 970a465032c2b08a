#pragma once
// How calls ended, counted by type beside the latency percentiles, so that a failed call is never
// silently missing from a result. Every issued call lands in exactly one outcome; the exact error
// names (error_name) are kept too, for the detail an outcome groups together.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace wirebench {

enum class outcome : std::uint8_t {
  ok,
  timeout,            // timeout, read_timeout, idle_timeout: no reply in time
  canceled,           // canceled by the caller, or the client shutting down
  connection_closed,  // the connection failed or closed with the call pending (incl. connect_failed)
  rejected,           // over a limit (in-flight cap and queue full, connection cap, EMFILE)
  wrong_reply,        // a reply that does not answer the call (checked by the harness)
  other_error,        // anything else (remote_error, protocol_error, tls_failed, ...)
  unfinished,         // still in flight when the run had to end without it (its watchdog fired)
};
inline constexpr std::size_t outcome_count = 8;

std::string_view outcome_name(outcome o);
outcome classify(const std::error_code& ec);

class outcome_counts {
 public:
  // One of the first distinct failures, with what the other side said: a remote error's text, an
  // unexpected status and body, the wrong reply itself. What a user needs to see first when calls
  // fail (an unknown command, a 404), kept without a cost per successful call.
  struct error_sample {
    std::string error;  // error_name()
    std::string text;   // at most max_sample_bytes of it
    friend bool operator==(const error_sample&, const error_sample&) = default;
  };
  static constexpr std::size_t max_samples = 5;
  // Of one error: wrong replies to the greet call each carry their call's own name, and would
  // otherwise fill every sample and hide the other errors.
  static constexpr std::size_t max_samples_per_error = 2;
  static constexpr std::size_t max_sample_bytes = 200;

  // `detail`: what came back with a failed call (see error_sample); ignored for a success.
  void add(const std::error_code& ec, std::string_view detail = {}) {
    if (!ec) {
      ++by_outcome_[static_cast<std::size_t>(outcome::ok)];  // inline: once per call
      return;
    }
    add_error(ec, detail);
  }
  void merge(const outcome_counts& other);
  // Counts read back from a results file: `n` more calls ended with `o`; `n` more failed with the
  // error named `name` (error_name()). The caller keeps the two consistent, as add() does.
  void add_counted(outcome o, std::uint64_t n) { by_outcome_[static_cast<std::size_t>(o)] += n; }
  void add_counted_error(const std::string& name, std::uint64_t n) { errors_[name] += n; }
  void add_sample(error_sample sample);  // kept if new and fewer than max_samples are

  std::uint64_t count(outcome o) const { return by_outcome_[static_cast<std::size_t>(o)]; }
  std::uint64_t total() const;
  std::uint64_t failed() const { return total() - count(outcome::ok); }
  // error_name(ec) -> calls that failed with it (successes are not listed).
  const std::map<std::string, std::uint64_t>& errors() const { return errors_; }
  // The first distinct failures that came with words (at most max_samples, and
  // max_samples_per_error of each error), in the order seen.
  const std::vector<error_sample>& samples() const { return samples_; }

 private:
  void add_error(const std::error_code& ec, std::string_view detail);
  void consider_sample(std::string_view error, std::string_view text);
  std::array<std::uint64_t, outcome_count> by_outcome_{};
  std::map<std::string, std::uint64_t> errors_;
  std::vector<error_sample> samples_;
};

}  // namespace wirebench
