#include "wirebench/transport/listener.hpp"

#include <cerrno>
#include <chrono>
#include <future>
#include <mutex>

#include <asio/basic_socket_acceptor.hpp>
#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/local/stream_protocol.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench {

std::error_code connect_error(std::error_code ec) {
  // By errno: Asio's EMFILE compares equal to no std::errc (error_condition.hpp).
  const int e = system_errno(ec);
  if (e == EMFILE || e == ENFILE) return ec;
  return errc::connect_failed;
}

void tune_socket(stream_socket& socket) {
  if (socket.is_open() && (socket.local_endpoint().protocol().family() == AF_INET ||
                           socket.local_endpoint().protocol().family() == AF_INET6)) {
    asio::error_code ignored;
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
  }
}

// What the accept loop needs, held by its handlers: nothing in it refers to the listener or to
// the pool, which may be gone before a handler runs on a caller's io_context (io_pool::external).
struct listener::state : std::enable_shared_from_this<listener::state> {
  explicit state(io_pool& pool)
      : acceptor(pool.context(0)), retry(pool.context(0)), external(pool.external()) {
    for (std::size_t i = 0; i < pool.size(); ++i) targets.push_back(&pool.context(i));
  }
  asio::basic_socket_acceptor<asio::generic::stream_protocol> acceptor;
  asio::steady_timer retry;
  std::vector<asio::io_context*> targets;  // the pool's loops: a new connection goes round them
  std::size_t next_target = 0;
  const bool external;
  accept_handler on_accept;
  std::atomic<std::uint64_t> errors{0};
  bool closed = false;
  std::string unix_path;  // file to remove on close

  // On the acceptor's loop.
  void close_now() {
    if (closed) return;
    closed = true;
    asio::error_code ignored;
    acceptor.close(ignored);
    retry.cancel();
    if (!unix_path.empty()) ::unlink(unix_path.c_str());
  }

  void accept_next() {
    if (closed) return;
    asio::io_context& target = *targets[next_target++ % targets.size()];
    acceptor.async_accept(target, [self = shared_from_this()](std::error_code ec,
                                                              stream_socket socket) {
      if (self->closed) return;
      if (ec) {
        self->errors.fetch_add(1, std::memory_order_relaxed);
        // Out of descriptors (or another transient failure): wait a little rather than spin.
        self->retry.expires_after(std::chrono::milliseconds(50));
        self->retry.async_wait([self](std::error_code wait_ec) {
          if (!wait_ec) self->accept_next();
        });
        return;
      }
      tune_socket(socket);
      asio::dispatch(socket.get_executor(),
                     [self, s = std::move(socket)]() mutable { self->on_accept(std::move(s)); });
      self->accept_next();
    });
  }
};

namespace {

// A Unix socket file nobody listens on is left over from a dead process: remove it so we can bind.
void remove_stale_socket_file(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) return;
  asio::io_context probe_ctx;
  asio::local::stream_protocol::socket probe(probe_ctx);
  asio::error_code ec;
  probe.connect(asio::local::stream_protocol::endpoint(path), ec);
  if (ec == asio::error::connection_refused) ::unlink(path.c_str());
}

}  // namespace

listener::listener(io_pool& pool, const endpoint& where, accept_handler on_accept, int backlog)
    : pool_(pool), state_(std::make_shared<state>(pool)) {
  state_->on_accept = std::move(on_accept);
  auto& acceptor = state_->acceptor;
  const auto ep = where.to_asio();
  auto fail = [&](const char* what, std::error_code ec) {
    throw std::system_error(ec, std::string("cannot ") + what + " " + where.to_string());
  };
  std::error_code ec;
  if (where.type == endpoint::kind::unix_path) remove_stale_socket_file(where.address);
  acceptor.open(ep.protocol(), ec);
  if (ec) fail("open a socket for", ec);
  if (where.is_tcp()) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  acceptor.bind(ep, ec);
  if (ec) fail("bind", ec);
  acceptor.listen(backlog, ec);
  if (ec) fail("listen on", ec);
  local_ = endpoint::from_asio(acceptor.local_endpoint());
  if (where.type == endpoint::kind::unix_path) state_->unix_path = where.address;
  asio::dispatch(acceptor.get_executor(), [s = state_] { s->accept_next(); });
}

listener::~listener() { close(); }

void listener::close() {
  // The acceptor belongs to the pool's first loop; close it there. If that loop has already
  // stopped, the posted work never runs, and closing here directly is safe because nothing else
  // touches it. On a caller's loop it is only asked (the state outlives the listener); on the
  // pool's own threads this waits for it, unless called on one of them.
  auto s = state_;
  if (s->targets[0]->stopped()) {
    s->close_now();
    return;
  }
  if (s->external) {
    asio::post(s->acceptor.get_executor(), [s] { s->close_now(); });
    return;
  }
  std::promise<void> done;
  auto finished = done.get_future();
  asio::dispatch(s->acceptor.get_executor(), [s, &done] {
    s->close_now();
    done.set_value();
  });
  if (!pool_.running_in_pool()) finished.wait();
}

std::uint64_t listener::accept_errors() const {
  return state_->errors.load(std::memory_order_relaxed);
}

void async_connect(asio::io_context& ctx, const endpoint& where, duration timeout,
                   std::function<void(std::error_code, stream_socket)> done) {
  struct op {
    op(asio::io_context& c) : socket(c), timer(c) {}
    stream_socket socket;
    asio::steady_timer timer;
    std::function<void(std::error_code, stream_socket)> done;
    bool finished = false;
  };
  auto o = std::make_shared<op>(ctx);
  o->done = std::move(done);
  asio::generic::stream_protocol::endpoint ep;
  try {
    ep = where.to_asio();
  } catch (const std::system_error& e) {
    asio::post(ctx, [o, ec = e.code()] { o->done(ec, std::move(o->socket)); });
    return;
  }
  asio::dispatch(ctx, [o, ep, timeout] {
    if (timeout.count() > 0) {
      o->timer.expires_after(timeout);
      o->timer.async_wait([o](std::error_code ec) {
        if (ec || o->finished) return;
        o->finished = true;
        asio::error_code ignored;
        o->socket.close(ignored);
        o->done(errc::connect_failed, stream_socket(o->socket.get_executor()));
      });
    }
    o->socket.async_connect(ep, [o](std::error_code ec) {
      if (o->finished) return;
      o->finished = true;
      o->timer.cancel();
      if (ec) {
        o->done(ec, std::move(o->socket));
        return;
      }
      // The connect left EPOLLOUT in asio's registration of this descriptor, and asio re-arms
      // every registered event on each wait: the kernel would then report a useless "writable"
      // event after every request. A fresh registration watches reads only.
      auto protocol = o->socket.local_endpoint().protocol();
      stream_socket fresh(o->socket.get_executor());
      std::error_code assign_ec;
      fresh.assign(protocol, o->socket.release(), assign_ec);
      if (!assign_ec) tune_socket(fresh);
      o->done(assign_ec, std::move(fresh));
    });
  });
}

}  // namespace wirebench
