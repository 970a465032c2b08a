// One way to ask what kind of failure a code is, for ours, Asio's and the standard's alike; our
// codes compare equal to the standard's conditions where one fits; error_name names Asio's codes.
#include "wirebench/core/error_condition.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <string_view>
#include <utility>
#include <system_error>

#include <asio/error.hpp>
#include <asio/ssl/error.hpp>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

TEST(error_condition, a_cancellation_is_canceled_whoever_reported_it) {
  for (const std::error_code ec :
       {std::error_code(errc::canceled), std::error_code(errc::shutting_down),
        std::error_code(asio::error::operation_aborted),
        std::make_error_code(std::errc::operation_canceled),
        std::error_code(ECANCELED, std::system_category())}) {
    EXPECT_TRUE(ec == condition::canceled) << ec.category().name() << " " << ec.message();
    EXPECT_FALSE(ec == condition::peer_gone) << ec.message();
    EXPECT_FALSE(ec == condition::timed_out) << ec.message();
  }
  // Ours compares with the standard's condition too; Asio's cannot (its category maps to none).
  EXPECT_TRUE(std::error_code(errc::canceled) == std::errc::operation_canceled);
  EXPECT_FALSE(std::error_code(asio::error::operation_aborted) == std::errc::operation_canceled);
}

TEST(error_condition, a_peer_that_closed_reset_or_left_is_gone) {
  for (const std::error_code ec :
       {std::error_code(errc::peer_closed), std::error_code(errc::connection_closed),
        std::error_code(errc::truncated_frame), std::error_code(asio::error::eof),
        std::error_code(asio::error::connection_reset), std::error_code(asio::error::broken_pipe),
        std::error_code(asio::error::connection_aborted),
        std::make_error_code(std::errc::connection_reset)}) {
    EXPECT_TRUE(ec == condition::peer_gone) << ec.category().name() << " " << ec.message();
    EXPECT_FALSE(ec == condition::canceled) << ec.message();
  }
  EXPECT_FALSE(std::error_code(errc::connect_failed) == condition::peer_gone)
      << "never connected is not gone";
  EXPECT_FALSE(std::error_code(asio::error::connection_refused) == condition::peer_gone);
}

TEST(error_condition, every_timeout_timed_out) {
  for (const errc e : {errc::timeout, errc::idle_timeout, errc::read_timeout, errc::write_timeout,
                       errc::keepalive_timeout}) {
    EXPECT_TRUE(std::error_code(e) == condition::timed_out) << error_name(e);
    EXPECT_TRUE(std::error_code(e) == std::errc::timed_out) << error_name(e);
  }
  EXPECT_TRUE(std::error_code(asio::error::timed_out) == condition::timed_out);
  EXPECT_FALSE(std::error_code(errc::frame_too_long) == condition::timed_out);
  EXPECT_FALSE(std::error_code(errc::frame_too_long) == std::errc::timed_out);
  EXPECT_FALSE(std::error_code{} == condition::timed_out);
}

TEST(error_condition, system_errno_reads_asios_codes_as_the_standards) {
  EXPECT_EQ(system_errno(asio::error::no_descriptors), EMFILE);
  EXPECT_EQ(system_errno(std::make_error_code(std::errc::too_many_files_open)), EMFILE);
  EXPECT_EQ(system_errno(std::error_code(EMFILE, std::system_category())), EMFILE);
  EXPECT_EQ(system_errno(asio::error::eof), 0) << "asio.misc holds no errno";
  EXPECT_EQ(system_errno(errc::timeout), 0);
  EXPECT_EQ(system_errno({}), 0);
  EXPECT_STREQ(condition_category().name(), "wirebench.condition");
  EXPECT_EQ(std::error_condition(condition::peer_gone).message(),
            "the peer closed or left the connection");
}

TEST(error_condition, error_name_names_asios_codes) {
  const std::pair<std::error_code, std::string_view> names[] = {
      {asio::error::operation_aborted, "operation_canceled"}, {asio::error::connection_reset, "connection_reset"},
      {asio::error::connection_refused, "connection_refused"}, {asio::error::timed_out, "timed_out"},
      {asio::error::broken_pipe, "broken_pipe"}, {asio::error::no_descriptors, "too_many_files_open"},
      {asio::error::address_in_use, "address_in_use"}, {asio::error::network_unreachable, "network_unreachable"},
      {asio::error::eof, "eof"}, {asio::error::not_found, "not_found"}, {asio::error::host_not_found, "host_not_found"},
      {asio::error::service_not_found, "address_lookup_failed"}, {asio::ssl::error::stream_truncated, "tls_error"}};
  for (const auto& [code, name] : names) EXPECT_EQ(error_name(code), name) << code.message();
}

}  // namespace
}  // namespace wirebench
