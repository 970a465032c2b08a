#pragma once
// What grpc_server_session keeps per request stream and per connection, shared by its unary part
// (grpc_server_session.cpp) and its streams (grpc_server_streams.cpp). Private to the two.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grpc_server_session.hpp"
#include "rpc_dialect.hpp"

namespace wirebench::grpc_wire {


// Which bidirectional method a streaming request is (none: a request taken whole).
enum class bidi_method : std::uint8_t { none, greet_stream, greet_batch, update, reflection };

struct grpc_server_session::grpc_stream : http2::server_stream {

  void reset() override {
    server_stream::reset();
    content_type.clear();
    for (std::string& value : values) value.clear();  // the slots keep their capacity
    dialect = nullptr;
    call = {};
    pending.clear();
    deadline.reset();
    kind = bidi_method::none;
    route = {};
    calls_out = 0;
    request_done = false;
    batch_size = 0;
  }
  // The request as its dialect reads it.
  rpc_request request() const {
    return {.method = method, .path = path, .content_type = content_type, .names = names,
            .values = values.data()};
  }

  std::string content_type;
  // The values of the headers dialects read, by read_header_names()'s index.
  std::span<const std::string_view> names = read_header_names();
  std::vector<std::string> values = std::vector<std::string>(names.size());
  const rpc_dialect* dialect = nullptr;  // set when the headers end (null: no dialect serves it)
  rpc_call call;                         // what the dialect read of the request
  std::string pending;  // a text dialect's bytes not yet decoded into `body`
  std::optional<std::chrono::steady_clock::time_point> deadline;  // from the call's timeout
  bidi_method kind = bidi_method::none;
  echo_service::route route;  // what its :path names, read when its headers end
  std::size_t calls_out = 0;  // calls handed out on this stream whose replies are owed
  bool request_done = false;  // the client has ended its side
  // A batch stream's replies not yet in a message: the first batch_size entries (their strings'
  // capacity kept for the next batch).
  std::vector<std::pair<std::uint64_t, std::string>> batch;
  std::size_t batch_size = 0;
};


}  // namespace wirebench::grpc_wire
