#pragma once
// Hand-made gRPC requests for tests of our gRPC server session (in ../protocols): messages with
// their 5-byte prefix, a request's HEADERS, and the frames a session answers with.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "h2_frames.hpp"
#include "proto/echo.pb.h"

namespace wirebench::test::grpc_frames {

using namespace test::h2;

// A gRPC message: the flag, the 4-byte length, the bytes.
inline std::string message(std::string_view bytes, char flag = 0) {
  std::string m(1, flag);
  put32(m, static_cast<std::uint32_t>(bytes.size()));
  return m.append(bytes);
}
inline std::string greet_message(const std::string& name, std::uint64_t id = 0) {
  ::wirebench::echo::GreetRequest r;
  r.set_id(id);
  r.set_name(name);
  return message(r.SerializeAsString());
}
inline std::string echo_message(const std::string& text) {
  ::wirebench::echo::EchoRequest r;
  r.set_text(text);
  return message(r.SerializeAsString());
}

struct request_headers {
  std::string_view path = "/wirebench.echo.Echo/Greet";
  std::string_view content_type = "application/grpc";
  std::string_view extra_name = {}, extra_value = {};  // one more header, when named
  bool post = true;
};

// The request's HEADERS frame, without END_STREAM: DATA frames follow.
inline std::string request(std::uint32_t stream_id, const request_headers& h) {
  // :method POST (static 3) or GET (2), :scheme http (6), :path (name 4), :authority (name 1),
  // content-type (name 31), te: trailers
  std::string block = h.post ? "\x83\x86" : "\x82\x86";
  block += literal(4, h.path) + literal(1, "localhost") + literal(31, h.content_type) +
           literal("te", "trailers");
  if (!h.extra_name.empty()) block += literal(h.extra_name, h.extra_value);
  return frame(type_headers, end_headers, stream_id, block);
}

// HEADERS then the body in one DATA frame that ends the stream.
inline std::string call(std::uint32_t stream_id, const request_headers& h, std::string_view body) {
  return request(stream_id, h) + frame(type_data, end_stream, stream_id, body);
}

// Everything the session says after a read of `input` (its SETTINGS included), as frames.
template <class Session>
std::vector<parsed_frame> respond_to(Session& s, const std::string& input) {
  EXPECT_FALSE(s.read(opening() + input));
  std::string out;
  EXPECT_FALSE(s.output(out));
  return frames_of(out);
}

// The frames on `stream_id`, in order.
inline std::vector<parsed_frame> on_stream(const std::vector<parsed_frame>& frames,
                                           std::uint32_t id) {
  std::vector<parsed_frame> mine;
  for (const parsed_frame& f : frames)
    if (f.stream_id == id) mine.push_back(f);
  return mine;
}

}  // namespace wirebench::test::grpc_frames
