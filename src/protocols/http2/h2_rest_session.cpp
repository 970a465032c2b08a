#include "h2_rest_session.hpp"

#include <charconv>

#include "../http/http_date.hpp"

namespace wirebench::http2 {

void rest_session::encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue&) {
  server_stream* st = unanswered(key);
  if (st == nullptr) return;  // reset by the client while the call was out
  answer_.send_body = st->method != "HEAD";
  http::call_response(ok, body, answer_);
  respond_with(static_cast<std::int32_t>(key), *st, answer_);
}

void rest_session::request_ended(std::int32_t stream_id, server_stream& st) {
  if (http::greet_call(st.method, st.path, st.body, max_body(), decoded_name_, answer_)) {
    hand_out_call(stream_id, decoded_name_);
    return;
  }
  respond_with(stream_id, st, answer_);  // the refusal: 404, 405, 400
  hand_out_answered(stream_id);
}

void rest_session::body_too_large(std::int32_t stream_id, server_stream& st) {
  answer_.status = 413;
  answer_.body.assign("{\"error\":\"body too large\"}");
  answer_.send_body = true;
  respond_with(stream_id, st, answer_);
}

void rest_session::respond_with(std::int32_t stream_id, server_stream& st,
                                const http::api_response& answer) {
  char status[8], length[24];  // nghttp2 copies header values (NGHTTP2_NV_FLAG_NONE)
  const nghttp2_nv headers[] = {
      header(":status", {status, std::to_chars(status, status + sizeof status, answer.status).ptr}),
      header("content-type", "application/json"),
      header("content-length",
             {length, std::to_chars(length, length + sizeof length, answer.body.size()).ptr}),
      header("date", http::http_date()),
      header("allow", http::allowed_methods)};
  const std::size_t count = answer.status == 405 ? 5 : 4;
  if (answer.send_body) st.response.assign(answer.body);
  respond(stream_id, st, {headers, count}, answer.send_body);
}

}  // namespace wirebench::http2
