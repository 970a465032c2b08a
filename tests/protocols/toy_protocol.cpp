// A protocol registered from this test binary alone, as docs/ADDING_A_PROTOCOL.md says: D. J.
// Bernstein's netstrings ("5:alice,"), replies in order. Written from scratch here, with nothing
// from src/protocols/ but the registry, it proves that a protocol is its folder: every suite in
// this binary that walks the registry (round trips over every transport, exact bytes, graceful
// stop, TLS, a client against silent, dying and lying servers, replies in order on a worker pool)
// runs on it too, and the registry makes its client and server from its two codecs.
#include <charconv>
#include <memory>
#include <string>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::test {
namespace {

// One netstring from the front of `data`: the payload and the bytes it took, 0 when incomplete;
// `error` when the bytes cannot be one or it exceeds `max`.
std::size_t parse_netstring(std::string_view data, std::size_t max, std::string_view& payload,
                            std::error_code& error) {
  const auto colon = data.find(':');
  if (colon == std::string_view::npos) {
    if (data.size() > 10) error = errc::corrupt_frame;  // no length has more digits
    return 0;
  }
  std::size_t length = 0;
  const auto [end, ec] = std::from_chars(data.data(), data.data() + colon, length);
  if (ec != std::errc{} || end != data.data() + colon || colon == 0 ||
      (colon > 1 && data[0] == '0')) {
    error = ec == std::errc::result_out_of_range ? errc::frame_too_long : errc::corrupt_frame;
    return 0;
  }
  if (length > max) {
    error = errc::frame_too_long;
    return 0;
  }
  if (data.size() < colon + 1 + length + 1) return 0;
  if (data[colon + 1 + length] != ',') {
    error = errc::corrupt_frame;
    return 0;
  }
  payload = data.substr(colon + 1, length);
  return colon + 1 + length + 1;
}

void append_netstring(gather_queue& out, std::string_view payload) {
  out.append_bytes(as_bytes(std::to_string(payload.size()) + ":"));
  out.append_bytes(as_bytes(payload));
  out.append_bytes(as_bytes(","));
}

// What both codecs keep of the stream they read: the payload limit, and whether a netstring is
// half read.
struct netstring_input {
  std::size_t max;
  bool mid = false;
  std::size_t read_bytes() const { return max + 12; }  // the payload, up to 10 digits, ':', ','
};

class toy_client_codec final : public client_codec {
 public:
  explicit toy_client_codec(std::size_t max) : in_{max} {}
  reply_order order() const override { return reply_order::in_order; }
  std::error_code encode(std::uint32_t, std::string_view request, gather_queue& out) override {
    if (request.size() > in_.max) return make_error_code(errc::frame_too_long);
    append_netstring(out, request);
    return {};
  }
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    std::size_t used = 0;
    std::string_view reply;
    while (const std::size_t n = parse_netstring(as_text(data.subspan(used)), in_.max, reply, error)) {
      into.replies.push_back({0, {}, reply});
      used += n;
    }
    in_.mid = used < data.size();
    return used;
  }
  bool mid_reply() const override { return in_.mid; }
  std::size_t max_read_bytes() const override { return in_.read_bytes(); }

 private:
  netstring_input in_;
};

class toy_server_codec final : public server_codec {
 public:
  explicit toy_server_codec(std::size_t max) : in_{max} {}
  bool ordered() const override { return true; }
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue&,
                     std::error_code& error) override {
    std::string_view request;
    const std::size_t used = parse_netstring(as_text(data), in_.max, request, error);
    in_.mid = used == 0 && !data.empty();
    if (used != 0) {
      into.what = server_request::kind::call;
      into.argument = request;
    }
    return used;
  }
  void encode_reply(std::uint64_t, bool ok, std::string_view body, gather_queue& out) override {
    append_netstring(out, ok ? std::string(body) : "error: " + std::string(body));
  }
  bool mid_request() const override { return in_.mid; }
  std::size_t max_read_bytes() const override { return in_.read_bytes(); }

 private:
  netstring_input in_;
};

void add_toy(protocol_registry& r) {
  auto netstring = [](std::string_view text, std::uint32_t) {
    return std::to_string(text.size()) + ":" + std::string(text) + ",";
  };
  r.add({.name = "toy-netstring",
         .summary = "test only: netstrings, \"5:alice,\" -> \"12:hello, alice,\", in order",
         .tls = true,  // the registry and the skeleton put it under TLS when asked
         .engine_depth = 1024,
         .wire = {netstring, netstring},
         .client_codecs =
             [](const client_config& c) -> client_codec_factory {
               return [max = c.max_frame_bytes] { return std::make_unique<toy_client_codec>(max); };
             },
         .server_codecs = [](const server_config& c) -> server_codec_factory {
           return [max = c.max_frame_bytes] { return std::make_unique<toy_server_codec>(max); };
         }});
}

const protocol_registration toy_registration{1000, add_toy};

}  // namespace
}  // namespace wirebench::test
