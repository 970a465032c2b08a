// `redis-server`: the real thing as a reference backend. make_server starts /usr/bin/redis-server
// on loopback (or a Unix socket) with no persistence, waits until it answers PING, and stop()
// ends it (SIGTERM, then SIGKILL after grace) and reaps it, so no process outlives us.
// Its stats come from INFO, less the commands and connections we made ourselves.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <hiredis/hiredis.h>

#include "hiredis_connect.hpp"
#include "resp_backend.hpp"
#include "wirebench/core/child_process.hpp"

namespace wirebench::resp {
namespace {

using namespace std::chrono_literals;
constexpr const char* redis_binary = "/usr/bin/redis-server";

bool is_loopback(const endpoint& e) {
  return !e.is_tcp() || e.address.rfind("127.", 0) == 0 || e.address == "::1";
}

// A port the kernel just gave out: another process may take it first, which start() survives.
std::uint16_t free_port(const endpoint& where) {
  endpoint probe = where;
  probe.port = 0;
  const auto a = probe.to_asio();
  const int fd = ::socket(a.protocol().family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::bind(fd, a.data(), static_cast<socklen_t>(a.size())) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("redis-server backend: cannot bind " + where.to_string());
  }
  sockaddr_storage s{};
  socklen_t len = sizeof(s);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&s), &len);
  ::close(fd);
  return ntohs(s.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&s)->sin6_port
                                       : reinterpret_cast<sockaddr_in*>(&s)->sin_port);
}

// Runs one command on a fresh connection; the reply text (status, string, error) or nullopt.
std::optional<std::string> ask(const endpoint& where, const std::vector<std::string>& command) {
  sigpipe_blocked quiet;
  redisContext* c = connect_context(where, 1s);
  if (c == nullptr) return std::nullopt;
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const auto& a : command) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  auto* r = static_cast<redisReply*>(redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lens.data()));
  std::optional<std::string> text;
  if (r != nullptr && r->str != nullptr) text.emplace(r->str, r->len);
  if (r != nullptr) freeReplyObject(r);
  redisFree(c);
  return text;
}

// "name:value" of a line of INFO, as a number (0 if absent).
std::uint64_t info_field(std::string_view info, std::string_view name) {
  std::string key(name);
  key += ':';
  std::size_t at = 0;  // a match at the start of a line only
  while ((at = info.find(key, at)) != std::string_view::npos && at != 0 && info[at - 1] != '\n')
    ++at;
  if (at == std::string_view::npos) return 0;
  return std::strtoull(std::string(info.substr(at + key.size(), 24)).c_str(), nullptr, 10);
}

class redis_process final : public protocol_server {
 public:
  explicit redis_process(const server_config& c) : grace_(c.grace), cpus_(c.cpus) {
    if (::access(redis_binary, X_OK) != 0)
      throw std::runtime_error("redis-server backend: /usr/bin/redis-server not found: "
                               "install redis-server (apt-get install redis-server)");
    if (c.listen.type == endpoint::kind::unix_abstract)
      throw std::runtime_error("redis-server backend: redis-server cannot listen on an abstract Unix socket");
    if (!is_loopback(c.listen))
      throw std::runtime_error("redis-server backend: only started on loopback, not " + c.listen.to_string());
    for (int attempt = 0; attempt < 5; ++attempt) {
      where_ = c.listen;
      if (where_.is_tcp() && where_.port == 0) where_.port = free_port(where_);
      if (start()) return;
      if (!(c.listen.is_tcp() && c.listen.port == 0)) break;  // a port we chose may be taken: retry
    }
    throw std::runtime_error("redis-server backend: redis-server did not start on " + c.listen.to_string());
  }
  ~redis_process() override { stop(); }

  endpoint local_endpoint() const override { return where_; }

  void stop() override {
    std::call_once(stopped_, [this] {
      last_ = query_stats();
      stopped_flag_ = true;
      terminate();
    });
  }

  server_stats stats() const override { return stopped_flag_ ? last_ : query_stats(); }

 private:
  // Spawns redis-server and waits for its PONG; false (child reaped) if it exits or stays silent.
  bool start() {
    std::vector<std::string> args = {redis_binary, "--save", "", "--appendonly", "no", "--daemonize", "no",
                                     "--logfile", "", "--dir", "/tmp"};
    if (where_.is_tcp()) {
      args.insert(args.end(), {"--bind", where_.address, "--port", std::to_string(where_.port)});
    } else {
      args.insert(args.end(), {"--port", "0", "--unixsocket", where_.address, "--unixsocketperm", "700"});
    }
    // server_config::cpus pins redis-server's every thread, as it pins our servers' event loops;
    // without it the child inherits whatever the starting thread has.
    child_.emplace(child_options{.argv = std::move(args), .cpus = cpus_});
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < until) {
      if (child_->exited()) {  // e.g. the port was taken
        child_.reset();
        return false;
      }
      if (auto pong = ask(where_, {"PING"}); pong && *pong == "PONG") {
        own_commands_ = own_connections_ = 1;
        return true;
      }
      std::this_thread::sleep_for(10ms);
    }
    terminate();
    return false;
  }

  void terminate() {
    if (child_) child_->stop(grace_);
    child_.reset();
  }

  server_stats query_stats() const {
    server_stats s;
    const auto info = ask(where_, {"INFO", "clients", "stats", "commandstats"});
    if (!info) return s;
    // Before this INFO is counted: our own PING and INFO commands and their connections.
    const std::uint64_t own_commands = own_commands_.fetch_add(1);
    const std::uint64_t own_connections = own_connections_.fetch_add(1) + 1;
    s.active = info_field(*info, "connected_clients") - 1;
    s.accepted = info_field(*info, "total_connections_received") - own_connections;
    s.rejected_connections = info_field(*info, "rejected_connections");
    std::uint64_t calls = 0;
    for (std::size_t at = info->find("cmdstat_"); at != std::string::npos; at = info->find("cmdstat_", at + 1)) {
      const std::size_t c = info->find("calls=", at);
      if (c != std::string::npos) calls += std::strtoull(info->c_str() + c + 6, nullptr, 10);
    }
    s.requests = calls >= own_commands ? calls - own_commands : 0;
    return s;
  }

  std::chrono::steady_clock::duration grace_;
  std::vector<int> cpus_;  // redis-server's affinity (empty: inherited)
  endpoint where_;
  std::optional<child_process> child_;
  mutable std::atomic<std::uint64_t> own_commands_{0}, own_connections_{0};
  server_stats last_;
  std::atomic<bool> stopped_flag_{false};
  std::once_flag stopped_;
};

}  // namespace

std::unique_ptr<protocol_server> make_redis_server(const server_config& config) {
  return std::make_unique<redis_process>(config);
}

}  // namespace wirebench::resp
