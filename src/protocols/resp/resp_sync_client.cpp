// resp-sync: the "one blocking connection per worker" client of the comparison. A pool of
// blocking hiredis contexts, one thread each (client_config.connections of them); async_greet
// queues the call, a pool thread takes it, makes it and completes it on that thread. A call is
// what redisCommand does (hiredis formats and writes the command, one blocking read gets the
// reply), except that the reply is parsed by reply_reader: hiredis's parser with the limits
// hiredis 0.14 lacks, so a reply declaring 10^8 elements is refused at once (protocol_error) and
// one growing past max_frame_bytes too (frame_too_long), as the engine's resp client does.
//
// Every call completes exactly once, on a pool thread (never inside async_greet): with the reply;
// errc::timeout (its deadline, reply_timeout after async_greet, passed: while queued, or while
// the reply came too slowly, however the server trickles it); connection_closed (the connection
// failed under it); connect_failed (the thread could not dial for it); or the reader's error
// (protocol_error, frame_too_long). A thread whose connection failed dials again for its next
// call, after a back-off (10 ms, doubled per failed dial, at most 1 s), as the client engine does.
// close() shuts the sockets down under the blocked threads, joins them and fails what is still
// queued with connection_closed; calls made after close() fail at once, on the caller's thread.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <hiredis/hiredis.h>

#include "hiredis_connect.hpp"
#include "resp_backend.hpp"
#include "resp_reply_reader.hpp"
#include "wirebench/client/redial_backoff.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

using clock = std::chrono::steady_clock;

struct job {
  std::string name;
  clock::time_point deadline;
  call_completion done;
};

// The greet call's verdict on a reply: a bulk string equal to `expected` is the answer; an error
// reply is remote_error (its text the reason); anything else is wrong_reply.
std::error_code check_greeting(const reply_view& r, std::string_view expected) {
  if (r.kind == reply_kind::string && r.text == expected) return {};
  if (r.kind == reply_kind::error) return errc::remote_error;
  return errc::wrong_reply;
}

// Why a blocking read or write on a hiredis socket failed: SO_RCVTIMEO/SO_SNDTIMEO ran out, or
// the connection is gone.
std::error_code io_error() {
  return errno == EAGAIN || errno == EWOULDBLOCK ? make_error_code(errc::timeout)
                                                 : make_error_code(errc::connection_closed);
}

class sync_client final : public protocol_client {
 public:
  explicit sync_client(const client_config& c)
      : config_(c), fds_(c.connections == 0 ? 1 : c.connections, -1) {
    for (std::size_t i = 0; i < fds_.size(); ++i) threads_.emplace_back([this, i] { run(i); });
  }
  ~sync_client() override { close(); }

  // Its blocking sockets take calls from one queue: a lane means nothing here.
  void async_greet(std::string_view name, call_options options, call_completion done) override {
    const clock::time_point deadline =
        options.has_deadline() ? options.deadline : clock::now() + config_.reply_timeout;
    std::unique_lock lock(mutex_);
    if (closing_) {  // no thread is left to run it
      lock.unlock();
      done(errc::connection_closed, {});
      return;
    }
    queue_.push_back({std::string(name), deadline, std::move(done)});
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
      closing_cv_.notify_all();
      for (auto& t : threads_) t.join();
      fail_queued(errc::connection_closed);
    });
  }

  client_counters counters() const override {
    client_counters c;
    c.connects = connects_.load(std::memory_order_relaxed);
    c.connect_failures = connect_failures_.load(std::memory_order_relaxed);
    c.reconnects = reconnects_.load(std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    c.last_connect_error = last_connect_error_;
    return c;
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
    std::error_code ec = connect_socket(fd, config_.connect, config_.connect_timeout);
    if (!ec && (ctx = adopt_socket(fd, config_.reply_timeout)) == nullptr)  // then owns fd
      ec = errc::connect_failed;
    if (ctx == nullptr) {
      {
        std::lock_guard lock(mutex_);
        last_connect_error_ = ec;
      }
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

  // Waits out the back-off before a dial; false if the client closed meanwhile.
  bool wait_to_dial(clock::time_point not_before) {
    std::unique_lock lock(mutex_);
    closing_cv_.wait_until(lock, not_before, [&] { return closing_; });
    return !closing_;
  }

  void run(std::size_t i) {
    sigpipe_blocked quiet;
    redisContext* ctx = nullptr;
    // The connection's reply parser; a new one with each connection (a failed call leaves the
    // old one mid-reply).
    std::optional<reply_reader> reader;
    redial_backoff backoff;  // the engine's defaults
    bool ever_connected = false;
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
      if (ctx == nullptr) {  // first call, or the last connection failed
        if (!wait_to_dial(backoff.next_dial())) {
          j.done(errc::connection_closed, {});
          break;
        }
        if ((ctx = connect(i)) == nullptr) {
          connect_failures_.fetch_add(1, std::memory_order_relaxed);
          backoff.failed(clock::now());
          if (closing()) {
            j.done(errc::connection_closed, {});
            break;
          }
          // The calls waiting now would wait for dials that fail the same way: they fail with
          // this one, as the engine fails the calls that waited for a dial.
          j.done(errc::connect_failed, {});
          fail_queued(errc::connect_failed);
          continue;
        }
        reader.emplace(config_.max_frame_bytes);
        connects_.fetch_add(1, std::memory_order_relaxed);
        if (ever_connected) reconnects_.fetch_add(1, std::memory_order_relaxed);
        ever_connected = true;
        backoff.succeeded();
      }
      reply_view reply;
      if (const std::error_code ec = call(ctx, *reader, j, reply)) {
        const bool stopping = closing();
        j.done(stopping ? make_error_code(errc::connection_closed) : ec, {});
        drop(i, ctx);  // a connection that failed mid-call is unusable: the next call re-dials
        reader.reset();
        if (stopping) break;
        continue;
      }
      const std::error_code verdict = check_greeting(reply, expected_greeting(j.name));
      j.done(verdict, verdict == errc::wrong_reply ? std::string_view{} : reply.text);
      reader->release();
    }
    drop(i, ctx);
  }

  // One call on a connected context: hiredis formats and writes the command; the reply is read
  // here into `reader`. Each read may block for what is left of the call's deadline, no longer:
  // the socket's timeout is lowered for this call when less than reply_timeout is left (after a
  // wait in the queue, or bytes that came too slowly), and put back after.
  std::error_code call(redisContext* ctx, reply_reader& reader, const job& j, reply_view& reply) {
    const char* argv[2] = {"GREET", j.name.data()};
    const std::size_t lens[2] = {5, j.name.size()};
    if (redisAppendCommandArgv(ctx, 2, argv, lens) != REDIS_OK) return errc::connection_closed;
    errno = 0;
    for (int written = 0; !written;)
      if (redisBufferWrite(ctx, &written) != REDIS_OK) return io_error();
    bool lowered = false;
    std::error_code error;
    std::optional<reply_view> got;
    while (!(got = reader.next(error))) {
      if (error) return error;
      const auto left = j.deadline - clock::now();
      if (left <= clock::duration::zero()) return errc::timeout;
      if (left < config_.reply_timeout - std::chrono::milliseconds(1)) {
        set_io_timeout(ctx, left);
        lowered = true;
      }
      std::byte buf[16 * 1024];
      const ssize_t n = ::recv(ctx->fd, buf, sizeof buf, 0);
      if (n > 0) {
        reader.feed({buf, static_cast<std::size_t>(n)});
      } else if (n == 0) {
        return errc::connection_closed;
      } else if (errno != EINTR) {
        return io_error();
      }
    }
    if (lowered) set_io_timeout(ctx, config_.reply_timeout);
    reply = *got;
    return {};
  }

  bool closing() {
    std::lock_guard lock(mutex_);
    return closing_;
  }

  client_config config_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;       // a call was queued
  std::condition_variable closing_cv_;  // close() began (wakes threads backing off)
  std::deque<job> queue_;
  bool closing_ = false;
  std::error_code last_connect_error_;  // under mutex_
  std::atomic<std::uint64_t> connects_{0}, connect_failures_{0}, reconnects_{0};
  std::vector<int> fds_;  // each worker's socket, for close()
  std::vector<std::thread> threads_;
  std::once_flag closed_;
};

}  // namespace

std::unique_ptr<protocol_client> make_sync_client(const client_config& config) {
  return std::make_unique<sync_client>(config);
}

}  // namespace wirebench::resp
