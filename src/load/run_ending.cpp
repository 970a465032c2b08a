#include "run_ending.hpp"

#include <algorithm>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "wirebench/core/duration_text.hpp"

namespace wirebench::detail {

std::string count_cap_passed(const load_spec& spec) {
  return "the time cap (" + format_duration(spec.duration) + ") passed before all " +
         std::to_string(spec.calls) + " calls were made";
}

bool wait_for_run(std::mutex& mutex, std::condition_variable& changed,
                  const std::function<bool()>& done, std::chrono::steady_clock::time_point until,
                  const load_spec& spec, std::string& gave_up,
                  const std::function<void()>& on_give_up, counter_sampler& sampler) {
  using clock = std::chrono::steady_clock;
  const auto poll = std::clamp<clock::duration>(spec.interval / 2, std::chrono::milliseconds(1),
                                                std::chrono::milliseconds(50));
  std::unique_lock lock(mutex);
  while (!done()) {
    const auto now = clock::now();
    if (now >= until) return false;
    changed.wait_until(lock, std::min(until, now + poll));
    sampler.tick(clock::now());
    if (done() || !gave_up.empty() || !spec.give_up) continue;
    lock.unlock();
    std::string why = spec.give_up();
    if (!why.empty()) {
      gave_up = std::move(why);
      if (on_give_up) on_give_up();
    }
    lock.lock();
  }
  return true;
}

bool close_within(protocol_client& client, std::chrono::nanoseconds limit) {
  auto closed = std::make_shared<std::promise<void>>();
  std::future<void> finished = closed->get_future();
  std::thread([&client, closed] {
    client.close();
    closed->set_value();
  }).detach();
  return finished.wait_for(limit) == std::future_status::ready;
}

}  // namespace wirebench::detail
