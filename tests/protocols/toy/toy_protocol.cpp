// A protocol registered from this test binary alone, as docs/ADDING_A_PROTOCOL.md says: D. J.
// Bernstein's netstrings ("5:alice,"), replies in order. Written from scratch here, with nothing
// from src/protocols/ but the registry, it proves that a protocol is its folder: every suite in
// this binary that walks the registry (round trips over every transport, exact bytes, graceful
// stop, TLS, a client against silent, dying and lying servers, replies in order on a worker pool)
// runs on it too, and the registry makes its client and server from its two codecs. Its user call
// (toy_call.hpp) joins the CLI, workload files and results from this folder too
// (tests/app/toy_cli_test.py runs them on a wirebench linked with it).
#include <charconv>
#include <deque>
#include <memory>
#include <string>

#include "toy_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
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

// With user calls (netstring_call), each call sends the one its payload names, its placeholders
// filled, and its reply is judged against the call's expect_reply.
class toy_client_codec final : public client_codec {
 public:
  toy_client_codec(std::size_t max, const std::vector<user_call>& calls) : in_{max} {
    for (const user_call& call : calls) {
      const netstring_call& n = *call.as<netstring_call>();
      std::string bytes = std::to_string(n.payload.size()) + ":" + n.payload + ",";
      placeholder_filler filler(bytes, call.keyspace, next_placeholder_seed());
      templates_.push_back({std::move(bytes), std::move(filler), n.expect_reply});
    }
  }
  reply_order order() const override { return reply_order::in_order; }
  std::error_code encode(std::uint32_t, std::string_view request, gather_queue& out) override {
    if (!templates_.empty()) {
      const auto index = request_index(request, templates_.size());
      if (!index) return make_error_code(errc::invalid_argument);
      templates_[*index].filler.append_filled(templates_[*index].bytes, out);
      sent_.push_back(*index);  // replies come in this order
      return {};
    }
    if (request.size() > in_.max) return make_error_code(errc::frame_too_long);
    append_netstring(out, request);
    return {};
  }
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    std::size_t used = 0;
    std::string_view reply;
    while (const std::size_t n = parse_netstring(as_text(data.subspan(used)), in_.max, reply, error)) {
      into.replies.push_back({0, judge(reply), reply});
      used += n;
    }
    in_.mid = used < data.size();
    return used;
  }
  bool mid_reply() const override { return in_.mid; }
  std::size_t max_read_bytes() const override { return in_.read_bytes(); }

 private:
  struct call_template {
    std::string bytes;
    placeholder_filler filler;
    std::optional<std::string> expect_reply;
  };
  // A user call's verdict on the oldest call's reply; a reply no call is waiting for is the
  // engine's to count (unknown).
  std::error_code judge(std::string_view reply) {
    if (templates_.empty() || sent_.empty()) return {};
    const auto& expect = templates_[sent_.front()].expect_reply;
    sent_.pop_front();
    return expect && reply != *expect ? make_error_code(errc::wrong_reply) : std::error_code{};
  }

  netstring_input in_;
  std::vector<call_template> templates_;
  std::deque<std::size_t> sent_;  // the template of each call in flight, oldest first
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
         .can = {.tls = true,  // the registry and the session server put it under TLS when asked
                 .engine_depth = 1024,
                 .user_calls = &netstring_call_form()},  // toy_call.hpp
         .test = {.wire = {netstring, netstring}},
         .client_codecs =
             [](const client_config& c) -> client_codec_factory {
               return [max = c.max_frame_bytes, calls = c.calls] {
                 return std::make_unique<toy_client_codec>(max, calls);
               };
             },
         .server_codecs = [](const server_config& c) -> server_codec_factory {
           return [max = c.max_frame_bytes] { return std::make_unique<toy_server_codec>(max); };
         }});
}

const protocol_registration toy_registration{1000, add_toy};

}  // namespace
}  // namespace wirebench::test
