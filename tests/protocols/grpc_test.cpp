// gRPC: all four shapes of the Echo service end to end through grpc++'s own stubs, on both
// server engines (completion queue and callback); the cq engine's threads knob; a server stopped
// under an open stream ends it (cancelled after the grace), on both engines; the three
// greet clients over TCP and abstract Unix sockets; a stream cut by the server mid-way fails every
// pending call with connection_closed, none hangs; and a reply for an id never issued is
// ignored (counted), not matched to the wrong call. The clients: their queue threads, and the
// batching client's gathering of the calls one reply's completions make.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <fstream>
#include <thread>

#include <pthread.h>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "../../src/protocols/grpcpp/grpc_backend.hpp"
#include "proto/echo.grpc.pb.h"
#include "support/concurrent_calls.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
namespace pb = wirebench::echo;

server_config on_engine(const std::string& engine) {
  server_config c;
  c.engine = engine;
  return c;
}

class grpc_echo : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    server_ = protocol_registry::builtin().find("grpcpp")->make_server(on_engine(GetParam()));
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

TEST_P(grpc_echo, get_is_unary_echo) {
  grpc::ClientContext ctx;
  pb::EchoResponse out;
  ASSERT_TRUE(stub_->Get(&ctx, text("ping"), &out).ok());
  EXPECT_EQ(out.text(), "ping");
}

TEST_P(grpc_echo, expand_streams_one_reply_per_word) {
  grpc::ClientContext ctx;
  auto reader = stub_->Expand(&ctx, text("the quick  brown fox"));
  std::vector<std::string> words;
  pb::EchoResponse out;
  while (reader->Read(&out)) words.push_back(out.text());
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_EQ(words, (std::vector<std::string>{"the", "quick", "brown", "fox"}));
}

TEST_P(grpc_echo, collect_concatenates_a_client_stream) {
  grpc::ClientContext ctx;
  pb::EchoResponse out;
  auto writer = stub_->Collect(&ctx, &out);
  for (const char* part : {"con", "cat", "enated"}) ASSERT_TRUE(writer->Write(text(part)));
  writer->WritesDone();
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(out.text(), "concatenated");
}

TEST_P(grpc_echo, update_answers_every_message_of_a_bidi_stream) {
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

TEST_P(grpc_echo, greet_stream_replies_carry_the_request_ids_and_batches_answer_whole) {
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

INSTANTIATE_TEST_SUITE_P(engines, grpc_echo, ::testing::Values("cq", "callback"),
                         [](const auto& info) { return std::string(info.param); });

TEST(grpc_server, the_engines_are_registered_cq_first_and_an_unknown_one_is_refused) {
  const protocol* p = protocol_registry::builtin().find("grpcpp-stream");
  EXPECT_EQ(p->can.server_engines, (std::vector<std::string>{"cq", "callback"}));
  EXPECT_THROW(p->make_server(on_engine("threads")), std::invalid_argument);
}

// The threads (task id -> name) whose name starts with `prefix`. A thread gRPC starts from one of
// ours carries our thread's name until it names itself, which under load can take a while; so
// tests compare the set of names when counting, and follow the task ids when checking a join.
std::map<std::string, std::string> threads_named(const std::string& prefix) {
  std::map<std::string, std::string> found;
  std::error_code ec;
  for (std::filesystem::directory_iterator task("/proc/self/task", ec), end; !ec && task != end;
       task.increment(ec)) {
    std::ifstream comm(task->path() / "comm");
    std::string name;
    if (std::getline(comm, name) && name.starts_with(prefix))
      found.emplace(task->path().filename(), name);
  }
  return found;
}

std::set<std::string> names_of(const std::map<std::string, std::string>& threads) {
  std::set<std::string> names;
  for (const auto& [task, name] : threads) names.insert(name);
  return names;
}

// How many of `threads` are still alive under the name they had.
std::size_t still_running(const std::map<std::string, std::string>& threads) {
  std::size_t n = 0;
  for (const auto& [task, name] : threads) {
    std::ifstream comm("/proc/self/task/" + task + "/comm");
    std::string now;
    if (std::getline(comm, now) && now == name) ++n;
  }
  return n;
}

TEST(grpc_server, the_cq_engine_drains_one_queue_per_thread_asked_for) {
  server_config c = on_engine("cq");
  c.threads = 3;
  auto server = protocol_registry::builtin().find("grpcpp")->make_server(c);
  const auto pollers = threads_named("grpc-cq-");
  EXPECT_EQ(names_of(pollers), (std::set<std::string>{"grpc-cq-0", "grpc-cq-1", "grpc-cq-2"}));
  client_config cc;
  cc.connect = server->local_endpoint();
  cc.connections = 3;  // gRPC gives each connection to one of the queues
  auto client = protocol_registry::builtin().find("grpcpp")->make_client(cc);
  test::expect_each_call_completes_once(*client, 3, 300);
  client->close();
  server->stop();
  EXPECT_EQ(still_running(pollers), 0u);
  EXPECT_EQ(server->stats().requests, 900u);
}

// A client that keeps its stream open holds up a graceful stop for the grace only; then
// the stream is cancelled, and the server's calls all end before its threads do (on the cq
// engine a call finishing after its queue shut down aborted the process).
class grpc_engine_stop : public ::testing::TestWithParam<std::string> {};

TEST_P(grpc_engine_stop, a_stop_under_open_streams_cancels_them_after_the_grace) {
  server_config c = on_engine(GetParam());
  c.grace = 100ms;
  auto server = protocol_registry::builtin().find("grpcpp-stream")->make_server(c);
  auto stub = pb::Echo::NewStub(grpc::CreateChannel(
      grpc_backend::grpc_address(server->local_endpoint()), grpc::InsecureChannelCredentials()));
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReaderWriter<pb::GreetRequest, pb::GreetReply>>> streams;
  for (int i = 0; i < 4; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    streams.push_back(stub->GreetStream(contexts.back().get()));
    pb::GreetRequest r;
    r.set_id(static_cast<std::uint64_t>(i) + 1);
    r.set_name("open");
    ASSERT_TRUE(streams.back()->Write(r));
    pb::GreetReply reply;
    ASSERT_TRUE(streams.back()->Read(&reply));
    EXPECT_EQ(reply.id(), static_cast<std::uint64_t>(i) + 1);
  }
  server->stop();  // returns: every stream was cancelled after 100 ms
  for (auto& stream : streams) {
    pb::GreetReply reply;
    EXPECT_FALSE(stream->Read(&reply));
    EXPECT_FALSE(stream->Finish().ok());
  }
  EXPECT_EQ(server->stats().requests, 4u);
}

INSTANTIATE_TEST_SUITE_P(engines, grpc_engine_stop, ::testing::Values("cq", "callback"),
                         [](const auto& info) { return std::string(info.param); });

// A test's own service on a loopback port, shut down when the test ends.
class loopback_server {
 public:
  explicit loopback_server(grpc::Service& service) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service);
    server_ = builder.BuildAndStart();
    if (!server_ || port_ == 0) throw std::runtime_error("no loopback port for the test server");
  }
  ~loopback_server() { server_->Shutdown(); }
  client_config client() const {
    client_config c;
    c.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port_));
    return c;
  }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

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
  loopback_server server(service);
  auto client = protocol_registry::builtin().find("grpcpp-stream")->make_client(server.client());
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
}

class grpc_clients : public ::testing::TestWithParam<std::string> {};

TEST_P(grpc_clients, batching_and_one_per_message_agree_under_load) {
  server_config c = on_engine(GetParam());
  c.threads = 2;
  auto server = protocol_registry::builtin().find("grpcpp-batch")->make_server(c);
  for (const char* name : {"grpcpp", "grpcpp-stream", "grpcpp-batch"}) {
    client_config cc;
    cc.connect = server->local_endpoint();
    cc.connections = 2;
    auto client = protocol_registry::builtin().find(name)->make_client(cc);
    SCOPED_TRACE(name);
    test::expect_each_call_completes_once(*client, 3, 1000);
  }
}

INSTANTIATE_TEST_SUITE_P(engines, grpc_clients, ::testing::Values("cq", "callback"),
                         [](const auto& info) { return std::string(info.param); });

// `run --workers 8 --depth 4` gives 2 streams of 4 calls each: 8 closed-loop callers fit exactly,
// though replies come back out of turn. Round robin put a caller's next call on a stream that was
// still full, and it was rejected (a third of the calls at 64 workers, depth 32); a caller now
// keeps to its lane's stream, as the load driver asks.
TEST(grpc_stream, callers_that_fit_the_streams_are_never_rejected) {
  auto server = protocol_registry::builtin().find("grpcpp")->make_server({});
  for (const char* name : {"grpcpp-stream", "grpcpp-batch"}) {
    SCOPED_TRACE(name);
    client_config cc;
    cc.connect = server->local_endpoint();
    cc.connections = 2;
    cc.depth = 4;
    cc.threads = 2;
    auto client = protocol_registry::builtin().find(name)->make_client(cc);
    constexpr int callers = 8, calls_each = 300;
    std::atomic<int> finished{0}, failed{0};
    std::function<void(int, int)> issue = [&](int c, int left) {
      auto next = [&, c, left](std::error_code ec, std::string_view) {
        if (ec) ++failed;
        if (left == 1) return void(++finished);
        issue(c, left - 1);
      };
      client->async_greet("c" + std::to_string(c), {.lane = static_cast<std::size_t>(c)}, next);
    };
    for (int c = 0; c < callers; ++c) issue(c, calls_each);
    for (int i = 0; i < 2000 && finished < callers; ++i) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(finished.load(), callers);
    EXPECT_EQ(failed.load(), 0);
    client->close();
  }
}

std::string current_thread_name() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

// Every gRPC client completes its calls on its own `threads` queue threads, and a call made from
// a completion stays on that completion's thread (a closed-loop caller never changes thread);
// close() joins them all.
class grpc_client_threads : public ::testing::TestWithParam<std::string> {};

TEST_P(grpc_client_threads, calls_complete_on_the_clients_threads_and_chains_stay_on_one) {
  auto server = protocol_registry::builtin().find("grpcpp")->make_server({});
  client_config cc;
  cc.connect = server->local_endpoint();
  cc.threads = 2;
  auto client = protocol_registry::builtin().find(GetParam())->make_client(cc);
  const auto pollers = threads_named("grpc-cli-");
  EXPECT_EQ(names_of(pollers), (std::set<std::string>{"grpc-cli-0", "grpc-cli-1"}));

  constexpr int chains = 4, depth = 50;
  struct chain {
    std::vector<std::string> threads;  // where each completion ran
    std::error_code ec;
  };
  std::vector<chain> runs(chains);
  std::atomic<int> finished{0};
  std::function<void(int)> issue = [&](int c) {
    client->async_greet("c" + std::to_string(c), [&, c](std::error_code ec, std::string_view) {
      runs[c].threads.push_back(current_thread_name());
      if (ec) runs[c].ec = ec;
      if (ec || runs[c].threads.size() == depth) return void(++finished);
      issue(c);
    });
  };
  for (int c = 0; c < chains; ++c) issue(c);
  for (int i = 0; i < 2000 && finished < chains; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(finished.load(), chains);
  for (const chain& run : runs) {
    EXPECT_FALSE(run.ec) << run.ec.message();
    ASSERT_EQ(run.threads.size(), std::size_t{depth});
    EXPECT_TRUE(run.threads.front().starts_with("grpc-cli-")) << run.threads.front();
    // The first call may have been started from this thread; its successors stay where it ran.
    EXPECT_EQ(std::count(run.threads.begin(), run.threads.end(), run.threads.front()), depth);
  }
  client->close();
  EXPECT_EQ(still_running(pollers), 0u);
}

INSTANTIATE_TEST_SUITE_P(clients, grpc_client_threads,
                         ::testing::Values("grpcpp", "grpcpp-stream", "grpcpp-batch"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A GreetBatchStream that answers nothing until `gather` requests have arrived, then all of them
// in one reply message, and records how many requests each message it read carried.
class gathering_service final : public pb::Echo::CallbackService {
 public:
  explicit gathering_service(int gather) : gather_(gather) {}
  std::vector<int> message_sizes() {
    std::lock_guard lock(mutex_);
    return sizes_;
  }
  grpc::ServerBidiReactor<pb::GreetBatch, pb::GreetReplyBatch>* GreetBatchStream(
      grpc::CallbackServerContext*) override {
    struct reactor final : grpc::ServerBidiReactor<pb::GreetBatch, pb::GreetReplyBatch> {
      explicit reactor(gathering_service& s) : service(s) { StartRead(&in); }
      void OnReadDone(bool ok) override {
        if (!ok) return Finish(grpc::Status::OK);
        {
          std::lock_guard lock(service.mutex_);
          service.sizes_.push_back(in.requests_size());
        }
        for (const pb::GreetRequest& r : in.requests()) {
          pb::GreetReply* reply = gathered.add_replies();
          reply->set_id(r.id());
          reply->set_greeting(std::string(expected_greeting(r.name())));
        }
        if (gathered.replies_size() < service.gather_) return StartRead(&in);
        out = std::move(gathered);
        gathered.Clear();
        StartWrite(&out);  // the client sends nothing more until this is answered
      }
      void OnWriteDone(bool ok) override {
        if (!ok) return Finish(grpc::Status::CANCELLED);
        StartRead(&in);
      }
      void OnDone() override { delete this; }
      gathering_service& service;
      pb::GreetBatch in;
      pb::GreetReplyBatch gathered, out;
    };
    return new reactor(*this);
  }

 private:
  int gather_;
  std::mutex mutex_;
  std::vector<int> sizes_;
};

// The calls a reply's completions make go out together: the first round's requests may be split
// any way between messages, but every later round is answered in one reply, so its five calls
// are made by one reply's completions and must arrive in one message.
TEST(grpc_batch, calls_made_by_one_replys_completions_go_out_in_one_message) {
  constexpr int callers = 5, rounds = 3;
  gathering_service service(callers);
  loopback_server server(service);
  auto client = protocol_registry::builtin().find("grpcpp-batch")->make_client(server.client());
  std::atomic<int> ok{0}, finished{0};
  std::function<void(int, int)> issue = [&](int c, int round) {
    client->async_greet("b" + std::to_string(c), [&, c, round](std::error_code ec,
                                                               std::string_view) {
      ok += !ec;
      if (ec || round + 1 == rounds) return void(++finished);
      issue(c, round + 1);
    });
  };
  for (int c = 0; c < callers; ++c) issue(c, 0);
  for (int i = 0; i < 2000 && finished < callers; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(finished.load(), callers);
  EXPECT_EQ(ok.load(), callers * rounds);
  const std::vector<int> sizes = service.message_sizes();
  ASSERT_GE(sizes.size(), 3u);
  EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), 0), callers * rounds);
  EXPECT_EQ(sizes[sizes.size() - 2], callers);
  EXPECT_EQ(sizes.back(), callers);
  client->close();
}

}  // namespace
}  // namespace wirebench
