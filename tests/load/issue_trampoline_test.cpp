// The trampoline both closed loops issue through: a call issued from inside an issue runs after
// it instead of inside it, so a client that completes every call at once cannot grow the stack.
#include "wirebench/load/issue_trampoline.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace wirebench {
namespace {

// Each issue of worker w issues w again until `left` runs out, as a closed loop over a client
// that fails every call inside async_greet would.
struct chained_issuer {
  std::size_t left = 0;
  int depth = 0;
  int deepest = 0;
  std::vector<std::size_t> order;

  void issue(std::size_t w) { issue_trampolined(this, w, &chained_issuer::issue_now); }
  void issue_now(std::size_t w) {
    ++depth;
    deepest = std::max(deepest, depth);
    order.push_back(w);
    if (left > 0) {
      --left;
      issue(w);
    }
    --depth;
  }
};

TEST(issue_trampoline, a_million_chained_issues_run_one_at_a_time) {
  chained_issuer issuer;
  issuer.left = 1'000'000;
  issuer.issue(7);
  EXPECT_EQ(issuer.order.size(), 1'000'001u);
  EXPECT_EQ(issuer.deepest, 1);
  EXPECT_EQ(issuer.order.back(), 7u);
}

TEST(issue_trampoline, two_owners_on_one_thread_each_get_their_own_calls) {
  chained_issuer a, b;
  a.left = 3;
  b.left = 2;
  // b's first issue is made from inside a's: queued, then run with its own owner.
  struct both {
    chained_issuer* a;
    chained_issuer* b;
    void issue_now(std::size_t) {
      a->issue(1);
      b->issue(2);
    }
  } outer{&a, &b};
  issue_trampolined(&outer, 0, &both::issue_now);
  EXPECT_EQ(a.order, (std::vector<std::size_t>{1, 1, 1, 1}));
  EXPECT_EQ(b.order, (std::vector<std::size_t>{2, 2, 2}));
  EXPECT_EQ(a.deepest, 1);
  EXPECT_EQ(b.deepest, 1);
}

}  // namespace
}  // namespace wirebench
