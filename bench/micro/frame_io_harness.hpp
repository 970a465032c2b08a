#pragma once
// What the frame_io micro-benchmarks share: an in-memory AsyncReadStream (an endless run of
// "hello, w12-x\n" frames, `read_bytes` of them per read, each read completing through a post
// to the io_context like a socket read that found data: no network, so what is measured is the
// read's machinery and ours) and the benchmark loop.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>

#include <asio/async_result.hpp>
#include <asio/buffer.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <benchmark/benchmark.h>

namespace wirebench::bench {
// Unnamed: each benchmark file gets its own copy, compiled (and inlined) as if written there.
namespace {

/// Bytes of one frame of the stream ("hello, w12-x\n").
inline constexpr std::size_t memory_frame_bytes = 13;
/// Frames each benchmark's batch reads.
inline constexpr std::size_t frames_per_batch = 4096;

/// An AsyncReadStream over an endless run of "hello, w12-x\n" frames. The io_context is the
/// caller's; each read's handler runs from it, on the thread running it.
class memory_stream {
 public:
  using executor_type = asio::io_context::executor_type;
  memory_stream(asio::io_context& ctx, std::size_t read_bytes) : ctx_(ctx), read_bytes_(read_bytes) {
    for (std::size_t i = 0; i < 1024; ++i) pattern_ += "hello, w12-x\n";
  }
  executor_type get_executor() { return ctx_.get_executor(); }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return asio::async_initiate<Token, void(std::error_code, std::size_t)>(
        [this](auto handler, const MutableBuffers& b) {
          const asio::mutable_buffer to = *asio::buffer_sequence_begin(b);
          const std::size_t n = std::min({to.size(), read_bytes_, pattern_.size() - at_});
          std::memcpy(to.data(), pattern_.data() + at_, n);
          at_ = (at_ + n) % pattern_.size();
          asio::post(ctx_, [h = std::move(handler), n]() mutable { std::move(h)(std::error_code{}, n); });
        },
        token, buffers);
  }

 private:
  asio::io_context& ctx_;
  std::size_t read_bytes_;
  std::string pattern_;
  std::size_t at_ = 0;
};

/// The loop of each frame_io benchmark: per iteration `start_batch()` starts the reads of
/// frames_per_batch frames on `ctx`, and `ctx` runs on this thread until they are done (their
/// handlers run there). Items are frames.
template <class StartBatch>
void run_batches(benchmark::State& state, asio::io_context& ctx, StartBatch start_batch) {
  for (auto _ : state) {
    start_batch();
    ctx.restart();
    ctx.run();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * frames_per_batch));
}

}  // namespace
}  // namespace wirebench::bench
