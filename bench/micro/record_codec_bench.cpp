// The user record of the MessagePack-RPC comparison — {first_name, last_name, email,
// last_login_at} — encoded and decoded as msgpack, JSON and protobuf, in one binary; the encoded
// size is a counter. msgpack and JSON encode the record as a map with its field names (what the
// Ruby comparison did with a Hash); protobuf uses field numbers from proto/user.proto.
// JSON is nlohmann-json (Debian's nlohmann-json3-dev): it encodes and decodes, like the JSON
// libraries of typical REST stacks; simdjson (faster to parse) cannot encode.
#include <string>

#include <benchmark/benchmark.h>
#include <msgpack.hpp>
#include <nlohmann/json.hpp>

#include "proto/user.pb.h"

namespace wirebench {
namespace {

struct user {
  std::string first_name = "Bill";
  std::string last_name = "Gates";
  std::string email = "billg@microsoft.com";
  std::int64_t last_login_at = 1469736356;
};

// --- msgpack (msgpack-cxx) ---
struct string_writer {
  std::string& out;
  void write(const char* d, std::size_t n) { out.append(d, n); }
};

void pack_str(msgpack::packer<string_writer>& pk, std::string_view s) {
  pk.pack_str(static_cast<std::uint32_t>(s.size()));
  pk.pack_str_body(s.data(), static_cast<std::uint32_t>(s.size()));
}

std::string msgpack_encode(const user& u) {
  std::string out;
  string_writer w{out};
  msgpack::packer<string_writer> pk(w);
  pk.pack_map(4);
  pack_str(pk, "first_name");
  pack_str(pk, u.first_name);
  pack_str(pk, "last_name");
  pack_str(pk, u.last_name);
  pack_str(pk, "email");
  pack_str(pk, u.email);
  pack_str(pk, "last_login_at");
  pk.pack_int64(u.last_login_at);
  return out;
}

user msgpack_decode(const std::string& bytes) {
  msgpack::object_handle oh = msgpack::unpack(bytes.data(), bytes.size());
  const msgpack::object& o = oh.get();
  user u;
  for (std::uint32_t i = 0; i < o.via.map.size; ++i) {
    const auto& kv = o.via.map.ptr[i];
    const std::string_view key(kv.key.via.str.ptr, kv.key.via.str.size);
    if (key == "last_login_at") {
      u.last_login_at = kv.val.as<std::int64_t>();
      continue;
    }
    std::string value(kv.val.via.str.ptr, kv.val.via.str.size);
    if (key == "first_name") u.first_name = std::move(value);
    else if (key == "last_name") u.last_name = std::move(value);
    else if (key == "email") u.email = std::move(value);
  }
  return u;
}

// --- JSON (nlohmann-json) ---
std::string json_encode(const user& u) {
  nlohmann::json j = {{"first_name", u.first_name},
                      {"last_name", u.last_name},
                      {"email", u.email},
                      {"last_login_at", u.last_login_at}};
  return j.dump();
}

user json_decode(const std::string& bytes) {
  const auto j = nlohmann::json::parse(bytes);
  return {j.at("first_name").get<std::string>(), j.at("last_name").get<std::string>(),
          j.at("email").get<std::string>(), j.at("last_login_at").get<std::int64_t>()};
}

// --- protobuf ---
std::string protobuf_encode(const user& u) {
  records::User m;
  m.set_first_name(u.first_name);
  m.set_last_name(u.last_name);
  m.set_email(u.email);
  m.set_last_login_at(u.last_login_at);
  return m.SerializeAsString();
}

user protobuf_decode(const std::string& bytes) {
  records::User m;
  m.ParseFromString(bytes);
  return {m.first_name(), m.last_name(), m.email(), m.last_login_at()};
}

template <std::string (*Encode)(const user&), user (*Decode)(const std::string&)>
void encode_case(benchmark::State& state) {
  const user u;
  std::size_t size = 0;
  for (auto _ : state) {
    std::string bytes = Encode(u);
    size = bytes.size();
    benchmark::DoNotOptimize(bytes.data());
  }
  // Every format must round-trip the record; a wrong codec is an error, not a number.
  const user back = Decode(Encode(u));
  if (back.first_name != u.first_name || back.email != u.email || back.last_login_at != u.last_login_at)
    state.SkipWithError("the record does not round-trip");
  state.counters["encoded_bytes"] = static_cast<double>(size);
  state.SetItemsProcessed(state.iterations());
}

template <std::string (*Encode)(const user&), user (*Decode)(const std::string&)>
void decode_case(benchmark::State& state) {
  const std::string bytes = Encode(user{});
  for (auto _ : state) {
    user u = Decode(bytes);
    benchmark::DoNotOptimize(u.email.data());
  }
  state.counters["encoded_bytes"] = static_cast<double>(bytes.size());
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(encode_case<msgpack_encode, msgpack_decode>)->Name("record_codec/msgpack/encode");
BENCHMARK(encode_case<json_encode, json_decode>)->Name("record_codec/json/encode");
BENCHMARK(encode_case<protobuf_encode, protobuf_decode>)->Name("record_codec/protobuf/encode");
BENCHMARK(decode_case<msgpack_encode, msgpack_decode>)->Name("record_codec/msgpack/decode");
BENCHMARK(decode_case<json_encode, json_decode>)->Name("record_codec/json/decode");
BENCHMARK(decode_case<protobuf_encode, protobuf_decode>)->Name("record_codec/protobuf/decode");

}  // namespace
}  // namespace wirebench
