#pragma once
// What an encoder produces: gather buffers (a small framing prefix, the caller's payload, a small
// framing suffix) for one writev. The payload is referenced, not copied: it must outlive the frame.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace wirebench {

/// One encoded frame as gather buffers: prefix, payload (referenced), suffix.
struct encoded_frame {
  std::array<std::byte, 16> prefix_bytes{};  // framing header(s): length, mux header, ...
  /// How many bytes of prefix_bytes are used.
  std::uint8_t prefix_size = 0;
  /// Framing trailer (e.g. the line delimiter); suffix_size bytes of it are used.
  std::array<std::byte, 2> suffix_bytes{};
  /// How many bytes of suffix_bytes are used.
  std::uint8_t suffix_size = 0;
  /// The caller's payload, not copied: it must outlive the frame.
  std::span<const std::byte> payload{};

  /// The used part of prefix_bytes.
  std::span<const std::byte> prefix() const { return {prefix_bytes.data(), prefix_size}; }
  /// The used part of suffix_bytes.
  std::span<const std::byte> suffix() const { return {suffix_bytes.data(), suffix_size}; }
  /// The three gather buffers, in wire order (prefix, payload, suffix).
  std::array<std::span<const std::byte>, 3> buffers() const { return {prefix(), payload, suffix()}; }
  /// Total bytes on the wire.
  std::size_t size() const { return prefix_size + payload.size() + suffix_size; }
};

}  // namespace wirebench
