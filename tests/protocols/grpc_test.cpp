// gRPC: all four shapes of the Echo service end to end through grpc++'s own stubs; the three greet
// clients over TCP and abstract Unix sockets; a stream cut by the server mid-way fails every
// pending call with connection_closed, none hangs; and a reply for an id never issued is
// ignored (counted), not matched to the wrong call.
#include <atomic>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "../../src/protocols/grpc/grpc_backend.hpp"
#include "proto/echo.grpc.pb.h"
#include "support/concurrent_calls.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
namespace pb = wirebench::echo;

class grpc_echo : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = protocol_registry::builtin().find("grpc")->make_server({});
    stub_ = pb::Echo::NewStub(grpc::CreateChannel(grpc_backend::grpc_address(server_->local_endpoint()),
                                                  grpc::InsecureChannelCredentials()));
  }
  std::unique_ptr<protocol_server> server_;
  std::unique_ptr<pb::Echo::Stub> stub_;
};

pb::EchoRequest text(const std::string& t) {
  pb::EchoRequest r;
  r.set_text(t);
  return r;
}

TEST_F(grpc_echo, get_is_unary_echo) {
  grpc::ClientContext ctx;
  pb::EchoResponse out;
  ASSERT_TRUE(stub_->Get(&ctx, text("ping"), &out).ok());
  EXPECT_EQ(out.text(), "ping");
}

TEST_F(grpc_echo, expand_streams_one_reply_per_word) {
  grpc::ClientContext ctx;
  auto reader = stub_->Expand(&ctx, text("the quick  brown fox"));
  std::vector<std::string> words;
  pb::EchoResponse out;
  while (reader->Read(&out)) words.push_back(out.text());
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_EQ(words, (std::vector<std::string>{"the", "quick", "brown", "fox"}));
}

TEST_F(grpc_echo, collect_concatenates_a_client_stream) {
  grpc::ClientContext ctx;
  pb::EchoResponse out;
  auto writer = stub_->Collect(&ctx, &out);
  for (const char* part : {"con", "cat", "enated"}) ASSERT_TRUE(writer->Write(text(part)));
  writer->WritesDone();
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(out.text(), "concatenated");
}

TEST_F(grpc_echo, update_answers_every_message_of_a_bidi_stream) {
  grpc::ClientContext ctx;
  auto stream = stub_->Update(&ctx);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(stream->Write(text("m" + std::to_string(i))));
  stream->WritesDone();
  pb::EchoResponse out;
  int n = 0;
  while (stream->Read(&out)) EXPECT_EQ(out.text(), "m" + std::to_string(n++));
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(n, 100);
}

TEST_F(grpc_echo, greet_stream_replies_carry_the_request_ids_and_batches_answer_whole) {
  grpc::ClientContext ctx;
  auto stream = stub_->GreetBatchStream(&ctx);
  pb::GreetBatch batch;
  for (int i = 0; i < 10; ++i) {
    auto* r = batch.add_requests();
    r->set_id(1000 + i);
    r->set_name("n" + std::to_string(i));
  }
  ASSERT_TRUE(stream->Write(batch));
  stream->WritesDone();
  pb::GreetReplyBatch replies;
  ASSERT_TRUE(stream->Read(&replies));
  ASSERT_EQ(replies.replies_size(), 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(replies.replies(i).id(), 1000u + i);
    EXPECT_EQ(replies.replies(i).greeting(), "hello, n" + std::to_string(i));
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(server_->stats().requests, 10u);
}

// A GreetStream that takes requests and answers none of them, then ends the stream with an error
// once `cut_after` have arrived: the server-side failure the client must survive.
class cutting_service final : public pb::Echo::CallbackService {
 public:
  explicit cutting_service(int cut_after) : cut_after_(cut_after) {}
  grpc::ServerBidiReactor<pb::GreetRequest, pb::GreetReply>* GreetStream(
      grpc::CallbackServerContext*) override {
    struct reactor final : grpc::ServerBidiReactor<pb::GreetRequest, pb::GreetReply> {
      explicit reactor(int n) : left(n) { StartRead(&in); }
      void OnReadDone(bool ok) override {
        if (!ok || --left == 0)
          return Finish(grpc::Status(grpc::StatusCode::INTERNAL, "cut on purpose"));
        StartRead(&in);
      }
      void OnDone() override { delete this; }
      int left;
      pb::GreetRequest in;
    };
    return new reactor(cut_after_);
  }

 private:
  int cut_after_;
};

TEST(grpc_stream, a_stream_cut_by_the_server_fails_every_pending_call_once) {
  cutting_service service(50);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  ASSERT_NE(port, 0);

  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  auto client = protocol_registry::builtin().find("grpc-stream")->make_client(cc);
  constexpr int n = 200;
  std::vector<std::atomic<int>> completions(n);
  std::atomic<int> closed{0}, done{0};
  for (int i = 0; i < n; ++i)
    client->async_greet("x", [&, i](std::error_code ec, std::string_view) {
      closed += ec == errc::connection_closed;
      ++completions[i];
      ++done;
    });
  for (int i = 0; i < 2000 && done < n; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(done.load(), n);
  EXPECT_EQ(closed.load(), n);
  for (auto& c : completions) EXPECT_EQ(c.load(), 1);
  // Calls after the stream ended fail at once.
  EXPECT_EQ(test::greet_sync(*client, "later").ec, errc::connection_closed);
  client->close();
  server->Shutdown();
}

TEST(grpc_stream, batching_and_one_per_message_agree_under_load) {
  auto server = protocol_registry::builtin().find("grpc-batch")->make_server({});
  for (const char* name : {"grpc", "grpc-stream", "grpc-batch"}) {
    client_config cc;
    cc.connect = server->local_endpoint();
    cc.connections = 2;
    auto client = protocol_registry::builtin().find(name)->make_client(cc);
    SCOPED_TRACE(name);
    test::expect_each_call_completes_once(*client, 3, 1000);
  }
}

}  // namespace
}  // namespace wirebench
