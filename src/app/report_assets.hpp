#pragma once
// The report page's assets, compiled into the program (src/app/embed_report_assets.cmake), so
// that the page `wirebench report` writes holds them all and opens offline, with nothing beside it.
#include <initializer_list>
#include <string>
#include <string_view>

namespace wirebench::app {

std::string report_script();  // src/app/report/report.js: draws the page from its data
std::string report_style();   // src/app/report/report.css
std::string chart_js();       // Chart.js, Debian's libjs-chart.js (MIT): the charts

}  // namespace wirebench::app
