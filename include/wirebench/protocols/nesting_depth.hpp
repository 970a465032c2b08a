#pragma once
// How deep JSON (or YAML's flow style) nests, judged on the text before a library reads it:
// nlohmann's dump() and destructor, protobuf's JSON reader and yaml-cpp's parser recurse once per
// level, so text nested tens of thousands deep (a few hundred kilobytes) ends the process on its
// stack. Sans-IO.
#include <cstddef>
#include <string_view>

namespace wirebench {

// The most any JSON a user or a peer gives is allowed to nest: far past any message or workload
// a person writes, far below what a stack holds.
inline constexpr std::size_t max_json_nesting = 64;

// True when no array or object ('[' or '{') in `text` nests deeper than `most`. Double-quoted
// strings are skipped, escapes included; a bracket in a single-quoted YAML string counts (a
// refusal at worst, never a crash).
bool nesting_within(std::string_view text, std::size_t most);

}  // namespace wirebench
