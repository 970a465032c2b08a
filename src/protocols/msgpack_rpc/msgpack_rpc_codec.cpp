#include "msgpack_rpc_codec.hpp"

#include <cstring>

#include "wirebench/core/error.hpp"

namespace wirebench::msgpack_rpc {
stream_decoder::stream_decoder(limits l)
    : limits_(l),
      unpacker_(nullptr, nullptr, 4096,
                msgpack::unpack_limit(l.max_array, l.max_map, l.max_str, l.max_bin, l.max_ext,
                                      l.max_depth)) {}

// Not bounded here: complete messages may wait in the unpacker while the server is at its
// in-flight cap (reading pauses then), and next() bounds each message, complete or not.
void stream_decoder::feed(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  unpacker_.reserve_buffer(bytes.size());
  std::memcpy(unpacker_.buffer(), bytes.data(), bytes.size());
  unpacker_.buffer_consumed(bytes.size());
}

std::optional<msgpack::object_handle> stream_decoder::next(std::error_code& error) {
  msgpack::object_handle handle;
  try {
    // A message is bounded by its size, however its bytes were split into reads: one that
    // arrived whole is measured as one that arrived piecemeal is.
    // message_size(): what the unpacker parsed of the current message plus every unparsed byte.
    const std::size_t before = unpacker_.message_size();
    if (unpacker_.next(handle)) {
      if (before - unpacker_.nonparsed_size() <= limits_.max_buffered) return handle;
      error = errc::frame_too_long;
      return std::nullopt;
    }
  } catch (const msgpack::size_overflow&) {  // also depth_size_overflow
    error = errc::frame_too_long;  // a declared count, length or depth over the limits
    return std::nullopt;
  } catch (const std::exception&) {
    error = errc::protocol_error;  // not msgpack
    return std::nullopt;
  }
  if (unpacker_.message_size() > limits_.max_buffered) error = errc::frame_too_long;
  return std::nullopt;
}

std::optional<message_type> type_of(const msgpack::object& o) {
  if (o.type != msgpack::type::ARRAY || o.via.array.size == 0) return std::nullopt;
  const msgpack::object& t = o.via.array.ptr[0];
  if (t.type != msgpack::type::POSITIVE_INTEGER || t.via.u64 > 2) return std::nullopt;
  return static_cast<message_type>(t.via.u64);
}

namespace {
std::optional<std::uint32_t> as_msgid(const msgpack::object& o) {
  if (o.type != msgpack::type::POSITIVE_INTEGER || o.via.u64 > UINT32_MAX) return std::nullopt;
  return static_cast<std::uint32_t>(o.via.u64);
}
}  // namespace

std::optional<request> as_request(const msgpack::object& o, std::optional<std::uint32_t>* msgid) {
  if (type_of(o) != message_type::request || o.via.array.size < 2) return std::nullopt;
  const msgpack::object* f = o.via.array.ptr;
  const auto id = as_msgid(f[1]);
  if (msgid != nullptr) *msgid = id;
  if (!id || o.via.array.size != 4 || f[2].type != msgpack::type::STR ||
      f[3].type != msgpack::type::ARRAY)
    return std::nullopt;
  return request{*id, std::string_view(f[2].via.str.ptr, f[2].via.str.size), f[3]};
}

std::optional<response> as_response(const msgpack::object& o) {
  if (type_of(o) != message_type::response || o.via.array.size != 4) return std::nullopt;
  const msgpack::object* f = o.via.array.ptr;
  const auto id = as_msgid(f[1]);
  if (!id) return std::nullopt;
  return response{*id, f[2], f[3]};
}

namespace {

// A string in one call (msgpack's packer takes its header and its body in two).
void pack_text(msgpack::packer<string_writer>& pk, std::string_view text) {
  pk.pack_str(static_cast<std::uint32_t>(text.size()));
  pk.pack_str_body(text.data(), static_cast<std::uint32_t>(text.size()));
}

// A request's or a response's array and its first two fields, [type, msgid, ...].
void pack_start(msgpack::packer<string_writer>& pk, message_type type, std::uint32_t msgid) {
  pk.pack_array(4);
  pk.pack_uint8(static_cast<std::uint8_t>(type));
  pk.pack_uint32(msgid);
}

}  // namespace

void append_request(std::string& out, std::uint32_t msgid, std::string_view method,
                    std::string_view single_string_param) {
  string_writer w{out};
  msgpack::packer<string_writer> pk(w);
  pack_start(pk, message_type::request, msgid);
  pack_text(pk, method);
  pk.pack_array(1);
  pack_text(pk, single_string_param);
}

void append_response(std::string& out, std::uint32_t msgid, std::string_view result) {
  string_writer w{out};
  msgpack::packer<string_writer> pk(w);
  pack_start(pk, message_type::response, msgid);
  pk.pack_nil();
  pack_text(pk, result);
}

void append_error_response(std::string& out, std::uint32_t msgid, std::string_view error) {
  string_writer w{out};
  msgpack::packer<string_writer> pk(w);
  pack_start(pk, message_type::response, msgid);
  pack_text(pk, error);
  pk.pack_nil();
}

}  // namespace wirebench::msgpack_rpc
