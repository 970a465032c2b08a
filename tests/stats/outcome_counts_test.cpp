// outcome_counts: every error lands in one outcome, by its meaning, with its exact name kept.
#include "wirebench/stats/outcome_counts.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <set>
#include <string>

#include <asio/error.hpp>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

TEST(OutcomeCounts, ClassifiesOurErrorsByMeaning) {
  EXPECT_EQ(classify({}), outcome::ok);
  EXPECT_EQ(classify(errc::timeout), outcome::timeout);
  EXPECT_EQ(classify(errc::read_timeout), outcome::timeout);
  EXPECT_EQ(classify(errc::canceled), outcome::canceled);
  EXPECT_EQ(classify(errc::connection_closed), outcome::connection_closed);
  EXPECT_EQ(classify(errc::connect_failed), outcome::connection_closed);
  EXPECT_EQ(classify(errc::peer_closed), outcome::connection_closed);
  EXPECT_EQ(classify(errc::rejected), outcome::rejected);
  EXPECT_EQ(classify(errc::wrong_reply), outcome::wrong_reply);
  EXPECT_EQ(classify(errc::unknown_id), outcome::wrong_reply);
  EXPECT_EQ(classify(errc::remote_error), outcome::other_error);
  EXPECT_EQ(classify(errc::tls_failed), outcome::other_error);
}

TEST(OutcomeCounts, ClassifiesSystemErrors) {
  EXPECT_EQ(classify(std::make_error_code(std::errc::too_many_files_open)), outcome::rejected);
  EXPECT_EQ(classify(std::make_error_code(std::errc::connection_reset)),
            outcome::connection_closed);
  EXPECT_EQ(classify(std::make_error_code(std::errc::connection_refused)),
            outcome::connection_closed);
  EXPECT_EQ(classify(std::make_error_code(std::errc::no_space_on_device)), outcome::other_error);
  // Asio's own category holds errno values but compares equal to no std::errc: classified all
  // the same (by error_condition.hpp's conditions and errno).
  const auto asio_system = [](int e) { return std::error_code(e, asio::error::get_system_category()); };
  EXPECT_EQ(classify(asio_system(EMFILE)), outcome::rejected);
  EXPECT_EQ(classify(asio_system(ECANCELED)), outcome::canceled);
  EXPECT_EQ(classify(asio_system(ETIMEDOUT)), outcome::timeout);
  EXPECT_EQ(classify(asio_system(ECONNRESET)), outcome::connection_closed);
  EXPECT_EQ(classify(asio_system(ECONNREFUSED)), outcome::connection_closed);
  EXPECT_EQ(classify(asio::error::eof), outcome::connection_closed);
}

TEST(OutcomeCounts, CountsEveryCallOnceAndKeepsErrorNames) {
  outcome_counts c;
  c.add({});
  c.add({});
  c.add(errc::timeout);
  c.add(errc::read_timeout);
  c.add(errc::wrong_reply);
  EXPECT_EQ(c.total(), 5u);
  EXPECT_EQ(c.count(outcome::ok), 2u);
  EXPECT_EQ(c.count(outcome::timeout), 2u);
  EXPECT_EQ(c.failed(), 3u);
  EXPECT_EQ(c.errors().at("timeout"), 1u);
  EXPECT_EQ(c.errors().at("read_timeout"), 1u);
  EXPECT_FALSE(c.errors().contains("ok"));

  outcome_counts d;
  d.add(errc::timeout);
  d.add({});
  c.merge(d);
  EXPECT_EQ(c.total(), 7u);
  EXPECT_EQ(c.count(outcome::ok), 3u);
  EXPECT_EQ(c.errors().at("timeout"), 2u);
}

// What came back with failed calls: the first distinct ones, cut to size, none for successes,
// merged without repeats and never more than max_samples.
TEST(OutcomeCounts, KeepsTheFirstDistinctFailuresWithTheirWords) {
  outcome_counts c;
  c.add({}, "hello, bob");  // a success's reply is no sample
  c.add(errc::remote_error, "ERR unknown command 'FOO'");
  c.add(errc::remote_error, "ERR unknown command 'FOO'");
  c.add(errc::timeout);  // no words: counted, no sample
  c.add(errc::wrong_reply, std::string(1000, 'x'));
  ASSERT_EQ(c.samples().size(), 2u);
  EXPECT_EQ(c.samples()[0],
            (outcome_counts::error_sample{"remote_error", "ERR unknown command 'FOO'"}));
  EXPECT_EQ(c.samples()[1].error, "wrong_reply");
  EXPECT_EQ(c.samples()[1].text.size(), outcome_counts::max_sample_bytes);

  // Two of each error at most, so that wrong replies (each different) leave room for the rest.
  outcome_counts d;
  d.add(errc::remote_error, "ERR unknown command 'FOO'");
  for (int i = 0; i < 10; ++i) d.add(errc::remote_error, "ERR " + std::to_string(i));
  for (int i = 0; i < 10; ++i) d.add(errc::wrong_reply, "hello, " + std::to_string(i));
  d.add(errc::protocol_error, "bad frame");
  d.add(errc::late, "one too many");
  c.merge(d);
  ASSERT_EQ(c.samples().size(), outcome_counts::max_samples);
  EXPECT_EQ(c.samples()[2].text, "ERR 0");
  EXPECT_EQ(c.samples()[3].text, "hello, 0");
  EXPECT_EQ(c.samples()[4].text, "bad frame");
  EXPECT_EQ(c.errors().at("remote_error"), 13u);
}

TEST(OutcomeCounts, EveryOutcomeHasADistinctName) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < outcome_count; ++i) names.insert(outcome_name(static_cast<outcome>(i)));
  EXPECT_EQ(names.size(), outcome_count);
}

}  // namespace
}  // namespace wirebench
