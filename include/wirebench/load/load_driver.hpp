#pragma once
// The load generator: drives any protocol_client with one of the load models and returns what it
// measured. The same code runs every protocol, so their figures compare.
//   closed loop  spec.workers callers, each issuing its next call when its last completes
//   open loop    calls at spec.rate on spec.arrivals' schedule, timed from the intended start
// Both check every reply against the expected greeting (unless the client sends a user call, whose
// codec has judged it: protocol_client::greets()) and return only after every call they issued has
// completed (the client guarantees each completes, by its reply timeout at worst).
#include <string>

#include "wirebench/load/load_spec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

// Runs spec's load model on the calling thread (closed or open, by spec.arrivals).
// Throws std::invalid_argument on a spec that cannot run (no workers; open loop without a rate).
load_result run_load(protocol_client& client, const load_spec& spec);

load_result run_closed_loop(protocol_client& client, const load_spec& spec);
load_result run_open_loop(protocol_client& client, const load_spec& spec);

// The name a caller greets: distinct per index ("w3-"), padded with 'x' to payload_bytes.
std::string greet_name(std::size_t index, std::size_t payload_bytes);

}  // namespace wirebench
