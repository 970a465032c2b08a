#include "rpc_message_format.hpp"

#include <google/protobuf/util/json_util.h>

namespace wirebench::grpc_wire {

bool parse_message(message_format format, std::string_view bytes, google::protobuf::Message& message) {
  if (format == message_format::proto)
    return message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  message.Clear();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  return google::protobuf::util::JsonStringToMessage(
             google::protobuf::StringPiece(bytes.data(), bytes.size()), &message, options)
      .ok();
}

void serialize_message(message_format format, const google::protobuf::Message& message, std::string& out) {
  if (format == message_format::proto) {
    message.SerializeToString(&out);
    return;
  }
  out.clear();
  (void)google::protobuf::util::MessageToJsonString(message, &out);  // fails only on bad UTF-8
}

}  // namespace wirebench::grpc_wire
