#pragma once
// The gRPC family's user call (user_call.hpp): a method of any service, unary or streaming, from
// its .proto (no code generated: the request is built from JSON into dynamic messages once, and
// their bytes sent for every call), for the grpc and grpc++ clients. Its form
// (grpc_call_form.cpp) reads it from --call, --proto or --reflect, -d and -H, from
// "package.Service/Method [MESSAGE-JSON]" lines and from a workload file's entries.
#include <string>
#include <utility>
#include <vector>

namespace wirebench {

struct user_call_form;

struct grpc_call {
  std::string method;      // "package.Service/Method"
  std::string proto_file;  // the .proto that defines it (its imports searched from import_paths)
  bool reflect = false;    // no .proto: the server's reflection says what the method is
  std::vector<std::string> import_paths = {};  // empty: the file's own folder
  // The request message, proto3's JSON mapping; a JSON array is several: a client-streaming
  // method's stream, or for any other method one per call, in turn.
  std::string request_json = "{}";
  // Request metadata (-H 'name: value'), in order; a "-bin" key's value is the raw bytes.
  std::vector<std::pair<std::string, std::string>> metadata = {};
  friend bool operator==(const grpc_call&, const grpc_call&) = default;
};

const user_call_form& form_of(const grpc_call*);
inline const user_call_form& grpc_call_form() { return form_of(static_cast<const grpc_call*>(nullptr)); }

}  // namespace wirebench
