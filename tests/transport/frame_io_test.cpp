// async_read_frame / async_write_frame on plain Asio streams: every kind of completion token
// (callback, use_awaitable, use_future, deferred), every error (oversize in both policies,
// corrupt, EOF inside and between frames, canceled, timed out), frames split at every byte,
// completions never inside the initiating call, buffered frames without a read, and the
// handler's own executor.
#include <array>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <asio/bind_allocator.hpp>
#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/experimental/deferred.hpp>
#include <asio/io_context.hpp>
#include <asio/local/connect_pair.hpp>
#include <asio/local/stream_protocol.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/use_future.hpp>
#include <asio/write.hpp>
#include <gtest/gtest.h>
#include <unistd.h>

#include "support/cancel_waiting_operation.hpp"
#include "support/counting_allocator.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"
#include "wirebench/transport/async_read_frame.hpp"
#include "wirebench/transport/async_write_frame.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using socket_type = asio::local::stream_protocol::socket;

// A connected pair of Unix stream sockets on one io_context: `ours` is read, `peer` is written.
struct socket_pair {
  asio::io_context ctx;
  socket_type ours{ctx}, peer{ctx};
  socket_pair() { asio::local::connect_pair(ours, peer); }
  void peer_writes(std::string_view bytes) { asio::write(peer, asio::buffer(bytes.data(), bytes.size())); }
};

// What one read completed with, the frame copied out.
struct read_result {
  std::error_code ec;
  std::string frame;
};

template <class Decoder>
read_result read_one(socket_pair& p, frame_buffer& buffer, Decoder& decoder) {
  std::optional<read_result> got;
  bool initiated = false;
  async_read_frame(p.ours, buffer, decoder, [&](std::error_code ec, std::span<const std::byte> f) {
    EXPECT_TRUE(initiated) << "completed inside the initiating call";
    got = read_result{ec, std::string(as_text(f))};
  });
  initiated = true;
  p.ctx.restart();
  p.ctx.run();
  EXPECT_TRUE(got.has_value());
  return got.value_or(read_result{});
}

TEST(async_read_frame, callbacks_read_each_frame_of_one_write_in_turn) {
  socket_pair p;
  line_decoder decoder;
  frame_buffer buffer;
  p.peer_writes("one\ntwo\r\nthree\n");
  for (const char* want : {"one", "two", "three"}) {
    const read_result r = read_one(p, buffer, decoder);
    EXPECT_FALSE(r.ec) << r.ec.message();
    EXPECT_EQ(r.frame, want);
  }
}

TEST(async_read_frame, frames_split_at_every_byte_arrive_whole) {
  socket_pair p;
  length_prefix_decoder decoder;
  frame_buffer buffer(64, 1);  // starts at one byte: every frame makes it grow
  const std::string wire = std::string("\0\0\0\5hello\0\0\0\0\0\0\0\3abc", 20);
  // A writer thread sends one byte at a time, each a separate write the reader must wait for.
  std::thread writer([fd = p.peer.native_handle(), &wire] {
    for (char c : wire) {
      EXPECT_EQ(::write(fd, &c, 1), 1);
      std::this_thread::sleep_for(1ms);
    }
  });
  std::vector<std::string> frames;
  for (int i = 0; i < 3; ++i) {
    const read_result r = read_one(p, buffer, decoder);
    EXPECT_FALSE(r.ec) << r.ec.message();
    frames.push_back(r.frame);
  }
  writer.join();
  EXPECT_EQ(frames, (std::vector<std::string>{"hello", "", "abc"}));
}

TEST(async_read_frame, coroutines_read_and_write_frames) {
  socket_pair p;
  std::vector<std::string> got;
  auto reader = [&]() -> asio::awaitable<void> {
    length_prefix_decoder decoder;
    frame_buffer buffer;
    for (int i = 0; i < 3; ++i) {
      const auto frame = co_await async_read_frame(p.ours, buffer, decoder, asio::use_awaitable);
      got.emplace_back(as_text(frame));
    }
    try {
      co_await async_read_frame(p.ours, buffer, decoder, asio::use_awaitable);
      ADD_FAILURE() << "a read after the peer closed completed";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), errc::peer_closed);
    }
  };
  auto writer = [&]() -> asio::awaitable<void> {
    const length_prefix_encoder encoder;
    encoded_frame frame;
    for (std::string_view text : {"alpha", "", "gamma"}) {
      const std::size_t n = co_await async_write_frame(p.peer, encoder, as_bytes(text), frame,
                                                       asio::use_awaitable);
      EXPECT_EQ(n, 4 + text.size());
    }
    p.peer.close();
  };
  asio::co_spawn(p.ctx, reader(), asio::detached);
  asio::co_spawn(p.ctx, writer(), asio::detached);
  p.ctx.run();
  EXPECT_EQ(got, (std::vector<std::string>{"alpha", "", "gamma"}));
}

TEST(async_read_frame, a_future_and_a_deferred_operation) {
  socket_pair p;
  line_decoder decoder;
  frame_buffer buffer;
  p.peer_writes("first\nsecond\n");
  auto work = asio::make_work_guard(p.ctx);
  std::thread loop([&] { p.ctx.run(); });
  std::future<std::span<const std::byte>> future =
      async_read_frame(p.ours, buffer, decoder, asio::use_future);
  EXPECT_EQ(as_text(future.get()), "first");
  // Deferred: nothing starts until the operation is invoked with a token.
  auto deferred = async_read_frame(p.ours, buffer, decoder, asio::experimental::deferred);
  std::promise<std::string> second;
  std::move(deferred)([&](std::error_code ec, std::span<const std::byte> f) {
    second.set_value(ec ? ec.message() : std::string(as_text(f)));
  });
  EXPECT_EQ(second.get_future().get(), "second");
  work.reset();
  loop.join();
}

TEST(async_read_frame, over_the_limit_fails_for_good_or_resyncs_by_policy) {
  {  // fail: the stream is lost, and every later read says so
    socket_pair p;
    length_prefix_decoder decoder({.header_bytes = 4, .max_frame_bytes = 8});
    frame_buffer buffer(64);
    p.peer_writes(std::string("\0\0\0\x64", 4));  // declares 100 bytes: refused from the header
    EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
    EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
  }
  {  // resync: that frame is dropped, the next one is read
    socket_pair p;
    line_decoder decoder({.max_line_bytes = 4, .strip_cr = true, .on_oversize = oversize_policy::resync});
    frame_buffer buffer(64);
    p.peer_writes("much too long\nok\n");
    EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
    const read_result next = read_one(p, buffer, decoder);
    EXPECT_FALSE(next.ec) << next.ec.message();
    EXPECT_EQ(next.frame, "ok");
  }
  {  // a buffer smaller than the decoder's limit: the buffer's limit is the frame's
    socket_pair p;
    line_decoder decoder;
    frame_buffer buffer(8, 4);
    p.peer_writes("0123456789\n");
    EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
  }
}

TEST(async_read_frame, corrupt_bytes_and_the_end_of_the_stream) {
  {
    socket_pair p;
    length_prefix_decoder decoder({.header_bytes = 8, .max_frame_bytes = 1 << 20});
    frame_buffer buffer;
    p.peer_writes(std::string("\x80\0\0\0\0\0\0\0", 8));  // 2^63: no such length
    EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::corrupt_frame);
  }
  // The stream ends inside a frame, or between frames.
  for (const auto& [bytes, want] : {std::pair<std::string, errc>{"whole\npart", errc::truncated_frame},
                                    std::pair<std::string, errc>{"whole\n", errc::peer_closed}}) {
    socket_pair p;
    line_decoder decoder;
    frame_buffer buffer;
    p.peer_writes(bytes);
    p.peer.close();
    EXPECT_EQ(read_one(p, buffer, decoder).frame, "whole");
    EXPECT_EQ(read_one(p, buffer, decoder).ec, want) << bytes;
  }
}

// Terminal, partial and total cancellation each reach the stream's read; part of a frame read
// before it is kept, and the stream goes on.
TEST(async_read_frame, a_cancellation_slot_cancels_the_read_and_the_stream_goes_on) {
  for (const auto type : {asio::cancellation_type::terminal, asio::cancellation_type::partial,
                          asio::cancellation_type::total}) {
    socket_pair p;
    line_decoder decoder;
    frame_buffer buffer;
    asio::cancellation_signal cancel;
    std::optional<std::error_code> got;
    p.peer_writes("par");  // part of a frame: the canceled read keeps it
    async_read_frame(p.ours, buffer, decoder,
                     asio::bind_cancellation_slot(cancel.slot(), [&](std::error_code ec, auto) { got = ec; }));
    test::expect_canceled_while_waiting(p.ctx, cancel, type, got);
    p.peer_writes("t\n");
    EXPECT_EQ(read_one(p, buffer, decoder).frame, "part");
  }
}

TEST(async_read_frame, a_timer_racing_the_read_times_it_out) {
  using namespace asio::experimental::awaitable_operators;
  socket_pair p;
  line_decoder decoder;
  frame_buffer buffer;
  bool timed_out = false;
  std::string after;
  auto reader = [&]() -> asio::awaitable<void> {
    asio::steady_timer timer(p.ctx, 20ms);
    auto first = co_await (async_read_frame(p.ours, buffer, decoder, asio::use_awaitable) ||
                           timer.async_wait(asio::use_awaitable));
    timed_out = first.index() == 1;
    p.peer_writes("late\n");
    after = as_text(co_await async_read_frame(p.ours, buffer, decoder, asio::use_awaitable));
  };
  asio::co_spawn(p.ctx, reader(), asio::detached);
  p.ctx.run();
  EXPECT_TRUE(timed_out);
  EXPECT_EQ(after, "late");
}

// Reads with the coroutine form until it throws; returns the code. With `cancel`, the coroutine
// is bound to it and canceled once its read waits.
template <class Decoder>
std::error_code coroutine_error(socket_pair& p, frame_buffer& buffer, Decoder& decoder,
                                asio::cancellation_signal* cancel = nullptr) {
  std::error_code got;
  auto reader = [&]() -> asio::awaitable<void> {
    try {
      for (;;) co_await async_read_frame(p.ours, buffer, decoder, asio::use_awaitable);
    } catch (const std::system_error& e) {
      got = e.code();
    }
  };
  if (cancel == nullptr) {
    asio::co_spawn(p.ctx, reader(), asio::detached);
  } else {
    asio::co_spawn(p.ctx, reader(), asio::bind_cancellation_slot(cancel->slot(), asio::detached));
    p.ctx.poll();
    cancel->emit(asio::cancellation_type::terminal);
  }
  p.ctx.run();
  return got;
}

// The coroutine form is written apart (no composed operation): each error, the same code.
TEST(async_read_frame, the_coroutine_form_fails_as_the_callback_form_does) {
  struct scenario {
    std::string bytes;
    bool close;
    std::error_code want;
  };
  const scenario scenarios[] = {
      {std::string("\0\0\0\x64", 4), false, errc::frame_too_long},
      {std::string("\x80\0\0\0", 4), false, errc::frame_too_long},
      {std::string("\0\0\0\5ab", 6), true, errc::truncated_frame},
      {std::string("\0\0\0\2ab", 6), true, errc::peer_closed},  // after the frame "ab"
  };
  for (const scenario& sc : scenarios) {
    for (const bool coroutine : {false, true}) {
      socket_pair p;
      length_prefix_decoder decoder({.header_bytes = 4, .max_frame_bytes = 8});
      frame_buffer buffer(64);
      p.peer_writes(sc.bytes);
      if (sc.close) p.peer.close();
      std::error_code got;
      if (coroutine) {
        got = coroutine_error(p, buffer, decoder);
      } else {
        for (read_result r; !(r = read_one(p, buffer, decoder)).ec;) {}
        got = read_one(p, buffer, decoder).ec;  // sticky, or the end again
      }
      EXPECT_EQ(got, sc.want) << (coroutine ? "coroutine " : "callback ") << got.message();
    }
  }
  {  // corrupt: an 8-byte length of 2^63
    socket_pair p;
    length_prefix_decoder decoder({.header_bytes = 8, .max_frame_bytes = 1 << 20});
    frame_buffer buffer;
    p.peer_writes(std::string("\x80\0\0\0\0\0\0\0", 8));
    EXPECT_EQ(coroutine_error(p, buffer, decoder), errc::corrupt_frame);
  }
}

// Cancellation reaches the coroutine form's read through the coroutine's cancellation state.
TEST(async_read_frame, the_coroutine_form_is_canceled_through_the_coroutine) {
  socket_pair p;
  line_decoder decoder;
  frame_buffer buffer;
  asio::cancellation_signal cancel;
  const std::error_code got = coroutine_error(p, buffer, decoder, &cancel);
  EXPECT_EQ(got, errc::canceled);
  EXPECT_EQ(got, std::errc::operation_canceled);
}

}  // namespace

// The socket, counting its reads: a frame already in the buffer must come without one. Outside
// the unnamed namespace: the library's coroutine frames hold it, and GCC warns of a header's
// template holding a file-local type once a unity build includes this file (-Wsubobject-linkage).
struct counting_stream {
  socket_type& socket;
  int reads = 0;
  using executor_type = socket_type::executor_type;
  executor_type get_executor() { return socket.get_executor(); }
  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    ++reads;
    return socket.async_read_some(buffers, std::forward<Token>(token));
  }
};

namespace {

// One write brings two frames: the second is in the buffer when its read starts, and every
// token gets it with no read of the stream (posted, or for use_awaitable without suspending).
TEST(async_read_frame, a_buffered_frame_comes_without_a_read_under_every_token) {
  auto with_two_frames_buffered = [](const char* token, auto read_second) {
    SCOPED_TRACE(token);
    socket_pair p;
    counting_stream stream{p.ours};
    line_decoder decoder;
    frame_buffer buffer;
    p.peer_writes("first\nsecond\n");
    std::string first;
    async_read_frame(stream, buffer, decoder,
                     [&](std::error_code, std::span<const std::byte> f) { first = as_text(f); });
    p.ctx.run();
    EXPECT_EQ(first, "first");
    EXPECT_EQ(stream.reads, 1);
    p.ctx.restart();
    EXPECT_EQ(read_second(p, stream, buffer, decoder), "second");
    EXPECT_EQ(stream.reads, 1) << "the buffered frame cost a read";
  };
  with_two_frames_buffered("callback", [](socket_pair& p, counting_stream& s, frame_buffer& b, line_decoder& d) {
    std::string got;
    bool initiated = false;
    async_read_frame(s, b, d, [&](std::error_code ec, std::span<const std::byte> f) {
      EXPECT_TRUE(initiated) << "completed inside the initiating call";
      EXPECT_FALSE(ec);
      got = as_text(f);
    });
    initiated = true;
    p.ctx.run();
    return got;
  });
  with_two_frames_buffered("use_awaitable", [](socket_pair& p, counting_stream& s, frame_buffer& b, line_decoder& d) {
    std::string got;
    auto reader = [&]() -> asio::awaitable<void> {
      // A handler posted before the read would run first if the read suspended through the
      // context: a buffered frame is returned without suspending.
      bool posted_ran = false;
      asio::post(p.ctx, [&] { posted_ran = true; });
      got = as_text(co_await async_read_frame(s, b, d, asio::use_awaitable));
      EXPECT_FALSE(posted_ran) << "the coroutine suspended for a buffered frame";
    };
    asio::co_spawn(p.ctx, reader(), asio::detached);
    p.ctx.run();
    return got;
  });
  with_two_frames_buffered("as_tuple(use_awaitable)", [](socket_pair& p, counting_stream& s, frame_buffer& b, line_decoder& d) {
    std::string got;
    auto reader = [&]() -> asio::awaitable<void> {
      auto [ec, f] = co_await async_read_frame(s, b, d, asio::experimental::as_tuple(asio::use_awaitable));
      EXPECT_FALSE(ec);
      got = as_text(f);
    };
    asio::co_spawn(p.ctx, reader(), asio::detached);
    p.ctx.run();
    return got;
  });
  with_two_frames_buffered("use_future", [](socket_pair& p, counting_stream& s, frame_buffer& b, line_decoder& d) {
    auto work = asio::make_work_guard(p.ctx);
    std::thread loop([&] { p.ctx.run(); });
    std::future<std::span<const std::byte>> future = async_read_frame(s, b, d, asio::use_future);
    std::string got(as_text(future.get()));
    work.reset();
    loop.join();
    return got;
  });
  with_two_frames_buffered("deferred", [](socket_pair& p, counting_stream& s, frame_buffer& b, line_decoder& d) {
    std::string got;
    auto deferred = async_read_frame(s, b, d, asio::experimental::deferred);
    p.ctx.poll();
    EXPECT_TRUE(got.empty()) << "a deferred operation started before it was invoked";
    std::move(deferred)([&](std::error_code, std::span<const std::byte> f) { got = as_text(f); });
    p.ctx.restart();  // poll() ran out of work, which stops the context
    p.ctx.run();
    return got;
  });
}

// A decoder that failed for good fails every later read from the buffer, with no read: in the
// coroutine form too, where the error is thrown without suspending.
TEST(async_read_frame, a_lost_stream_fails_again_without_a_read) {
  socket_pair p;
  counting_stream stream{p.ours};
  length_prefix_decoder decoder({.header_bytes = 4, .max_frame_bytes = 8});
  frame_buffer buffer(64);
  p.peer_writes(std::string("\0\0\0\x64", 4));
  EXPECT_EQ(coroutine_error(p, buffer, decoder), errc::frame_too_long);
  std::vector<std::error_code> again;
  auto reader = [&]() -> asio::awaitable<void> {
    for (int i = 0; i < 2; ++i) {
      try {
        co_await async_read_frame(stream, buffer, decoder, asio::use_awaitable);
      } catch (const std::system_error& e) {
        again.push_back(e.code());
      }
    }
  };
  p.ctx.restart();
  asio::co_spawn(p.ctx, reader(), asio::detached);
  p.ctx.run();
  EXPECT_EQ(again, (std::vector<std::error_code>{errc::frame_too_long, errc::frame_too_long}));
  EXPECT_EQ(stream.reads, 0);
}

// A buffer full at its limit with no frame: the first read fails after reading, the next one
// before reading; neither completes inside the initiating call.
TEST(async_read_frame, a_full_buffer_fails_before_and_after_a_read) {
  socket_pair p;
  line_decoder decoder;
  frame_buffer buffer(8, 8);
  p.peer_writes("01234567");
  EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
  EXPECT_EQ(read_one(p, buffer, decoder).ec, errc::frame_too_long);
}

// The handler's own executor (here another io_context, on its own thread) runs it, whether the
// frame needed a read or came posted from the buffer; the stream's context only reads.
TEST(async_read_frame, the_handler_runs_on_its_own_executor) {
  socket_pair p;
  asio::io_context elsewhere;
  auto work = asio::make_work_guard(elsewhere);
  std::thread elsewhere_thread([&] { elsewhere.run(); });
  line_decoder decoder;
  frame_buffer buffer;
  p.peer_writes("one\ntwo\n");
  for (const char* want : {"one", "two"}) {  // "two" is in the buffer already
    std::promise<std::string> got;
    async_read_frame(p.ours, buffer, decoder,
                     asio::bind_executor(elsewhere, [&](std::error_code ec, std::span<const std::byte> f) {
                       EXPECT_FALSE(ec);
                       EXPECT_TRUE(elsewhere.get_executor().running_in_this_thread());
                       got.set_value(std::string(as_text(f)));
                     }));
    p.ctx.restart();
    p.ctx.run();
    EXPECT_EQ(got.get_future().get(), want);
  }
  work.reset();
  elsewhere_thread.join();
}

TEST(async_write_frame, an_encoder_error_completes_without_writing_and_not_inline) {
  socket_pair p;
  const line_encoder encoder({.max_line_bytes = 4});
  encoded_frame frame;
  std::optional<std::error_code> got;
  bool initiated = false;
  async_write_frame(p.ours, encoder, as_bytes(std::string_view("too long")), frame,
                    [&](std::error_code ec, std::size_t n) {
                      EXPECT_TRUE(initiated);
                      EXPECT_EQ(n, 0u);
                      got = ec;
                    });
  initiated = true;
  p.ctx.run();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, errc::frame_too_long);
  p.ours.non_blocking(true);
  p.peer.non_blocking(true);
  std::array<char, 16> scratch;
  std::error_code ec;
  EXPECT_EQ(p.peer.read_some(asio::buffer(scratch), ec), 0u);
  EXPECT_EQ(ec, asio::error::would_block) << "nothing was written";
}

// The encoder's error is posted with the handler's allocator, and what it took is freed. (Bound
// to the io_context's executor, which takes an allocator; asio::any_io_executor does not.)
TEST(async_write_frame, an_encoder_error_is_posted_with_the_handlers_allocator) {
  socket_pair p;
  const line_encoder encoder({.max_line_bytes = 4});
  encoded_frame frame;
  test::allocation_counts counts;
  std::optional<std::error_code> got;
  async_write_frame(p.ours, encoder, as_bytes(std::string_view("too long")), frame,
                    asio::bind_executor(p.ctx, asio::bind_allocator(
                                                   test::counting_allocator<char>(counts),
                                                   [&](std::error_code ec, std::size_t) { got = ec; })));
  p.ctx.run();
  EXPECT_EQ(got, errc::frame_too_long);
  EXPECT_GT(counts.allocations.load(), 0);
  EXPECT_EQ(counts.allocations.load(), counts.deallocations.load());
}

// A write the peer does not take (its buffer full) canceled through a slot: errc::canceled,
// which the standard's condition recognises, as every cancellation of the library.
TEST(async_write_frame, a_canceled_write_reports_canceled) {
  socket_pair p;
  const length_prefix_encoder encoder({.header_bytes = 4, .max_frame_bytes = 64 << 20});
  const std::string big(16 << 20, 'x');  // far more than a Unix socket's buffer
  encoded_frame frame;
  asio::cancellation_signal cancel;
  std::optional<std::error_code> got;
  async_write_frame(p.ours, encoder, as_bytes(big), frame,
                    asio::bind_cancellation_slot(cancel.slot(),
                                                 [&](std::error_code ec, std::size_t) { got = ec; }));
  test::expect_canceled_while_waiting(p.ctx, cancel, asio::cancellation_type::terminal, got);
}

// Without a token, the stream's default: a socket made with use_awaitable_t::as_default_on reads
// and writes frames as awaitables, as Asio's own operations do on it.
TEST(async_read_frame, a_stream_with_a_default_token_needs_none) {
  socket_pair p;
  auto ours = asio::use_awaitable_t<>::as_default_on(std::move(p.ours));
  auto peer = asio::use_awaitable_t<>::as_default_on(std::move(p.peer));
  std::vector<std::string> got;
  auto run = [&]() -> asio::awaitable<void> {
    const line_encoder encoder;
    line_decoder decoder;
    frame_buffer buffer;
    encoded_frame frame;
    for (std::string_view name : {"ann", "bob"}) {
      co_await async_write_frame(peer, encoder, as_bytes(name), frame);
      got.emplace_back(as_text(co_await async_read_frame(ours, buffer, decoder)));
    }
    encoded_frame whole;
    const std::string text = "cy\n";
    whole.payload = as_bytes(text);
    co_await async_write_frame(peer, whole);
    got.emplace_back(as_text(co_await async_read_frame(ours, buffer, decoder)));
  };
  asio::co_spawn(p.ctx, run(), [](std::exception_ptr e) { if (e) std::rethrow_exception(e); });
  p.ctx.run();
  EXPECT_EQ(got, (std::vector<std::string>{"ann", "bob", "cy"}));
}

}  // namespace
}  // namespace wirebench
