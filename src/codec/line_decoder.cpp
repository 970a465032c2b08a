#include "wirebench/codec/line_decoder.hpp"

#include <cassert>
#include <cstring>
#include <stdexcept>

namespace wirebench {

line_decoder::line_decoder(line_decoder_config config) : config_(config) {}

decode_result line_decoder::decode(std::span<const std::byte> data) {
  if (failed_) return {decode_status::too_large, 0, {}};

  std::size_t dropped = 0;  // bytes of an oversize line discarded in this call (resync)
  if (discarding_) {
    // memchr on an empty span would be given a null pointer: undefined behaviour.
    const void* nl = data.empty() ? nullptr : std::memchr(data.data(), '\n', data.size());
    if (nl == nullptr) return {decode_status::need_more, data.size(), {}};
    dropped = static_cast<std::size_t>(static_cast<const std::byte*>(nl) - data.data()) + 1;
    discarding_ = false;
    data = data.subspan(dropped);
  }

  const std::byte* base = data.data();
  const std::size_t n = data.size();
  assert(scanned_ <= n && "decode() must be given the unconsumed bytes again, possibly extended");
  if (scanned_ > n) scanned_ = 0;  // contract broken by the caller: rescan rather than misframe

  const void* nl = scanned_ < n ? std::memchr(base + scanned_, '\n', n - scanned_) : nullptr;
  if (nl != nullptr) {
    const auto pos = static_cast<std::size_t>(static_cast<const std::byte*>(nl) - base);
    std::size_t len = pos;
    if (config_.strip_cr && len > 0 && base[len - 1] == std::byte{'\r'}) --len;
    scanned_ = 0;
    if (len > config_.max_line_bytes) {
      if (config_.on_oversize == oversize_policy::resync)
        return {decode_status::too_large, dropped + pos + 1, {}};
      failed_ = true;
      return {decode_status::too_large, dropped, {}};
    }
    return {decode_status::frame, dropped + pos + 1, data.first(len)};
  }

  // No '\n' yet. The frame will be at least this long: a trailing '\r' might still be stripped.
  scanned_ = n;
  std::size_t at_least = n;
  if (config_.strip_cr && n > 0 && base[n - 1] == std::byte{'\r'}) --at_least;
  if (at_least > config_.max_line_bytes) {
    scanned_ = 0;
    if (config_.on_oversize == oversize_policy::resync) {
      discarding_ = true;
      return {decode_status::too_large, dropped + n, {}};
    }
    failed_ = true;
    return {decode_status::too_large, dropped, {}};
  }
  return {decode_status::need_more, dropped, {}};
}

}  // namespace wirebench
