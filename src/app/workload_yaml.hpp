#pragma once
// A YAML workload file (run --workload mix.yaml) as the JSON document the workload schema is
// checked on (workload_options.cpp): one schema, the same messages naming the same fields.
// Start-up code.
#include <string>

#include <nlohmann/json.hpp>

namespace wirebench::app {

// `text` read as YAML (yaml-cpp), its plain scalars typed as YAML 1.2's core schema types them:
// true/false, null (~ or empty), whole and decimal numbers; anything else, and every quoted
// scalar, a string. Throws std::invalid_argument naming `file` and the line when it does not
// parse.
nlohmann::json yaml_as_json(const std::string& text, const std::string& file);

}  // namespace wirebench::app
