#pragma once
// The connections open on one io_context, so that io_pool::stop() can close every one of them.
// An asio service: one instance per io_context, touched only from that context's thread.
#include <system_error>
#include <unordered_set>

#include <asio/execution_context.hpp>

namespace wirebench {

class closable {
 public:
  virtual void close(std::error_code reason) = 0;

 protected:
  ~closable() = default;
};

class connection_tracker final : public asio::execution_context::service {
 public:
  static inline asio::execution_context::id id;
  explicit connection_tracker(asio::execution_context& ctx) : service(ctx) {}

  void add(closable* c) { live_.insert(c); }
  void remove(closable* c) { live_.erase(c); }
  std::size_t size() const { return live_.size(); }
  // Closes every tracked connection; each removes itself while closing.
  void close_all(std::error_code reason);

 private:
  void shutdown() override { live_.clear(); }
  std::unordered_set<closable*> live_;
};

}  // namespace wirebench
