// libFuzzer target for what the tools read from a user's files and flags, before any call: a
// workload's YAML (with aliases), and the placeholders of a request (__payload_N__,
// __rand_str_N__, __rand_int__, __pick(a|b)__) expanded and filled. Input: [kind] then the text.
//   kind 0: the text as a YAML workload (yaml_as_json), under the CLI's nesting bound
//   kind 1: the text as an HTTP target with payloads and random strings expanded, its picks
//           expanded (none reading files: '@' and __csv( are left out) and each variant filled
// Checked: each ends with a value or one std::invalid_argument; a filled request keeps its
// length. Any other exception, or a crash, aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "app/workload_yaml.hpp"
#include "fuzz_support.hpp"
#include "protocols/http/http_call.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "tool_input";

void yaml(const std::string& text) {
  if (!nesting_within(text, max_json_nesting)) return;  // refused before
  try {
    (void)app::yaml_as_json(text, "fuzz.yaml");
  } catch (const std::invalid_argument&) {
  }
}

void placeholders(const std::string& text) {
  if (text.find('@') != std::string::npos || text.find("__csv(") != std::string::npos) return;
  http_call h;
  h.method = "GET";
  h.target = "/" + text;
  h.authority = "127.0.0.1:1";
  try {
    const picked_calls picked = expand_picks({user_call{h}});
    for (const user_call& variant : picked.variants) {
      const user_call built = with_payloads(variant);
      const std::string& bytes = built.as<http_call>()->target;
      placeholder_filler filler(bytes, 1000, 1);
      std::string filled = bytes;
      filler.fill(filled);
      if (filled.size() != bytes.size()) fuzz::fail(target, "a filled request changed its length");
    }
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::input in(data, size, 1);
  const std::string text(in.stream());
  if (in.setting(0) % 2 == 0) yaml(text);
  else placeholders(text);
  return 0;
}
