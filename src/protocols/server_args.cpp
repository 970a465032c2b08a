#include "wirebench/protocols/server_args.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>

#include "wirebench/core/duration_text.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench {
namespace {

using config_duration = std::chrono::steady_clock::duration;

template <class T>
server_flag count_flag(std::string name, std::string short_name, T server_config::*field,
                       std::uint64_t lo, std::uint64_t hi, std::string help) {
  return {std::move(name), std::move(short_name), "N", std::move(help),
          [=](server_config& c, std::string_view v) {
            c.*field = static_cast<T>(parse_count(v, lo, hi));
          },
          [=](const server_config& c) { return std::optional(std::to_string(c.*field)); }};
}

// `field`: a member pointer, or a function from the config to its duration (a nested one).
template <class Field>
server_flag duration_flag(std::string name, Field field, std::string help) {
  using std::chrono::duration_cast;
  return {std::move(name), "", "DURATION", std::move(help),
          [=](server_config& c, std::string_view v) {
            const auto d = parse_duration(v);
            if (!d) throw std::invalid_argument("durations look like 250us, 5ms or 30s");
            std::invoke(field, c) = duration_cast<config_duration>(*d);
          },
          [=](const server_config& c) {
            const auto ns = duration_cast<std::chrono::nanoseconds>(std::invoke(field, c));
            return std::optional(format_duration(ns));
          }};
}

std::optional<std::string> unless_empty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional(s);
}

// The protocols whose server is a codec on the session server, which honours --workers and
// --service-time: "line, length-prefixed, ...".
std::string servers_on_a_codec() {
  std::string names;
  for (const protocol& p : protocol_registry::builtin().all())
    if (p.server_codecs) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

std::vector<server_flag> make_flags() {
  std::vector<server_flag> f;
  f.push_back({"--listen", "-l", "ENDPOINT", "Endpoint to listen on",
               [](server_config& c, std::string_view v) { c.listen = endpoint::parse_or_throw(v); },
               [](const server_config& c) { return std::optional(c.listen.to_string()); }});
  f.push_back(count_flag("--threads", "-t", &server_config::threads, 1, 1024,
                         "Server event-loop threads"));
  f.push_back({"--engine", "", "NAME",
               "Server implementation, for protocols with several (grpcpp: cq, callback; default: "
               "the first)",
               [](server_config& c, std::string_view v) { c.engine = std::string(v); },
               [](const server_config& c) { return unless_empty(c.engine); }});
  const std::string codec_servers = servers_on_a_codec();
  f.push_back(count_flag("--workers", "", &server_config::workers, 0, 1024,
                         codec_servers + ": worker threads computing replies (0: none, on the "
                         "event loop)"));
  f.push_back({"--service-time", "", "MODEL",
               codec_servers + ": added time per request: none, fixed:T, exp:T, skewed:K:T, or "
               "busy:T (holds its thread)",
               [](server_config& c, std::string_view v) {
                 c.service_time = service_time_model::parse(v);
               },
               [](const server_config& c) { return std::optional(c.service_time.to_string()); }});
  f.push_back({"--cpus", "", "LIST", "Pin server threads to these CPUs, e.g. 0 or 0-1",
               [](server_config& c, std::string_view v) { c.cpus = parse_cpu_list(v); },
               [](const server_config& c) -> std::optional<std::string> {
                 std::string list;
                 for (const int cpu : c.cpus)
                   list += (list.empty() ? "" : ",") + std::to_string(cpu);
                 return unless_empty(list);
               }});
  f.push_back(count_flag("--max-frame", "", &server_config::max_frame_bytes, 1, 1u << 30,
                         "Largest request accepted, in bytes"));
  f.push_back({"--on-oversize", "", "POLICY",
               "A request over --max-frame: fail (close the connection) or resync (the stream "
               "framings: reply with an error and go on)",
               [](server_config& c, std::string_view v) {
                 if (v != "fail" && v != "resync")
                   throw std::invalid_argument("expected fail or resync");
                 c.on_oversize = v == "fail" ? oversize_policy::fail : oversize_policy::resync;
               },
               [](const server_config& c) {
                 const bool fail = c.on_oversize == oversize_policy::fail;
                 return std::optional<std::string>(fail ? "fail" : "resync");
               }});
  f.push_back(count_flag("--max-connections", "", &server_config::max_connections, 1, 1u << 24,
                         "Connections open at once; past this, new ones are closed at once"));
  f.push_back(duration_flag("--idle-timeout", &server_config::idle_timeout,
                            "Close a connection with no traffic for this long (0s: never)"));
  f.push_back(duration_flag("--read-timeout", &server_config::read_timeout,
                            "Close a connection whose request stalls this long (0s: never)"));
  f.push_back(duration_flag("--write-timeout", &server_config::write_timeout,
                            "Close a connection not reading its replies for this long "
                            "(0s: never)"));
  f.push_back(duration_flag("--grace", &server_config::grace,
                            "SIGTERM/SIGINT: stop accepting, tell clients, answer what was taken in for up to this long, then close (0s: at once)"));
  f.push_back(duration_flag(
      "--keepalive", [](auto& c) -> auto& { return c.keepalive.interval; },
      "Ping every connection whose client has sent nothing for this long, and close one that "
      "answers no ping in time: a client gone without a word (0s: never; http2, grpc*, mux)"));
  f.push_back(duration_flag(
      "--keepalive-timeout", [](auto& c) -> auto& { return c.keepalive.timeout; },
      "How long a keep-alive ping may go unanswered"));
  f.push_back({"--tls", "", "",
               "Serve over TLS (http2: ALPN h2 required; http1: ALPN http/1.1 offered); without "
               "--tls-cert a self-signed certificate is made at start-up",
               [](server_config& c, std::string_view) { c.tls.enabled = true; },
               [](const server_config& c) {
                 return c.tls.enabled ? std::optional<std::string>("") : std::nullopt;
               }});
  f.push_back({"--tls-cert", "", "FILE", "TLS certificate chain (PEM); implies --tls",
               [](server_config& c, std::string_view v) {
                 c.tls.certificate_file = std::string(v);
                 c.tls.enabled = true;
               },
               [](const server_config& c) { return unless_empty(c.tls.certificate_file); }});
  f.push_back({"--tls-key", "", "FILE", "TLS private key (PEM)",
               [](server_config& c, std::string_view v) {
                 c.tls.private_key_file = std::string(v);
               },
               [](const server_config& c) { return unless_empty(c.tls.private_key_file); }});
  f.push_back({"--tls-client-ca", "", "FILE",
               "Mutual TLS: require every client to present a certificate from this CA (PEM); "
               "implies --tls",
               [](server_config& c, std::string_view v) {
                 c.tls.client_ca_file = std::string(v);
                 c.tls.enabled = true;
               },
               [](const server_config& c) { return unless_empty(c.tls.client_ca_file); }});
  // Then each protocol's own settings, once per flag (protocols that share one, as http2 and
  // grpc share --max-streams, declare it alike); the registry checks them against the protocol.
  for (const protocol& p : protocol_registry::builtin().all()) {
    for (const protocol_option& o : p.can.server_options) {
      if (std::any_of(f.begin(), f.end(), [&](const server_flag& g) { return g.name == o.flag; }))
        continue;
      f.push_back({o.flag, "", o.value_name, o.help,
                   [check = o.check, flag = o.flag](server_config& c, std::string_view v) {
                     check(v);
                     c.options.insert_or_assign(flag, std::string(v));
                   },
                   [flag = o.flag](const server_config& c) -> std::optional<std::string> {
                     const auto it = c.options.find(flag);
                     if (it == c.options.end()) return std::nullopt;
                     return it->second;
                   }});
    }
  }
  return f;
}

}  // namespace

const std::vector<server_flag>& server_flags() {
  static const std::vector<server_flag> flags = make_flags();
  return flags;
}

std::vector<std::string> to_args(const server_config& c) {
  std::vector<std::string> args;
  for (const server_flag& f : server_flags()) {
    auto value = f.write(c);
    if (!value) continue;
    args.push_back(f.name);
    if (!f.value_name.empty()) args.push_back(std::move(*value));
  }
  return args;
}

server_config from_args(std::span<const std::string> args, server_config c) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i];
    const server_flag* flag = nullptr;
    for (const server_flag& f : server_flags())
      if (name == f.name || (!f.short_name.empty() && name == f.short_name)) flag = &f;
    if (flag == nullptr) throw std::invalid_argument("unknown server flag '" + name + "'");
    if (!flag->value_name.empty() && i + 1 == args.size())
      throw std::invalid_argument(flag->name + " needs a value (" + flag->value_name + ")");
    const std::string_view value = flag->value_name.empty() ? std::string_view() : args[++i];
    try {
      flag->read(c, value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(flag->name + " " + std::string(value) + ": " + e.what());
    }
  }
  return c;
}

}  // namespace wirebench
