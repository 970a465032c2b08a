#pragma once
// The versions of the libraries the backends are built on, recorded with every result so that a
// figure can be tied to the code that produced it.
#include <string>
#include <utility>
#include <vector>

namespace wirebench {

// (library, version) pairs: the runtime version where the library reports one, else the headers'.
// Asio and OpenSSL first, then each registered protocol's libraries (once each), then the I/O path.
std::vector<std::pair<std::string, std::string>> library_versions();

// "1.2.3": for protocol::libraries, from a library's version macros.
std::string dotted_version(int major, int minor, int patch);

}  // namespace wirebench
