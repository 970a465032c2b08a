#pragma once
// A file's whole text ("" when it cannot be read): what a child process wrote, a results file.
#include <fstream>
#include <sstream>
#include <string>

namespace wirebench::test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace wirebench::test
