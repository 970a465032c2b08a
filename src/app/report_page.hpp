#pragma once
// The page `wirebench report` writes: one HTML file holding its style, Chart.js, the data
// (report_data.hpp) and the script that draws it, so that it opens from a file with no network.
#include <string>

#include <nlohmann/json.hpp>

namespace wirebench::app {

std::string report_page(const nlohmann::json& data, const std::string& title);

}  // namespace wirebench::app
