// libFuzzer target for the msgpack-rpc stream decoder and its shape checks (what our
// msgpack-rpc server and client read). Input: [limits][pattern][seed] then the stream.
//   limits:  s = (limits & 15) + 1: max_array and max_map 2s, max_str and max_bin 32s, max_ext 8s,
//            max_depth (limits >> 4) % 8 + 1, max_buffered 128s
//   pattern, seed: how the stream is cut into reads for the second run (split_feeder.hpp)
// Each read is fed and the messages drained, as the server does. Every message is classified
// (type_of, as_request with its msgid, as_response), packed again and decoded again to the same
// bytes. Checked: no message exceeds max_buffered bytes or the unpack limits, and the messages
// and the error are the same whether the stream came whole or in pieces. Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "protocols/msgpack_rpc/msgpack_rpc_codec.hpp"
#include "wirebench/codec/bytes.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "msgpack_rpc_codec";

// Into a string, not an sbuffer: that spares 8 KiB per message (which the ASan build fills byte
// by byte on every allocation).
std::string packed(const msgpack::object& o) {
  std::string out;
  msgpack_rpc::string_writer writer{out};
  msgpack::pack(writer, o);
  return out;
}

// Within the unpack limits: counts, lengths, and the nesting of containers (`depth` is this
// object's, were it a container).
bool within(const msgpack::object& o, const msgpack_rpc::limits& l, std::size_t depth = 1) {
  switch (o.type) {
    case msgpack::type::ARRAY:
      if (depth > l.max_depth || o.via.array.size > l.max_array) return false;
      for (std::uint32_t i = 0; i < o.via.array.size; ++i)
        if (!within(o.via.array.ptr[i], l, depth + 1)) return false;
      return true;
    case msgpack::type::MAP:
      if (depth > l.max_depth || o.via.map.size > l.max_map) return false;
      for (std::uint32_t i = 0; i < o.via.map.size; ++i)
        if (!within(o.via.map.ptr[i].key, l, depth + 1) || !within(o.via.map.ptr[i].val, l, depth + 1))
          return false;
      return true;
    case msgpack::type::STR: return o.via.str.size <= l.max_str;
    case msgpack::type::BIN: return o.via.bin.size <= l.max_bin;
    case msgpack::type::EXT: return o.via.ext.size <= l.max_ext;
    default: return true;
  }
}

std::string describe(const msgpack::object& o) {
  std::string line = "message " + fuzz::printable(packed(o));
  if (const auto type = msgpack_rpc::type_of(o)) line += " type=" + std::to_string(int(*type));
  std::optional<std::uint32_t> msgid;
  if (const auto r = msgpack_rpc::as_request(o, &msgid))
    line += " request " + std::to_string(r->msgid) + " " + fuzz::printable(r->method);
  else if (msgid)
    line += " bad request " + std::to_string(*msgid);
  if (const auto r = msgpack_rpc::as_response(o)) line += " response " + std::to_string(r->msgid);
  return line;
}

std::vector<std::string> run(const msgpack_rpc::limits& limits,
                             const std::vector<std::string_view>& reads) {
  msgpack_rpc::stream_decoder decoder(limits);
  msgpack_rpc::stream_decoder again;  // decodes each message packed again
  const auto check = [&](const msgpack::object_handle& handle) {
    const std::string bytes = packed(handle.get());
    // Packed again it is no longer than it arrived (msgpack packs each value as small as it
    // can), so no longer than the bound either; and every count, length and depth is in limits.
    if (bytes.size() > limits.max_buffered || !within(handle.get(), limits))
      fuzz::fail(target, "a message over the limits was accepted: " + fuzz::printable(bytes));
    // Packed again, it decodes to the same bytes, and to nothing more (msgpack may pick other
    // widths than the input did, so the input itself is not compared). One decoder for the
    // run: a decoder per message made the ASan build's run of this target 20 times slower.
    again.feed(as_bytes(bytes));
    std::error_code again_error;
    auto copy = again.next(again_error);
    if (!copy || packed(copy->get()) != bytes || again.mid_message())
      fuzz::fail(target, "a message does not survive packing again: " + fuzz::printable(bytes));
    return describe(handle.get());
  };
  return fuzz::feed_reads(
      decoder, reads, check, [](std::error_code error) { return "error " + error.message(); },
      [&] { return "end, mid_message=" + std::to_string(decoder.mid_message()); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::stream_input in(data, size);
  const std::size_t s = (in.settings() & 15u) + 1;
  msgpack_rpc::limits limits;
  limits.max_array = limits.max_map = 2 * s;
  limits.max_str = limits.max_bin = 32 * s;
  limits.max_ext = 8 * s;
  limits.max_depth = (in.settings() >> 4) % 8u + 1;
  limits.max_buffered = 128 * s;
  return in.expect_same_whole_and_cut(target, [&](const auto& reads) { return run(limits, reads); });
}
