#include "open_loop_shard.hpp"

#include <asio/post.hpp>
#include <charconv>

#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"

namespace wirebench::detail {
namespace {

std::uint64_t ns_between(open_loop_shard::clock::time_point from,
                         open_loop_shard::clock::time_point to) {
  return to <= from ? 0
                    : static_cast<std::uint64_t>(
                          std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count());
}

// The decimal digits of `n` in `buffer`.
std::string_view digits_of(std::uint64_t n, char (&buffer)[24]) {
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
  return {buffer, static_cast<std::size_t>(end - buffer)};
}

}  // namespace

open_loop_shard::open_loop_shard(protocol_client& client, asio::io_context& loop, const plan& p,
                                 run_state& run)
    : client_(client),
      loop_(loop),
      plan_(p),
      run_(run),
      check_greetings_(client.greets()),
      timeout_(p.spec->call_timeout),
      measured_(arrival_schedule::for_window(*p.spec, p.share, p.shares)),
      slots_(p.max_in_flight),
      timer_(loop, [this](bool aborted) { on_timer(aborted); }),
      name_(p.spec->payload_bytes, 'x'),
      padding_(p.spec->payload_bytes, 'x'),
      records_(/*track_actual=*/true, p.spec->interval, run.mix.is_mix() ? run.mix.requests() : 0) {
  if (p.spec->on_live) records_.keep_live_counts();  // someone reads them (load_spec::on_live)
  const load_spec& spec = *p.spec;
  if (run.mix.is_mix()) requests_.emplace(run.mix, run.mix.start_of(p.share, p.shares));
  // The warm-up has a schedule of its own, so that a bursty run's whole seconds are the measured
  // window's; it is evenly spaced then (it opens connections and warms caches, it is not measured).
  if (spec.warmup.count() > 0) {
    const auto kind = *spec.arrivals == arrival_kind::bursty ? arrival_kind::uniform : *spec.arrivals;
    warmup_.emplace(kind, spec.rate, spec.warmup, spec.seed + 1, p.share, p.shares);
  }
  free_.reserve(slots_.size());
  for (std::size_t i = slots_.size(); i-- > 0;) free_.push_back(static_cast<std::uint32_t>(i));
  advance();
}

void open_loop_shard::start() {
  asio::post(loop_, [this] {
    started_ = true;
    pump(clock::now());
  });
}

void open_loop_shard::wake(const std::shared_ptr<open_loop_shard>& self) {
  asio::post(self->loop_, [weak = std::weak_ptr<open_loop_shard>(self)] {
    if (const auto shard = weak.lock(); shard && shard->started_ && !shard->finished_)
      shard->pump(clock::now());
  });
}

void open_loop_shard::advance() {
  // Call j of share k is call k + j n of the run (arrival_schedule's shares): numbers, and so
  // names, never repeat between shards.
  const std::uint64_t seq = taken_++ * plan_.shares + plan_.share;
  if (warmup_) {
    if (const auto at = warmup_->next()) {
      next_ = arrival{plan_.start + *at, false, seq, requests_ ? requests_->next() : 0};
      return;
    }
    warmup_.reset();
  }
  if (const auto at = measured_.next()) {
    next_ = arrival{plan_.start + plan_.spec->warmup + *at, true, seq, requests_ ? requests_->next() : 0};
    return;
  }
  next_.reset();
  schedule_used_up();
}

// Any thread that runs the shard (its loop; the constructor, for a share with no arrival).
void open_loop_shard::schedule_used_up() {
  if (used_up_) return;
  used_up_ = true;
  std::lock_guard lock(run_.mutex);
  if (--run_.scheduling == 0) run_.finished.notify_all();
}

// Sends every arrival due by `now` while a slot is free; an arrival that has waited for a slot
// past the call timeout times out unsent. Then arms the timer for what comes next.
void open_loop_shard::pump(clock::time_point now) {
  if (run_.stop.load(std::memory_order_relaxed)) {
    next_.reset();  // given up: the rest of the schedule is not reached
  } else {
    while (next_ && next_->intended <= now) {
      if (!free_.empty()) {
        issue(now);
        continue;
      }
      if (now - next_->intended < timeout_) break;  // waits for a slot
      if (next_->measured) ++planned_;
      records_.scheduled(since_start(next_->intended), false);
      records_.record(since_start(now), next_->measured, errc::timeout, 0, 0, false, {},
                      next_->request);
      advance();
    }
  }
  arm(now);
  finish_if_done();  // last: once finished, the driver may free the shard
}

void open_loop_shard::issue(clock::time_point now) {
  const std::uint32_t index = free_.back();
  free_.pop_back();
  slot& s = slots_[index];
  s.seq = next_->seq;
  s.request = next_->request;
  s.intended = next_->intended;
  s.sent = now;
  s.measured = next_->measured;
  s.late = now - s.intended > plan_.spec->late_after;
  s.busy = true;
  records_.scheduled(since_start(s.intended), true, since_start(now), s.late);
  if (s.measured) {
    ++planned_;
    ++issued_;
  }
  in_flight_count_.store(++in_flight_, std::memory_order_relaxed);
  advance();
  const std::string_view name = requests_ ? request_payload(s.request) : name_of(s.seq);
  // Its timeout counts from its intended start: a call that waited for a slot has what is left.
  const auto deadline = s.intended + timeout_;
  if (plan_.completes_here) {
    // 16 bytes: held inline by the completion, no allocation per call.
    client_.async_greet(name, {.deadline = deadline}, [this, index](std::error_code ec, std::string_view reply) {
      on_reply(index, ec, reply, loop_clock::now(), false);
    });
    return;
  }
  // The client completes on a thread of its own: judge the reply there (it is valid only during
  // the completion), then hand the outcome to this shard's loop.
  client_.async_greet(name, {.deadline = deadline}, [this, index](std::error_code ec, std::string_view reply) {
    const auto now = loop_clock::now();
    const slot& s = slots_[index];  // busy: this loop does not touch it until it is freed
    if (check_greetings_ && s.measured && !ec && !is_greeting_for(s.seq, reply))
      ec = errc::wrong_reply;
    asio::post(loop_, [this, index, ec, now, detail = std::string(ec ? reply : "")] {
      on_reply(index, ec, detail, now, true);
    });
  });
}

void open_loop_shard::on_reply(std::uint32_t index, std::error_code ec, std::string_view reply,
                               clock::time_point now, bool judged) {
  slot& s = slots_[index];
  if (run_.cut.load(std::memory_order_relaxed)) {
    ec = errc::unfinished;  // the watchdog gave up on it; whatever came now is too late
    reply = {};
  } else if (!judged && check_greetings_ && s.measured && !ec && !is_greeting_for(s.seq, reply)) {
    ec = errc::wrong_reply;
  }
  records_.record(since_start(now), s.measured, ec, ns_between(s.intended, now),
                  ns_between(s.sent, now), s.late, reply, s.request);
  s.busy = false;
  free_.push_back(index);
  in_flight_count_.store(--in_flight_, std::memory_order_relaxed);
  if (next_ && next_->intended <= now && !run_.stop.load(std::memory_order_relaxed)) {
    pump(now);  // what was waiting for this slot, or is due anyway
    return;
  }
  finish_if_done();
}

// The timer is armed at the next arrival, or, when every slot is busy and that arrival is due,
// at the moment it times out unsent. It is moved earlier when needed, never later (each move is a
// system call): one that fires early only makes the shard look again.
void open_loop_shard::arm(clock::time_point now) {
  if (!next_ || finished_) return;
  const auto target = free_.empty() && next_->intended <= now ? next_->intended + timeout_
                                                               : next_->intended;
  if (armed_at_ && *armed_at_ <= target) return;
  armed_at_ = target;
  timer_.arm(target);
}

void open_loop_shard::on_timer(bool aborted) {
  armed_at_.reset();
  if (aborted) {  // canceled by finish_if_done(), which waits for this handler
    finish_if_done();
    return;
  }
  pump(clock::now());
}

// Finished when the schedule is used up and no call is in flight; and only once no timer handler
// is pending, so that the driver may free the shard as soon as it hears.
void open_loop_shard::finish_if_done() {
  if (finished_ || next_ || in_flight_ != 0) return;
  if (timer_.waiting()) {
    armed_at_.reset();
    timer_.cancel();
    return;
  }
  finished_ = true;
  std::lock_guard lock(run_.mutex);
  if (--run_.running == 0) run_.finished.notify_all();
}

std::uint64_t open_loop_shard::account_abandoned() {
  std::uint64_t abandoned = 0;
  const std::uint64_t now = since_start(clock::now());  // on the timeline: when it was given up
  for (slot& s : slots_) {
    if (!s.busy) continue;
    s.busy = false;
    records_.record(now, s.measured, errc::unfinished, 0, 0, false, {}, s.request);
    abandoned += s.measured ? 1 : 0;
  }
  in_flight_ = 0;
  in_flight_count_.store(0, std::memory_order_relaxed);
  for (; next_ && !run_.stop.load(std::memory_order_relaxed); advance()) {
    if (!next_->measured) continue;
    ++planned_;
    records_.scheduled(since_start(next_->intended), false);
    records_.record(now, true, errc::unfinished, 0, 0, false, {}, next_->request);
    ++abandoned;
  }
  return abandoned;
}

std::uint64_t open_loop_shard::since_start(clock::time_point t) const {
  return ns_between(plan_.start, t);
}

// "c<seq>-" padded with 'x' to the payload size, built over the last name: the digits only grow.
std::string_view open_loop_shard::name_of(std::uint64_t seq) {
  char buffer[24];
  const std::string_view digits = digits_of(seq, buffer);
  const std::size_t prefix = digits.size() + 2;
  if (name_.size() < prefix) name_.resize(prefix, 'x');
  name_[0] = 'c';
  digits.copy(name_.data() + 1, digits.size());
  name_[prefix - 1] = '-';
  return name_;
}

// Whether `reply` is "hello, " and call `seq`'s name, compared in place (no string is built).
bool open_loop_shard::is_greeting_for(std::uint64_t seq, std::string_view reply) const {
  constexpr std::string_view hello = "hello, c";
  if (!reply.starts_with(hello)) return false;
  reply.remove_prefix(hello.size());
  char buffer[24];
  const std::string_view digits = digits_of(seq, buffer);
  if (!reply.starts_with(digits)) return false;
  reply.remove_prefix(digits.size());
  if (reply.empty() || reply.front() != '-') return false;
  reply.remove_prefix(1);
  const std::size_t prefix = digits.size() + 2;
  const std::size_t pad = padding_.size() > prefix ? padding_.size() - prefix : 0;
  return reply == std::string_view(padding_).substr(0, pad);
}

}  // namespace wirebench::detail
