#pragma once
// The error category of calls that ended with one of gRPC's 17 status codes, under the names a
// protocol gives them: gRPC's own (status_UNAVAILABLE, "gRPC status UNAVAILABLE") and Connect's
// (connect_unavailable, "Connect code unavailable"). The value of a code is the status's number.
#include <array>
#include <string>
#include <string_view>

#include "wirebench/core/named_error_category.hpp"

namespace wirebench::grpc_wire {

class status_names_category final : public named_error_category {
 public:
  /// `names` by status number; a count is `count_prefix` + name, a message `message_prefix` + name.
  status_names_category(const char* name, std::string message_prefix, const std::string& count_prefix,
                        const std::array<std::string_view, 17>& names)
      : name_(name), message_prefix_(std::move(message_prefix)), names_(names) {
    for (std::size_t i = 0; i < counted_.size(); ++i) counted_[i] = count_prefix + std::string(names[i]);
  }
  const char* name() const noexcept override { return name_; }
  std::string message(int value) const override {
    return message_prefix_ + std::string(names_[index(value)]);
  }
  std::string_view code_name(int value) const noexcept override { return counted_[index(value)]; }

 private:
  // A number past the table is UNKNOWN (2), as gRPC's clients read it.
  static std::size_t index(int value) { return value >= 0 && value < 17 ? static_cast<std::size_t>(value) : 2; }
  const char* name_;
  std::string message_prefix_;
  std::array<std::string_view, 17> names_;
  std::array<std::string, 17> counted_;
};

}  // namespace wirebench::grpc_wire
