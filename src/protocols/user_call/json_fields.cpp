#include "wirebench/protocols/json_fields.hpp"

#include <stdexcept>

#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench {

void json_fields::refuse(const std::string& why) { throw std::invalid_argument(why); }

const nlohmann::json& json_fields::raw(const char* key) const {
  if (!has(key)) refuse(at(key) + ": missing");
  return j_[key];
}

std::string json_fields::text(const char* key) const {
  const nlohmann::json& v = raw(key);
  if (!v.is_string()) refuse(at(key) + ": a string, not " + v.type_name());
  return v.get<std::string>();
}

bool json_fields::flag(const char* key) const {
  const nlohmann::json& v = raw(key);
  if (!v.is_boolean()) refuse(at(key) + ": true or false, not " + v.type_name());
  return v.get<bool>();
}

std::uint64_t json_fields::whole(const char* key, std::uint64_t lowest, std::uint64_t highest) const {
  const nlohmann::json& v = raw(key);
  // A parsed file holds 5 as unsigned; a document built in memory from an int, as signed.
  const bool whole = v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
  if (!whole || v.get<std::uint64_t>() < lowest || v.get<std::uint64_t>() > highest)
    refuse(at(key) + ": a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest));
  return v.get<std::uint64_t>();
}

std::vector<std::string> json_fields::texts(const char* key) const {
  const nlohmann::json& v = raw(key);
  if (!v.is_array()) refuse(at(key) + ": a list of strings, not " + v.type_name());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) refuse(at(key) + "[" + std::to_string(i) + "]: a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> json_fields::headers(const char* key) const {
  const nlohmann::json& hs = raw(key);
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const std::string& line, const std::string& where) {
    try {
      out.push_back(parse_header(line));
    } catch (const std::exception& e) {
      refuse(where + ": " + e.what());
    }
  };
  if (hs.is_object()) {
    for (const auto& [name, value] : hs.items()) {
      if (!value.is_string()) refuse(at(key) + "." + name + ": a string");
      add(name + ": " + value.get<std::string>(), at(key) + "." + name);
    }
    return out;
  }
  if (!hs.is_array()) refuse(at(key) + ": an object {\"name\": \"value\"} or a list of 'name: value'");
  for (std::size_t i = 0; i < hs.size(); ++i) {
    const std::string where = at(key) + "[" + std::to_string(i) + "]";
    if (hs[i].is_array() && hs[i].size() == 2 && hs[i][0].is_string() && hs[i][1].is_string()) {
      // As results keep them: the pair as sent, not re-parsed.
      out.emplace_back(hs[i][0].get<std::string>(), hs[i][1].get<std::string>());
      continue;
    }
    if (!hs[i].is_string()) refuse(where + ": a string 'name: value'");
    add(hs[i].get<std::string>(), where);
  }
  return out;
}

}  // namespace wirebench
