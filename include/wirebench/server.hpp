#pragma once
// Every header of wirebench's server layer: the server codecs' host (codec_session).
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/server/codec_session.hpp"
