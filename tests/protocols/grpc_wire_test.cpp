// gRPC's wire pieces, sans-IO: the message framing (exact bytes, any cut, the limit, a bad flag),
// status codes and their names, grpc-message's percent-encoding, and grpc-timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "../../src/protocols/grpc/grpc_gzip.hpp"
#include "../../src/protocols/grpc/grpc_message.hpp"
#include "../../src/protocols/grpc/grpc_status.hpp"
#include "../../src/protocols/grpc/grpc_timeout.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {
namespace {

using namespace std::chrono_literals;

std::string encoded(std::string_view message, bool compressed) {
  std::string bytes;
  append_grpc_prefix(message.size(), compressed, bytes);
  return bytes.append(message);
}

// Every message in `stream`, fed `piece` bytes at a time as a connection would; "error: ..." last
// when the stream failed.
std::vector<std::string> decode_all(std::string_view stream, std::size_t piece,
                                    std::size_t limit = default_max_message_bytes) {
  grpc_message_decoder d(limit);
  std::vector<std::string> out;
  std::string pending;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    pending += stream.substr(at, piece);
    std::size_t used = 0;
    std::error_code error;
    for (;;) {
      const auto step = decode_from(d, as_bytes(pending), used, error);
      if (error) {
        out.push_back("error: " + error.message());
        return out;
      }
      if (step.status != decode_status::frame) break;
      out.push_back((step.frame.compressed ? "z:" : "") + std::string(as_text(step.frame.bytes)));
    }
    pending.erase(0, used);
  }
  return out;
}

TEST(grpc_message, the_prefix_is_a_flag_and_a_big_endian_length) {
  EXPECT_EQ(encoded("hello", false), std::string("\x00\x00\x00\x00\x05hello", 10));
  EXPECT_EQ(encoded("", true), std::string("\x01\x00\x00\x00\x00", 5));
  EXPECT_EQ(encoded(std::string(300, 'x'), false).substr(0, 5), std::string("\x00\x00\x00\x01\x2c", 5));
  EXPECT_EQ(encoded(std::string(1 << 24, 'x'), false).substr(0, 5), std::string("\x00\x01\x00\x00\x00", 5));
}

TEST(grpc_message, messages_come_out_whole_however_the_stream_is_cut) {
  const std::string stream = encoded("a", false) + encoded("", false) + encoded("zipped", true) +
                             encoded(std::string(1000, 'm'), false);
  const std::vector<std::string> want = {"a", "", "z:zipped", std::string(1000, 'm')};
  for (std::size_t piece : {stream.size(), std::size_t{1}, std::size_t{3}, std::size_t{7}})
    EXPECT_EQ(decode_all(stream, piece), want) << "pieces of " << piece;
}

TEST(grpc_message, over_the_limit_is_resource_exhausted_and_a_bad_flag_internal) {
  const std::string stream = encoded("1234", false) + encoded("12345", false) + encoded("x", false);
  for (std::size_t piece : {stream.size(), std::size_t{1}}) {
    EXPECT_EQ(decode_all(stream, piece, 4),
              (std::vector<std::string>{"1234", "error: " + make_error_code(errc::frame_too_long).message()}));
    // A message of exactly the limit passes; the flag may only be 0 or 1.
    const std::string bad_flag = encoded("ok", false) + std::string("\x02\x00\x00\x00\x01x", 6);
    EXPECT_EQ(decode_all(bad_flag, piece),
              (std::vector<std::string>{"ok", "error: " + make_error_code(errc::protocol_error).message()}));
  }
  grpc_message_decoder d(4);
  EXPECT_EQ(d.decode(as_bytes(std::string("\x07\x00\x00\x00\x01x", 6))).status, decode_status::corrupt);
  EXPECT_EQ(d.decode(as_bytes(encoded("x", false))).status, decode_status::corrupt) << "sticky";
  EXPECT_EQ(d.error(), errc::protocol_error);
}

TEST(grpc_status, names_and_numbers_as_doc_statuscodes_has_them) {
  EXPECT_EQ(status_name(status_code::ok), "OK");
  EXPECT_EQ(status_name(status_code::deadline_exceeded), "DEADLINE_EXCEEDED");
  EXPECT_EQ(status_name(status_code::resource_exhausted), "RESOURCE_EXHAUSTED");
  EXPECT_EQ(status_name(status_code::unimplemented), "UNIMPLEMENTED");
  EXPECT_EQ(status_name(status_code::unauthenticated), "UNAUTHENTICATED");
  EXPECT_EQ(parse_status("0"), status_code::ok);
  EXPECT_EQ(parse_status("12"), status_code::unimplemented);
  EXPECT_EQ(parse_status("16"), status_code::unauthenticated);
  EXPECT_EQ(parse_status("17"), status_code::unknown) << "a number past 16 reads as UNKNOWN";
  EXPECT_EQ(parse_status("99999999999999999999999"), status_code::unknown);
  for (std::string_view bad : {"", "-1", "01", "1a", " 1", "OK"})
    EXPECT_EQ(parse_status(bad), std::nullopt) << bad;
}

TEST(grpc_status, grpc_message_is_percent_encoded_and_decoded) {
  std::string out;
  append_percent_encoded(out, "no such method: 100% \"/x.Y/Z\"\n\xc3\xa9");
  EXPECT_EQ(out, "no such method: 100%25 \"/x.Y/Z\"%0A%C3%A9");
  EXPECT_EQ(percent_decoded(out), "no such method: 100% \"/x.Y/Z\"\n\xc3\xa9");
  // A bad encoding is kept, not refused.
  EXPECT_EQ(percent_decoded("50%zz off%4"), "50%zz off%4");
  EXPECT_EQ(percent_decoded("%41%4a%"), "AJ%");
}

TEST(grpc_timeout, values_and_units_read_as_the_spec_says) {
  EXPECT_EQ(parse_timeout("1S"), std::chrono::nanoseconds(1s));
  EXPECT_EQ(parse_timeout("250m"), std::chrono::nanoseconds(250ms));
  EXPECT_EQ(parse_timeout("7u"), std::chrono::nanoseconds(7us));
  EXPECT_EQ(parse_timeout("3n"), std::chrono::nanoseconds(3));
  EXPECT_EQ(parse_timeout("2M"), std::chrono::nanoseconds(120s));
  EXPECT_EQ(parse_timeout("1H"), std::chrono::nanoseconds(3600s));
  EXPECT_EQ(parse_timeout("99999999H"), std::chrono::nanoseconds::max()) << "saturates";
  for (std::string_view bad : {"", "S", "1", "123456789S", "1x", "-1S", "1.5S", "1s"})
    EXPECT_EQ(parse_timeout(bad), std::nullopt) << bad;
}

TEST(grpc_timeout, a_timeout_is_written_in_8_digits_never_shorter) {
  EXPECT_EQ(format_timeout(1500ms), "1500000u");
  EXPECT_EQ(format_timeout(50ms), "50000000n");
  EXPECT_EQ(format_timeout(std::chrono::nanoseconds(99'999'999)), "99999999n");
  EXPECT_EQ(format_timeout(std::chrono::nanoseconds(100'000'001)), "100001u") << "rounded up";
  EXPECT_EQ(format_timeout(0ns), "1n");
  EXPECT_EQ(format_timeout(std::chrono::nanoseconds::max()), "2562048H") << "292 years, in hours";
  for (const std::chrono::nanoseconds t : {std::chrono::nanoseconds(1ns), std::chrono::nanoseconds(999us),
                                           std::chrono::nanoseconds(3s), std::chrono::nanoseconds(7min),
                                           std::chrono::nanoseconds(123'456'789'123)}) {
    const auto back = parse_timeout(format_timeout(t));
    ASSERT_TRUE(back.has_value());
    EXPECT_GE(*back, t);
  }
}

TEST(grpc_gzip, a_message_survives_the_round_trip) {
  for (const std::string& plain : {std::string(), std::string("hello"), std::string(100000, 'x')}) {
    std::string z, back;
    gzip(as_bytes(std::string_view(plain)), z);
    EXPECT_EQ(static_cast<unsigned char>(z[0]), 0x1fu);  // gzip's magic, not zlib's header
    EXPECT_FALSE(gunzip(as_bytes(std::string_view(z)), plain.size(), back));
    EXPECT_EQ(back, plain);
  }
}

TEST(grpc_gzip, a_bomb_stops_at_the_limit_and_garbage_is_refused) {
  std::string z, out;
  gzip(as_bytes(std::string_view(std::string(1 << 20, '\0'))), z);
  EXPECT_LT(z.size(), 2048u);
  EXPECT_EQ(gunzip(as_bytes(std::string_view(z)), 4096, out), errc::frame_too_long);
  EXPECT_LE(out.size(), 4096u + 16 * 1024) << "inflation stops within a step of the limit";
  EXPECT_EQ(gunzip(as_bytes(std::string_view("plain text")), 4096, out), errc::protocol_error);
  EXPECT_EQ(gunzip(as_bytes(std::string_view(z).substr(0, z.size() / 2)), 1 << 21, out),
            errc::protocol_error)
      << "cut short";
  EXPECT_EQ(gunzip(as_bytes(std::string_view(z + "tail")), 1 << 21, out), errc::protocol_error)
      << "bytes after the member";
}

}  // namespace
}  // namespace wirebench::grpc_wire
