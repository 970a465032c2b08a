#include "wirebench/server/codec_session.hpp"

#include "wirebench/codec/bytes.hpp"

namespace wirebench {

codec_session::codec_session(std::unique_ptr<server_codec> codec, const dispatch_settings& dispatch,
                             std::size_t max_in_flight, bool answer_inline)
    : dispatch_(dispatch),
      inline_(answer_inline),
      ordered_(codec->ordered() || dispatch.ordered),
      max_in_flight_(max_in_flight),
      codec_(std::move(codec)) {}

codec_session::codec_session(std::unique_ptr<server_codec> codec,
                             const dispatch_settings& dispatch, std::size_t max_in_flight,
                             asio::thread_pool* workers, const runner_factory& make_runner)
    : codec_session(std::move(codec), dispatch, max_in_flight,
                    /*answer_inline=*/!make_runner && workers == nullptr &&
                        dispatch.service_time.type == service_time_model::kind::none) {
  if (make_runner) calls_ = make_runner(reply_writer());
  else calls_ = std::make_unique<request_dispatcher>(dispatch, workers, reply_writer(), ordered_);
}

// On the connection's thread, when a reply is ready (inline, or posted back from a worker); the
// session, and so the codec, are alive (a call in flight holds the connection).
call_runner::reply_writer codec_session::reply_writer() {
  return [this](connection& c, std::uint64_t key, bool ok, std::string&& body) {
    codec_->encode_owned_reply(key, ok, std::move(body), c.outbox());
    c.request_flush();
  };
}

std::size_t codec_session::on_data(connection& c, std::span<const std::byte> data,
                                   std::error_code& error) {
  using kind = server_request::kind;
  std::size_t consumed = 0;
  std::uint64_t served = 0;
  // At max_in_flight the rest waits in the buffer (or in the codec): work_finished() resumes.
  while (accepting_input()) {
    request_.what = kind::none;
    request_.key = 0;
    consumed += codec_->decode(data.subspan(consumed), request_, c.outbox(), error);
    switch (request_.what) {
      case kind::call:
        if (inline_) {
          answer_inline(c);
        } else if (const auto refused = calls_->start(c, request_.key, request_.argument)) {
          error = refused;  // not taken: a key still running (the stream is lost)
          break;
        }
        ++served;  // a codec's error with it (a last request, then close) does not undo it
        break;
      case kind::answered:
      case kind::notice:
        served += request_.what == kind::answered;
        // Empty and unordered: the codec holds the answer itself (HTTP/2); produce() sends it.
        if (request_.answer.empty() && !ordered_) break;
        // Unordered, or answered inline: nothing is owed before it, so it goes at once.
        if (inline_ || (!ordered_ && request_.what == kind::notice))
          c.outbox().append_bytes(as_bytes(request_.answer));
        else
          calls_->start_answered(c, request_.key, std::move(request_.answer));
        break;
      case kind::cancel:
        if (!inline_) calls_->cancel(request_.key);  // inline, it was answered already
        break;
      case kind::none:
        break;
    }
    if (request_.what == kind::none || error) break;
  }
  count_requests(served);
  if (!inline_) watch_deadlines(c);
  c.request_flush();
  return consumed;
}

void codec_session::watch_deadlines(connection& c) {
  const auto next = codec_->next_deadline();
  if (next == std::chrono::steady_clock::time_point::max() || next >= armed_) return;
  if (!deadline_timer_) deadline_timer_.emplace(c.executor());
  armed_ = next;
  deadline_timer_->expires_at(next);
  // On the connection's thread; the connection owns this session, so while the session is alive
  // (alive_ not expired) so is the connection.
  deadline_timer_->async_wait([this, &c, alive = std::weak_ptr<int>(alive_)](std::error_code ec) {
    if (ec || alive.expired()) return;
    armed_ = std::chrono::steady_clock::time_point::max();
    codec_->expire(std::chrono::steady_clock::now(), c.outbox());
    c.request_flush();
    watch_deadlines(c);
  });
}

// The call answered as it is decoded, into a reply buffer kept warm from call to call.
void codec_session::answer_inline(connection& c) {
  std::error_code failed;
  if (dispatch_.handler_into) {
    reply_.clear();
    dispatch_.handler_into(request_.argument, reply_, failed);
  } else {
    reply_ = dispatch_.handler(request_.argument, failed);
  }
  if (failed) codec_->encode_reply(request_.key, false, failed.message(), c.outbox());
  else codec_->encode_reply(request_.key, true, reply_, c.outbox());  // no copy of reply_
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

}  // namespace wirebench
