#pragma once
// Text that came from elsewhere (a server's error message, a user's 20 MB -d) as one line a
// terminal shows safely: control bytes (ESC's sequences, newlines) written as \xNN, and cut to a
// length a message can carry, saying how long it was. Sans-IO.
#include <cstddef>
#include <string>
#include <string_view>

namespace wirebench {

// `text` escaped and, past `most` bytes, cut: "abc… (1048576 bytes)".
std::string peer_text(std::string_view text, std::size_t most = 200);

}  // namespace wirebench
