#include "workload_yaml.hpp"

#include <regex>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

namespace wirebench::app {
namespace {

using nlohmann::json;

// A plain (unquoted) scalar as the core schema reads it; a quoted one is always a string.
json scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: "200" stays a string
  static const std::regex whole("[-+]?[0-9]+"), decimal("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (std::regex_match(text, whole)) {
    try {
      if (text[0] == '-') return std::stoll(text);
      return std::stoull(text[0] == '+' ? text.substr(1) : text);
    } catch (const std::out_of_range&) {
      return text;  // beyond 64 bits: the schema refuses it as not a number, by name
    }
  }
  if (std::regex_match(text, decimal)) return std::stod(text);
  return text;
}

json convert(const YAML::Node& node, const std::string& file) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return nullptr;
    case YAML::NodeType::Scalar: return scalar(node);
    case YAML::NodeType::Sequence: {
      json list = json::array();
      for (const auto& item : node) list.push_back(convert(item, file));
      return list;
    }
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) {
        if (!entry.first.IsScalar())
          throw std::invalid_argument(file + ": line " + std::to_string(entry.first.Mark().line + 1) +
                                      ": a key must be a plain name");
        object[entry.first.Scalar()] = convert(entry.second, file);
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
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(file + ": not YAML: line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return convert(root, file);
}

}  // namespace wirebench::app
