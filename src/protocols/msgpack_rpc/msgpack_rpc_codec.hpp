#pragma once
// MessagePack-RPC, sans-IO (https://github.com/msgpack-rpc/msgpack-rpc/blob/master/spec.md):
//   request       [0, msgid, method, params]
//   response      [1, msgid, error, result]     (error nil on success)
//   notification  [2, method, params]
// Messages follow each other with no framing: msgpack_stream_decoder feeds bytes to msgpack's
// streaming unpacker (which keeps its parse state across reads, so nothing is re-parsed), with
// every unpack limit set, so a declared count or length cannot make us allocate.
// msgpack-cxx reports errors by throwing; this file turns them into error codes at its boundary.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include <msgpack.hpp>

#include "wirebench/core/feed_decoder.hpp"

namespace wirebench::msgpack_rpc {

struct limits {
  std::size_t max_array = 64;     // elements in one array
  std::size_t max_map = 64;       // pairs in one map
  std::size_t max_str = 1 << 20;  // bytes in one string
  std::size_t max_bin = 1 << 20;
  std::size_t max_ext = 1 << 10;
  std::size_t max_depth = 8;      // nesting
  std::size_t max_buffered = (1 << 20) + 4096;  // bytes of one message
};

class stream_decoder {
 public:
  explicit stream_decoder(limits l = {});
  // A feed_decoder (core/feed_decoder.hpp). feed() takes a copy of `bytes` (the unpacker owns
  // its buffer); next() then bounds each message.
  void feed(std::span<const std::byte> bytes);
  // The next complete message, nullopt when more bytes are needed, or an error: protocol_error
  // (not msgpack) or frame_too_long (a count or length over the limits, or a message of more
  // than max_buffered bytes, complete or not). After an error the stream is lost.
  std::optional<msgpack::object_handle> next(std::error_code& error);
  // Nothing to give back: each handle next() returns owns its zone and keeps the unpacker's
  // buffer it views alive (msgpack counts the references).
  void release() {}
  // Parsed in part counts too (the unpacker may have parsed every byte it was given).
  bool mid_message() const { return unpacker_.message_size() != 0; }

 private:
  limits limits_;
  msgpack::unpacker unpacker_;
};

static_assert(feed_decoder<stream_decoder>);

enum class message_type : std::uint8_t { request = 0, response = 1, notification = 2 };

struct request {
  std::uint32_t msgid;
  std::string_view method;
  msgpack::object params;  // an array
};
struct response {
  std::uint32_t msgid;
  msgpack::object error;   // nil on success
  msgpack::object result;
};

// Shape checks. A request whose msgid can be read but whose other fields are wrong is reported
// with *msgid set, so the server can answer it with an error instead of closing.
std::optional<request> as_request(const msgpack::object& o, std::optional<std::uint32_t>* msgid);
std::optional<response> as_response(const msgpack::object& o);
std::optional<message_type> type_of(const msgpack::object& o);

// msgpack::packer writes to anything with write(const char*, size_t): this appends to a string.
struct string_writer {
  std::string& out;
  void write(const char* data, std::size_t n) { out.append(data, n); }
};

// Encoders append to a string (the connection takes it without another copy when large).
void append_request(std::string& out, std::uint32_t msgid, std::string_view method,
                    std::string_view single_string_param);
void append_response(std::string& out, std::uint32_t msgid, std::string_view result);
void append_error_response(std::string& out, std::uint32_t msgid, std::string_view error);

}  // namespace wirebench::msgpack_rpc
