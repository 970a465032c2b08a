#pragma once
// Every header of wirebench's transport layer: Asio: framed reads and writes on any stream,
// framed_stream, connections, servers, event loops.
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/transport/async_read_frame.hpp"
#include "wirebench/transport/async_write_frame.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/connection_tracker.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/frame_buffer.hpp"
#include "wirebench/transport/frame_dynamic_buffer.hpp"
#include "wirebench/transport/framed_stream.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/keepalive.hpp"
#include "wirebench/transport/listener.hpp"
#include "wirebench/transport/read_wait_path.hpp"
#include "wirebench/transport/connection_server.hpp"
