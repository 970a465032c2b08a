#pragma once
// Every header of wirebench's codec layer: the sans-IO framing codecs (line, length-prefixed) and
// the client and server codec interfaces.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/codec/text_frames.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/codec/server_codec.hpp"
