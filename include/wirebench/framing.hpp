#pragma once
// The whole framing library: every layer's header (core, codec, transport, calls, server, mux,
// client, tls) and the version.
#include "wirebench/calls.hpp"
#include "wirebench/client.hpp"
#include "wirebench/codec.hpp"
#include "wirebench/core.hpp"
#include "wirebench/mux.hpp"
#include "wirebench/server.hpp"
#include "wirebench/tls.hpp"
#include "wirebench/transport.hpp"
#include "wirebench/version.hpp"
