#pragma once
// The tables `wirebench run` prints: figures in three significant digits of the largest unit
// the value reaches (52.1us, 1.23ms; 181k), and rows in aligned columns.
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace wirebench::app {

inline std::string scaled(double value, std::initializer_list<std::pair<double, const char*>> units) {
  char text[32];
  for (const auto& [size, suffix] : units) {
    if (value >= size || size == 1) {
      std::snprintf(text, sizeof text, "%.3g%s", value / size, suffix);
      return text;
    }
  }
  return "-";
}
inline std::string microseconds(double us) { return scaled(us, {{1e6, "s"}, {1e3, "ms"}, {1, "us"}}); }
inline std::string count(double n) { return scaled(n, {{1e6, "M"}, {1e3, "k"}, {1, ""}}); }

// The rows in columns as wide as their widest cell, a rule under the first (the header).
inline void write_rows(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      std::string cell = rows[r][i];
      cell.resize(width[i], ' ');
      if (i) line += "  ";
      line += cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    if (r == 0) {
      std::string rule;
      for (std::size_t i = 0; i < width.size(); ++i) {
        if (i) rule += "  ";
        rule.append(width[i], '-');
      }
      out << rule << "\n";
    }
  }
}

}  // namespace wirebench::app
