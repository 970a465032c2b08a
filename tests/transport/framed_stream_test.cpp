// framed_stream (transport/framed_stream.hpp) over TCP loopback: frames both ways with
// coroutines and TCP_NODELAY set; the read timeout (errc::read_timeout, the partial frame kept),
// the write timeout (the stream closed), the caller's cancellation, a stream type whose default
// token is use_awaitable; and frame_dynamic_buffer: asio::async_read_until into the same buffer
// the frames are then decoded from.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read_until.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <gtest/gtest.h>

#include "support/cancel_waiting_operation.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/core/error_condition.hpp"
#include "wirebench/transport/frame_dynamic_buffer.hpp"
#include "wirebench/transport/framed_stream.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using tcp = asio::ip::tcp;
using line_stream = framed_stream<line_decoder, line_encoder>;

// Two connected TCP sockets on 127.0.0.1, on one io_context.
struct tcp_pair {
  asio::io_context ctx;
  tcp::socket a{ctx}, b{ctx};
  tcp_pair() {
    tcp::acceptor acceptor(ctx, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    a.connect(acceptor.local_endpoint());
    acceptor.accept(b);
  }
  // Runs `body` as a coroutine on ctx to its end; its exception, if any, fails the test.
  template <class F>
  void run(F body) {
    asio::co_spawn(ctx, body(), [](std::exception_ptr e) { if (e) std::rethrow_exception(e); });
    ctx.run();
  }
};

TEST(framed_stream, frames_go_both_ways_with_no_delay_set) {
  tcp_pair p;
  line_stream client(std::move(p.a)), server(std::move(p.b));
  tcp::no_delay option;
  client.next_layer().get_option(option);
  EXPECT_TRUE(option.value());
  std::vector<std::string> replies;
  p.run([&]() -> asio::awaitable<void> {
    for (int i = 0; i < 200; ++i) {
      co_await client.async_write_frame("n" + std::to_string(i), asio::use_awaitable);
      const auto request = co_await server.async_read_frame(asio::use_awaitable);
      const std::string reply = "hello, " + std::string(as_text(request));
      co_await server.async_write_frame(reply, asio::use_awaitable);
      replies.emplace_back(as_text(co_await client.async_read_frame(asio::use_awaitable)));
    }
  });
  ASSERT_EQ(replies.size(), 200u);
  EXPECT_EQ(replies.front(), "hello, n0");
  EXPECT_EQ(replies.back(), "hello, n199");
}

TEST(framed_stream, a_read_timeout_keeps_the_partial_frame_and_the_stream_goes_on) {
  tcp_pair p;
  line_stream ours(std::move(p.a));
  ours.set_read_timeout(50ms);
  asio::write(p.b, asio::buffer(std::string_view("par")));
  std::optional<std::error_code> first;
  std::string second;
  p.run([&]() -> asio::awaitable<void> {
    try {
      co_await ours.async_read_frame(asio::use_awaitable);
    } catch (const std::system_error& e) {
      first = e.code();
    }
    asio::write(p.b, asio::buffer(std::string_view("t\n")));
    second = as_text(co_await ours.async_read_frame(asio::use_awaitable));
  });
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, errc::read_timeout);
  EXPECT_EQ(*first, std::errc::timed_out);
  EXPECT_EQ(*first, condition::timed_out);
  EXPECT_EQ(second, "part");
}

TEST(framed_stream, a_write_the_peer_does_not_take_times_out_and_closes_the_stream) {
  tcp_pair p;
  using big_stream = framed_stream<length_prefix_decoder, length_prefix_encoder>;
  big_stream ours(std::move(p.a), length_prefix_decoder(),
                  length_prefix_encoder({.header_bytes = 4, .max_frame_bytes = 64 << 20}));
  ours.set_write_timeout(100ms);
  const std::string big(32 << 20, 'x');  // more than the kernel's buffers on both sides
  std::optional<std::error_code> got;
  ours.async_write_frame(as_bytes(big), [&](std::error_code ec, std::size_t) { got = ec; });
  p.ctx.run();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, errc::write_timeout);
  EXPECT_EQ(*got, std::errc::timed_out);
  EXPECT_FALSE(ours.next_layer().is_open());
}

TEST(framed_stream, the_callers_cancellation_reaches_the_read) {
  tcp_pair p;
  line_stream ours(std::move(p.a));
  ours.set_read_timeout(10s);  // not reached: the caller cancels first
  asio::cancellation_signal cancel;
  std::optional<std::error_code> got;
  ours.async_read_frame(asio::bind_cancellation_slot(
      cancel.slot(), [&](std::error_code ec, std::span<const std::byte>) { got = ec; }));
  test::expect_canceled_while_waiting(p.ctx, cancel, asio::cancellation_type::partial, got);
}

// A stream whose executor's default token is use_awaitable: no token needed, as with Asio's own.
TEST(framed_stream, a_default_token_stream_needs_none) {
  tcp_pair p;
  using awaitable_socket = asio::use_awaitable_t<>::as_default_on_t<tcp::socket>;
  framed_stream<line_decoder, line_encoder, awaitable_socket> client(awaitable_socket(std::move(p.a)));
  framed_stream<line_decoder, line_encoder, awaitable_socket> server(awaitable_socket(std::move(p.b)));
  std::string got;
  p.run([&]() -> asio::awaitable<void> {
    co_await client.async_write_frame("ann");
    got = as_text(co_await server.async_read_frame());
  });
  EXPECT_EQ(got, "ann");
}

// A header line read with asio::async_read_until through the DynamicBuffer view, then the frames
// that came in the same segment decoded from the same buffer.
TEST(frame_dynamic_buffer, asio_reads_a_header_then_frames_follow_from_the_same_bytes) {
  tcp_pair p;
  line_stream ours(std::move(p.a));
  asio::write(p.b, asio::buffer(std::string_view("HELLO wirebench\r\nann\nbob\n")));
  std::string header;
  std::vector<std::string> frames;
  p.run([&]() -> asio::awaitable<void> {
    const std::size_t n = co_await asio::async_read_until(
        ours.next_layer(), dynamic_buffer(ours.buffer()), "\r\n", asio::use_awaitable);
    header = as_text(ours.buffer().data().first(n - 2));
    ours.buffer().consume(n);
    frames.emplace_back(as_text(co_await ours.async_read_frame(asio::use_awaitable)));
    frames.emplace_back(as_text(co_await ours.async_read_frame(asio::use_awaitable)));
  });
  EXPECT_EQ(header, "HELLO wirebench");
  EXPECT_EQ(frames, (std::vector<std::string>{"ann", "bob"}));
}

// Past the buffer's limit the DynamicBuffer refuses to grow, and async_read_until says not_found.
TEST(frame_dynamic_buffer, a_header_over_the_limit_is_refused) {
  tcp_pair p;
  frame_buffer buffer(64, 16);
  asio::write(p.b, asio::buffer(std::string(200, 'h')));
  std::optional<std::error_code> got;
  asio::async_read_until(p.a, dynamic_buffer(buffer), "\r\n",
                         [&](std::error_code ec, std::size_t) { got = ec; });
  p.ctx.run();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, asio::error::not_found);
  EXPECT_LE(buffer.size(), 64u);
}

}  // namespace
}  // namespace wirebench
