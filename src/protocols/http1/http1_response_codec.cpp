#include "http1_response_codec.hpp"

namespace wirebench::http1 {

void response_codec::begin_decode() {
  parser_.release();  // the bodies handed out by the last decode are done with
  replies_read();
}

std::size_t response_codec::decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                                   std::error_code& error) {
  begin_decode();
  if (closing_) return data.size();  // after a response that closes: not a response to anything
  parser_.feed(data);
  take_responses(into, error);
  if (!error && !closing_)
    if (const message* m = parser_.arriving()) error = judge_arriving(*m);
  return data.size();  // the parser copies what it keeps
}

void response_codec::end_of_stream(bool clean, decoded& into) {
  begin_decode();
  if (closing_) return;  // the calls behind the closing response went back already
  if (!parser_.mid_message()) {
    into.rest_not_processed = idempotent_;
    return;
  }
  std::error_code ignored;  // finish() true: no error is behind the message it completed
  if (clean && parser_.finish()) take_responses(into, ignored);
}

// The parser's complete responses as replies, up to one that ends the connection.
void response_codec::take_responses(decoded& into, std::error_code& error) {
  while (message* m = parser_.next(error)) {
    if ((error = judge_arriving(*m))) return;
    into.replies.push_back(reply_to(*m));
    if (!m->keep_alive) {  // the server closes after this response: nothing behind it was read
      into.going_away = true;
      into.rest_not_processed = true;
      // Whatever follows is ignored, however it is cut into reads (llhttp calls it an error).
      closing_ = true;
      closing();
      break;
    }
  }
}

}  // namespace wirebench::http1
