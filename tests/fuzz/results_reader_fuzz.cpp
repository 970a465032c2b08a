// libFuzzer target for the results reader (wirebench report and merge read files from anywhere):
// any bytes the CLI would hand it (under its nesting bound) are a run record or one std::exception
// naming the field; never a crash, and never more memory than the reader's bounds allow.
// Input: the file's bytes.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "wirebench/load/results_reader.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!wirebench::nesting_within(text, wirebench::max_json_nesting)) return 0;  // refused before
  try {
    (void)wirebench::read_results_json(text);
  } catch (const std::exception&) {
  }
  return 0;
}
