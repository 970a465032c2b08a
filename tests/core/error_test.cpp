// wirebench's error codes: stable names, category messages, interplay with std::error_code.
#include "wirebench/core/error.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace wirebench {
namespace {

const std::vector<std::pair<errc, std::string_view>> all_codes = {
    {errc::frame_too_long, "frame_too_long"},
    {errc::corrupt_frame, "corrupt_frame"},
    {errc::truncated_frame, "truncated_frame"},
    {errc::timeout, "timeout"},
    {errc::idle_timeout, "idle_timeout"},
    {errc::read_timeout, "read_timeout"},
    {errc::write_timeout, "write_timeout"},
    {errc::canceled, "canceled"},
    {errc::connection_closed, "connection_closed"},
    {errc::connect_failed, "connect_failed"},
    {errc::rejected, "rejected"},
    {errc::remote_error, "remote_error"},
    {errc::unknown_id, "unknown_id"},
    {errc::wrong_reply, "wrong_reply"},
    {errc::late, "late"},
    {errc::shutting_down, "shutting_down"},
    {errc::slow_consumer, "slow_consumer"},
    {errc::peer_closed, "peer_closed"},
    {errc::protocol_error, "protocol_error"},
    {errc::invalid_argument, "invalid_argument"},
    {errc::tls_failed, "tls_failed"},
};

TEST(Error, EveryCodeHasItsName) {
  ASSERT_EQ(static_cast<int>(all_codes.back().first), 21) << "update this test for new codes";
  for (const auto& [code, name] : all_codes) {
    const std::error_code ec = code;  // implicit: errc is an error code enum
    EXPECT_TRUE(ec);
    EXPECT_EQ(error_name(ec), name);
    EXPECT_EQ(ec.category(), error_category());
    EXPECT_EQ(ec, make_error_code(code));
  }
}

TEST(Error, NamesAndMessagesAreDistinctAndNonEmpty) {
  std::set<std::string> messages;
  std::set<std::string_view> names;
  for (const auto& [code, name] : all_codes) {
    const std::error_code ec = code;
    const std::string msg = ec.message();
    EXPECT_FALSE(msg.empty());
    EXPECT_EQ(msg.find("unknown wirebench error"), std::string::npos) << name << ": " << msg;
    messages.insert(msg);
    names.insert(error_name(ec));
  }
  EXPECT_EQ(messages.size(), all_codes.size());
  EXPECT_EQ(names.size(), all_codes.size());
}

TEST(Error, CategoryMessages) {
  EXPECT_STREQ(error_category().name(), "wirebench");
  EXPECT_EQ(std::error_code(errc::frame_too_long).message(), "frame longer than the configured limit");
  EXPECT_EQ(std::error_code(errc::corrupt_frame).message(), "corrupt frame");
  EXPECT_EQ(std::error_code(errc::truncated_frame).message(), "stream ended in the middle of a frame");
  EXPECT_EQ(std::error_code(errc::invalid_argument).message(), "invalid argument");
  EXPECT_EQ(std::error_code(errc::slow_consumer).message(), "peer is not reading its replies");
  EXPECT_EQ(error_category().message(0), "success");
  EXPECT_EQ(error_category().message(999), "unknown wirebench error 999");
  EXPECT_EQ(error_category().message(-1), "unknown wirebench error -1");
}

TEST(Error, SuccessIsOk) {
  EXPECT_EQ(error_name(std::error_code{}), "ok");
  EXPECT_EQ(error_name(std::error_code(0, error_category())), "ok");
  EXPECT_EQ(error_name(std::error_code(0, std::system_category())), "ok");
}

TEST(Error, SystemErrors) {
  EXPECT_EQ(error_name(std::make_error_code(std::errc::connection_refused)), "connection_refused");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::connection_reset)), "connection_reset");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::broken_pipe)), "broken_pipe");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::too_many_files_open)), "too_many_files_open");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::operation_canceled)), "operation_canceled");
  // errno values reported through the system category (as Asio does) map the same way.
  EXPECT_EQ(error_name(std::error_code(ECONNREFUSED, std::system_category())), "connection_refused");
  EXPECT_EQ(error_name(std::error_code(ECONNRESET, std::system_category())), "connection_reset");
  EXPECT_EQ(error_name(std::error_code(EPIPE, std::system_category())), "broken_pipe");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::permission_denied)), "permission_denied");
  EXPECT_EQ(error_name(std::make_error_code(std::errc::no_space_on_device)), "system_error");
}

TEST(Error, OutOfRangeValuesInOurCategory) {
  EXPECT_EQ(error_name(std::error_code(999, error_category())), "system_error");
  EXPECT_EQ(error_name(std::error_code(-3, error_category())), "system_error");
}

TEST(Error, OurCodesAreNotSystemCodes) {
  // Same integer, different category: never confused.
  EXPECT_NE(std::error_code(errc::timeout), std::error_code(4, std::generic_category()));
  EXPECT_NE(std::error_code(errc::canceled), std::error_code(8, std::generic_category()));
  EXPECT_EQ(std::error_code(errc::timeout), errc::timeout);
  // But they compare equal to the standard's conditions where one fits (error_condition.hpp).
  EXPECT_EQ(std::error_code(errc::canceled), std::errc::operation_canceled);
  EXPECT_EQ(std::error_code(errc::read_timeout), std::errc::timed_out);
  EXPECT_NE(std::error_code(errc::connection_closed), std::errc::operation_canceled);
}

}  // namespace
}  // namespace wirebench
