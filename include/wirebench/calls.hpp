#pragma once
// Every header of wirebench's calls layer: what calls need: the pending table and FIFO matcher,
// dispatch to handlers, coroutine runners.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/calls/call_matcher.hpp"
#include "wirebench/calls/call_runner.hpp"
#include "wirebench/calls/coroutine_runner.hpp"
#include "wirebench/calls/fifo_matcher.hpp"
#include "wirebench/calls/pending_table.hpp"
#include "wirebench/calls/request_dispatcher.hpp"
#include "wirebench/calls/rpc_reply.hpp"
#include "wirebench/calls/service_time.hpp"
