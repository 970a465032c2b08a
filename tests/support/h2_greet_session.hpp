#pragma once
// The HTTP/2 server session (a server codec) driven as the codec host drives it, each greet call
// answered at once with "hello, NAME": for tests and the fuzzer that feed it bytes.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "../../src/protocols/http2/h2_server_session.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::test {

class greet_session : public http2::server_session {
 public:
  explicit greet_session(const http2::server_session_config& config) : server_session(config) {}
  // Requests taken (calls and those answered by the session) since the last call.
  std::uint64_t take_answered() { return std::exchange(answered_, 0); }
  // One read: decoded, every call answered; returns the stream's error.
  std::error_code read(std::string_view bytes) {
    std::error_code error;
    std::span<const std::byte> data = as_bytes(bytes);
    for (;;) {
      server_request r;
      decode(data, r, out_, error);
      data = {};
      if (r.what == server_request::kind::none) break;
      if (r.what == server_request::kind::call)
        encode_reply(r.key, true, "hello, " + std::string(r.argument), out_);
      ++answered_;
      if (error) break;
    }
    return error;
  }
  // What the session has to say now, after what decode() queued, appended to `out`.
  std::error_code output(std::string& out) {
    out_.for_each_segment([&](std::span<const std::byte> b) { out += as_text(b); });
    out_.clear();
    return send(out);
  }

 private:
  gather_queue out_;
  std::uint64_t answered_ = 0;
};

}  // namespace wirebench::test
