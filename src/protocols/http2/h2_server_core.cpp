#include "h2_server_core.hpp"

#include <algorithm>
#include <cstring>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {

// Every callback runs inside nghttp2_session_mem_recv (from receive()) or mem_send (from send()),
// on the caller's thread; `user` is the server_core. Name, value and data pointers belong to
// nghttp2 and are valid only during the call.
struct server_core::callbacks {
  static server_core& self(void* user) { return *static_cast<server_core*>(user); }
  // The record of a request stream (set when its HEADERS began), or null for any other stream.
  static server_stream* record(nghttp2_session* session, std::int32_t stream_id) {
    return static_cast<server_stream*>(nghttp2_session_get_stream_user_data(session, stream_id));
  }
  // The callbacks that allocate run `f` here: an exception must not unwind through nghttp2's C
  // frames, so it fails the session instead (mem_recv then returns an error).
  template <typename F>
  static int guarded(F&& f) noexcept {
    try {
      return f();
    } catch (...) {
      return NGHTTP2_ERR_CALLBACK_FAILURE;
    }
  }

  // Every frame's header, before nghttp2 acts on the frame: where a HEADERS on a skipped stream id
  // is caught (nghttp2 would drop it without a word).
  static int on_begin_frame(nghttp2_session*, const nghttp2_frame_hd* hd, void* user) {
    if (hd->type != NGHTTP2_HEADERS || self(user).admit_headers(hd->stream_id)) return 0;
    return NGHTTP2_ERR_CALLBACK_FAILURE;  // mem_recv stops; the GOAWAY is queued
  }
  // A request's HEADERS, once nghttp2 has accepted its stream.
  static int on_begin_headers(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
    return guarded([&] {
      if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
        nghttp2_session_set_stream_user_data(session, frame->hd.stream_id, self(user).open_stream());
      return 0;
    });
  }
  static int on_header(nghttp2_session* session, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t, void* user) {
    return guarded([&] {
      server_stream* st = record(session, frame->hd.stream_id);
      if (st == nullptr) return 0;
      const std::string_view n(reinterpret_cast<const char*>(name), namelen);
      const std::string_view v(reinterpret_cast<const char*>(value), valuelen);
      if (n == ":method") st->method = v;
      else if (n == ":path") st->path = v;
      else self(user).request_header(*st, n, v);
      return 0;
    });
  }
  static int on_data_chunk(nghttp2_session* session, uint8_t, int32_t stream_id, const uint8_t* data,
                           size_t len, void* user) {
    return guarded([&] {
      server_stream* st = record(session, stream_id);
      self(user).consume(stream_id, st, len);  // the window given back (or held) whatever we do
      if (st == nullptr || st->answered) return 0;
      if (st->streaming) {
        self(user).request_data(stream_id, *st,
                                std::string_view(reinterpret_cast<const char*>(data), len));
        return 0;
      }
      if (st->body.size() + len > self(user).max_body_) {
        self(user).body_too_large(stream_id, *st);
        st->answered_early = true;
        self(user).hand_out_answered(stream_id);
        return 0;
      }
      st->body.append(reinterpret_cast<const char*>(data), len);
      return 0;
    });
  }
  // A whole frame received: a request's headers are seen when they end, and the request is
  // taken when its stream ends.
  static int on_frame_recv(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
    return guarded([&] {
      if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
      server_stream* st = record(session, frame->hd.stream_id);
      if (st == nullptr) return 0;
      if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
        self(user).request_headers_ended(frame->hd.stream_id, *st);
      if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0 && !st->answered)
        self(user).request_ended(frame->hd.stream_id, *st);
      return 0;
    });
  }
  // A frame went out. After the last frame of an early answer (413) to a client still sending,
  // RST_STREAM(NO_ERROR) tells it to stop (RFC 9113 §8.1); otherwise the stream would stay half
  // open, its window refilled, for as long as the client kept sending.
  static int on_frame_send(nghttp2_session* session, const nghttp2_frame* frame, void*) {
    if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) == 0 ||
        (frame->hd.type != NGHTTP2_DATA && frame->hd.type != NGHTTP2_HEADERS))
      return 0;
    // Every response ends here; the usual one, to a request the client ended, needs no lookup.
    if (nghttp2_session_get_stream_remote_close(session, frame->hd.stream_id) != 0) return 0;
    const server_stream* st = record(session, frame->hd.stream_id);
    if (st != nullptr && st->answered_early)
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, frame->hd.stream_id, NGHTTP2_NO_ERROR);
    return 0;
  }
  // The stream is closed (reply sent, reset, or session ending): its record goes back to the pool.
  static int on_stream_close(nghttp2_session* session, int32_t stream_id, uint32_t, void* user) {
    if (server_stream* st = record(session, stream_id)) self(user).close_stream(st);
    return 0;
  }
  // From mem_send: the next piece of a response body, copied out of the stream that owns it;
  // after its last byte, the trailers (nghttp2 lets them be submitted from here).
  static ssize_t read_body(nghttp2_session* session, int32_t stream_id, uint8_t* buf,
                           size_t length, uint32_t* flags, nghttp2_data_source* source, void*) {
    auto* st = static_cast<server_stream*>(source->ptr);
    const std::size_t n = std::min(length, st->response.size() - st->sent);
    std::memcpy(buf, st->response.data() + st->sent, n);
    st->sent += n;
    if (st->sent != st->response.size()) return static_cast<ssize_t>(n);
    if (st->streaming && !st->finished) {  // all sent that there is so far: wait for more
      if (n != 0) return static_cast<ssize_t>(n);
      st->deferred = true;
      return NGHTTP2_ERR_DEFERRED;
    }
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (!st->trailers.empty()) {
      constexpr std::size_t most = 8;
      nghttp2_nv nv[most];
      const std::size_t count = std::min(st->trailers.size(), most);
      for (std::size_t i = 0; i < count; ++i)
        nv[i] = header(st->trailers[i].first, st->trailers[i].second);
      if (nghttp2_submit_trailer(session, stream_id, nv, count) == 0)
        *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
    }
    return static_cast<ssize_t>(n);
  }
};

server_core::server_core(const server_session_config& config)
    : session_(new_session(true,
                           {.begin_frame = &callbacks::on_begin_frame,
                            .begin_headers = &callbacks::on_begin_headers,
                            .header = &callbacks::on_header,
                            .data_chunk = &callbacks::on_data_chunk,
                            .frame_recv = &callbacks::on_frame_recv,
                            .frame_send = &callbacks::on_frame_send,
                            .stream_close = &callbacks::on_stream_close},
                           this, /*manual_windows=*/true)),
      max_body_(config.max_body_bytes),
      max_unsent_stream_(config.max_unsent_stream_bytes) {
  nghttp2_session* s = session_.get();
  std::vector<nghttp2_settings_entry> settings{
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, config.max_concurrent_streams}};
  if (config.stream_window_bytes != 0)
    settings.push_back({NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, config.stream_window_bytes});
  nghttp2_submit_settings(s, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
  if (config.connection_window_bytes != 0)  // sent as a WINDOW_UPDATE on stream 0
    nghttp2_session_set_local_window_size(s, NGHTTP2_FLAG_NONE, 0,
                                          static_cast<int32_t>(config.connection_window_bytes));
}

server_core::~server_core() = default;

void server_stream::reset() {
  // Strings longer than this are freed, not kept: a few large bodies must not pin their memory
  // on every connection that once saw one.
  constexpr std::size_t max_kept_capacity = 4096;
  for (std::string* s : {&method, &path, &body, &response}) {
    if (s->capacity() > max_kept_capacity) std::string().swap(*s);
    s->clear();
  }
  trailers.clear();
  sent = withheld = 0;
  answered = answered_early = streaming = finished = deferred = false;
}

std::size_t server_core::decode(std::span<const std::byte> data, server_request& into,
                                gather_queue& out, std::error_code& error) {
  if (!data.empty()) {
    error = receive(data);
    // What nghttp2 has to say about these bytes goes now: acks, window updates, and the GOAWAY
    // of a session it ended (a frame of the wrong size, a flood), which is only sent, and the
    // session over, once serialized. Once both sides have said goodbye and nothing is left to
    // say, the connection may close; produce() could not close it gracefully. Responses are
    // submitted after this and still go out together in produce().
    if (!error) error = send(out);
    if (!error && !want_read() && !want_write()) error = errc::peer_closed;
  }
  if (next_ended_ == ended_.size()) {
    ended_.clear();
    next_ended_ = 0;
    return data.size();
  }
  ended_request& r = ended_[next_ended_++];
  into.key = r.key;
  if (r.call) {
    handed_out_.swap(r.argument);  // valid until the next decode(); both buffers reused
    into.what = server_request::kind::call;
    into.argument = handed_out_;
  } else {  // its response is submitted already
    into.what = server_request::kind::answered;
    into.answer.clear();
  }
  return data.size();
}

std::error_code server_core::receive(std::span<const std::byte> plain) {
  const ssize_t rv = nghttp2_session_mem_recv(
      session_.get(), reinterpret_cast<const uint8_t*>(plain.data()), plain.size());
  if (rv < 0) return errc::protocol_error;  // nghttp2 (or admit_headers) has queued a GOAWAY
  return {};
}

std::error_code server_core::send(gather_queue& out) {
  // Copied into the queue's arena as nghttp2 hands it over: no string in between. A response
  // drained below its bound gives its stream's window back: the WINDOW_UPDATE goes now too.
  auto sink = [&](std::span<const std::byte> b) { out.append_bytes(b); };
  std::error_code ec = mem_send_all(session_.get(), sink);
  if (!ec && give_back_withheld()) ec = mem_send_all(session_.get(), sink);
  return ec;
}

std::error_code server_core::send(std::string& out) {
  auto sink = [&](std::span<const std::byte> b) { out.append(as_text(b)); };
  std::error_code ec = mem_send_all(session_.get(), sink);
  if (!ec && give_back_withheld()) ec = mem_send_all(session_.get(), sink);
  return ec;
}

void server_core::consume(std::int32_t stream_id, server_stream* st, std::size_t bytes) {
  // The connection's window always comes back: one stream held back must not stall the others.
  nghttp2_session_consume_connection(session_.get(), bytes);
  if (st != nullptr && st->streaming && st->response.size() - st->sent > max_unsent_stream_) {
    if (st->withheld == 0) withheld_.push_back(stream_id);
    st->withheld += bytes;
    return;
  }
  nghttp2_session_consume_stream(session_.get(), stream_id, bytes);
}

bool server_core::give_back_withheld() {
  bool given = false;
  std::erase_if(withheld_, [&](std::int32_t stream_id) {
    server_stream* st = callbacks::record(session_.get(), stream_id);
    if (st == nullptr) return true;  // closed: nghttp2 forgot its window
    if (st->response.size() - st->sent > max_unsent_stream_) return false;
    nghttp2_session_consume_stream(session_.get(), stream_id, st->withheld);
    st->withheld = 0;
    given = true;
    return true;
  });
  return given;
}

bool server_core::want_read() const { return nghttp2_session_want_read(session_.get()) != 0; }
bool server_core::want_write() const { return nghttp2_session_want_write(session_.get()) != 0; }

bool server_core::ping(gather_queue&) {
  return nghttp2_submit_ping(session_.get(), NGHTTP2_FLAG_NONE, nullptr) == 0;
}

void server_core::notice_shutdown() { nghttp2_submit_shutdown_notice(session_.get()); }

void server_core::go_away() {
  nghttp2_submit_goaway(session_.get(), NGHTTP2_FLAG_NONE,
                        nghttp2_session_get_last_proc_stream_id(session_.get()), NGHTTP2_NO_ERROR,
                        nullptr, 0);
}

server_stream* server_core::open_stream() {
  if (free_records_.empty()) {
    records_.push_back(make_stream());
    free_records_.push_back(records_.back().get());
  }
  server_stream* st = free_records_.back();
  free_records_.pop_back();
  ++open_streams_;
  return st;
}

void server_core::close_stream(server_stream* st) {
  if (st->answered) --responding_;
  st->reset();
  free_records_.push_back(st);
  --open_streams_;
}

bool server_core::admit_headers(std::int32_t stream_id) {
  // Even ids are the server's: nghttp2 already fails the connection for those.
  if (stream_id <= 0 || stream_id % 2 == 0) return true;
  if (stream_id > highest_opened_) {
    if (stream_id > highest_opened_ + 2) {  // the ids in between can never be opened now
      if (skipped_.size() == max_skipped_runs) skipped_.erase(skipped_.begin());
      skipped_.emplace_back(highest_opened_ + 2, stream_id - 2);
    }
    highest_opened_ = stream_id;
    return true;
  }
  // A lower id the client opened before (trailers, or a stream that has closed since) is
  // nghttp2's to judge: it answers STREAM_CLOSED while it remembers the stream, and ignores the
  // HEADERS after that, as a trailer racing our RST_STREAM deserves. Only a skipped id is an error.
  const auto run = std::upper_bound(skipped_.begin(), skipped_.end(), stream_id,
                                    [](std::int32_t id, const auto& r) { return id < r.first; });
  if (run == skipped_.begin() || stream_id > std::prev(run)->second) return true;
  nghttp2_session_terminate_session(session_.get(), NGHTTP2_PROTOCOL_ERROR);
  return false;
}

void server_core::hand_out_call(std::uint64_t key, std::string_view argument) {
  ended_.push_back({key, true, std::string(argument)});
}

void server_core::hand_out_answered(std::int32_t stream_id) {
  ended_.push_back({static_cast<std::uint64_t>(stream_id), false, {}});
}

server_stream* server_core::unanswered(std::uint64_t key) {
  server_stream* st = callbacks::record(session_.get(), static_cast<std::int32_t>(key));
  return st == nullptr || st->answered ? nullptr : st;
}

server_stream* server_core::open_record(std::int32_t stream_id) {
  return callbacks::record(session_.get(), stream_id);
}

void server_core::open_response(std::int32_t stream_id, server_stream& st,
                                std::span<const nghttp2_nv> headers) {
  nghttp2_data_provider body{};
  body.source.ptr = &st;  // the record outlives its DATA frames (reused only once closed)
  body.read_callback = &callbacks::read_body;
  nghttp2_submit_response(session_.get(), stream_id, headers.data(), headers.size(), &body);
}

void server_core::response_appended(std::int32_t stream_id, server_stream& st) {
  // What was sent goes once it is most of the buffer: the copy stays small, the buffer bounded.
  if (st.sent != 0 && st.sent * 2 >= st.response.size()) {
    st.response.erase(0, st.sent);
    st.sent = 0;
  }
  if (st.deferred) {
    st.deferred = false;
    nghttp2_session_resume_data(session_.get(), stream_id);
  }
}

void server_core::finish_response(std::int32_t stream_id, server_stream& st) {
  if (!st.answered) ++responding_;
  st.answered = st.finished = true;
  response_appended(stream_id, st);
}

void server_core::respond(std::int32_t stream_id, server_stream& st,
                          std::span<const nghttp2_nv> headers, bool with_body) {
  if (!st.answered) ++responding_;
  st.answered = true;
  if (!with_body) {  // the headers end the stream: no DATA frame
    nghttp2_submit_response(session_.get(), stream_id, headers.data(), headers.size(), nullptr);
    return;
  }
  nghttp2_data_provider body{};
  body.source.ptr = &st;  // the record outlives its DATA frames (reused only once closed)
  body.read_callback = &callbacks::read_body;
  nghttp2_submit_response(session_.get(), stream_id, headers.data(), headers.size(), &body);
}

}  // namespace wirebench::http2
