#pragma once
// What the Echo service answers, whichever server engine carries it. Each returns how many greet
// requests it answered (the server's request count; 0 for the Echo shapes).
#include <algorithm>
#include <deque>
#include <string>

#include "proto/echo.pb.h"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_backend {

namespace pb = wirebench::echo;

inline std::size_t answer(const pb::EchoRequest& in, pb::EchoResponse& out) {
  out.set_text(in.text());
  return 0;
}

inline std::size_t answer(const pb::GreetRequest& in, pb::GreetReply& out) {
  out.set_id(in.id());
  out.set_greeting(expected_greeting(in.name()));
  return 1;
}

inline std::size_t answer(const pb::GreetBatch& in, pb::GreetReplyBatch& out) {
  for (const pb::GreetRequest& r : in.requests()) answer(r, *out.add_replies());
  return static_cast<std::size_t>(in.requests_size());
}

// Expand's replies: one per space-separated word.
inline std::deque<pb::EchoResponse> split_words(const std::string& text) {
  std::deque<pb::EchoResponse> words;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) words.emplace_back().set_text(text.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// A bidirectional stream keeps at most this many replies queued before it stops reading, so a
// client that never reads its replies cannot make the server buffer without bound.
inline constexpr std::size_t max_queued_replies = 256;

}  // namespace wirebench::grpc_backend
