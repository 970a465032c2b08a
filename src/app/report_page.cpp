#include "report_page.hpp"

#include <stdexcept>

#include "report_assets.hpp"

namespace wirebench::app {
namespace {

// Text for inside <script> or <style>: nothing in it may end the element early. The data is
// JSON, where '<' only occurs inside strings, so each is written as \u003c; the assets are ours
// and Debian's, checked instead.
std::string script_safe_json(const nlohmann::json& data) {
  // Texts from results files (a server's words among them) may not be UTF-8: replaced, not thrown.
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

const std::string& checked(const std::string& asset, const char* name) {
  if (asset.find("</script") != std::string::npos || asset.find("</style") != std::string::npos)
    throw std::logic_error(std::string("the report's ") + name + " would end its element early");
  return asset;
}

std::string html_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string report_page(const nlohmann::json& data, const std::string& title) {
  static const std::string style = report_style(), chart = chart_js(), script = report_script();
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>" + html_escaped(title) + "</title>\n<style>\n";
  page += checked(style, "style");
  page += "</style>\n</head>\n<body>\n<div id=\"errors\" hidden></div>\n<div id=\"app\"></div>\n";
  page += "<script id=\"data\" type=\"application/json\">" + script_safe_json(data) + "</script>\n";
  page += "<script>\n" + checked(chart, "Chart.js") + "\n</script>\n";
  page += "<script>\n" + checked(script, "script") + "\n</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace wirebench::app
