#pragma once
// An HTTP/2 server session (a server codec on the HTTP/2 core: the REST routes, or gRPC) driven as
// the codec host drives it, each greet call answered at once with "hello, NAME": for tests and the
// fuzzers that feed it bytes.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "../../src/protocols/http2/h2_rest_session.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::test {

template <class Session>
class answering_session : public Session {
 public:
  // The default lets a braced list name an HTTP/2 session's settings.
  template <class Config = http2::server_session_config>
  explicit answering_session(const Config& config) : Session(config) {}
  // Requests taken (calls and those answered by the session) since the last call.
  std::uint64_t take_answered() { return std::exchange(answered_, 0); }
  // One read: decoded, every call answered; returns the stream's error.
  std::error_code read(std::string_view bytes) {
    std::error_code error;
    std::span<const std::byte> data = as_bytes(bytes);
    for (;;) {
      server_request r;
      this->decode(data, r, out_, error);
      data = {};
      if (r.what == server_request::kind::none) break;
      if (r.what == server_request::kind::call && holding_)
        held_.emplace_back(r.key, std::string(r.argument));
      else if (r.what == server_request::kind::call)
        this->encode_reply(r.key, true, "hello, " + std::string(r.argument), out_);
      ++answered_;
      if (error) break;
    }
    return error;
  }
  // Calls read from now on wait for answer_held() (a reply that comes late).
  void hold_calls() { holding_ = true; }
  // The held calls answered, oldest first or (newest_first) in the opposite order.
  void answer_held(bool newest_first = false) {
    if (newest_first) std::reverse(held_.begin(), held_.end());
    for (const auto& [key, name] : held_) this->encode_reply(key, true, "hello, " + name, out_);
    held_.clear();
  }
  // What the session has to say now (its produce(), as the host calls it before a write), after
  // what decode() queued, appended to `out`.
  std::error_code output(std::string& out) {
    const std::error_code ec = this->produce(out_);
    out_.for_each_segment([&](std::span<const std::byte> b) { out += as_text(b); });
    out_.clear();
    return ec;
  }

 private:
  gather_queue out_;
  std::uint64_t answered_ = 0;
  bool holding_ = false;
  std::vector<std::pair<std::uint64_t, std::string>> held_;
};

using greet_session = answering_session<http2::rest_session>;

}  // namespace wirebench::test
