#pragma once
// Base64 (RFC 4648) for what HTTP protocols carry in it: gRPC-Web's text mode (a whole body),
// binary metadata (-bin headers), Connect's GET messages (the URL-safe alphabet). Written by hand
// because what the libraries here offer (OpenSSL's EVP_Encode/Decode*) neither decodes a stream
// of separately padded chunks, which gRPC-Web-text bodies are when a proxy such as Envoy flushes
// each chunk padded, nor takes the URL-safe alphabet or missing padding; one implementation for
// both directions rather than OpenSSL's for one. Sans-IO.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace wirebench::http {

/// Appends `bytes` to `out` in base64; `url_safe`: '-' and '_' for '+' and '/'; `pad`: '=' to a
/// multiple of four characters.
void append_base64(std::string& out, std::span<const std::byte> bytes, bool url_safe = false, bool pad = true);
inline void append_base64(std::string& out, std::string_view bytes, bool url_safe = false, bool pad = true) {
  append_base64(out, std::as_bytes(std::span(bytes.data(), bytes.size())), url_safe, pad);
}

/// Decodes base64 as it arrives, in either alphabet, padded or not. A '=' ends a group of four;
/// after it a new one may begin (a stream of separately padded chunks decodes whole).
class base64_decoder {
 public:
  /// Appends to `out` what `text` decodes to; false at a character that is not base64, or a '='
  /// where none may stand: the stream is broken (and stays so).
  bool feed(std::string_view text, std::string& out);
  /// True when what was fed ends on a group's boundary (nothing waits for more characters).
  bool at_boundary() const { return count_ == 0 && pads_needed_ == 0 && !broken_; }
  /// The end of the text: an unpadded last group's bytes appended to `out`; false when the text
  /// ends inside a group no bytes can be made of, or inside its padding.
  bool finish(std::string& out);

 private:
  void emit_partial(std::string& out);
  unsigned bits_ = 0;    // the group's characters so far, 6 bits each
  int count_ = 0;        // characters of the current group (0 to 3)
  int pads_needed_ = 0;  // '=' still owed by a padded group
  bool broken_ = false;
};

/// The whole of `text` decoded into `out` (replaced): padded or not, either alphabet; false when
/// it is not base64.
bool decode_base64(std::string_view text, std::string& out);

}  // namespace wirebench::http
