#pragma once
// A message in the format a call's dialect names (rpc_dialect.hpp): protobuf's binary form, or
// its canonical JSON mapping (Connect's application/json and +json), through protobuf's own
// JSON support. Sans-IO.
#include <string>
#include <string_view>

#include <google/protobuf/message.h>

#include "rpc_dialect.hpp"

namespace wirebench::grpc_wire {

/// `bytes` into `message` (cleared first); false when they are not one. JSON: unknown fields are
/// ignored, as connect-go's handlers ignore them.
bool parse_message(message_format format, std::string_view bytes, google::protobuf::Message& message);

/// `message` into `out` (replaced). JSON: compact, fields by their JSON names, defaults left out.
void serialize_message(message_format format, const google::protobuf::Message& message, std::string& out);

}  // namespace wirebench::grpc_wire
