#include "workload_document.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "wirebench/protocols/json_fields.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

[[noreturn]] void refuse_entry(const std::string& why) { throw std::invalid_argument(why); }

std::string field_list(const std::set<std::string>& fields) {
  std::string list;
  for (const auto& f : fields) list += (list.empty() ? "" : ", ") + f;
  return list;
}

// `doc` (the file, or one of its sections: `section` is then "resp.") as `form`'s requests.
std::vector<user_call> parse_entries(const json& doc, const std::string& file, const std::string& section,
                                     const user_call_form* form, const given_flags& d,
                                     std::uint64_t keyspace, mix_server& server) {
  const std::string at = file + ": " + section;
  if (!doc.is_object())
    refuse_entry(file + ": " + (section.empty() ? "a JSON object" : section + " an object") + " {\"requests\": [...]}");
  for (const auto& [key, value] : doc.items())
    if (key != "requests" && key != "keyspace")
      refuse_entry(at + key + ": unknown field (known: keyspace, requests" +
             (section.empty() ? "; or a section per kind of request: " +
                                    form_names(protocol_registry::builtin().forms()) + ")"
                              : ")"));
  if (doc.contains("keyspace"))
    keyspace = json_fields(doc, at.substr(0, at.size() - (section.empty() ? 2 : 1)))
                   .whole("keyspace", 1, 1'000'000'000'000);
  if (!doc.contains("requests") || !doc["requests"].is_array() || doc["requests"].empty())
    refuse_entry(at + "requests: a non-empty list of requests");
  if (!form) refuse_entry(file + ": the protocol sends only its greet call");
  // A workload file's fields: anything else is refused by name (a typo would otherwise silently
  // send something else).
  std::set<std::string> known(form->entry_fields.begin(), form->entry_fields.end());
  known.insert({"name", "weight"});
  std::vector<user_call> calls;
  const json& list = doc["requests"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = at + "requests[" + std::to_string(i) + "]";
    if (!list[i].is_object()) refuse_entry(where + ": an object");
    for (const auto& [key, value] : list[i].items())
      if (!known.contains(key))
        refuse_entry(where + "." + key + ": unknown field for " + form->phrase() + " (known: " + field_list(known) + ")");
    const json_fields f(list[i], where);
    user_call call{form->from_entry(f, d), keyspace};
    if (f.has("weight")) call.weight = static_cast<std::uint32_t>(f.whole("weight", 1, 1'000'000));
    if (f.has("name")) call.name = f.text("name");
    server.take(call, where);
    calls.push_back(std::move(call));
  }
  return calls;
}

}  // namespace

void mix_server::take(const user_call& call, const std::string& where) {
  if (!call.form()->server) return;
  const std::optional<named_server> named = call.form()->server(call.request);
  if (!named) return;
  if (!server) {
    server = named;
    return;
  }
  if (!named->same_place(*server))
    refuse_entry(where + ": " + named->origin + " is not the mix's server (" + server->origin +
           "): a mix loads one server");
}

std::string form_names(const std::vector<const user_call_form*>& forms) {
  std::string list;
  for (const user_call_form* f : forms) list += (list.empty() ? "" : ", ") + f->name;
  return list;
}

user_call_choice workload_from_document(const json& doc, const std::string& name,
                                        const std::vector<const user_call_form*>& forms,
                                        const given_flags& d, std::uint64_t keyspace) {
  user_call_choice choice;
  mix_server server;
  const std::vector<const user_call_form*> all = protocol_registry::builtin().forms();
  auto is_section = [&](const std::string& key) {
    return std::any_of(all.begin(), all.end(), [&](const user_call_form* f) { return key == f->name; });
  };
  const bool sections = doc.is_object() && std::any_of(doc.items().begin(), doc.items().end(),
                                                       [&](const auto& item) { return is_section(item.key()); });
  if (sections) {
    for (const auto& [key, value] : doc.items())
      if (!is_section(key))
        refuse_entry(name + ": " + key + ": unknown field beside the sections (known: " + form_names(all) + ")");
    // Each protocol's form its section; sections no protocol of the run takes are not read.
    for (const user_call_form* f : forms) {
      if (!doc.contains(f->name))
        refuse_entry(name + ": no '" + f->name + "' section, for the protocols that send " + f->what + "s");
      if (!choice.by_form.contains(f))
        choice.by_form[f] = parse_entries(doc[f->name], name, f->name + ".", f, d, keyspace, server);
    }
  } else {
    if (std::any_of(forms.begin(), forms.end(), [&](const user_call_form* f) { return f != forms.front(); }))
      refuse_entry("--workload " + name + ": its requests are read in one protocol's words: give it a "
             "section per kind of request (" + form_names(all) + "), or run protocols that "
             "take the same requests");
    choice.calls = parse_entries(doc, name, "", forms.front(), d, keyspace, server);
  }
  choice.server = server.server;
  return choice;
}

}  // namespace wirebench::app
