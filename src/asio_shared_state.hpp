#pragma once
// Forced first into every source of the framing library (-include, src/CMakeLists.txt), before
// any other Asio header: Asio's per-thread call stacks, declared with default visibility so that
// a shared build exports them (src/framing.map) and the process keeps one of each.
//
// Why: the library is built with hidden visibility (core/api.hpp), and Asio is header-only, so a
// shared build would carry its own copy of these thread-locals. They say which io_context (and
// strand) the thread is running. With two copies, code compiled into the library that runs on a
// loop the program runs (an io_context given to client_engine or a server) finds no thread info:
// every dispatch becomes a post, and Asio's epoll reactor dereferences the missing thread info
// (scheduler::compensating_work_started) and crashes. Exported, the dynamic linker binds the
// library's references to the program's copy, as for Asio's error categories.
// A standard header first: Asio's configuration reads the standard library's macros (aligned
// allocation: _GLIBCXX_HAVE_ALIGNED_ALLOC), and a source whose first header was Asio's would be
// configured unlike every other, so that inline functions such as asio::aligned_new would differ
// between sources of one program (the AddressSanitizer build caught new against free).
#include <cstddef>

#pragma GCC visibility push(default)
#include <asio/detail/call_stack.hpp>
#include <asio/detail/keyword_tss_ptr.hpp>
#include <asio/detail/strand_executor_service.hpp>
#include <asio/detail/strand_service.hpp>
#include <asio/detail/thread_context.hpp>
#include <asio/detail/thread_info_base.hpp>
#pragma GCC visibility pop
