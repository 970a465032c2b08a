// call_path/threads:N — the user-space work one call costs a client thread, with no network: the
// engine's part (the pending table takes the call, the mux codec encodes it; the reply frame is
// decoded, matched and its completion run) and the closed-loop driver's (the reply checked against
// the worker's greeting, the latency recorded from the loop clock). Each thread is one connection
// with 64 calls in flight whose replies arrive 16 to a read, one loop turn (and clock read) each;
// every thread records into the same call_recorder, as the client threads of one run do. Nothing
// is shared per call, so the time per call per thread must not grow from one thread to two (on a
// machine with two free cores).
#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"
#include "wirebench/core/loop_clock.hpp"
#include "wirebench/load/call_recorder.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/calls/pending_table.hpp"

namespace wirebench {
namespace {

using clock_type = std::chrono::steady_clock;

call_recorder& shared_recorder() {
  static call_recorder recorder;
  return recorder;
}

struct worker {
  std::string name = "w12-x";
  std::string expected = "hello, w12-x";
  clock_type::time_point started;
};

void call_path(benchmark::State& state) {
  constexpr std::size_t depth = 64;
  call_recorder& recorder = shared_recorder();
  pending_table table({.max_in_flight = depth, .max_abandoned = 256});
  auto codec = make_mux_client_codec(1 << 16);
  gather_queue out;
  decoded into;
  std::vector<worker> workers(depth);
  std::deque<std::uint32_t> in_flight;
  std::string reply_bytes;
  const auto deadline = clock_type::now() + std::chrono::hours(1);

  // The completion captures two words, as the closed loop's does: call_completion keeps it inline.
  struct context {
    std::vector<worker>& workers;
    call_recorder& recorder;
    clock_type::time_point zero;  // the timeline's, as closed_loop's start()
  } ctx{workers, recorder, clock_type::now()};
  auto issue = [&](std::size_t w, clock_type::time_point now) {
    workers[w].started = now;
    const auto id = table.add(
        [c = &ctx, w](std::error_code ec, std::string_view reply) {
          worker& k = c->workers[w];
          const auto now = loop_clock::now();  // the read's time, as in closed_loop
          if (!ec && reply != k.expected) ec = std::make_error_code(std::errc::bad_message);
          c->recorder.local().record(static_cast<std::uint64_t>((now - c->zero).count()), true, ec,
                                     static_cast<std::uint64_t>((now - k.started).count()));
        },
        deadline, nullptr, workers[w].name);
    codec->encode(id, workers[w].name, out);
    in_flight.push_back(id);
  };
  for (std::size_t w = 0; w < depth; ++w) issue(w, clock_type::now());

  constexpr std::size_t per_read = 16;
  std::size_t next_worker = 0;
  while (state.KeepRunningBatch(per_read)) {
    // The server's replies to the oldest calls, as one read's bytes.
    reply_bytes.clear();
    for (std::size_t i = 0; i < per_read; ++i) {
      encoded_frame f;
      encode_mux_frame(mux_frame_type::reply, in_flight.front(),
                       as_bytes(workers[(next_worker + i) % depth].expected), 1 << 16, f);
      in_flight.pop_front();
      for (auto part : f.buffers()) reply_bytes.append(as_text(part));
    }
    // The client's turn: decode, match, complete (which records), call again.
    const loop_clock::turn turn(clock_type::now());
    into.replies.clear();
    std::error_code error;
    codec->decode(as_bytes(reply_bytes), into, out, error);
    for (const codec_reply& r : into.replies) {
      call_completion done;
      table.take(r.id, done);
      done(r.error, r.body);
    }
    for (std::size_t i = 0; i < per_read; ++i) {
      issue(next_worker, loop_clock::now());
      next_worker = (next_worker + 1) % depth;
    }
    if (out.bytes() > (1 << 16)) out.clear();  // as a write would
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(call_path)->ThreadRange(1, 2)->UseRealTime();

}  // namespace
}  // namespace wirebench
