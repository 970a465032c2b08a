// resp-sync: the "one blocking connection per worker" client of the comparison. A pool of
// blocking hiredis contexts, one thread each (client_config.connections of them); async_greet
// queues the call, a pool thread takes it, runs redisCommand and completes it on that thread.
//
// Every call completes exactly once: with the reply; errc::timeout (its deadline, reply_timeout
// after async_greet, passed while queued, or no byte came for reply_timeout: that context is
// dropped and the thread reconnects for its next call); connection_closed (the server closed the
// connection: that thread ends, and when none is left every queued and later call fails); or
// connect_failed (no thread could connect). close() shuts the sockets down under the blocked
// threads, joins them and fails what is still queued with connection_closed.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include <hiredis/hiredis.h>

#include "hiredis_connect.hpp"
#include "resp_backend.hpp"
#include "resp_reply_reader.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

using clock = std::chrono::steady_clock;

struct job {
  std::string name;
  clock::time_point deadline;
  call_completion done;
};

// Completes calls that fail at once without recursing: a closed loop that retries from inside
// the completion would otherwise grow the stack with every failed call.
void complete_now(call_completion done, std::error_code ec) {
  thread_local int depth = 0;
  thread_local std::deque<std::pair<call_completion, std::error_code>> later;
  if (depth > 0) {
    later.emplace_back(std::move(done), ec);
    return;
  }
  ++depth;
  done(ec, {});
  while (!later.empty()) {
    auto next = std::move(later.front());
    later.pop_front();
    next.first(next.second, {});
  }
  --depth;
}

class sync_client final : public protocol_client {
 public:
  explicit sync_client(const client_config& c)
      : config_(c), alive_(c.connections == 0 ? 1 : c.connections), fds_(alive_, -1) {
    for (std::size_t i = 0; i < fds_.size(); ++i) threads_.emplace_back([this, i] { run(i); });
  }
  ~sync_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    std::unique_lock lock(mutex_);
    if (closing_ || alive_ == 0) {
      const std::error_code why = closing_ ? std::error_code(errc::connection_closed) : gone_;
      lock.unlock();
      complete_now(std::move(done), why);
      return;
    }
    queue_.push_back({std::string(name), clock::now() + config_.reply_timeout, std::move(done)});
    lock.unlock();
    ready_.notify_one();
  }

  void close() override {
    std::call_once(closed_, [this] {
      {
        std::lock_guard lock(mutex_);
        closing_ = true;
        for (int fd : fds_)
          if (fd >= 0) ::shutdown(fd, SHUT_RDWR);  // wakes a thread blocked in redisCommand
      }
      ready_.notify_all();
      for (auto& t : threads_) t.join();
      fail_queued(errc::connection_closed);
    });
  }

 private:
  void fail_queued(std::error_code ec) {
    std::deque<job> failed;
    {
      std::lock_guard lock(mutex_);
      failed.swap(queue_);
    }
    for (job& j : failed) j.done(ec, {});
  }

  // Connects worker i's context; the socket is registered first, so close() can interrupt it.
  redisContext* connect(std::size_t i) {
    const int fd = open_socket(config_.connect);
    if (fd < 0) return nullptr;
    {
      std::lock_guard lock(mutex_);
      if (closing_) {
        ::close(fd);
        return nullptr;
      }
      fds_[i] = fd;
    }
    redisContext* ctx = nullptr;
    if (!connect_socket(fd, config_.connect, config_.connect_timeout))
      ctx = adopt_socket(fd, config_.reply_timeout);  // then owns fd
    if (ctx == nullptr) {
      forget(i);  // before close: close() must never shut down a reused descriptor number
      ::close(fd);
    }
    return ctx;
  }
  void forget(std::size_t i) {
    std::lock_guard lock(mutex_);
    fds_[i] = -1;
  }
  void drop(std::size_t i, redisContext*& ctx) {
    forget(i);
    if (ctx) redisFree(ctx);
    ctx = nullptr;
  }

  // This worker is gone: when it was the last, nothing will serve the queue.
  void retire(std::error_code why) {
    bool last;
    {
      std::lock_guard lock(mutex_);
      last = --alive_ == 0;
      if (last) gone_ = why;
    }
    if (last) fail_queued(why);
  }

  void run(std::size_t i) {
    sigpipe_blocked quiet;
    redisContext* ctx = connect(i);
    if (ctx == nullptr) {
      retire(errc::connect_failed);
      return;
    }
    for (;;) {
      job j;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return closing_ || !queue_.empty(); });
        if (closing_) break;
        j = std::move(queue_.front());
        queue_.pop_front();
      }
      if (clock::now() >= j.deadline) {
        j.done(errc::timeout, {});
        continue;
      }
      if (ctx == nullptr && (ctx = connect(i)) == nullptr) {  // after a timeout
        j.done(closing() ? errc::connection_closed : errc::connect_failed, {});
        if (closing()) break;
        continue;
      }
      const char* argv[2] = {"GREET", j.name.data()};
      const std::size_t lens[2] = {5, j.name.size()};
      errno = 0;
      auto* r = static_cast<redisReply*>(redisCommandArgv(ctx, 2, argv, lens));
      if (r == nullptr) {
        const bool timed_out = ctx->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
        const bool stopping = closing();
        j.done(timed_out && !stopping ? errc::timeout : errc::connection_closed, {});
        drop(i, ctx);  // a context that failed mid-command is unusable
        if (stopping) break;
        if (timed_out) continue;
        retire(errc::connection_closed);
        return;
      }
      const std::string_view text(r->str ? r->str : "", r->str ? r->len : 0);
      const reply_kind kind = r->type == REDIS_REPLY_STRING   ? reply_kind::string
                              : r->type == REDIS_REPLY_ERROR  ? reply_kind::error
                              : r->type == REDIS_REPLY_STATUS ? reply_kind::status
                                                              : reply_kind::array;
      const std::error_code verdict = check_greeting(kind, text, expected_greeting(j.name));
      j.done(verdict, verdict == errc::wrong_reply ? std::string_view{} : text);
      freeReplyObject(r);
    }
    drop(i, ctx);
  }

  bool closing() {
    std::lock_guard lock(mutex_);
    return closing_;
  }

  client_config config_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<job> queue_;
  bool closing_ = false;
  std::size_t alive_;
  std::error_code gone_ = errc::connection_closed;  // why no worker is left
  std::vector<int> fds_;  // each worker's socket, for close()
  std::vector<std::thread> threads_;
  std::once_flag closed_;
};

}  // namespace

std::unique_ptr<protocol_client> make_sync_client(const client_config& config) {
  return std::make_unique<sync_client>(config);
}

}  // namespace wirebench::resp
