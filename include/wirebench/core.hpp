#pragma once
// Every header of wirebench's core layer: error codes and conditions, the completion type, buffers
// of encoded frames, child processes.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/core/api.hpp"
#include "wirebench/core/call_completion.hpp"
#include "wirebench/core/child_process.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/duration_text.hpp"
#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"
#include "wirebench/core/feed_decoder.hpp"
#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/gather_queue.hpp"
#include "wirebench/core/loop_clock.hpp"
#include "wirebench/core/named_error_category.hpp"
#include "wirebench/core/server_stats.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/core/status_error.hpp"
