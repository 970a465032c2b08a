#include "wirebench/core/status_error.hpp"

#include <array>
#include <string>

#include "wirebench/core/named_error_category.hpp"

namespace wirebench {
namespace {

class status_codes final : public named_error_category {
 public:
  const char* name() const noexcept override { return "wirebench.status"; }
  std::string message(int value) const override {
    return "unexpected status " + std::to_string(value);
  }
  std::string_view code_name(int value) const noexcept override { return status_error_name(value); }
};

}  // namespace

const std::error_category& status_category() noexcept {
  static const status_codes instance;
  return instance;
}

std::string_view status_error_name(int status) {
  // Made once: error_name hands out views, and a failed call's path should not format text.
  static const std::array<std::string, 1000> names = [] {
    std::array<std::string, 1000> n;
    for (int s = 0; s < 1000; ++s) n[s] = "status_" + std::to_string(s);
    return n;
  }();
  return status >= 0 && status < 1000 ? std::string_view(names[status]) : "status_other";
}

}  // namespace wirebench
