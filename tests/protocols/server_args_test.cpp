// server_config through to_args and from_args, the pair that carries it to a server in another
// process: every field survives the trip, and bad flags are refused with the flag's name.
#include "wirebench/protocols/server_args.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// How many fields an aggregate has: the most initializers `T{...}` accepts.
struct any_value {
  template <class T>
  operator T() const;
};
template <class T, class... A>
constexpr std::size_t field_count() {
  if constexpr (requires { T{A{}..., any_value{}}; })
    return field_count<T, A..., any_value>();
  else
    return sizeof...(A);
}
static_assert(field_count<server_config>() == 16 && field_count<tls_options>() == 7 &&
                  field_count<keepalive_settings>() == 3,
              "server_config changed: give the new field a flag (server_args.cpp), set it in "
              "every_field_set() below, then update this count");

// Every field away from its default (tls.ca_file, tls.insecure, tls.server_name and
// keepalive.without_calls aside: client settings, with no flag).
server_config every_field_set() {
  server_config c;
  c.listen = endpoint::parse_or_throw("unix:@wirebench-args-test");
  c.threads = 3;
  c.engine = "callback";
  c.workers = 2;
  c.service_time = service_time_model::parse("skewed:100:5ms");
  c.options = {{"--max-streams", "250"}, {"--stream-window", "1048576"},
               {"--connection-window", "4194304"}};
  c.cpus = {0, 2, 3};
  c.max_frame_bytes = 4096;
  c.on_oversize = oversize_policy::resync;
  c.max_connections = 77;
  c.idle_timeout = 1500ms;
  c.read_timeout = 250us;
  c.write_timeout = 7ns;
  c.grace = 0s;
  c.keepalive.interval = 2s;
  c.keepalive.timeout = 300ms;
  c.tls.enabled = true;
  c.tls.certificate_file = "/etc/ssl/a cert.pem";
  c.tls.private_key_file = "key.pem";
  c.tls.client_ca_file = "clients/ca.pem";
  return c;
}

TEST(server_args, every_field_makes_the_round_trip) {
  const server_config c = every_field_set();
  for (const server_flag& f : server_flags())
    EXPECT_NE(f.write(c), f.write(server_config{})) << f.name << " is at its default in the test";
  EXPECT_EQ(from_args(to_args(c)), c);
}

// A child whose defaults differ from ours (serve's listen port) still gets our defaults. Only
// fields that can be empty (engine, cpus, a protocol's options, TLS) are written as no flag, and so
// taken from the base.
TEST(server_args, defaults_are_written_too) {
  const server_config defaults;
  server_config base = every_field_set();
  base.engine.clear();
  base.cpus.clear();
  base.options.clear();
  base.tls = {};
  EXPECT_EQ(from_args(to_args(defaults), base), defaults);
}

TEST(server_args, writes_flags_serve_reads) {
  server_config c;
  c.listen = endpoint::parse_or_throw("tcp://127.0.0.1:7100");
  c.threads = 2;
  c.cpus = {0, 1};
  c.tls.enabled = true;
  const auto args = to_args(c);
  auto has = [&](const std::string& flag, const std::string& value) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == flag && args[i + 1] == value) return true;
    return false;
  };
  EXPECT_TRUE(has("--listen", "tcp://127.0.0.1:7100"));
  EXPECT_TRUE(has("--threads", "2"));
  EXPECT_TRUE(has("--cpus", "0,1"));
  EXPECT_TRUE(has("--idle-timeout", "300s"));
  EXPECT_NE(std::find(args.begin(), args.end(), "--tls"), args.end());
  EXPECT_EQ(std::find(args.begin(), args.end(), "--engine"), args.end()) << "unset: no flag";
}

TEST(server_args, reads_short_names_and_a_certificate_implies_tls) {
  const std::vector<std::string> args = {"-l", "unix:@x", "-t", "4", "--tls-cert", "c.pem"};
  const server_config c = from_args(args);
  EXPECT_EQ(c.listen.to_string(), "unix:@x");
  EXPECT_EQ(c.threads, 4u);
  EXPECT_TRUE(c.tls.enabled);
}

TEST(server_args, refuses_bad_flags_naming_them) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--bogus"}, "--bogus"},
      {{"--threads"}, "--threads"},
      {{"--threads", "0"}, "--threads"},
      {{"--threads", "2x"}, "--threads"},
      {{"--max-frame", "-1"}, "--max-frame"},
      {{"--idle-timeout", "5"}, "--idle-timeout"},
      {{"--on-oversize", "drop"}, "--on-oversize"},
      {{"--listen", "tcp://nowhere:80"}, "--listen"},
      {{"--cpus", "x"}, "--cpus"},
      {{"--service-time", "slow"}, "--service-time"},
      {{"--max-streams", "0"}, "--max-streams"},
      {{"--stream-window", "4294967295"}, "--stream-window"},
  };
  for (const auto& [args, flag] : cases) {
    try {
      from_args(args);
      ADD_FAILURE() << args[0] << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  }
}

// A protocol's own settings come from its registry entry: serve offers each flag once, the
// protocol that declared it takes it, and every other protocol refuses it by name rather than
// ignore it.
TEST(server_args, a_protocols_own_setting_is_taken_by_it_and_refused_by_the_others) {
  std::size_t max_streams_flags = 0;
  for (const server_flag& f : server_flags()) max_streams_flags += f.name == "--max-streams";
  EXPECT_EQ(max_streams_flags, 1u) << "http2 and grpc share it; serve lists it once";

  const std::vector<std::string> args = {"--listen", "tcp://127.0.0.1:0", "--max-streams", "3"};
  const server_config c = from_args(args);
  EXPECT_EQ(c.options.at("--max-streams"), "3");
  const auto& registry = protocol_registry::builtin();
  EXPECT_NE(registry.find("http2")->make_server(c), nullptr);
  try {
    registry.find("line")->make_server(c);
    ADD_FAILURE() << "line took --max-streams";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--max-streams: protocol 'line' has no such setting");
  }
  server_config wide = c;
  wide.options["--max-streams"] = "2147483648";  // http2 allows 2^31; grpc++ takes an int
  try {
    registry.find("grpcpp")->make_server(wide);
    ADD_FAILURE() << "grpcpp took 2^31 streams";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--max-streams 2147483648: expected a whole number"),
              std::string::npos) << e.what();
  }
}

// Resync is honoured by the stream framings (protocol_capabilities::resyncs_oversize) and refused by the rest,
// never ignored: their servers would close where the user asked to go on.
TEST(server_args, resync_is_taken_by_the_stream_framings_and_refused_by_the_others) {
  const std::vector<std::string> args = {"--listen", "tcp://127.0.0.1:0", "--on-oversize", "resync"};
  const server_config c = from_args(args);
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (p.can.resyncs_oversize) {
      EXPECT_NE(p.make_server(c), nullptr) << p.name;
      continue;
    }
    try {
      p.make_server(c);
      ADD_FAILURE() << p.name << " took --on-oversize resync";
    } catch (const setting_error& e) {
      EXPECT_EQ(e.setting(), "on-oversize") << p.name;
    }
  }
}

}  // namespace
}  // namespace wirebench
