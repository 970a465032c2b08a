#pragma once
// The connections open on one io_context, so that io_pool::stop() can close every one of them.
// An asio service: one instance per io_context, touched only from that context's thread.
#include <system_error>
#include <unordered_set>

#include <asio/execution_context.hpp>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// A connection io_pool::stop() can close (see connection_tracker).
class WIREBENCH_API closable {
 public:
  /// Closes the connection with `reason`; called on its io_context's thread.
  virtual void close(std::error_code reason) = 0;

 protected:
  /// Not deleted through this base.
  ~closable() = default;
};

/// The connections open on one io_context (see above). Touched only from that context's thread.
class WIREBENCH_API connection_tracker final : public asio::execution_context::service {
 public:
  /// The asio service id.
  static inline asio::execution_context::id id;
  /// Made by asio::use_service on first use.
  explicit connection_tracker(asio::execution_context& ctx) : service(ctx) {}

  /// Tracks `c` (a connection just opened).
  void add(closable* c) { live_.insert(c); }
  /// Stops tracking `c` (a connection closing).
  void remove(closable* c) { live_.erase(c); }
  /// Number of tracked connections.
  std::size_t size() const { return live_.size(); }
  /// Closes every tracked connection; each removes itself while closing.
  void close_all(std::error_code reason);

 private:
  void shutdown() override { live_.clear(); }
  std::unordered_set<closable*> live_;
};

}  // namespace wirebench
