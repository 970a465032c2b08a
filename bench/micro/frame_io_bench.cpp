// frame_io/callback vs frame_io/awaitable — what async_read_frame costs per frame in each
// completion style, with no network: the stream is in memory and hands out `read_bytes` of
// newline frames per read, completing through the io_context like a socket read that found data.
// The two forms read the same bytes with the same decoder; their ratio is the price of the
// coroutine (the issue asks 1.1x). At one frame per read each coroutine frame pays Asio's own
// co_await of a read, which frame_io_floor_bench.cpp measures bare: that alone keeps the ratio
// well above 1.1x there; at 16 frames per read the coroutine form is the cheaper one.
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <benchmark/benchmark.h>

#include "frame_io_harness.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/transport/async_read_frame.hpp"

namespace wirebench {
namespace {

using bench::memory_stream;
using bench::frames_per_batch;

// Reads frames in turn: each frame's handler, run by ctx.run() on the benchmark's thread, starts
// the next read until `left` frames are read. The stream, buffer and decoder are the benchmark's.
struct callback_reader {
  memory_stream& stream;
  frame_buffer& buffer;
  line_decoder& decoder;
  std::size_t left;
  void next() {
    async_read_frame(stream, buffer, decoder, [this](std::error_code ec, std::span<const std::byte> f) {
      benchmark::DoNotOptimize(f.data());
      if (!ec && --left != 0) next();
    });
  }
};

void frame_io_callback(benchmark::State& state) {
  asio::io_context ctx(1);
  memory_stream stream(ctx, static_cast<std::size_t>(state.range(0)));
  frame_buffer buffer;
  line_decoder decoder;
  callback_reader reader{stream, buffer, decoder, 0};
  bench::run_batches(state, ctx, [&] {
    reader.left = frames_per_batch;
    reader.next();
  });
}

void frame_io_awaitable(benchmark::State& state) {
  asio::io_context ctx(1);
  memory_stream stream(ctx, static_cast<std::size_t>(state.range(0)));
  frame_buffer buffer;
  line_decoder decoder;
  auto read_batch = [&]() -> asio::awaitable<void> {
    for (std::size_t i = 0; i < frames_per_batch; ++i) {
      const auto f = co_await async_read_frame(stream, buffer, decoder, asio::use_awaitable);
      benchmark::DoNotOptimize(f.data());
    }
  };
  bench::run_batches(state, ctx, [&] { asio::co_spawn(ctx, read_batch(), asio::detached); });
}

// Bytes per read: one frame (13) per read, and 16 frames per read.
BENCHMARK(frame_io_callback)->Arg(13)->Arg(208);
BENCHMARK(frame_io_awaitable)->Arg(13)->Arg(208);

}  // namespace
}  // namespace wirebench
