// frame_io_read_some/callback vs frame_io_read_some/awaitable — the floor under frame_io (see
// frame_io_bench.cpp): the same in-memory stream's reads, bare, with no frames decoded, per
// frame those reads bring. awaitable minus callback here is what Asio's own co_await of one
// read costs (its coroutine frame for the operation, the handler that resumes the coroutine);
// async_read_frame with use_awaitable pays it once for each frame that needs a read, and no
// code of ours can take it away. Kept in a file of its own so that these instantiations do not
// change how the compiler inlines frame_io_bench.cpp's.
#include <cstddef>
#include <span>
#include <vector>

#include <asio/buffer.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <benchmark/benchmark.h>

#include "frame_io_harness.hpp"

namespace wirebench {
namespace {

using bench::frames_per_batch;
using bench::memory_frame_bytes;
using bench::memory_stream;

// Reads in turn: each read's handler, run by the io_context, starts the next. `room` is the
// benchmark's and outlives the reads.
struct callback_floor_reader {
  memory_stream& stream;
  std::span<std::byte> room;
  std::size_t left;
  void next() {
    stream.async_read_some(asio::buffer(room.data(), room.size()), [this](std::error_code ec, std::size_t n) {
      benchmark::DoNotOptimize(n);
      if (!ec && --left != 0) next();
    });
  }
};

// Reads that bring frames_per_batch frames of the stream.
std::size_t reads_per_batch(std::size_t read_bytes) { return frames_per_batch * memory_frame_bytes / read_bytes; }

void frame_io_read_some_callback(benchmark::State& state) {
  asio::io_context ctx(1);
  const auto read_bytes = static_cast<std::size_t>(state.range(0));
  memory_stream stream(ctx, read_bytes);
  std::vector<std::byte> room(read_bytes);
  callback_floor_reader reader{stream, room, 0};
  bench::run_batches(state, ctx, [&] {
    reader.left = reads_per_batch(read_bytes);
    reader.next();
  });
}

void frame_io_read_some_awaitable(benchmark::State& state) {
  asio::io_context ctx(1);
  const auto read_bytes = static_cast<std::size_t>(state.range(0));
  memory_stream stream(ctx, read_bytes);
  std::vector<std::byte> room(read_bytes);
  auto read_batch = [&]() -> asio::awaitable<void> {
    for (std::size_t i = reads_per_batch(read_bytes); i != 0; --i) {
      const std::size_t n = co_await stream.async_read_some(asio::buffer(room), asio::use_awaitable);
      benchmark::DoNotOptimize(n);
    }
  };
  bench::run_batches(state, ctx, [&] { asio::co_spawn(ctx, read_batch(), asio::detached); });
}

// Bytes per read, as for frame_io: one frame (13) per read, and 16 frames per read.
BENCHMARK(frame_io_read_some_callback)->Arg(13)->Arg(208);
BENCHMARK(frame_io_read_some_awaitable)->Arg(13)->Arg(208);

}  // namespace
}  // namespace wirebench
