#pragma once
// The user's gRPC method as the `grpc` client's call shapes (grpc_call_client.cpp), through
// grpc++'s generic stub, the messages made once from JSON (../grpc/grpc_dynamic_method.hpp):
//
// - user_unary_rpc, for a unary method: one request, one reply, as the greet call is made.
// - user_stream_rpc, for a streaming method (client, server or both): each call is one stream.
//   It writes the request messages (-d's JSON array for a client-streaming method, else one
//   message), half-closes, reads every reply until the server ends the stream, then takes the
//   status, as ghz calls a streaming method.
// A method that is not client-streaming sends one message per call: -d's, or with a JSON array
// each of its messages in turn (ghz's --data with an array), counted across the client's calls.
//
// A call succeeds on status OK when every reply parses as the method's reply type; its text is the
// reply in JSON, or the replies as a JSON array for a server-streaming method. `__rand_int__` in
// a string field gets fresh digits per call (grpc_request_bytes.hpp).
//
// Each call's events all come on the queue thread it started on: its state needs no lock.
#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include "grpc_cq.hpp"
#include "../grpc/grpc_dynamic_method.hpp"
#include "grpc_request_bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {

// The method from its .proto or the server's reflection: shared with our own gRPC client.
using grpc_wire::grpc_dynamic_method;
using grpc_wire::service_of;

// `reply` as the method's reply type in JSON, appended to `json`; false if it is not one.
bool append_reply_json(const grpc_dynamic_method& method, const grpc::ByteBuffer& reply,
                       std::string& json);

// What every unary policy shares (the greet call's too): once its reader is prepared, the call
// starts and asks for its reply and status at once, and is over at its one event.
class unary_rpc_base {
 public:
  template <class Call>
  bool on(Call&, op what, bool) const {
    return what == op::finished;
  }

 protected:
  template <class Call>
  static void run(Call& c) {
    c.state.reader->StartCall();
    c.state.reader->Finish(&c.state.reply, &c.status, c.tags(op::finished));
  }
};

// What both user shapes share: the method, its request messages, grpc++'s generic stub.
class user_method_rpc {
 public:
  using stub_type = grpc::GenericStub;
  static constexpr bool greets = false;

  // `metadata` as grpc_metadata.hpp's checked_metadata gives it (grpc++ encodes -bin values).
  user_method_rpc(std::shared_ptr<const grpc_dynamic_method> method, std::uint64_t keyspace,
                  std::vector<std::pair<std::string, std::string>> metadata)
      : method_(std::move(method)),
        requests_(method_->request_messages(), keyspace),
        metadata_(std::move(metadata)) {}
  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return std::make_unique<stub_type>(channel);
  }

 protected:
  // The first message a call sends: 0 for a client stream (it sends them all), else the next in
  // turn. Any thread (calls start on callers' and queue threads).
  std::size_t first_message() const {
    if (method_->client_streaming() || requests_.size() == 1) return 0;
    return next_->fetch_add(1, std::memory_order_relaxed) % requests_.size();
  }

  // Before the call starts: its request metadata (-H).
  void add_metadata(grpc::ClientContext& context) const {
    for (const auto& [name, value] : metadata_) context.AddMetadata(name, value);
  }

  std::shared_ptr<const grpc_dynamic_method> method_;
  grpc_request_bytes requests_;
  std::vector<std::pair<std::string, std::string>> metadata_;
  // Shared by the policy's copies (the client keeps one, moved in).
  std::shared_ptr<std::atomic<std::size_t>> next_ = std::make_shared<std::atomic<std::size_t>>(0);
};

class user_unary_rpc : public unary_rpc_base, public user_method_rpc {
 public:
  using user_method_rpc::user_method_rpc;
  struct state {
    grpc::ByteBuffer request;
    grpc::ByteBuffer reply;
    std::unique_ptr<grpc::ClientAsyncResponseReader<grpc::ByteBuffer>> reader;
  };

  template <class Call>
  void start(stub_type& stub, Call& c, std::string_view, grpc::CompletionQueue* cq) const {
    add_metadata(c.context);
    c.state.request = requests_.at(first_message());
    c.state.reader = stub.PrepareUnaryCall(&c.context, method_->path(), c.state.request, cq);
    run(c);
  }
  template <class Call>
  std::error_code judge(Call& c, std::string_view& text) const {
    thread_local std::string json;  // per queue thread: read by the completion before it returns
    json.clear();
    if (!append_reply_json(*method_, c.state.reply, json)) return errc::wrong_reply;
    text = json;
    return {};
  }
};

class user_stream_rpc : public user_method_rpc {
 public:
  using user_method_rpc::user_method_rpc;
  struct state {
    std::unique_ptr<grpc::GenericClientAsyncReaderWriter> stream;
    grpc::ByteBuffer request;  // the message being written
    grpc::ByteBuffer reply;
    std::string replies;         // in JSON, as they come
    std::size_t written = 0;     // request messages written
    std::size_t first = 0;       // the first of them (requests_'s index)
    std::size_t count = 0;       // how many the call writes
    std::size_t read = 0;        // replies read
    bool writes_closed = false;  // WritesDone sent
    bool writing_over = false;   // WritesDone done (or a write failed: the stream is over)
    bool reading_over = false;   // the server ended the stream
    bool finishing = false;      // Finish sent
    bool bad_reply = false;      // a reply that is not the method's reply type
  };

  template <class Call>
  void start(stub_type& stub, Call& c, std::string_view, grpc::CompletionQueue* cq) const {
    add_metadata(c.context);
    c.state.first = first_message();
    c.state.count = method_->messages_per_call();
    c.state.stream = stub.PrepareCall(&c.context, method_->path(), cq);
    c.state.stream->StartCall(c.tags(op::started));
  }
  // Writes one after another (one write in flight, as gRPC allows), reads meanwhile; the status
  // once both directions are over.
  template <class Call>
  bool on(Call& c, op what, bool ok) const {
    state& s = c.state;
    switch (what) {
      case op::started:
        if (!ok) {  // never under way: the status says why
          s.writing_over = s.reading_over = true;
          break;
        }
        write_next(c);
        s.stream->Read(&s.reply, c.tags(op::read));
        break;
      case op::wrote:
        if (!ok || s.writes_closed)
          s.writing_over = true;  // the stream is over for writing, or WritesDone is done
        else
          write_next(c);
        break;
      case op::read:
        if (!ok) {
          s.reading_over = true;
          break;
        }
        if (method_->server_streaming()) s.replies.push_back(s.read == 0 ? '[' : ',');
        if (!append_reply_json(*method_, s.reply, s.replies)) s.bad_reply = true;
        ++s.read;
        s.stream->Read(&s.reply, c.tags(op::read));
        break;
      case op::finished:
        return true;
    }
    if (s.writing_over && s.reading_over && !s.finishing) {
      s.finishing = true;
      s.stream->Finish(&c.status, c.tags(op::finished));
    }
    return false;
  }
  template <class Call>
  std::error_code judge(Call& c, std::string_view& text) const {
    state& s = c.state;
    if (s.bad_reply || (!method_->server_streaming() && s.read != 1)) return errc::wrong_reply;
    if (method_->server_streaming()) s.replies.append(s.read == 0 ? "[]" : "]");
    text = s.replies;
    return {};
  }

 private:
  template <class Call>
  void write_next(Call& c) const {
    state& s = c.state;
    if (s.written < s.count) {
      s.request = requests_.at(s.first + s.written++);  // kept until the write completes
      s.stream->Write(s.request, c.tags(op::wrote));
    } else {
      s.writes_closed = true;
      s.stream->WritesDone(c.tags(op::wrote));
    }
  }
};

}  // namespace wirebench::grpc_backend
