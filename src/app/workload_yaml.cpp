#include "workload_yaml.hpp"

#include <cctype>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "wirebench/protocols/nesting_depth.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

// The most values one workload file may expand to. An alias repeats the node it names, so a few
// hundred bytes of nested aliases ("billion laughs") would expand to gigabytes; no workload a
// person writes comes near this.
constexpr std::size_t max_yaml_values = 1'000'000;

// Digits, at least one, from `at` on: where they end.
std::size_t digits_from(const std::string& text, std::size_t at) {
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  return at;
}

// The core schema's integer ([-+]?[0-9]+) and float ([-+]?(digits.digits?|.digits)(e[-+]?digits)?),
// by hand: std::regex recurses once per character, and a scalar of 40 000 digits ended the
// process on its stack.
bool is_whole(const std::string& text) {
  const std::size_t from = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  return from < text.size() && digits_from(text, from) == text.size();
}
bool is_decimal(const std::string& text) {
  std::size_t at = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  const std::size_t whole_end = digits_from(text, at);
  if (whole_end >= text.size() || text[whole_end] != '.') return false;
  const std::size_t fraction_end = digits_from(text, whole_end + 1);
  if (whole_end == at && fraction_end == whole_end + 1) return false;  // "." alone
  at = fraction_end;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    const std::size_t exponent_end = digits_from(text, at);
    if (exponent_end == at) return false;
    at = exponent_end;
  }
  return at == text.size();
}

// A plain (unquoted) scalar as the core schema reads it; a quoted one is always a string.
json scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: "200" stays a string
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (is_whole(text)) {
    try {
      if (text[0] == '-') return std::stoll(text);
      return std::stoull(text[0] == '+' ? text.substr(1) : text);
    } catch (const std::out_of_range&) {
      return text;  // beyond 64 bits: the schema refuses it as not a number, by name
    }
  }
  if (is_decimal(text)) {
    try {
      return std::stod(text);
    } catch (const std::out_of_range&) {
      return text;  // beyond a double: refused by name as not a number
    }
  }
  return text;
}

// `depth`: the node's nesting, at most max_json_nesting, as JSON's (block style, "- - - x",
// nests without a bracket the text check could count, and this recurses once per level).
json convert(const YAML::Node& node, const std::string& file, std::size_t& values, std::size_t depth) {
  if (++values > max_yaml_values)
    throw std::invalid_argument(file + ": expands to more than " + std::to_string(max_yaml_values) +
                                " values (its aliases repeat what they name)");
  if (depth > max_json_nesting)
    throw std::invalid_argument(file + ": line " + std::to_string(node.Mark().line + 1) + ": nests deeper than " +
                                std::to_string(max_json_nesting) + " levels");
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return nullptr;
    case YAML::NodeType::Scalar: return scalar(node);
    case YAML::NodeType::Sequence: {
      json list = json::array();
      for (const auto& item : node) list.push_back(convert(item, file, values, depth + 1));
      return list;
    }
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) {
        if (!entry.first.IsScalar())
          throw std::invalid_argument(file + ": line " + std::to_string(entry.first.Mark().line + 1) +
                                      ": a key must be a plain name");
        object[entry.first.Scalar()] = convert(entry.second, file, values, depth + 1);
      }
      return object;
    }
  }
  return nullptr;
}

}  // namespace

json yaml_as_json(const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);  // yaml-cpp refuses nesting past its depth guard (DeepRecursion)
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(file + ": not YAML: line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  std::size_t values = 0;
  return convert(root, file, values, 0);
}

}  // namespace wirebench::app
