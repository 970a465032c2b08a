#pragma once
// The tools cache: where scripts/setup builds or installs the programs we did not write (grpcurl,
// ghz, h2spec) and our Go peers (tests/protocols/grpcgo_peer, connectgo_peer), as
// `<cache>/<name>-<version>/<name>`. The cache is $WIREBENCH_TOOLS, else $XDG_CACHE_HOME/wirebench,
// else ~/.cache/wirebench. The tests find their peers here; `run --scenario echo` its reference
// servers and connect-go's client.
#include <string>

namespace wirebench {

/// The cache's folder ("" when none of the variables above is set).
std::string tools_cache();
/// `<cache>/<name>-<version>/<name>` when that is an executable file, else "".
std::string cached_tool(const std::string& name, const std::string& version);

}  // namespace wirebench
