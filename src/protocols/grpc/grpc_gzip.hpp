#pragma once
// gRPC's gzip message encoding (doc/compression.md: grpc-encoding gzip, each message compressed
// on its own, its flag byte 1) over zlib. Sans-IO: bytes in, bytes out.
#include <cstddef>
#include <span>
#include <string>
#include <system_error>

namespace wirebench::grpc_wire {

/// `compressed` (one gzip member) inflated into `out` (replaced). frame_too_long when it inflates
/// past `max_bytes` (a small message that inflates without bound is refused as it grows, never
/// held); protocol_error when it is not gzip, or ends early or with bytes after it.
std::error_code gunzip(std::span<const std::byte> compressed, std::size_t max_bytes, std::string& out);

/// `plain` as one gzip member, into `out` (replaced).
void gzip(std::span<const std::byte> plain, std::string& out);

}  // namespace wirebench::grpc_wire
