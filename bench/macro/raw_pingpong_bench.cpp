// raw_pingpong/<tcp|unix>: the floor. One blocking connection, plain read()/write(), no framework:
// the client writes "bench\n", the server answers "hello, bench\n". Same placement knobs as the
// protocol cases, so that ratios compare like with like.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>

#include "macro/placement.hpp"
#include "macro/report.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::bench {
namespace {

// Reads until a '\n'; returns the bytes through it, or empty at EOF/error.
std::string read_line(int fd, std::string& carry) {
  for (;;) {
    if (auto nl = carry.find('\n'); nl != std::string::npos) {
      std::string line = carry.substr(0, nl + 1);
      carry.erase(0, nl + 1);
      return line;
    }
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n <= 0) return {};
    carry.append(buf, static_cast<std::size_t>(n));
  }
}

bool write_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

void raw_pingpong(benchmark::State& state, bool unix_socket) {
  const placement where = placement::from_env();
  const std::string path = "/tmp/wirebench-raw-" + std::to_string(::getpid()) + ".sock";
  int listener = -1;
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
  if (unix_socket) {
    ::unlink(path.c_str());
    auto* un = reinterpret_cast<sockaddr_un*>(&addr);
    un->sun_family = AF_UNIX;
    std::strncpy(un->sun_path, path.c_str(), sizeof(un->sun_path) - 1);
    addr_len = sizeof(sockaddr_un);
    listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr_len = sizeof(sockaddr_in);
    listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  }
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0 ||
      ::listen(listener, 1) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &addr_len) != 0) {
    state.SkipWithError("cannot listen on loopback");
    return;
  }
  const int one = 1;
  std::thread server([&] {
    pin_current_thread(where.server_cpus);
    const int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    if (!unix_socket) ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    std::string carry;
    for (;;) {
      std::string line = read_line(fd, carry);
      if (line.empty() || !write_all(fd, "hello, " + line)) break;
    }
    ::close(fd);
  });

  pin_current_thread(where.client_cpus);
  const int fd = ::socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0) {
    state.SkipWithError("cannot connect");
  } else {
    if (!unix_socket) ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    const std::string request = "bench\n";
    std::string carry;
    latency_histogram h;
    std::uint64_t calls = 0;
    for (int i = 0; i < 100; ++i) {  // warm-up
      write_all(fd, request);
      read_line(fd, carry);
    }
    for (auto _ : state) {
      const auto t0 = std::chrono::steady_clock::now();
      if (!write_all(fd, request) || read_line(fd, carry) != "hello, bench\n") {
        state.SkipWithError("raw ping-pong broke");
        break;
      }
      h.record(static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
              .count()));
      ++calls;
    }
    report_latency(state, h, calls);
  }
  ::close(fd);
  server.join();
  ::close(listener);
  if (unix_socket) ::unlink(path.c_str());
}

}  // namespace

void register_raw_pingpong_benchmarks() {
  benchmark::RegisterBenchmark("raw_pingpong/tcp", [](benchmark::State& s) { raw_pingpong(s, false); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("raw_pingpong/unix", [](benchmark::State& s) { raw_pingpong(s, true); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace wirebench::bench
