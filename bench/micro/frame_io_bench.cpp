// frame_io/callback vs frame_io/awaitable — what async_read_frame costs per frame in each
// completion style, with no network: the stream is in memory and hands out `read_bytes` of
// newline frames per read, completing through the io_context like a socket read that found data.
// The two forms read the same bytes with the same decoder; their ratio is the price of the
// coroutine (the bound: 1.1x).
#include <cstring>
#include <string>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>
#include <benchmark/benchmark.h>

#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/transport/async_read_frame.hpp"

namespace wirebench {
namespace {

// An AsyncReadStream over an endless run of "hello, w12-x\n" frames.
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

constexpr std::size_t frames_per_batch = 4096;

void frame_io_callback(benchmark::State& state) {
  asio::io_context ctx(1);
  memory_stream stream(ctx, static_cast<std::size_t>(state.range(0)));
  frame_buffer buffer;
  line_decoder decoder;
  for (auto _ : state) {
    callback_reader reader{stream, buffer, decoder, frames_per_batch};
    reader.next();
    ctx.restart();
    ctx.run();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * frames_per_batch));
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
  for (auto _ : state) {
    asio::co_spawn(ctx, read_batch(), asio::detached);
    ctx.restart();
    ctx.run();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * frames_per_batch));
}

// Bytes per read: one frame (13) per read, and 16 frames per read.
BENCHMARK(frame_io_callback)->Arg(13)->Arg(208);
BENCHMARK(frame_io_awaitable)->Arg(13)->Arg(208);

}  // namespace
}  // namespace wirebench
