#pragma once
// --max-reply SIZE, shared by `call` and `run`: the largest reply a client accepts (gRPC's
// receive limit by default). A larger one fails its call with frame_too_long and closes its
// connection (what follows it on the stream cannot be found). A connection's read buffer grows
// to the largest reply it has read, so the memory a run holds is at most connections x SIZE.
#include <cstddef>

#include <CLI/CLI.hpp>

namespace wirebench::app {

inline constexpr std::size_t default_max_reply_bytes = 4 * 1024 * 1024;
inline constexpr std::size_t most_max_reply_bytes = std::size_t{1} << 30;

void add_max_reply_flag(CLI::App& cmd, std::size_t& max_reply_bytes);

}  // namespace wirebench::app
