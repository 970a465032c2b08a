#pragma once
// What the gRPC server session's tests share (grpc_server_session_test.cpp and
// grpc_server_streams_test.cpp): the session answering its calls as they come, the hand-made
// frames, and a config whose message limit the tests cross on purpose.
#include "../../src/protocols/grpc/grpc_server_session.hpp"
#include "proto/echo.pb.h"
#include "support/grpc_frames.hpp"
#include "support/h2_frames.hpp"
#include "support/h2_greet_session.hpp"

namespace wirebench::grpc_wire::server_session_testing {

using namespace test::h2;
using namespace test::grpc_frames;
using session = test::answering_session<grpc_server_session>;
namespace pb = ::wirebench::echo;

// Messages of at most 1 KiB: small enough that a test can send one over the limit.
inline grpc_server_config small_messages_config() {
  grpc_server_config c;
  c.max_message_bytes = 1024;
  return c;
}

}  // namespace wirebench::grpc_wire::server_session_testing
