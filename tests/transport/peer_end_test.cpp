// A peer's last bytes and its end (FIN, or RST) reported by one epoll event: the connection must
// still see the end at once. A short read returns the bytes alone, and no further edge comes, so a
// connection that took the short read for "drained" would wait for its idle timeout (the hang that
// withdrew the first readable_wait). Driven on a one-thread io_context the test runs itself, so
// that both arrive before the connection's next epoll_wait, every time.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <ostream>
#include <string>

#include <asio/io_context.hpp>
#include <gtest/gtest.h>

#include "support/raw_socket.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// Keeps every byte; a frame is a line, so bytes after the last '\n' are half a frame.
class keeping_handler final : public connection_handler {
 public:
  std::size_t on_data(connection&, std::span<const std::byte> data, std::error_code&) override {
    kept.append(reinterpret_cast<const char*>(data.data()), data.size());
    return data.size();
  }
  void on_close(connection&, std::error_code why) override {
    ++closes;
    reason = why;
  }
  bool mid_frame() const override { return !kept.empty() && kept.back() != '\n'; }

  std::string kept;
  int closes = 0;
  std::error_code reason;
};

enum class transport { tcp, unix_stream };
enum class ending { fin, rst };

struct peer_end_case {
  transport over;
  ending end;
};

void PrintTo(const peer_end_case& c, std::ostream* out) {
  *out << (c.over == transport::tcp ? "tcp" : "unix") << (c.end == ending::fin ? " fin" : " rst");
}

class peer_end : public ::testing::TestWithParam<peer_end_case> {};

TEST_P(peer_end, bytes_and_end_in_one_event_still_close_the_connection) {
  const auto [over, end] = GetParam();
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    asio::io_context ctx{1};
    int fds[2];
    const int family = over == transport::tcp ? AF_INET : AF_UNIX;
    ASSERT_TRUE(test::connected_pair(family, fds));
    stream_socket ours(ctx, asio::generic::stream_protocol(family, over == transport::tcp ? IPPROTO_TCP : 0),
                       fds[0]);
    auto handler = std::make_unique<keeping_handler>();
    keeping_handler& seen = *handler;
    connection_config config;
    config.idle_timeout = 60s;  // the hang this test is for would end here, far past its wait
    auto c = std::make_shared<connection>(std::move(ours), config, std::move(handler));
    c->start();
    ctx.poll();  // reads nothing (EAGAIN) and waits for the first edge

    ASSERT_EQ(::send(fds[1], "ok\nhalf", 7, 0), 7);
    if (end == ending::rst) {
      const linger abort_now{1, 0};
      ::setsockopt(fds[1], SOL_SOCKET, SO_LINGER, &abort_now, sizeof abort_now);
    }
    ::close(fds[1]);
    // Both must be queued before the connection's epoll_wait runs. poll() looks without taking
    // epoll's edge.
    pollfd p{fds[0], POLLRDHUP, 0};
    ASSERT_EQ(::poll(&p, 1, 5000), 1);
    ASSERT_NE(p.revents & (POLLRDHUP | POLLHUP | POLLERR), 0);

    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (seen.closes == 0 && std::chrono::steady_clock::now() < deadline) ctx.run_for(50ms);
    ASSERT_EQ(seen.closes, 1) << "the connection missed the peer's end";
    EXPECT_EQ(seen.kept, "ok\nhalf");
    if (end == ending::fin)
      EXPECT_EQ(seen.reason, errc::truncated_frame) << seen.reason.message();
    else
      EXPECT_EQ(seen.reason, asio::error::connection_reset) << seen.reason.message();
  }
}

INSTANTIATE_TEST_SUITE_P(ends, peer_end,
                         ::testing::Values(peer_end_case{transport::tcp, ending::fin},
                                           peer_end_case{transport::tcp, ending::rst},
                                           peer_end_case{transport::unix_stream, ending::fin}),
                         [](const auto& info) {
                           const auto& p = info.param;
                           return std::string(p.over == transport::tcp ? "tcp_" : "unix_") +
                                  (p.end == ending::fin ? "fin" : "rst");
                         });

}  // namespace
}  // namespace wirebench
