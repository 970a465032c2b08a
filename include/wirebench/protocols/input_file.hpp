#pragma once
// A file a user names as input (a workload, a pick or CSV file, -d @FILE, --request @FILE, a
// body_file, a results file), read whole but bounded: the limit is known before anything is
// allocated for it. A regular file is judged by its size; a pipe (a shell's <(...), /dev/stdin
// fed by a pipe) is read up to one byte past the limit; a device (/dev/zero, /dev/urandom) or a
// directory is refused: none has an end to read to. Start-up code.
#include <cstddef>
#include <string>
#include <string_view>

namespace wirebench {

// The limits by what a file holds: what one call sends (-d @FILE, body_file, --request @FILE's
// lines) may be as large as a reply limit a user can set; a listing (a workload, picks, a CSV)
// is text a person wrote or a script listed; a results file carries every repeat's histograms.
inline constexpr std::size_t max_call_file_bytes = 64u << 20;
inline constexpr std::size_t max_listing_file_bytes = 16u << 20;
inline constexpr std::size_t max_results_file_bytes = 512u << 20;

// The bytes of `path`, at most `max_bytes` of them. Throws std::invalid_argument with one line
// that starts with `what` (the flag or field that named the file; may be empty) and the path: it
// cannot be read (the system's reason), it is not a file or a pipe, or it holds more than the
// limit.
std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what);

}  // namespace wirebench
