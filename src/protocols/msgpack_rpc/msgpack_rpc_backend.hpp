#pragma once
// The msgpack-rpc backend's server and client, built by the registry entry
// (msgpack_rpc_protocol.cpp).
#include <memory>

#include "msgpack_rpc_codec.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::msgpack_rpc {

// The decoder limits for a backend whose largest message body is max_frame_bytes.
inline limits limits_for(std::size_t max_frame_bytes) {
  limits l;
  l.max_str = max_frame_bytes;
  l.max_bin = max_frame_bytes;
  l.max_buffered = max_frame_bytes + 4096;
  return l;
}

server_codec_factory server_codecs(const server_config& config);
client_codec_factory client_codecs(const client_config& config);

}  // namespace wirebench::msgpack_rpc
