#pragma once
// The user-call structs of every family, for tests that build calls by hand (each is its
// family's folder's own: user_call.hpp keeps only what every family shares).
#include "../../src/protocols/grpc/grpc_call.hpp"
#include "../../src/protocols/http/http_call.hpp"
#include "../../src/protocols/msgpack_rpc/msgpack_call.hpp"
#include "../../src/protocols/resp/resp_call.hpp"
#include "wirebench/protocols/user_call_form.hpp"
