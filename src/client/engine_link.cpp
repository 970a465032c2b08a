#include "engine_link.hpp"

#include <asio/error.hpp>

#include "engine_lane.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/named_error_category.hpp"
#include "wirebench/calls/fifo_matcher.hpp"
#include "wirebench/calls/pending_table.hpp"

namespace wirebench {

namespace {
std::unique_ptr<call_matcher> make_matcher(reply_order order, const client_engine_config& c) {
  if (order == reply_order::in_order) return std::make_unique<fifo_matcher>(c.max_in_flight);
  return std::make_unique<pending_table>(pending_table_config{c.max_in_flight, c.max_abandoned});
}
}  // namespace

engine_link::engine_link(engine_lane& lane, std::shared_ptr<const void> keep,
                         std::unique_ptr<client_codec> codec, const client_engine_config& config)
    : lane_(lane),
      keep_(std::move(keep)),
      codec_(std::move(codec)),
      matcher_(make_matcher(codec_->order(), config)),
      in_order_(codec_->order() == reply_order::in_order),
      may_refuse_(codec_->may_refuse()) {}

std::error_code engine_link::open(connection& c) {
  conn_ = &c;
  dirty_ = true;
  const std::error_code ec = codec_->open(c.outbox());
  c.request_flush();
  return ec;
}

void engine_link::take_back(std::uint32_t id, call_completion& done) {
  unanswered_call back;
  matcher_->take_unanswered(id, back);
  done = std::move(back.done);
}

bool engine_link::cancel(std::uint32_t id, const void* token, call_completion& done) {
  if (!matcher_->cancel(id, token, done)) return false;
  if (!closed_ && codec_->cancel(id, conn_->outbox())) {
    dirty_ = true;
    conn_->request_flush();
  }
  return true;
}

void engine_link::expire(clock::time_point now, std::vector<call_completion>& expired) {
  matcher_->expire(now, expired);
}

void engine_link::close(std::error_code reason) {
  if (conn_ != nullptr && !closed_) conn_->close(reason);
}

// The codec's ping, emitted with the write the connection flushes next (produce()).
bool engine_link::on_keepalive(connection& c) {
  if (!codec_->ping(c.outbox())) return false;
  dirty_ = true;
  return true;
}

void engine_link::before_write(connection& c, std::error_code& error) {
  if (!dirty_) return;
  dirty_ = false;
  error = codec_->produce(c.outbox());
}

// Inline: once per reply, from on_data() only.
inline void engine_link::match(const codec_reply& r, std::error_code& error) {
  std::optional<std::uint32_t> id = r.id;
  if (in_order_) {
    // The oldest call's; a codec whose replies carry ids in order too (mux's ordered mode) has
    // them checked.
    id = matcher_->next_in_order();
    if (!id || (r.id != 0 && r.id != *id)) {  // nothing outstanding, or out of step
      engine_lane::counters::bump(lane_.stats().unknown);
      error = errc::protocol_error;
      return;
    }
  }
  if (r.not_processed) {
    unanswered_call call;
    if (matcher_->take_unanswered(*id, call)) lane_.resend(std::move(call));
    return;
  }
  // Taken straight into its place in the batch (no completion moved twice per call).
  ready_call& ready = ready_.emplace_back(r.error, r.body);
  switch (matcher_->take(*id, ready.done)) {
    case reply_match::completed:
      return;
    case reply_match::late:
      ready_.pop_back();
      engine_lane::counters::bump(lane_.stats().late);
      return;
    case reply_match::unknown:
      ready_.pop_back();
      engine_lane::counters::bump(lane_.stats().unknown);
      if (in_order_) error = errc::protocol_error;  // cannot happen: next_in_order() was asked
      return;
  }
}

std::size_t engine_link::on_data(connection& c, std::span<const std::byte> data,
                                 std::error_code& error) {
  decoded_.replies.clear();
  decoded_.going_away = decoded_.rest_not_processed = false;
  // Replies decoded before an error are replies (those before a TLS close_notify, say): matched
  // first, then the connection closes with the codec's error.
  std::error_code decode_error;
  const std::size_t consumed = codec_->decode(data, decoded_, c.outbox(), decode_error);
  dirty_ = true;
  for (const codec_reply& r : decoded_.replies) {
    if (error) break;
    match(r, error);
  }
  if (!error) error = decode_error;
  if (!ready_.empty() && !answered_) {
    answered_ = true;
    lane_.link_answered();
  }
  if (decoded_.going_away && !going_) {
    going_ = true;
    if (decoded_.rest_not_processed) {
      matcher_->take_all(unanswered_);
      for (unanswered_call& call : unanswered_) lane_.resend(std::move(call));
      unanswered_.clear();
    }
    lane_.link_going(*this);
  }
  // Decoding is over and the matcher is consistent: now the completions, which may call again.
  run_ready();
  if (!closed_) lane_.pump();
  if (going_ && !closed_ && matcher_->in_flight() == 0) error = errc::shutting_down;
  return consumed;
}

// The batch is swapped out so that a completion that ends up here again cannot disturb it.
void engine_link::run_ready() {
  std::vector<ready_call> batch;
  batch.swap(ready_);
  for (ready_call& r : batch) r.done(r.ec, r.body);
  batch.clear();
  if (ready_.empty()) ready_.swap(batch);  // keep the capacity
}

void engine_link::on_close(connection&, std::error_code reason) {
  closed_ = true;
  const bool clean_end = reason == errc::peer_closed || reason == errc::truncated_frame;
  // asio's code: the transport reports its own read errors (asio.system does not map to errc).
  if (clean_end || reason == asio::error::connection_reset) end_of_stream(clean_end);
  matcher_->take_all(unanswered_);
  std::vector<unanswered_call> lost = std::move(unanswered_);
  unanswered_.clear();
  // The codec's words, when it broke the stream itself (a TLS handshake that failed, and why; a
  // status the server ended a shared stream with, and its message).
  const bool codec_said = reason == errc::tls_failed || reason == errc::protocol_error ||
                          is_named_error(reason);
  std::string why = codec_said ? codec_->failure() : std::string();
  lane_.link_closed(*this, reason, lost, std::move(why));
  // Replies the end completed, once the lane has let go of this link: their completions may call
  // again, and those calls must wait for the next connection, not come here. An end of stream is
  // seen only by a read, never inside a call, so the completion rule holds.
  run_ready();
}

// What the server's end of the stream still gives: a reply it delimited, and whether the calls
// left were never processed. Those are sent again only from a connection that has answered
// before: a server that closes every new connection unanswered fails them instead of having them
// sent round again (their deadline bounds the rest).
void engine_link::end_of_stream(bool clean) {
  decoded_.replies.clear();
  decoded_.going_away = decoded_.rest_not_processed = false;
  codec_->end_of_stream(clean, decoded_);
  std::error_code broken;
  for (const codec_reply& r : decoded_.replies) {
    if (broken) break;
    match(r, broken);
  }
  if (!ready_.empty()) answered_ = true;
  if (!decoded_.rest_not_processed || !answered_) return;
  matcher_->take_all(unanswered_);
  for (unanswered_call& call : unanswered_) lane_.resend(std::move(call));
  unanswered_.clear();
}

}  // namespace wirebench
