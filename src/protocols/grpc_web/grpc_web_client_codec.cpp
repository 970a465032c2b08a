#include "grpc_web_client_codec.hpp"

#include <array>

#include "grpc_web_wire.hpp"
#include "../grpc/grpc_call_stream.hpp"
#include "../grpc/grpc_gzip.hpp"
#include "../grpc/grpc_message.hpp"
#include "../grpc/grpc_timeout.hpp"
#include "../grpc/protobuf_log.hpp"
#include "../http2/h2_client_core.hpp"
#include "proto/echo.pb.h"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_web {
namespace {

namespace pb = ::wirebench::echo;
using grpc_wire::grpc_call_stream;
using http2::client_stream;
using http2::static_header;

class grpc_web_client_codec final : public http2::client_core {
 public:
  explicit grpc_web_client_codec(const grpc_wire::http2_call_settings& config)
      : client_core(config.max_message_bytes + 5 + max_trailers_bytes),
        authority_(config.authority),
        scheme_(config.https ? "https" : "http"),
        max_message_(config.max_message_bytes) {
    if (config.timeout.count() > 0) timeout_ = grpc_wire::format_timeout(config.timeout);
    grpc_wire::drop_protobuf_parse_complaints();  // a lying server must not flood our stderr
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    request_.mutable_name()->assign(name.data(), name.size());
    request_.SerializeToString(&scratch_);
    grpc_wire::append_grpc_prefix(scratch_.size(), false, s.request);  // the record's is empty
    s.request.append(scratch_);
    s.body_size = s.request.size();
    // Every value lives in the codec (or a literal) until the stream closes: no copies.
    const std::array<nghttp2_nv, 9> headers = {
        static_header(":method", "POST"),
        static_header(":scheme", scheme_),
        static_header(":path", "/wirebench.echo.Echo/Greet"),
        static_header(":authority", authority_),
        static_header("content-type", "application/grpc-web+proto"),
        static_header("x-grpc-web", "1"),
        static_header("x-user-agent", "wirebench-grpc-web"),
        static_header("grpc-accept-encoding", "identity,gzip"),
        static_header("grpc-timeout", timeout_)};
    return submit(s, {headers.data(), timeout_.empty() ? headers.size() - 1 : headers.size()});
  }

 private:
  // A trailers frame's block is a few short lines; a server's longer one is refused whole.
  static constexpr std::size_t max_trailers_bytes = 16 * 1024;

  std::unique_ptr<client_stream> make_stream() override { return std::make_unique<grpc_call_stream>(); }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    static_cast<grpc_call_stream&>(s).read_header(name, value);  // Trailers-Only's status, encoding
  }

  codec_reply reply_for(client_stream& s) override {
    auto& g = static_cast<grpc_call_stream&>(s);
    if (g.grpc_status && *g.grpc_status != grpc_wire::status_code::ok)  // Trailers-Only
      return failed(g, *g.grpc_status, g.message);
    if (g.status != 200) {
      std::string& why = kept();
      why.append(std::to_string(g.status)).append(" ").append(g.body.substr(0, 200));
      return {g.call, unexpected_status(g.status), why};
    }
    // The body: the one message, then the trailers frame, then nothing.
    grpc_wire::grpc_message_decoder messages(max_message_);
    std::string_view body = g.body;
    std::string_view reply;
    bool have_reply = false;
    while (!body.empty()) {
      if (body.size() < 5) return {g.call, errc::wrong_reply, "the body ends inside a frame"};
      const auto flags = static_cast<std::uint8_t>(body[0]);
      if (flags & flag_trailers) {
        const std::uint32_t n = static_cast<std::uint8_t>(body[1]) << 24 | static_cast<std::uint8_t>(body[2]) << 16 |
                                static_cast<std::uint8_t>(body[3]) << 8 | static_cast<std::uint8_t>(body[4]);
        if (body.size() - 5 != n) return {g.call, errc::wrong_reply, "bytes after the trailers frame, or too few"};
        std::string_view block = body.substr(5);
        if (flags & 0x01) {  // compressed like the messages (connect-go's server does, asked for gzip)
          if (g.encoding != "gzip" || grpc_wire::gunzip(as_bytes(block), max_trailers_bytes, trailers_))
            return {g.call, errc::wrong_reply, "a compressed trailers frame that cannot be inflated"};
          block = trailers_;
        }
        const auto status = parse_trailers_block(block);
        if (!status || !status->status) return {g.call, errc::wrong_reply, "no grpc-status in the trailers"};
        if (*status->status != grpc_wire::status_code::ok) return failed(g, *status->status, status->message);
        if (!have_reply) return {g.call, errc::wrong_reply, "no reply"};
        return greeting(g, reply);
      }
      const auto step = messages.decode(as_bytes(body));
      if (step.status != decode_status::frame) return {g.call, errc::wrong_reply, "a malformed message"};
      if (have_reply) return {g.call, errc::wrong_reply, "more than one reply"};
      reply = as_text(step.frame.bytes);
      if (step.frame.compressed) {
        if (g.encoding != "gzip" || grpc_wire::gunzip(step.frame.bytes, max_message_, inflated_))
          return {g.call, errc::wrong_reply, "a compressed reply that cannot be inflated"};
        reply = inflated_;
      }
      have_reply = true;
      body.remove_prefix(step.consumed);
    }
    return {g.call, errc::wrong_reply, "no trailers frame"};
  }

  codec_reply failed(grpc_call_stream& g, grpc_wire::status_code code, std::string_view message) {
    std::string& why = kept();
    why = grpc_wire::percent_decoded(message);
    return {g.call, grpc_wire::status_error(code), why};
  }

  codec_reply greeting(grpc_call_stream& g, std::string_view bytes) {
    if (!reply_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      return {g.call, errc::wrong_reply, {}};
    g.text.swap(*reply_.mutable_greeting());
    return {g.call, {}, g.text};
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::size_t max_message_;
  std::string timeout_;  // grpc-timeout's value, "" for none
  pb::GreetRequest request_;  // reused by every call
  pb::GreetReply reply_;
  std::string scratch_;   // a request serialized, before its prefix
  std::string inflated_;  // a compressed reply, inflated
  std::string trailers_;  // a compressed trailers frame, inflated (the reply still views inflated_)
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_web_client_codec(const grpc_wire::http2_call_settings& config) {
  return std::make_unique<grpc_web_client_codec>(config);
}

}  // namespace wirebench::grpc_web
