#pragma once
// The `http2` protocol's server codec: the REST greet routes (HTTP/1.1's, http/greet_api)
// on the HTTP/2 server core (h2_server_core.hpp). GET /greet?name=NAME (or the JSON POST) is
// handed out as a greet call once its stream has ended; what is no greet call (404, 405, 400, a
// body over the limit: 413) is answered at once by the session and handed out as answered. Every
// response carries date; a HEAD one has no DATA frame.
#include <cstdint>
#include <string>
#include <string_view>

#include "h2_server_core.hpp"
#include "../http/greet_api.hpp"

namespace wirebench::http2 {

class rest_session : public server_core {
 public:
  explicit rest_session(const server_session_config& config) : server_core(config) {}

  // The response to stream `key`'s call (nothing if the client has reset the stream since).
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;

 private:
  void request_ended(std::int32_t stream_id, server_stream& st) override;
  void body_too_large(std::int32_t stream_id, server_stream& st) override;
  void respond_with(std::int32_t stream_id, server_stream& st, const http::api_response& answer);

  http::api_response answer_;  // reused by every request
  std::string decoded_name_;   // greet_call's output, reused
};

}  // namespace wirebench::http2
