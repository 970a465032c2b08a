#pragma once
// Views between text and bytes, without copies.
#include <cstddef>
#include <span>
#include <string_view>

namespace wirebench {

/// The bytes of `s`, as a view (no copy): valid while `s`'s characters are.
inline std::span<const std::byte> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}
/// The text of `b`, as a view (no copy): valid while `b`'s bytes are.
inline std::string_view as_text(std::span<const std::byte> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

}  // namespace wirebench
