#pragma once
// Which way this build's connections wait for a socket to become readable (readable_wait in
// src/transport): on asio 1.22's epoll reactor, with no system call per wait, or asio's own
// async_wait, one epoll_ctl per wait (correct, slower: the fast path reaches into asio's private
// reactor state, written against 1.22 only). `wirebench --version` and every result say which.
#include <string_view>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// "reactor" or "async_wait", then a colon and why (the asio version it was built against).
WIREBENCH_API std::string_view read_wait_path();

}  // namespace wirebench
