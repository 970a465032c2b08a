// mux_server (the request dispatcher under the mux codec) and cancel frames, byte for byte over a
// raw socket: a cancel drops the reply of a call still running, and only of one still running.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "support/raw_socket.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/mux/mux_session.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

std::string frame(mux_frame_type type, std::uint32_t id, std::string_view payload = {}) {
  encoded_frame f;
  EXPECT_FALSE(encode_mux_frame(type, id, as_bytes(payload), SIZE_MAX, f));
  std::string bytes;
  for (const auto part : f.buffers()) bytes += as_text(part);
  return bytes;
}

// A server whose calls named "slow" hold a worker for 300 ms; the others answer at once.
std::unique_ptr<mux_server> slow_and_fast_server() {
  session_server_config sc;
  sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  sc.workers = 2;
  mux_session::settings s;
  s.dispatch.handler = [](std::string_view request, std::error_code&) {
    if (request == "slow") std::this_thread::sleep_for(300ms);
    return "hello, " + std::string(request);
  };
  return std::make_unique<mux_server>(sc, s);
}

TEST(mux_server, a_cancel_drops_the_reply_of_a_running_call) {
  auto server = slow_and_fast_server();
  test::raw_socket peer(server->local_endpoint());
  ASSERT_TRUE(peer.send_all(frame(mux_frame_type::request, 1, "slow") +
                            frame(mux_frame_type::cancel, 1) +
                            frame(mux_frame_type::request, 2, "fast")));
  const std::string fast = frame(mux_frame_type::reply, 2, "hello, fast");
  EXPECT_EQ(peer.read_for(5s, fast.size()), fast);
  EXPECT_EQ(peer.read_for(600ms), "") << "the canceled call's reply was sent";
}

// The client may use an id again once its reply has come (docs/PROTOCOLS.md): a cancel that
// crossed that reply must not drop the next call's, even while another call runs. Nor are
// cancels for ids never sent kept.
TEST(mux_server, a_cancel_for_a_call_no_longer_running_drops_no_later_reply) {
  auto server = slow_and_fast_server();
  test::raw_socket peer(server->local_endpoint());
  ASSERT_TRUE(peer.send_all(frame(mux_frame_type::request, 1, "slow") +
                            frame(mux_frame_type::request, 2, "fast")));
  const std::string fast = frame(mux_frame_type::reply, 2, "hello, fast");
  ASSERT_EQ(peer.read_for(5s, fast.size()), fast);
  std::string cancels;
  for (std::uint32_t id = 2; id < 1000; ++id) cancels += frame(mux_frame_type::cancel, id);
  ASSERT_TRUE(peer.send_all(cancels + frame(mux_frame_type::request, 2, "again") +
                            frame(mux_frame_type::request, 3, "third")));
  const std::string replies = frame(mux_frame_type::reply, 2, "hello, again") +
                              frame(mux_frame_type::reply, 3, "hello, third");
  const std::string slow = frame(mux_frame_type::reply, 1, "hello, slow");
  std::string got = peer.read_for(5s, replies.size() + slow.size());
  // "again" and "third" run on the second worker: in either order, all before or after the slow
  // reply as the workers' timing has it; every one arrives.
  ASSERT_EQ(got.size(), replies.size() + slow.size()) << "bytes read";
  for (const std::string& want : {frame(mux_frame_type::reply, 2, "hello, again"),
                                  frame(mux_frame_type::reply, 3, "hello, third"), slow})
    EXPECT_NE(got.find(want), std::string::npos) << want.size() << "-byte reply missing";
}

}  // namespace
}  // namespace wirebench
