#include "error_text.hpp"

#include <string_view>

#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

// The flag that gives each setting, where it is not "--" and the setting's name.
std::string flag_for(const std::string& setting) {
  if (setting == "header") return "-H";
  if (setting == "data") return "-d";
  return "--" + setting;
}

// The phrase with the flags that make such a call.
std::string form_with_flags(const user_call_form* form) {
  return form ? form->phrase() + " (" + form->asked_with + ")" : sends_phrase(form);
}

}  // namespace

std::string user_call_mismatch(const std::string& name, const user_call_form* sends,
                               const user_call_form* given) {
  if (sends == given) return {};
  return "protocol '" + name + "' sends " + form_with_flags(sends) + ", not " + form_with_flags(given);
}

std::string error_text(const std::exception& e) {
  if (const auto* refused = dynamic_cast<const user_call_refused*>(&e))
    return user_call_mismatch(refused->protocol, refused->sends, refused->given);
  if (const auto* setting = dynamic_cast<const setting_error*>(&e))
    return flag_for(setting->setting()) + ": " + setting->detail();
  return e.what();
}

}  // namespace wirebench::app
