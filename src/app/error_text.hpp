#pragma once
// The CLI's wording of an error from the layers below it: those name a refused setting by its
// config name (core/setting_error.hpp), and this names the flag the user gave it with. One line.
#include <exception>
#include <string>

#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench::app {

// What to print for `e`: "--url: 'x': no host" for a setting_error, what() for anything else.
std::string error_text(const std::exception& e);

// Why protocol `name`, whose client sends `sends`, cannot send a `given` user call, with the flags
// that ask for each ("protocol 'resp' sends a RESP command (--command), not an HTTP request
// (--url or --path)"); "" when it can.
std::string user_call_mismatch(const std::string& name, const user_call_form* sends,
                               const user_call_form* given);

}  // namespace wirebench::app
