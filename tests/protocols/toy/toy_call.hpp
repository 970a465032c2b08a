#pragma once
// The toy protocol's own user call, as docs/ADDING_A_PROTOCOL.md walks one: any netstring payload
// instead of the greet call's name, with the reply it must get. Its form (toy_call_form.cpp) is
// all the CLI, workload files and results need: --netstring and --expect-netstring on the command
// line, a payload per line of a mix, a workload file's `netstring` section, the results' kind.
#include <optional>
#include <string>

namespace wirebench {

struct user_call_form;

namespace test {

struct netstring_call {
  std::string payload;  // sent as one netstring; placeholders (__rand_int__, picks) allowed
  std::optional<std::string> expect_reply = {};  // the whole reply; otherwise any reply succeeds
  friend bool operator==(const netstring_call&, const netstring_call&) = default;
};

const user_call_form& form_of(const netstring_call*);
inline const user_call_form& netstring_call_form() {
  return form_of(static_cast<const netstring_call*>(nullptr));
}

}  // namespace test
}  // namespace wirebench
