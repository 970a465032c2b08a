#pragma once
// What an encoder produces: gather buffers (a small framing prefix, the caller's payload, a small
// framing suffix) for one writev. The payload is referenced, not copied: it must outlive the frame.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace wirebench {

struct encoded_frame {
  std::array<std::byte, 16> prefix_bytes{};  // framing header(s): length, mux header, ...
  std::uint8_t prefix_size = 0;
  std::array<std::byte, 2> suffix_bytes{};
  std::uint8_t suffix_size = 0;
  std::span<const std::byte> payload{};

  std::span<const std::byte> prefix() const { return {prefix_bytes.data(), prefix_size}; }
  std::span<const std::byte> suffix() const { return {suffix_bytes.data(), suffix_size}; }
  std::array<std::span<const std::byte>, 3> buffers() const { return {prefix(), payload, suffix()}; }
  std::size_t size() const { return prefix_size + payload.size() + suffix_size; }
};

}  // namespace wirebench
