#pragma once
// A test's check of the library's cancellation: an operation started with `cancel`'s slot (its
// completion sets `got`) waits on `ctx`; `type` emitted, it completes once, with errc::canceled,
// which the standard's condition and ours recognise (Asio 1.22's operation_aborted compares equal
// to no std::errc).
#include <optional>
#include <system_error>

#include <asio/cancellation_signal.hpp>
#include <asio/io_context.hpp>
#include <gtest/gtest.h>

#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench::test {

inline void expect_canceled_while_waiting(asio::io_context& ctx, asio::cancellation_signal& cancel,
                                          asio::cancellation_type type,
                                          const std::optional<std::error_code>& got) {
  ctx.poll();  // the operation is waiting (for more bytes, or for room to write)
  ASSERT_FALSE(got.has_value()) << "completed before it was canceled";
  cancel.emit(type);
  ctx.run();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, errc::canceled);
  EXPECT_EQ(*got, std::errc::operation_canceled);
  EXPECT_EQ(*got, condition::canceled);
}

}  // namespace wirebench::test
