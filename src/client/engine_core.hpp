#pragma once
// What a client_engine's lanes share, and what keeps them: the settings, the lanes, whether the
// engine is closed, and the last dial error. Held by shared_ptr: by the engine, and by every
// handler that may still run after the engine is gone (a call posted to a lane, a dial under
// way, a connection's link, a call handle), so that on the caller's io_context, which the engine
// neither stops nor waits for, no handler ever reaches a freed lane. On the engine's own
// threads the engine joins them first, and the same holds.
#include <atomic>
#include <memory>
#include <mutex>
#include <system_error>
#include <vector>

#include "engine_lane.hpp"
#include "wirebench/client/client_engine.hpp"

namespace wirebench {

struct engine_core : std::enable_shared_from_this<engine_core> {
  explicit engine_core(client_engine_config c) : config(std::move(c)) {}

  const client_engine_config config;
  std::vector<std::unique_ptr<engine_lane>> lanes;  // filled once, at construction
  std::atomic<bool> closed{false};

  /// A failed dial's error, for client_engine::stats(). Any lane's thread.
  void note_connect_error(std::error_code ec) {
    std::lock_guard lock(error_mutex_);
    last_connect_error_ = ec;
  }
  std::error_code last_connect_error() const {
    std::lock_guard lock(error_mutex_);
    return last_connect_error_;
  }

 private:
  mutable std::mutex error_mutex_;
  std::error_code last_connect_error_;
};

}  // namespace wirebench
