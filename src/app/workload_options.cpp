#include "workload_options.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "workload_document.hpp"
#include "workload_yaml.hpp"
#include "wirebench/load/request_mix.hpp"
#include "wirebench/protocols/input_file.hpp"
#include "wirebench/protocols/nesting_depth.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

// --weights "3,1,1": one whole number >= 1 per request.
std::vector<std::uint32_t> parse_weights(const std::string& text, std::size_t requests) {
  std::vector<std::uint32_t> weights;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    std::uint32_t w = 0;
    std::size_t used = 0;
    try {
      const unsigned long v = std::stoul(item, &used);
      if (v == 0 || v > 1'000'000 || used != item.size()) throw std::out_of_range("weight");
      w = static_cast<std::uint32_t>(v);
    } catch (const std::exception&) {
      refuse("--weights " + text + ": '" + item + "' is not a weight (a whole number from 1 to 1000000)");
    }
    weights.push_back(w);
  }
  if (weights.size() != requests)
    refuse("--weights " + text + ": " + std::to_string(weights.size()) + " weights for " +
           std::to_string(requests) + " requests");
  return weights;
}

}  // namespace

void add_workload_options(CLI::App& cmd, workload_options& o) {
  const char* group = "Request mix";
  // In each form's words (user_call_form::line_help).
  std::string words;
  for (const user_call_form* form : protocol_registry::builtin().forms())
    words += (words.empty() ? "" : ", ") + form->line_help;
  cmd.add_option("--request", o.requests,
                 "A request of a mix (repeatable), in the protocol's words: " + words +
                     "; @FILE reads one per line (h2load's -i). -H, -d and the expectations apply to each")
      ->group(group)
      ->allow_extra_args(false);
  cmd.add_option("--weights", o.weights,
                 "Each --request's share of the calls, as W1,W2,... (default: all equal)")
      ->group(group);
  cmd.add_option("--workload", o.workload_file,
                 "A JSON or YAML file (.yaml, .yml) listing the requests with their weights and "
                 "expectations (docs/WORKLOADS.md)")
      ->group(group)
      ->check(CLI::ExistingFile);
}

bool workload_given(const CLI::App& cmd) {
  return cmd.get_option("--request")->count() > 0 || cmd.get_option("--workload")->count() > 0;
}

user_call_choice read_workload(const workload_options& o, const user_call_options& user,
                               const CLI::App& cmd, const std::vector<const user_call_form*>& forms) {
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  auto runs = [&](const user_call_form* f) { return std::find(forms.begin(), forms.end(), f) != forms.end(); };
  const user_call_form* form = forms.front();
  const bool from_flags = given("--request"), from_file = given("--workload");
  if (from_flags && from_file) refuse("give --request or --workload, not both");
  const given_flags d = user.given(cmd);
  // A flag of one request is not a mix's; the others are each request's default, for the forms
  // of the run that take them so.
  for (const auto& [name, values] : d.values)
    for (const user_call_form* f : user.forms)
      if (const user_call_flag* flag = read_flag(*f, name); flag && flag->asks && flag->owned)
        refuse(name + " is one request: give it as a --request of the mix instead");
  if (runs(nullptr)) {
    std::string mixes;
    for (const protocol& p : protocol_registry::builtin().all())
      if (p.can.user_calls) mixes += (mixes.empty() ? "" : ", ") + p.name;
    refuse(std::string(from_file ? "--workload" : "--request") +
           ": the protocol sends only its greet call; a mix goes to " + mixes);
  }
  for (const auto& [name, values] : d.values) {
    std::string takers;  // the forms that take it beside a mix, of the run or not
    bool taken = false;
    for (const user_call_form* f : user.forms)
      if (const user_call_flag* flag = read_flag(*f, name); flag && flag->in_mix) {
        takers += (takers.empty() ? "" : " and ") + f->what + "s";
        taken = taken || runs(f);
      }
    if (takers.empty()) refuse(name + ": give it in each request of the mix, not beside them");
    if (!taken) refuse(name + " is for " + takers);
  }
  if (!from_flags && given("--weights")) refuse("--weights go with --request (a workload file gives each request's weight)");

  user_call_choice choice;
  if (from_file) {
    // By its name: .yaml or .yml is YAML, anything else JSON.
    const std::string& name = o.workload_file;
    const bool yaml = name.ends_with(".yaml") || name.ends_with(".yml");
    const std::string text = read_input_file(name, max_listing_file_bytes, "--workload");
    if (!nesting_within(text, max_json_nesting))
      refuse("--workload " + name + ": nests deeper than " + std::to_string(max_json_nesting) + " levels");
    const json doc = yaml ? yaml_as_json(text, name) : json::parse(text, nullptr, false);
    if (doc.is_discarded()) refuse("--workload " + name + ": not JSON (a YAML file's name ends in .yaml or .yml)");
    choice = workload_from_document(doc, name, forms, d, user.keyspace);
  } else {
    if (std::any_of(forms.begin(), forms.end(), [&](const user_call_form* f) { return f != form; }))
      refuse("--request: a mix is read in its protocols' words: run protocols that send the same "
             "kind of request, or give a --workload file a section per kind (" +
             form_names(protocol_registry::builtin().forms()) + ")");
    mix_server server;
    auto add = [&](const std::string& line, const std::string& where) {
      // Refused at the first request past the most, not after a file of millions is parsed.
      if (choice.calls.size() == max_mix_requests)
        refuse(where + ": more than " + std::to_string(max_mix_requests) +
               " requests: a mix has at most " + std::to_string(max_mix_requests) + " (each keeps histograms of its own)");
      user_call call{form->from_line(line, d, where), user.keyspace};
      server.take(call, where);
      choice.calls.push_back(std::move(call));
    };
    for (const std::string& request : o.requests) {
      if (!request.starts_with('@')) {
        add(request, "--request '" + request + "'");
        continue;
      }
      const std::string path = request.substr(1);
      std::istringstream lines(read_input_file(path, max_call_file_bytes, "--request"));
      std::size_t number = 0, before = choice.calls.size();
      for (std::string line; std::getline(lines, line);) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;  // blank, or a comment
        add(line, "--request " + request + ":" + std::to_string(number));
      }
      if (choice.calls.size() == before) refuse("--request " + request + ": no request in it");
    }
    if (given("--weights")) {
      const auto weights = parse_weights(o.weights, choice.calls.size());
      for (std::size_t i = 0; i < weights.size(); ++i) choice.calls[i].weight = weights[i];
    }
    choice.server = server.server;
  }
  // Each list as the drivers will take it: at most max_mix_requests, weights that make a cycle.
  auto check = [&](const std::vector<user_call>& calls) {
    if (calls.size() > max_mix_requests)
      refuse(std::to_string(calls.size()) + " requests: a mix has at most " +
             std::to_string(max_mix_requests) + " (each keeps histograms of its own)");
    std::vector<std::uint32_t> weights;
    for (const user_call& call : calls) weights.push_back(call.weight);
    try {
      (void)request_mix(weights);
    } catch (const std::invalid_argument& e) {
      refuse(std::string(from_file ? "--workload " + o.workload_file : "--weights " + o.weights) + ": " + e.what());
    }
  };
  if (choice.by_form.empty()) check(choice.calls);
  for (const auto& [f, calls] : choice.by_form) check(calls);
  return choice;
}

}  // namespace wirebench::app
