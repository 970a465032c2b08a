#include "connect_client_codec.hpp"

#include <array>

#include "../grpc/grpc_gzip.hpp"
#include "../grpc/protobuf_log.hpp"
#include "../grpc/rpc_message_format.hpp"
#include "../http2/h2_client_core.hpp"
#include "proto/echo.pb.h"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::connect {
namespace {

namespace pb = ::wirebench::echo;
using http2::client_stream;
using http2::static_header;

// A call's stream, with what the response's headers said of Connect.
struct connect_call_stream : client_stream {
  void reset() override {
    client_stream::reset();
    content_type.clear();
    encoding.clear();
  }
  std::string content_type, encoding;  // content-type, content-encoding
};

class connect_client_codec final : public http2::client_core {
 public:
  explicit connect_client_codec(const connect_client_config& config)
      : client_core(config.call.max_message_bytes),
        authority_(config.call.authority),
        scheme_(config.call.https ? "https" : "http"),
        format_(config.format),
        content_type_(content_type_of(false, config.format)),
        max_message_(config.call.max_message_bytes) {
    if (config.call.timeout.count() > 0) timeout_ = format_timeout_ms(config.call.timeout);
    grpc_wire::drop_protobuf_parse_complaints();  // a lying server must not flood our stderr
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    request_.mutable_name()->assign(name.data(), name.size());
    grpc_wire::serialize_message(format_, request_, s.request);
    s.body_size = s.request.size();
    // Every value lives in the codec (or a literal) until the stream closes: no copies.
    const std::array<nghttp2_nv, 9> headers = {
        static_header(":method", "POST"),
        static_header(":scheme", scheme_),
        static_header(":path", "/wirebench.echo.Echo/Greet"),
        static_header(":authority", authority_),
        static_header("content-type", content_type_),
        static_header("connect-protocol-version", "1"),
        static_header("user-agent", "wirebench-connect"),
        static_header("accept-encoding", "gzip"),
        static_header("connect-timeout-ms", timeout_)};
    return submit(s, {headers.data(), timeout_.empty() ? headers.size() - 1 : headers.size()});
  }

 private:
  std::unique_ptr<client_stream> make_stream() override {
    return std::make_unique<connect_call_stream>();
  }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    auto& c = static_cast<connect_call_stream&>(s);
    if (name == "content-type") c.content_type = value;
    else if (name == "content-encoding") c.encoding = value;
  }

  codec_reply reply_for(client_stream& s) override {
    auto& c = static_cast<connect_call_stream&>(s);
    std::string_view body = c.body;
    if (!c.body.empty() && c.encoding == "gzip") {  // as we asked; anything else is not inflated
      if (grpc_wire::gunzip(as_bytes(body), max_message_, inflated_))
        return {c.call, errc::wrong_reply, "a gzip body that cannot be inflated"};
      body = inflated_;
    } else if (!c.body.empty() && !c.encoding.empty() && c.encoding != "identity") {
      return {c.call, errc::wrong_reply, "a body in an encoding not asked for"};
    }
    if (c.status != 200) {
      // The error's code from its JSON, or the one the spec infers from the status.
      const auto error = c.content_type.starts_with("application/json") ? parse_error_json(body)
                                                                        : std::nullopt;
      std::string& why = kept();
      if (error) why = error->message;
      else why.append("HTTP ").append(std::to_string(c.status));
      return {c.call, connect_error(error ? error->code : code_of_http_status(c.status)), why};
    }
    const auto type = parse_content_type(c.content_type);
    if (!type || type->streaming || type->format != format_)
      return {c.call, errc::wrong_reply, "a reply of another content type"};
    if (!grpc_wire::parse_message(format_, body, reply_)) return {c.call, errc::wrong_reply, {}};
    c.text.swap(*reply_.mutable_greeting());
    return {c.call, {}, c.text};
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  message_format format_;
  std::string_view content_type_;
  std::size_t max_message_;
  std::string timeout_;  // connect-timeout-ms's value, "" for none
  pb::GreetRequest request_;  // reused by every call
  pb::GreetReply reply_;
  std::string inflated_;  // a compressed reply, inflated
};

}  // namespace

std::unique_ptr<client_codec> make_connect_client_codec(const connect_client_config& config) {
  return std::make_unique<connect_client_codec>(config);
}

}  // namespace wirebench::connect
