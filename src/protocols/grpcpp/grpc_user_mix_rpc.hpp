#pragma once
// A mix of the user's gRPC methods (several grpc_calls, user_call.hpp) on grpc++'s generic stub:
// each call runs the policy of the method its payload names (request_payload), unary or
// streaming (grpc_user_rpc.hpp), on a state that holds either policy's. The policies are the
// single-method ones, unchanged: they see the call through a view whose `state` is their own.
//
// Each call's events all come on the queue thread it started on: its state needs no lock.
#include <cstddef>
#include <memory>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <variant>
#include <vector>

#include "grpc_user_rpc.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench::grpc_backend {

class user_mix_rpc {
 public:
  using stub_type = grpc::GenericStub;
  using request_rpc = std::variant<user_unary_rpc, user_stream_rpc>;
  static constexpr bool greets = false;
  struct state {
    std::size_t request = 0;  // which of the mix the call sends
    user_unary_rpc::state unary;
    user_stream_rpc::state stream;
  };

  explicit user_mix_rpc(std::vector<request_rpc> requests) : requests_(std::move(requests)) {}
  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return std::make_unique<stub_type>(channel);
  }

  // Whether `name` names none of the mix's requests: the client then fails the call with
  // invalid_argument before it starts.
  bool refuses(std::string_view name) const { return !request_index(name, requests_.size()); }

  template <class Call>
  void start(stub_type& stub, Call& c, std::string_view name, grpc::CompletionQueue* cq) const {
    c.state.request = *request_index(name, requests_.size());
    with(c, [&](const auto& rpc, auto& view) { rpc.start(stub, view, name, cq); });
  }
  template <class Call>
  bool on(Call& c, op what, bool ok) const {
    return with(c, [&](const auto& rpc, auto& view) { return rpc.on(view, what, ok); });
  }
  template <class Call>
  std::error_code judge(Call& c, std::string_view& text) const {
    return with(c, [&](const auto& rpc, auto& view) { return rpc.judge(view, text); });
  }

 private:
  // The call as one policy sees it: its own state, the call's context, status and tags.
  template <class Call, class State>
  struct call_view {
    State& state;
    grpc::ClientContext& context;
    grpc::Status& status;
    decltype(Call::tags)& tags;
  };

  // `act(policy, view)` with the policy of the request the call sends.
  template <class Call, class Act>
  decltype(auto) with(Call& c, Act&& act) const {
    return std::visit(
        [&](const auto& rpc) -> decltype(auto) {
          using rpc_type = std::decay_t<decltype(rpc)>;
          if constexpr (std::is_same_v<rpc_type, user_unary_rpc>) {
            call_view<Call, user_unary_rpc::state> view{c.state.unary, c.context, c.status, c.tags};
            return act(rpc, view);
          } else {
            call_view<Call, user_stream_rpc::state> view{c.state.stream, c.context, c.status, c.tags};
            return act(rpc, view);
          }
        },
        requests_[c.state.request]);
  }

  std::vector<request_rpc> requests_;
};

}  // namespace wirebench::grpc_backend
