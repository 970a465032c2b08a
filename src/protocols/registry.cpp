#include "wirebench/protocols/registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "from_codecs/client_from_codecs.hpp"
#include "from_codecs/server_from_codecs.hpp"
#include "user_call/picking_client.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/tls/tls_client_codec.hpp"
#include "wirebench/tls/tls_context.hpp"

namespace wirebench {

std::string tls_server_name(const client_config& c) {
  if (!c.tls.server_name.empty()) return c.tls.server_name;
  // A mix's requests share one server, so the first names it (the CLI refuses other mixes).
  if (!c.calls.empty() && c.calls.front().form() && c.calls.front().form()->server)
    if (const auto named = c.calls.front().form()->server(c.calls.front().request)) return named->host;
  return c.connect.is_tcp() ? c.connect.address : "localhost";
}

void protocol_registry::add(protocol p) {
  if (find(p.name) != nullptr)
    throw std::invalid_argument("protocol '" + p.name + "' is registered twice");
  // A form's name is its kind in results and its section in workload files: one form per name.
  if (p.can.user_calls)
    if (const user_call_form* same = find_form(p.can.user_calls->name); same && same != p.can.user_calls)
      throw std::invalid_argument("protocol '" + p.name + "': another user-call form is named '" +
                                  same->name + "'");
  // Multiplexed is what its client codec says, where it has one: a codec that matches replies
  // by id shares a connection among calls (a codec made for a default config, never dialed).
  // Entries without codecs (grpc++, resp-sync) declare it.
  if (p.client_codecs) {
    if (p.can.multiplexed)
      throw std::invalid_argument("protocol '" + p.name + "': multiplexed is its client codec's "
                                  "order, not declared");
    p.can.multiplexed = p.client_codecs(client_config{})()->order() == reply_order::by_id;
  }
  if (p.can.tls && p.client_codecs) {
    // TLS under any codec: one layer for every engine client (tls_client_codec.hpp).
    p.client_codecs = [make = std::move(p.client_codecs), alpn = p.can.tls_alpn](const client_config& c) {
      client_codec_factory codecs = make(c);
      if (!c.tls.enabled) return codecs;
      return tls::tls_client_codecs(std::move(codecs), tls::make_client_context(c.tls, alpn.protocol),
                                    tls_server_name(c),
                                    std::string(alpn.required ? alpn.protocol : ""));
    };
  }
  if (!p.make_server && p.server_codecs) {
    // "line-srv", "msgpack-srv": the threads' names, with the pool's "-N", fit Linux's 15 bytes.
    p.make_server = [codecs = p.server_codecs, alpn = p.can.tls_alpn,
                     threads = p.name.substr(0, p.name.find('-')).substr(0, 7) + "-srv"](
                        const server_config& c) {
      return make_server_from_codecs(c, codecs(c), alpn, threads);
    };
  }
  if (!p.make_client && p.client_codecs) {
    p.make_client = [codecs = p.client_codecs, depth = p.can.engine_depth](const client_config& c) {
      return make_client_from_codecs(c, depth, codecs(c));
    };
  }
  // A setting the protocol does not have is refused, never ignored; a value it refuses, too.
  p.make_server = [make = std::move(p.make_server), name = p.name, options = p.can.server_options,
                   resyncs = p.can.resyncs_oversize](const server_config& c) {
    if (c.on_oversize == oversize_policy::resync && !resyncs)
      throw setting_error("on-oversize", "protocol '" + name +
                                             "' closes a connection whose request is over the "
                                             "limit; resync is for the stream framings");
    for (const auto& [flag, value] : c.options) {
      const auto declared = std::find_if(options.begin(), options.end(),
                                         [&flag = flag](const protocol_option& o) { return o.flag == flag; });
      if (declared == options.end())
        throw std::invalid_argument(flag + ": protocol '" + name + "' has no such setting");
      try {
        declared->check(value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(flag + " " + value + ": " + e.what());
      }
    }
    return make(c);
  };
  if (!p.can.tls) {
    // One check for every tool (serve, call, run, benchmarks): --tls is never silently ignored.
    auto refuse = [name = p.name] {
      throw setting_error("tls", "protocol '" + name + "' does not speak TLS here");
    };
    p.make_server = [make = std::move(p.make_server), refuse](const server_config& c) {
      if (c.tls.enabled) refuse();
      return make(c);
    };
    p.make_client = [make = std::move(p.make_client), refuse](const client_config& c) {
      if (c.tls.enabled) refuse();
      return make(c);
    };
  }
  if (!p.can.keepalive) {
    // Nor is --keepalive: a protocol without a ping cannot check its peer that way.
    auto refuse = [name = p.name] {
      throw setting_error("keepalive", "protocol '" + name + "' has no ping for keep-alive");
    };
    p.make_server = [make = std::move(p.make_server), refuse](const server_config& c) {
      if (c.keepalive.enabled()) refuse();
      return make(c);
    };
    p.make_client = [make = std::move(p.make_client), refuse](const client_config& c) {
      if (c.keepalive.enabled()) refuse();
      return make(c);
    };
  }
  // One check for every tool too: a user call is never silently replaced by the greet call.
  auto check_call = [name = p.name, accepts = p.can.user_calls](const client_config& c) {
    for (const user_call& call : c.calls)
      if (call.form() != accepts) throw user_call_refused(name, accepts, call.form());
    if (c.calls.size() > max_mix_requests)
      throw setting_error("user_call", "a mix of " + std::to_string(c.calls.size()) +
                                           " requests: at most " + std::to_string(max_mix_requests));
  };
  // And every client builds its requests with their picks (call_picks.hpp: each a variant of the
  // request, a client call naming one at random) and __payload_N__ and __rand_str_N__ expanded
  // (call_placeholder.hpp).
  struct expanded_config {
    client_config config;
    std::shared_ptr<const pick_table> picks;  // null: no request has picks
  };
  auto expand = [](const client_config& c) {
    expanded_config e{c, nullptr};
    picked_calls picked = expand_picks(c.calls);
    // Every connection encodes every variant: their bytes, as each will be built, times the
    // connections, judged before anything is built (ten two-value picks beside a 1 MiB payload
    // were 1 GiB a connection).
    std::size_t bytes = 0;
    for (const user_call& call : picked.variants) bytes += expanded_size(call);
    const std::size_t connections = std::max<std::size_t>(1, c.connections);
    if (bytes > most_request_bytes / connections)
      throw std::invalid_argument("requests: their variants come to " + std::to_string(bytes >> 20) + " MiB, " +
                                  std::to_string(picked.variants.size()) + " of them, on each of " +
                                  std::to_string(connections) + " connections: more than " +
                                  std::to_string(most_request_bytes >> 20) + " MiB in all");
    if (picked.has_picks()) e.picks = std::make_shared<const pick_table>(picked);
    e.config.calls.clear();
    for (user_call& call : picked.variants) e.config.calls.push_back(with_payloads(std::move(call)));
    return e;
  };
  p.make_client = [make = std::move(p.make_client), check_call, expand](const client_config& c) {
    check_call(c);
    expanded_config e = expand(c);
    auto client = make(e.config);
    return e.picks ? picking_client(std::move(client), e.picks) : std::move(client);
  };
  if (p.client_codecs)
    p.client_codecs = [make = std::move(p.client_codecs), check_call, expand](const client_config& c) {
      check_call(c);
      expanded_config e = expand(c);
      auto codecs = make(e.config);
      return e.picks ? picking_codecs(std::move(codecs), e.picks) : codecs;
    };
  protocols_.push_back(std::move(p));
}

user_call_refused::user_call_refused(std::string protocol_name, const user_call_form* sends_form,
                                     const user_call_form* given_form)
    : setting_error("user_call", "protocol '" + protocol_name + "' sends " +
                                     sends_phrase(sends_form) + ", not " + sends_phrase(given_form)),
      protocol(std::move(protocol_name)),
      sends(sends_form),
      given(given_form) {}

std::vector<const user_call_form*> protocol_registry::forms() const {
  std::vector<const user_call_form*> out;
  for (const protocol& p : protocols_)
    if (p.can.user_calls && std::find(out.begin(), out.end(), p.can.user_calls) == out.end())
      out.push_back(p.can.user_calls);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->rank < b->rank; });
  return out;
}

const user_call_form* protocol_registry::find_form(std::string_view name) const {
  for (const user_call_form* f : forms())
    if (f->name == name) return f;
  return nullptr;
}

const protocol* protocol_registry::find(std::string_view name) const {
  for (const auto& p : protocols_)
    if (p.name == name) return &p;
  return nullptr;
}

namespace {

struct pending_registration {
  int rank;
  protocol_registration::add_function add;
};

// Filled by static initializers, in whatever order the linker laid the objects out; a
// function-local static so that it exists before the first registration runs.
std::vector<pending_registration>& pending_registrations() {
  static std::vector<pending_registration> list;
  return list;
}

}  // namespace

protocol_registration::protocol_registration(int rank, add_function add) {
  pending_registrations().push_back({rank, add});
}

const protocol_registry& protocol_registry::builtin() {
  static const protocol_registry registry = [] {
    auto list = pending_registrations();
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.rank < b.rank; });
    // Equal ranks would list in link order, which differs between binaries.
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i].rank == list[i - 1].rank)
        throw std::logic_error("two protocol registrations share rank " +
                               std::to_string(list[i].rank));
    protocol_registry r;
    for (const pending_registration& p : list) p.add(r);
    return r;
  }();
  return registry;
}

}  // namespace wirebench
