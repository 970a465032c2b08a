#include "h2_client_core.hpp"

#include <algorithm>
#include <cstring>

#include "wirebench/core/error.hpp"

namespace wirebench::http2 {

void client_stream::reset() {
  id = -1;
  status = 0;
  error = 0;
  oversize = false;
  path.clear();
  body.clear();
  request.clear();
  body_at = body_size = body_sent = 0;
  user_request = 0;
  streaming = request_closed = deferred = false;
}

// Every callback runs inside nghttp2_session_mem_recv (decode()) or mem_send (produce(), flush),
// on the connection's thread; `user` is the client_core. Name, value and data pointers belong to
// nghttp2 and are valid only during the call.
struct client_core::callbacks {
  static client_core& self(void* p) { return *static_cast<client_core*>(p); }
  static client_stream* stream_of(nghttp2_session* session, int32_t id) {
    return static_cast<client_stream*>(nghttp2_session_get_stream_user_data(session, id));
  }

  static int on_header(nghttp2_session* session, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t, void* user) {
    client_stream* s = stream_of(session, frame->hd.stream_id);
    if (s == nullptr) return 0;
    const std::string_view n(reinterpret_cast<const char*>(name), namelen);
    const std::string_view v(reinterpret_cast<const char*>(value), valuelen);
    if (n != ":status") {
      self(user).response_header(*s, n, v);
      return 0;
    }
    int status = 0;
    for (size_t i = 0; i < valuelen && value[i] >= '0' && value[i] <= '9'; ++i)
      status = status * 10 + (value[i] - '0');
    s->status = status;
    return 0;
  }
  static int on_data_chunk(nghttp2_session* session, uint8_t, int32_t stream_id,
                           const uint8_t* data, size_t len, void* user) {
    client_stream* s = stream_of(session, stream_id);
    if (s == nullptr) return 0;
    if (s->streaming) {
      self(user).response_data(*s, std::string_view(reinterpret_cast<const char*>(data), len));
      return 0;
    }
    if (s->body.size() + len > self(user).max_body_) {
      s->oversize = true;
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
      return 0;
    }
    s->body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }
  static int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_GOAWAY) self(user).goaway_ = true;
    return 0;
  }
  // nghttp2 ends a session the server broke (a frame too large, a bad header block) with a GOAWAY
  // carrying the error, and then ignores all input: the connection is over, and the calls in
  // flight on it fail now rather than at their deadlines.
  static int on_frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR)
      self(user).broken_ = true;
    return 0;
  }
  static int on_stream_close(nghttp2_session* session, int32_t stream_id, uint32_t error_code,
                             void* user) {
    client_stream* s = stream_of(session, stream_id);
    if (s == nullptr) return 0;
    s->error = error_code;
    self(user).finished_.push_back(s);
    return 0;
  }
  // From mem_send: the next piece of a request body, copied out of the stream's record.
  static ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t length,
                           uint32_t* data_flags, nghttp2_data_source* source, void*) {
    client_stream& s = *static_cast<client_stream*>(source->ptr);
    if (s.streaming) return read_stream(s, buf, length, data_flags);
    const std::size_t n = std::min(length, s.body_size - s.body_sent);
    std::memcpy(buf, s.request.data() + s.body_at + s.body_sent, n);
    s.body_sent += n;
    if (s.body_sent == s.body_size) *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  // A streaming record's request: what has been appended; then it waits for more (deferred), or
  // ends once the application has closed it.
  static ssize_t read_stream(client_stream& s, uint8_t* buf, size_t length, uint32_t* data_flags) {
    const std::size_t n = std::min(length, s.request.size() - s.body_sent);
    std::memcpy(buf, s.request.data() + s.body_sent, n);
    s.body_sent += n;
    if (s.body_sent == s.request.size()) {  // all sent: the buffer starts over
      s.request.clear();
      s.body_sent = 0;
      if (s.request_closed) *data_flags |= NGHTTP2_DATA_FLAG_EOF;
      else if (n == 0) {
        s.deferred = true;
        return NGHTTP2_ERR_DEFERRED;
      }
    }
    return static_cast<ssize_t>(n);
  }
};

client_core::client_core(std::size_t max_body)
    : max_body_(max_body),
      session_(new_session(false,
                           {.header = &callbacks::on_header,
                            .data_chunk = &callbacks::on_data_chunk,
                            .frame_recv = &callbacks::on_frame_recv,
                            .frame_send = &callbacks::on_frame_send,
                            .stream_close = &callbacks::on_stream_close},
                           this)) {}

client_core::~client_core() = default;

std::error_code client_core::open(gather_queue& out) {
  nghttp2_submit_settings(session_.get(), NGHTTP2_FLAG_NONE, nullptr, 0);
  return flush(session_.get(), out);
}

std::error_code client_core::produce(gather_queue& out) {
  if (auto ec = flush(session_.get(), out)) return ec;
  return broken_ ? errc::protocol_error : std::error_code{};
}

std::size_t client_core::decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                                std::error_code& error) {
  recycle_delivered();
  const std::size_t consumed = data.size();
  const ssize_t rv = nghttp2_session_mem_recv(
      session_.get(), reinterpret_cast<const uint8_t*>(data.data()), data.size());
  if (rv < 0) error = errc::protocol_error;
  // SETTINGS acks, WINDOW_UPDATEs, PING replies; and any stream nghttp2 closes as it sends.
  if (auto ec = flush(session_.get(), out); ec && !error) error = ec;
  if (broken_ && !error) error = errc::protocol_error;
  // Streams closed since the last decode, here or while sending (refused after a GOAWAY).
  for (client_stream* s : refused_now_) finished_.push_back(s);
  refused_now_.clear();
  into.replies.insert(into.replies.end(), streamed_.begin(), streamed_.end());
  streamed_.clear();
  for (client_stream* s : finished_) {
    if (!s->streaming) into.replies.push_back(verdict(*s));
    else if (const std::error_code ec = stream_ended(*s); ec && !error) error = ec;
  }
  delivered_.swap(finished_);
  if (goaway_) into.going_away = true;
  return consumed;
}

bool client_core::cancel(std::uint32_t id, gather_queue&) {
  for (const auto& s : streams_)
    if (s->in_use && s->call == id && s->id > 0)
      nghttp2_submit_rst_stream(session_.get(), NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
  return true;
}

bool client_core::ping(gather_queue&) {
  return nghttp2_submit_ping(session_.get(), NGHTTP2_FLAG_NONE, nullptr) == 0;
}

client_stream& client_core::take_stream(std::uint32_t id) {
  if (free_.empty()) {
    streams_.push_back(make_stream());
    free_.push_back(streams_.back().get());
  }
  client_stream* s = free_.back();
  free_.pop_back();
  s->reset();
  s->in_use = true;
  s->call = id;
  return *s;
}

std::error_code client_core::submit(client_stream& s, std::span<const nghttp2_nv> headers) {
  nghttp2_data_provider body{};
  body.source.ptr = &s;
  body.read_callback = &callbacks::read_body;
  const bool has_body = s.body_size != 0 || s.streaming;
  const int32_t sid = nghttp2_submit_request(session_.get(), nullptr, headers.data(),
                                             headers.size(), has_body ? &body : nullptr, &s);
  if (sid < 0) {  // out of stream ids on this connection: not sent, so not processed
    s.error = NGHTTP2_REFUSED_STREAM;
    refused_now_.push_back(&s);
    return {};
  }
  s.id = sid;
  return {};
}

void client_core::request_grew(client_stream& s) {
  if (!s.deferred || s.id <= 0) return;
  s.deferred = false;
  nghttp2_session_resume_data(session_.get(), s.id);
}

void client_core::recycle_delivered() {
  for (client_stream* s : delivered_) {
    s->in_use = false;
    free_.push_back(s);
  }
  delivered_.clear();
  storage_.clear();
}

codec_reply client_core::verdict(client_stream& s) {
  if (s.error == NGHTTP2_REFUSED_STREAM) return {s.call, {}, {}, /*not_processed=*/true};
  if (s.oversize) return {s.call, errc::frame_too_long, {}};
  if (s.error != 0) return {s.call, errc::connection_closed, {}};  // reset by the server
  return reply_for(s);
}

}  // namespace wirebench::http2
