// Every user-call form the registry lists (user_call_form.hpp), the toy's among them: its
// examples read as workload entries survive the results file's record, say what they send, and
// show the placeholders their fields; forms are listed once each, by rank, and a second form
// under a taken name is refused where protocols are registered.
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "protocols/toy/toy_call.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

std::vector<user_call> examples(const user_call_form& form) {
  std::vector<user_call> out;
  for (const std::string& text : form.examples(WIREBENCH_ECHO_PROTO))
    out.push_back(user_call{form.from_entry(json_fields(nlohmann::json::parse(text), "example"), {})});
  return out;
}

TEST(user_call_forms, are_listed_once_each_by_rank_with_names_of_their_own) {
  const auto forms = protocol_registry::builtin().forms();
  std::set<std::string> names;
  for (std::size_t i = 0; i < forms.size(); ++i) {
    EXPECT_TRUE(names.insert(forms[i]->name).second) << forms[i]->name;
    if (i > 0) {
      EXPECT_LE(forms[i - 1]->rank, forms[i]->rank);
    }
    EXPECT_EQ(protocol_registry::builtin().find_form(forms[i]->name), forms[i]);
  }
  for (const char* name : {"http", "resp", "grpc", "msgpack", "netstring"})
    EXPECT_TRUE(names.contains(name)) << name;
}

TEST(user_call_forms, every_example_survives_the_results_record) {
  for (const user_call_form* form : protocol_registry::builtin().forms()) {
    ASSERT_TRUE(form->examples) << form->name << " has no examples for the fuzz target and this test";
    for (user_call call : examples(*form)) {
      EXPECT_EQ(call.form(), form);
      const nlohmann::json record = form->to_results(call.request);
      user_call back{form->from_results(json_fields(record, "record"))};
      EXPECT_EQ(back, call) << form->name << ": " << record.dump();
      EXPECT_FALSE(describe(call).empty()) << form->name;
      EXPECT_FALSE(fields_of(call).empty()) << form->name;
    }
  }
}

TEST(user_call_forms, a_flag_asks_for_each_form_and_each_reads_its_own) {
  for (const user_call_form* form : protocol_registry::builtin().forms()) {
    bool asks = false;
    for (const user_call_flag& flag : form->flags) asks = asks || flag.asks;
    EXPECT_TRUE(asks) << form->name;
    EXPECT_FALSE(form->phrase().empty());
    EXPECT_FALSE(form->line_help.empty()) << form->name;
  }
}

TEST(user_call_forms, a_second_form_under_a_taken_name_is_refused) {
  protocol_registry registry;
  registry.add({
      .name = "one",
 .summary = "",
      .can = {.user_calls = &test::netstring_call_form()}});
  user_call_form impostor = test::netstring_call_form();  // same name, another form
  EXPECT_THROW(registry.add({
      .name = "two",
 .summary = "",
      .can = {.user_calls = &impostor}}), std::invalid_argument);
  EXPECT_NO_THROW(registry.add({
      .name = "four",
 .summary = "",
      .can = {.user_calls = &test::netstring_call_form()}}));
  EXPECT_EQ(registry.forms().size(), 1u);
}

// The toy's call through the registry's client and the toy's server: each reply judged by its
// codec, a mix sending each request by its payload, placeholders filled per call.
TEST(user_call_forms, the_toy_sends_its_own_call_and_judges_each_reply) {
  const protocol& toy = *protocol_registry::builtin().find("toy-netstring");
  auto server = toy.make_server({});
  client_config c;
  c.connect = server->local_endpoint();
  c.calls = {user_call{test::netstring_call{"alice", "hello, alice"}},
             user_call{test::netstring_call{"bob", "nope"}},
             user_call{test::netstring_call{"k:__rand_int__"}, 10}};
  auto client = toy.make_client(c);
  EXPECT_FALSE(client->greets());
  for (int round = 0; round < 3; ++round) {
    const auto alice = test::greet_sync(*client, request_payload(0));
    EXPECT_FALSE(alice.ec) << alice.ec.message();
    EXPECT_EQ(alice.reply, "hello, alice");
    EXPECT_EQ(test::greet_sync(*client, request_payload(1)).ec, errc::wrong_reply);
    const auto random = test::greet_sync(*client, request_payload(2));
    EXPECT_FALSE(random.ec);
    EXPECT_TRUE(random.reply.starts_with("hello, k:00000000000")) << random.reply;
  }
  EXPECT_EQ(test::greet_sync(*client, "7").ec, errc::invalid_argument);  // names no request
  client->close();
  server->stop();
}

}  // namespace
}  // namespace wirebench
