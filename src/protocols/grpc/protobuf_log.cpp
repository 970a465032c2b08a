#include "protobuf_log.hpp"

#include <cstring>
#include <mutex>
#include <string>

#include <google/protobuf/stubs/logging.h>

namespace wirebench::grpc_wire {
namespace {

google::protobuf::LogHandler* previous = nullptr;

// Runs on the thread that parsed, inside protobuf; `filename` is protobuf's source file.
void filtered(google::protobuf::LogLevel level, const char* filename, int line,
              const std::string& message) {
  // The UTF-8 check of a string field being parsed lives in wire_format_lite.cc.
  if (level == google::protobuf::LOGLEVEL_ERROR && filename != nullptr &&
      std::strstr(filename, "wire_format_lite") != nullptr)
    return;
  if (previous != nullptr) previous(level, filename, line, message);
}

}  // namespace

void drop_protobuf_parse_complaints() {
  static std::once_flag once;
  std::call_once(once, [] { previous = google::protobuf::SetLogHandler(&filtered); });
}

}  // namespace wirebench::grpc_wire
