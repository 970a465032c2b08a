#include "wirebench/protocols/user_call.hpp"

#include <array>
#include <charconv>

#include "wirebench/protocols/peer_text.hpp"
#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench {

namespace {

// What the call sends and expects, without the placeholder's range.
std::string request_text(const user_call& call) {
  const user_call_form* form = call.form();
  return form ? form->text(call.request) : std::string();
}

// The most of a request's text describe() and label() show.
constexpr std::size_t most_described = 200;

}  // namespace

std::string describe(const user_call& call) {
  // A line a person reads: a 20 MB -d is not printed whole (the results' request keeps it).
  std::string text = peer_text(request_text(call), most_described);
  if (text.find(random_int_placeholder) != std::string::npos)
    text += " (" + std::string(random_int_placeholder) + " in [0, " + std::to_string(call.keyspace) + "))";
  return text;
}

std::string label(const user_call& call) {
  return call.name.empty() ? peer_text(request_text(call), most_described) : call.name;
}

std::vector<request_field> fields_of(user_call& call) {
  const user_call_form* form = call.form();
  return form ? form->fields(call.request) : std::vector<request_field>{};
}

std::string_view request_payload(std::size_t index) {
  // Made once, at first use (a static: thread-safe), so a driver's pick costs a table lookup.
  static const auto payloads = [] {
    std::array<std::string, max_mix_requests> all;
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = std::to_string(i);
    return all;
  }();
  return payloads.at(index);
}

std::optional<std::size_t> request_index(std::string_view payload, std::size_t count) {
  if (count == 1) return 0;
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(payload.data(), payload.data() + payload.size(), index);
  if (ec != std::errc{} || end != payload.data() + payload.size() || index >= count)
    return std::nullopt;
  return index;
}

std::string sends_phrase(const user_call_form* form) {
  return form ? form->phrase() : "only its greet call";
}

std::string given_flags::last(std::string_view name, std::string otherwise) const {
  const auto it = values.find(name);
  return it == values.end() || it->second.empty() ? otherwise : it->second.back();
}

const std::vector<std::string>& given_flags::all(std::string_view name) const {
  static const std::vector<std::string> none;
  const auto it = values.find(name);
  return it == values.end() ? none : it->second;
}

}  // namespace wirebench
