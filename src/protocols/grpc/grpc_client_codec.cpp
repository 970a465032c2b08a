#include "grpc_client_codec.hpp"

#include <string>

#include "grpc_call_stream.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_status.hpp"
#include "grpc_timeout.hpp"
#include "protobuf_log.hpp"
#include "proto/echo.pb.h"
#include "../http2/h2_client_core.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace pb = ::wirebench::echo;
using http2::client_stream;
using http2::static_header;

class grpc_client_codec final : public http2::client_core {
 public:
  explicit grpc_client_codec(const grpc_client_config& config)
      : client_core(config.max_message_bytes + 5),  // one message and its prefix
        authority_(config.authority),
        scheme_(config.https ? "https" : "http"),
        max_message_(config.max_message_bytes) {
    if (config.timeout.count() > 0) timeout_ = format_timeout(config.timeout);
    drop_protobuf_parse_complaints();  // a lying server must not be able to flood our stderr
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    request_.mutable_name()->assign(name.data(), name.size());
    request_.SerializeToString(&scratch_);
    append_grpc_prefix(scratch_.size(), false, s.request);  // the record's request is empty
    s.request.append(scratch_);
    s.body_size = s.request.size();
    // Every value lives in the codec (or a literal) until the stream closes: no copies.
    nghttp2_nv headers[] = {static_header(":method", "POST"),
                            static_header(":scheme", scheme_),
                            static_header(":path", "/wirebench.echo.Echo/Greet"),
                            static_header(":authority", authority_),
                            static_header("content-type", "application/grpc"),
                            static_header("te", "trailers"),
                            static_header("user-agent", "wirebench-grpc"),
                            static_header("grpc-accept-encoding", "identity,gzip"),
                            static_header("grpc-timeout", timeout_)};
    return submit(s, {headers, timeout_.empty() ? 8u : 9u});
  }

 private:
  std::unique_ptr<client_stream> make_stream() override {
    return std::make_unique<grpc_call_stream>();
  }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    static_cast<grpc_call_stream&>(s).read_header(name, value);
  }

  codec_reply reply_for(client_stream& s) override {
    auto& g = static_cast<grpc_call_stream&>(s);
    // A gRPC status wins over the HTTP one (a server may send both, as ours does with 415).
    if (g.grpc_status && *g.grpc_status != status_code::ok) {
      std::string& why = kept();
      why = percent_decoded(g.message);
      return {g.call, status_error(*g.grpc_status), why};
    }
    if (g.status != 200) {
      std::string& why = kept();
      why.append(std::to_string(g.status)).append(" ").append(g.body.substr(0, 200));
      return {g.call, unexpected_status(g.status), why};
    }
    if (!g.grpc_status) return {g.call, errc::wrong_reply, "no grpc-status"};
    grpc_message_decoder decoder(max_message_);
    const auto step = decoder.decode(as_bytes(std::string_view(g.body)));
    if (step.status != decode_status::frame || step.consumed != g.body.size())
      return {g.call, errc::wrong_reply, {}};
    std::string_view bytes = as_text(step.frame.bytes);
    if (step.frame.compressed) {  // gzip, as we accept; anything else the server should not send
      if (g.encoding != "gzip" || gunzip(step.frame.bytes, max_message_, inflated_))
        return {g.call, errc::wrong_reply, "a compressed reply that cannot be inflated"};
      bytes = inflated_;
    }
    if (!reply_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      return {g.call, errc::wrong_reply, {}};
    g.text.swap(*reply_.mutable_greeting());
    return {g.call, {}, g.text};
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::size_t max_message_;
  std::string timeout_;      // grpc-timeout's value, "" for none
  pb::GreetRequest request_;  // reused by every call
  pb::GreetReply reply_;
  std::string scratch_;       // a request serialized, before its prefix
  std::string inflated_;      // a compressed reply, inflated
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config) {
  return std::make_unique<grpc_client_codec>(config);
}

}  // namespace wirebench::grpc_wire
