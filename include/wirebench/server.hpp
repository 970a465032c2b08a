#pragma once
// Every header of wirebench's server layer: the server every stream protocol runs on
// (session_server, its per-connection server_session) and the server codecs' host (codec_session).
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/server/codec_session.hpp"
#include "wirebench/server/session_server.hpp"
#include "wirebench/server/server_session.hpp"
