// libFuzzer target for what the tools read from a user's files and flags, before any call: a
// workload's YAML (with aliases), and the placeholders of a request (__payload_N__,
// __rand_str_N__, __rand_int__, __pick(a|b)__) expanded and filled. Input: [kind] then the text.
//   kind 0: the text as a YAML workload (yaml_as_json), under the CLI's nesting bound
//   kind 1: the text as an HTTP target with payloads and random strings expanded, its picks
//           expanded (none reading files: '@' and __csv( are left out) and each variant filled
//   kind 2: the text as a JSON workload (kind 3: a YAML one), its requests read for one form
//           (setting 1 picks which) or, with setting 1 past the forms, for all of them by section
// Checked: each ends with a value or one std::invalid_argument; a filled request keeps its
// length. Any other exception, or a crash, aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/workload_document.hpp"
#include "app/workload_yaml.hpp"
#include "fuzz_support.hpp"
#include "protocols/http/http_call.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/protocols/nesting_depth.hpp"
#include "wirebench/protocols/registry.hpp"

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

// What read_workload does with a file's content, but for the flags: no -H, -d or --proto beside.
void workload(const std::string& text, bool as_yaml, std::uint8_t which) {
  if (!nesting_within(text, max_json_nesting)) return;  // refused before
  const std::vector<const user_call_form*> all = protocol_registry::builtin().forms();
  const std::vector<const user_call_form*> forms =
      which < all.size() ? std::vector<const user_call_form*>{all[which]} : all;
  try {
    const nlohmann::json doc = as_yaml ? app::yaml_as_json(text, "fuzz.yaml")
                                       : nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return;
    (void)app::workload_from_document(doc, "fuzz.json", forms, given_flags{}, 1);
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::input in(data, size, 2);
  const std::string text(in.stream());
  switch (in.setting(0) % 4) {
    case 0: yaml(text); break;
    case 1: placeholders(text); break;
    default: workload(text, in.setting(0) % 4 == 3, in.setting(1));
  }
  return 0;
}
