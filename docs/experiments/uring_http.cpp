// An experiment, not part of wirebench's build: the cheapest HTTP/1.1 greet server io_uring allows,
// to learn what CPU per request io_uring could give against nginx under wrk (docs/PERFORMANCE.md,
// HTTP/1.1). One thread; multishot accept; each request's reply `send` and the next `recv` are
// submitted together, all of a loop turn's in one io_uring_enter; no HTTP parsing beyond counting
// the ends of GET requests' headers, and one fixed reply with the bytes of ours.
//   apt-get install liburing-dev
//   g++ -O2 -std=c++20 docs/experiments/uring_http.cpp -o /tmp/uring_http -luring
//   taskset -c 0 /tmp/uring_http 7861 & taskset -c 1 wrk -t1 -c16 -d4s http://127.0.0.1:7861/greet
#include <arpa/inet.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr char reply[] =
    "HTTP/1.1 200 OK\r\nServer: wirebench\r\nDate: Tue, 24 Nov 2026 04:22:42 GMT\r\n"
    "Content-Type: application/json\r\nContent-Length: 23\r\n\r\n{\"greeting\":\"hello, x\"}";

struct connection {
  explicit connection(int socket) : fd(socket) {}
  int fd;
  int pending = 0;  // operations submitted and not yet completed
  bool closed = false;
  char in[4096];
  std::string out;
  std::size_t sent = 0;
};

enum op : std::uint64_t { accept_op = 1, recv_op = 2, send_op = 3 };

}  // namespace

int main(int argc, char** argv) {
  const int port = argc > 1 ? std::atoi(argv[1]) : 7861;
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener, 512) != 0) {
    std::perror("listen");
    return 1;
  }
  io_uring ring;
  io_uring_params params{};
  params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  if (io_uring_queue_init_params(1024, &ring, &params) < 0) {
    std::perror("io_uring");
    return 1;
  }
  auto next_sqe = [&] {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    if (sqe == nullptr) {
      io_uring_submit(&ring);
      sqe = io_uring_get_sqe(&ring);
    }
    return sqe;
  };
  auto submit = [&](connection* c, op what) {
    io_uring_sqe* sqe = next_sqe();
    if (what == recv_op)
      io_uring_prep_recv(sqe, c->fd, c->in, sizeof c->in, 0);
    else
      io_uring_prep_send(sqe, c->fd, c->out.data() + c->sent, c->out.size() - c->sent, 0);
    io_uring_sqe_set_data64(sqe, reinterpret_cast<std::uint64_t>(c) | what);
    ++c->pending;
  };
  io_uring_sqe* accepting = next_sqe();
  io_uring_prep_multishot_accept(accepting, listener, nullptr, nullptr, 0);
  io_uring_sqe_set_data64(accepting, 0);
  for (;;) {
    io_uring_submit_and_wait(&ring, 1);
    io_uring_cqe* cqe;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      const std::uint64_t data = cqe->user_data;
      const int result = cqe->res;
      if (data == 0) {  // the multishot accept (its user data is 0)
        if (result >= 0) {
          setsockopt(result, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          submit(new connection(result), recv_op);
        }
        continue;
      }
      auto* c = reinterpret_cast<connection*>(data & ~std::uint64_t{7});
      --c->pending;
      if ((data & 7) == recv_op) {
        if (result <= 0) {
          c->closed = true;
        } else {
          int requests = 0;
          for (int i = 0; i + 3 < result; ++i)
            if (std::memcmp(c->in + i, "\r\n\r\n", 4) == 0) ++requests;
          c->out.clear();
          c->sent = 0;
          for (int i = 0; i < requests; ++i) c->out.append(reply, sizeof reply - 1);
          if (!c->out.empty()) submit(c, send_op);
          submit(c, recv_op);  // at once: a next request comes only after this reply
        }
      } else if (result > 0) {
        c->sent += static_cast<std::size_t>(result);
        if (c->sent < c->out.size()) submit(c, send_op);
      }
      if (c->closed && c->pending == 0) {
        close(c->fd);
        delete c;
      }
    }
    io_uring_cq_advance(&ring, seen);
  }
}
