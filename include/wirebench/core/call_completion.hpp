#pragma once
#include <functional>
#include <string_view>
#include <system_error>

namespace wirebench {

/// How a call ends. Runs exactly once: with an empty error code and the reply (a view valid only
/// during the call), or with an error and, when the server said why, its words (remote_error's
/// text; an unexpected status's status and body), else an empty reply.
using call_completion = std::function<void(std::error_code, std::string_view reply)>;

}  // namespace wirebench
