#pragma once
// The MessagePack-RPC family's user call (user_call.hpp): a method of any server,
// [0, msgid, method, params], params given as a JSON array (packed once; each call only gets its
// own msgid). Its form (msgpack_call_form.cpp) reads it from --method without a URL and -d, from
// "METHOD [PARAMS-JSON]" lines and from a workload file's entries.
#include <string>

namespace wirebench {

struct user_call_form;

struct msgpack_call {
  std::string method;
  std::string params_json = "[]";
  friend bool operator==(const msgpack_call&, const msgpack_call&) = default;
};

const user_call_form& form_of(const msgpack_call*);
inline const user_call_form& msgpack_call_form() { return form_of(static_cast<const msgpack_call*>(nullptr)); }

}  // namespace wirebench
