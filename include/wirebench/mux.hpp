#pragma once
// Every header of wirebench's mux layer: the mux framing (request ids): its frames, client codec,
// server codec and RPC server.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/mux/mux_rpc_session.hpp"
#include "wirebench/mux/mux_server_codec.hpp"
#include "wirebench/mux/mux_session.hpp"
