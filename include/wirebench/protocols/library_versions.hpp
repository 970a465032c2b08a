#pragma once
// The versions of the libraries the backends are built on, recorded with every result so that a
// figure can be tied to the code that produced it.
#include <string>
#include <utility>
#include <vector>

namespace wirebench {

// (library, version) pairs: the runtime version where the library reports one, else the headers'.
std::vector<std::pair<std::string, std::string>> library_versions();

}  // namespace wirebench
