#pragma once
// A configuration value refused at start-up, naming the setting it belongs to by its config name
// ("tls", "url", "slo"), not by how a user gave it: the layer that took it from the user (the CLI,
// app/error_text.hpp) words it its own way ("--url: ..."). what() is "<setting>: <detail>" for
// anyone else.
#include <stdexcept>
#include <string>
#include <utility>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// A refused setting (see above). Thrown at start-up only.
class WIREBENCH_API setting_error : public std::invalid_argument {
 public:
  setting_error(std::string setting, std::string detail)
      : std::invalid_argument(setting + ": " + detail),
        setting_(std::move(setting)),
        detail_(std::move(detail)) {}

  /// The setting's config name: "tls", "url", "command", "call", "proto", "reflect", "method", "slo".
  const std::string& setting() const { return setting_; }
  /// What is wrong with it, without its name.
  const std::string& detail() const { return detail_; }

 private:
  std::string setting_;
  std::string detail_;
};

}  // namespace wirebench
