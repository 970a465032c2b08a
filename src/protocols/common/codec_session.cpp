#include "codec_session.hpp"

#include "greet_server.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench {

codec_session::codec_session(const settings& s, asio::thread_pool* workers)
    : dispatch_(s.dispatch),
      inline_(workers == nullptr && s.dispatch.service_time.type == service_time_model::kind::none),
      codec_(s.codecs()),
      dispatcher_(s.dispatch, workers,
                  // On the connection's thread, when a reply is ready (inline, or posted back
                  // from a worker); the session, and so the codec, are alive (the dispatcher's
                  // work holds the connection).
                  [this](connection& c, std::uint64_t key, bool ok, std::string&& body) {
                    codec_->encode_reply(key, ok, body, c.outbox());
                    c.request_flush();
                  },
                  codec_->ordered()) {}

std::size_t codec_session::on_data(connection& c, std::span<const std::byte> data,
                                   std::error_code& error) {
  std::size_t consumed = 0;
  std::uint64_t served = 0;
  for (;;) {
    request_.what = server_request::kind::none;
    request_.key = 0;
    consumed += codec_->decode(data.subspan(consumed), request_, c.outbox(), error);
    if (request_.what == server_request::kind::call) {
      if (inline_) {
        std::error_code failed;
        if (dispatch_.handler_into) {
          reply_.clear();
          dispatch_.handler_into(request_.argument, reply_, failed);
        } else {
          reply_ = dispatch_.handler(request_.argument, failed);
        }
        if (failed) codec_->encode_reply(request_.key, false, failed.message(), c.outbox());
        else codec_->encode_reply(request_.key, true, reply_, c.outbox());  // no copy of reply_
      } else {
        dispatcher_.start(c, request_.key, request_.argument);
      }
    } else if (request_.what != server_request::kind::none) {  // answered, or a notice
      if (inline_) c.outbox().append_bytes(as_bytes(request_.answer));
      else dispatcher_.start_answered(c, request_.key, std::move(request_.answer));
    } else {
      break;
    }
    served += request_.what != server_request::kind::notice;
    if (error) break;
  }
  count_requests(served);
  c.request_flush();
  return consumed;
}

void codec_session::on_drain(connection& c) {
  codec_->going_away(c.outbox());
  c.request_flush();
}

void codec_session::on_last_read(connection& c) {
  codec_->last_read(c.outbox());
  c.request_flush();
}

void codec_session::before_write(connection& c, std::error_code& error) {
  error = codec_->produce(c.outbox());
}

std::unique_ptr<protocol_server> make_codec_server(const server_config& c,
                                                   server_codec_factory codecs, alpn_choice alpn,
                                                   std::string thread_name) {
  const std::size_t read_bytes = codecs()->max_read_bytes();  // one codec asked, then dropped
  return std::make_unique<greet_server<codec_session>>(
      c, std::move(thread_name),
      codec_session::settings{std::move(codecs), greet_dispatch(c), read_bytes}, alpn);
}

}  // namespace wirebench
