#pragma once
// Every header of wirebench's client layer: the client engine and async_call with completion
// tokens.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/client/async_call.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/client/redial_backoff.hpp"
