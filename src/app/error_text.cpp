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
std::string kind_with_flags(user_call_kind kind) {
  switch (kind) {
    case user_call_kind::none: return sends_phrase(kind);
    case user_call_kind::http: return sends_phrase(kind) + " (--url, --path, -X, -H, -d)";
    case user_call_kind::resp: return sends_phrase(kind) + " (--command)";
    case user_call_kind::grpc: return sends_phrase(kind) + " (--proto, --call, -d)";
    default: return sends_phrase(kind) + " (--method without a URL, -d)";
  }
}

}  // namespace

std::string user_call_mismatch(const std::string& name, user_call_kind sends, user_call_kind given) {
  if (sends == given) return {};
  return "protocol '" + name + "' sends " + kind_with_flags(sends) + ", not " +
         kind_with_flags(given);
}

std::string error_text(const std::exception& e) {
  if (const auto* refused = dynamic_cast<const user_call_refused*>(&e))
    return user_call_mismatch(refused->protocol, refused->sends, refused->given);
  if (const auto* setting = dynamic_cast<const setting_error*>(&e))
    return flag_for(setting->setting()) + ": " + setting->detail();
  return e.what();
}

}  // namespace wirebench::app
