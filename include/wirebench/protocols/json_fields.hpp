#pragma once
// The fields of one JSON object read with their path in every refusal ("urls.json:
// requests[2].weight: a whole number from 1 to 1000000"): a workload file's request and a
// results file's request are read through it, each by the form of its family (user_call_form.hpp).
// Start-up code: each refusal throws std::invalid_argument, one line.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace wirebench {

class json_fields {
 public:
  // `where` names the object ("urls.json: requests[2]"); `j` must outlive the reader.
  json_fields(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {}

  bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
  // Present and not null (results write an absent expectation as null).
  bool has_value(const char* key) const { return has(key) && !j_[key].is_null(); }
  // The path to a field, for a refusal of its own.
  std::string at(const char* key) const { return where_ + "." + key; }
  [[noreturn]] static void refuse(const std::string& why);

  // Each refuses a field that is missing or of another type.
  const nlohmann::json& raw(const char* key) const;
  std::string text(const char* key) const;
  bool flag(const char* key) const;
  std::uint64_t whole(const char* key, std::uint64_t lowest, std::uint64_t highest) const;
  std::vector<std::string> texts(const char* key) const;  // a list of strings
  // Header lines (HTTP headers, gRPC metadata): an object {"name": "value"} or a list of
  // 'name: value' (parse_header's), in order; `pairs` also takes [["name", "value"], ...], as
  // results write them.
  std::vector<std::pair<std::string, std::string>> headers(const char* key) const;

 private:
  const nlohmann::json& j_;
  std::string where_;
};

}  // namespace wirebench
