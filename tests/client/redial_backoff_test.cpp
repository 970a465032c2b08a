// The back-off between dials: doubling from the first wait up to the longest after each failure,
// and back to the first once a connection worked.
#include "wirebench/client/redial_backoff.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = redial_backoff::clock;

TEST(redial_backoff, a_fresh_slot_dials_at_once) {
  const redial_backoff b;
  EXPECT_LE(b.next_dial(), clock_type::now());
}

TEST(redial_backoff, each_failure_doubles_the_wait_up_to_the_longest_and_success_resets_it) {
  redial_backoff b(10ms, 50ms);
  const clock_type::time_point t0{};  // the caller's clock: any time point will do
  std::vector<clock_type::duration> waits;
  for (int i = 0; i < 5; ++i) {
    b.failed(t0);
    waits.push_back(b.next_dial() - t0);
  }
  EXPECT_EQ(waits, (std::vector<clock_type::duration>{10ms, 20ms, 40ms, 50ms, 50ms}));
  b.succeeded();
  b.failed(t0 + 1s);
  EXPECT_EQ(b.next_dial(), t0 + 1s + 10ms);
}

}  // namespace
}  // namespace wirebench
