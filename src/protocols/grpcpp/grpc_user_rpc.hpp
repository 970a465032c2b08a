#pragma once
// The user's gRPC method as the `grpc` client's call shapes (grpc_call_client.cpp), through
// grpc++'s generic stub, the messages made once from JSON (../grpc/grpc_dynamic_method.hpp):
//
// - user_unary_rpc, for a unary method: one request, one reply, as the greet call is made.
// - user_stream_rpc, for a streaming method (client, server or both): each call is one stream.
//   It writes the request messages (-d's JSON array for a client-streaming method, else the one
//   message), half-closes, reads every reply until the server ends the stream, then takes the
//   status, as ghz calls a streaming method.
//
// A call succeeds on status OK when every reply parses as the method's reply type; its text is the
// reply in JSON, or the replies as a JSON array for a server-streaming method. `__rand_int__` in
// a string field gets fresh digits per call (grpc_request_bytes.hpp).
//
// Each call's events all come on the queue thread it started on: its state needs no lock.
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
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

  user_method_rpc(std::shared_ptr<const grpc_dynamic_method> method, std::uint64_t keyspace)
      : method_(std::move(method)), requests_(method_->request_messages(), keyspace) {}
  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return std::make_unique<stub_type>(channel);
  }

 protected:
  std::shared_ptr<const grpc_dynamic_method> method_;
  grpc_request_bytes requests_;
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
    c.state.request = requests_.at(0);
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
    std::size_t read = 0;        // replies read
    bool writes_closed = false;  // WritesDone sent
    bool writing_over = false;   // WritesDone done (or a write failed: the stream is over)
    bool reading_over = false;   // the server ended the stream
    bool finishing = false;      // Finish sent
    bool bad_reply = false;      // a reply that is not the method's reply type
  };

  template <class Call>
  void start(stub_type& stub, Call& c, std::string_view, grpc::CompletionQueue* cq) const {
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
    if (s.written < requests_.size()) {
      s.request = requests_.at(s.written++);  // kept until the write completes
      s.stream->Write(s.request, c.tags(op::wrote));
    } else {
      s.writes_closed = true;
      s.stream->WritesDone(c.tags(op::wrote));
    }
  }
};

}  // namespace wirebench::grpc_backend
