#pragma once
// The RESP family's user call (user_call.hpp): any command, as redis-cli and redis-benchmark send
// it, for the resp and redis-server clients. Its form (resp_call_form.cpp) reads it from
// --command and --expect-reply, from a command line of a mix and from a workload file's entries.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wirebench {

struct user_call_form;

struct resp_call {
  std::vector<std::string> args;  // the command and its arguments, each a bulk string
  // The whole reply, when given: a simple or bulk string's text, an integer's decimal digits.
  // Otherwise any reply but an error reply succeeds.
  std::optional<std::string> expect_reply = {};
  friend bool operator==(const resp_call&, const resp_call&) = default;
};

const user_call_form& form_of(const resp_call*);
inline const user_call_form& resp_call_form() { return form_of(static_cast<const resp_call*>(nullptr)); }

// Splits a command line into arguments as redis-cli does: blanks separate words; a word may be
// "double quoted" (escapes \n \r \t \b \a \\ \" and \xHH) or 'single quoted' (only \'), and a
// closing quote must end the word (our RESP server's inline-command splitter, Redis's
// sdssplitargs). Throws setting_error("command") on an unbalanced quote or an empty command.
std::vector<std::string> split_command(std::string_view line);

}  // namespace wirebench
