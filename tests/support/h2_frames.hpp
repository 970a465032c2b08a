#pragma once
// HTTP/2 frames by hand for tests (RFC 9113 §4.1; HPACK literals that leave the dynamic table
// alone), and the server's output taken apart again (frames, header blocks through nghttp2's HPACK
// decoder): what the server-session tests of http2 and gRPC send and check.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

namespace wirebench::test::h2 {

inline constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
inline constexpr std::uint8_t type_data = 0, type_headers = 1, type_settings = 4, type_goaway = 7;
inline constexpr std::uint8_t end_stream = 0x1, end_headers = 0x4, ack = 0x1;

inline void put32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

inline std::string frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream_id,
                  std::string_view payload) {
  std::string f;
  put32(f, static_cast<std::uint32_t>(payload.size()) << 8 | type);  // 24-bit length, then type
  f.push_back(static_cast<char>(flags));
  put32(f, stream_id);
  f.append(payload);
  return f;
}

// A literal header field without indexing (HPACK §6.2.2), the name from the static table: its
// index as a 4-bit-prefix integer (§5.1), then the value (< 127 bytes, no Huffman).
inline std::string literal(std::uint8_t name_index, std::string_view value) {
  std::string b;
  if (name_index < 15) {
    b.push_back(static_cast<char>(name_index));
  } else {
    b.push_back('\x0f');
    b.push_back(static_cast<char>(name_index - 15));  // < 128: one byte
  }
  b.push_back(static_cast<char>(value.size()));
  return b.append(value);
}

// A literal header field without indexing whose name is not in the static table (a new name).
inline std::string literal(std::string_view name, std::string_view value) {
  std::string b{'\0', static_cast<char>(name.size())};  // both < 127 bytes
  b.append(name).push_back(static_cast<char>(value.size()));
  return b.append(value);
}

// The client's opening: preface and an empty SETTINGS.
inline std::string opening() { return std::string(preface) + frame(type_settings, 0, 0, ""); }

struct parsed_frame {
  std::uint8_t type, flags;
  std::uint32_t stream_id;
  std::string payload;
  std::string bytes;  // the whole frame, header included
};

inline std::uint32_t get32(std::string_view b) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | static_cast<std::uint8_t>(b[i]);
  return v;
}

inline std::vector<parsed_frame> frames_of(std::string_view out) {
  std::vector<parsed_frame> frames;
  while (out.size() >= 9) {
    const std::uint32_t length = get32(out) >> 8;
    EXPECT_LE(9 + length, out.size()) << "a truncated frame";
    if (9 + length > out.size()) break;
    frames.push_back({static_cast<std::uint8_t>(out[3]), static_cast<std::uint8_t>(out[4]),
                      get32(out.substr(5)) & 0x7fffffff, std::string(out.substr(9, length)),
                      std::string(out.substr(0, 9 + length))});
    out.remove_prefix(9 + length);
  }
  EXPECT_TRUE(out.empty()) << "bytes after the last frame";
  return frames;
}

const parsed_frame* find(const std::vector<parsed_frame>&& frames, std::uint8_t type) = delete;
inline const parsed_frame* find(const std::vector<parsed_frame>& frames, std::uint8_t type) {
  for (const parsed_frame& f : frames)
    if (f.type == type) return &f;
  return nullptr;
}

// A header block decoded with nghttp2's HPACK decoder (a new one: the block must not refer to
// entries an earlier block added), as (name, value) pairs in order.
using header_list = std::vector<std::pair<std::string, std::string>>;
inline header_list decode_headers(std::string_view block) {
  nghttp2_hd_inflater* inflater = nullptr;
  EXPECT_EQ(nghttp2_hd_inflate_new(&inflater), 0);
  header_list out;
  auto* in = reinterpret_cast<const std::uint8_t*>(block.data());
  std::size_t left = block.size();
  for (;;) {
    nghttp2_nv nv;
    int flags = 0;
    const auto n = nghttp2_hd_inflate_hd2(inflater, &nv, &flags, in, left, 1);
    if (n < 0) {
      ADD_FAILURE() << "bad header block";
      break;
    }
    in += n;
    left -= static_cast<std::size_t>(n);
    if ((flags & NGHTTP2_HD_INFLATE_EMIT) != 0)
      out.emplace_back(std::string(reinterpret_cast<const char*>(nv.name), nv.namelen),
                       std::string(reinterpret_cast<const char*>(nv.value), nv.valuelen));
    if ((flags & NGHTTP2_HD_INFLATE_FINAL) != 0) break;
  }
  nghttp2_hd_inflate_del(inflater);
  return out;
}

// GOAWAY (RFC 9113 §6.8) with no debug data: last stream id, then the error code.
inline std::string goaway(std::uint32_t last_stream_id, std::uint32_t error_code) {
  std::string payload;
  put32(payload, last_stream_id);
  put32(payload, error_code);
  return frame(type_goaway, 0, 0, payload);
}

}  // namespace wirebench::test::h2
