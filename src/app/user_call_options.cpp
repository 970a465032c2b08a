#include "user_call_options.hpp"

#include <stdexcept>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "number_checks.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

std::optional<endpoint> tcp_endpoint(const std::string& host, std::uint16_t port) {
  const bool v6 = host.find(':') != std::string::npos;
  return endpoint::parse("tcp://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port));
}

// The forms among `forms` that a flag given asks for: `owned` those whose own flag asks, else
// those asked by another form's flag (msgpack's -X alone).
std::vector<const user_call_form*> asked(const std::vector<const user_call_form*>& forms,
                                         const given_flags& g, bool owned) {
  std::vector<const user_call_form*> out;
  for (const user_call_form* form : forms)
    for (const user_call_flag& flag : form->flags)
      if (flag.asks && flag.owned == owned && g.has(long_name(flag))) {
        out.push_back(form);
        break;
      }
  return out;
}

}  // namespace

std::string long_name(const user_call_flag& flag) {
  const auto comma = flag.names.rfind(',');
  return comma == std::string::npos ? flag.names : flag.names.substr(comma + 1);
}

const user_call_flag* read_flag(const user_call_form& form, const std::string& name) {
  for (const user_call_flag& flag : form.flags)
    if (long_name(flag) == name) return &flag;
  return nullptr;
}

const user_call_form* flag_owner(const std::vector<const user_call_form*>& forms,
                                 const std::string& name) {
  const user_call_form* first = nullptr;
  for (const user_call_form* form : forms)
    if (const user_call_flag* flag = read_flag(*form, name)) {
      if (flag->owned) return form;
      if (!first) first = form;
    }
  return first;
}

given_flags user_call_options::given(const CLI::App& cmd) const {
  given_flags g;
  for (const auto& [name, values] : values)
    if (cmd.get_option(name)->count() > 0) g.values[name] = values;
  for (const auto& [name, on] : switches)
    if (cmd.get_option(name)->count() > 0) g.values[name] = {""};
  return g;
}

std::optional<endpoint> url_endpoint(const named_server& server, std::string& problem) {
  if (auto literal = tcp_endpoint(server.host, server.port)) return literal;  // an IP, or localhost
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  asio::error_code ec;
  const auto found = resolver.resolve(server.host, std::to_string(server.port), ec);
  if (ec || found.empty()) {
    problem = "--url host '" + server.host + "' does not resolve (" +
              (ec ? ec.message() : std::string("no address")) +
              "): give the server's address with --connect (the URL's host stays the Host header)";
    return std::nullopt;
  }
  return tcp_endpoint(found.begin()->endpoint().address().to_string(), server.port);
}

void add_user_call_options(CLI::App& cmd, user_call_options& o) {
  o.forms = protocol_registry::builtin().forms();
  // Each flag once: its owner's declaration first, under the owner's heading; a form that reads
  // it too adds its words to the help (-X: "without --url or --path, a MessagePack-RPC method").
  for (const bool owned : {true, false})
    for (const user_call_form* form : o.forms)
      for (const user_call_flag& flag : form->flags) {
        if (flag.owned != owned) continue;
        const std::string name = long_name(flag);
        if (CLI::Option* declared = cmd.get_option_no_throw(name)) {
          if (!flag.help.empty())
            declared->description(declared->get_description() + "; " + flag.help);
          continue;
        }
        CLI::Option* option =
            flag.takes == user_call_flag::arity::none
                ? cmd.add_flag(flag.names, o.switches[name], flag.help)
                : cmd.add_option(flag.names, o.values[name], flag.help)->allow_extra_args(false);
        option->group(form->heading);
        if (flag.takes == user_call_flag::arity::one)
          option->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        if (!flag.default_text.empty()) option->default_str(flag.default_text);
        if (flag.range)
          option->type_name("INT")->check(from_to(static_cast<double>(flag.range->first),
                                                  static_cast<double>(flag.range->second)));
        if (flag.existing_file) option->check(CLI::ExistingFile);
      }
  cmd.add_option("--keyspace", o.keyspace,
                 "__rand_int__ in a user call becomes a 12-digit number in [0, N), new per call")
      ->group("User call")
      ->check(from_to(1, 1'000'000'000'000))
      ->capture_default_str();
}

user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd) {
  const given_flags g = o.given(cmd);
  std::vector<const user_call_form*> forms = asked(o.forms, g, true);
  if (forms.empty()) forms = asked(o.forms, g, false);
  if (forms.size() > 1) {
    std::string each;
    for (const user_call_form* form : forms)
      each += (each.empty() ? "" : ", ") + form->asked_with + " (" + form->phrase() + ")";
    throw std::invalid_argument("give one user call, not several: " + each);
  }
  user_call_choice choice;
  if (forms.empty()) {
    for (const auto& [name, values] : g.values) {
      const user_call_form* owner = flag_owner(o.forms, name);
      throw std::invalid_argument(name + " is part of " + owner->phrase() + ": give its " +
                                  owner->asked_with + " too");
    }
    if (cmd.get_option("--keyspace")->count() > 0) {
      std::string ways;
      for (const user_call_form* form : o.forms)
        ways += (ways.empty() ? "" : ", ") + form->asked_with;
      throw std::invalid_argument("--keyspace goes with a user call (" + ways + ")");
    }
    return choice;
  }
  const user_call_form& form = *forms.front();
  for (const auto& [name, values] : g.values)
    if (!read_flag(form, name))
      throw std::invalid_argument(name + " is for " + flag_owner(o.forms, name)->phrase() +
                                  ", not " + form.asked_with);
  choice.calls.push_back(user_call{form.from_flags(g), o.keyspace});
  if (form.server) choice.server = form.server(choice.calls.front().request);
  return choice;
}

}  // namespace wirebench::app
