#include "grpc_client_codec.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grpc_dynamic_method.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_metadata.hpp"
#include "grpc_status.hpp"
#include "grpc_timeout.hpp"
#include "protobuf_log.hpp"
#include "rpc_calls.hpp"
#include "rpc_message_format.hpp"
#include "proto/echo.pb.h"
#include "../http2/h2_client_core.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"
#include "wirebench/protocols/call_placeholder.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace pb = ::wirebench::echo;
using http2::client_stream;

// A call's stream, with what the response's headers and trailers said (by the wire's slots).
struct rpc_call_stream : client_stream {
  void reset() override {
    client_stream::reset();
    content_type.clear();
    encoding.clear();
    rpc_status.reset();
    rpc_message.clear();
  }
  std::string content_type, encoding;
  std::optional<status_code> rpc_status;  // the status the wire reads from a header or trailer
  std::string rpc_message;                // its message, as sent
};

// The calls (rpc_calls.hpp) on our HTTP/2 client core: each a stream, its headers the
// pseudo-headers then the call's, made once per request of the mix.
class grpc_client_codec final : public http2::client_core {
 public:
  explicit grpc_client_codec(const grpc_client_config& config)
      : client_core(rpc_calls::max_body_of(config)), calls_(config), authority_(config.authority),
        scheme_(config.https ? "https" : "http") {}

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    rpc_calls::call c;
    if (const std::error_code ec = calls_.prepare(name, s.request, c)) return ec;
    s.user_request = c.request;
    s.body_size = s.request.size();
    if (c.request >= headers_.size()) headers_.resize(c.request + 1);
    std::vector<nghttp2_nv>& h = headers_[c.request];
    if (h.empty()) {  // made once: every value lives in the codec until the stream closes
      h = {http2::static_header(":method", "POST"), http2::static_header(":scheme", scheme_),
           http2::static_header(":path", c.path), http2::static_header(":authority", authority_)};
      h.insert(h.end(), c.headers->begin(), c.headers->end());
    }
    return submit(s, h);
  }

 private:
  std::unique_ptr<client_stream> make_stream() override { return std::make_unique<rpc_call_stream>(); }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    auto& c = static_cast<rpc_call_stream&>(s);
    if (name == "content-type") return void(c.content_type = value);
    switch (calls_.wire().response_header_slot(name)) {
      case 0: c.encoding = value; break;
      // Not a number: a status the peer did not send (UNKNOWN, as grpc's clients read it).
      case 1: c.rpc_status = parse_status(value).value_or(status_code::unknown); break;
      case 2: c.rpc_message = value; break;
      default: break;
    }
  }

  codec_reply reply_for(client_stream& s) override {
    auto& c = static_cast<rpc_call_stream&>(s);
    const rpc_response response{.http_status = c.status,
                                .content_type = c.content_type,
                                .encoding = c.encoding,
                                .header_status = c.rpc_status,
                                .header_message = c.rpc_message,
                                .body = c.body};
    return calls_.verdict(c.call, c.user_request, response, c.text, kept());
  }

  rpc_calls calls_;
  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::vector<std::vector<nghttp2_nv>> headers_;  // each request's, by its index in the mix
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config) {
  return std::make_unique<grpc_client_codec>(config);
}

}  // namespace wirebench::grpc_wire
