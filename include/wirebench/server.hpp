#pragma once
// Every header of wirebench's server layer: the server every stream protocol runs on
// (server_skeleton, its per-connection stream_session) and the server codecs' host (codec_session).
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/server/codec_session.hpp"
#include "wirebench/server/server_skeleton.hpp"
#include "wirebench/server/stream_session.hpp"
