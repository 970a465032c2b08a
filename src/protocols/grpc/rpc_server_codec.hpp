#pragma once
// The gRPC server's codec on a connection, whatever HTTP version the client speaks: HTTP/2 when
// its first bytes are HTTP/2's connection preface ("PRI * HTTP/2.0", prior knowledge, as h2c
// clients and gRPC send; or after TLS's ALPN chose h2), HTTP/1.1 otherwise (Connect and gRPC-Web
// over HTTP/1.1, as curl and browsers send them). One port serves both, as connect-go's servers
// do with h2c. Until the first bytes say which, it waits; after, every call goes to the session
// chosen (grpc_server_session.hpp, rpc_http1_session.hpp). Sans-IO.
#include <memory>

#include "grpc_server_session.hpp"
#include "rpc_http1_session.hpp"
#include "wirebench/codec/server_codec.hpp"

namespace wirebench::grpc_wire {

class rpc_server_codec final : public server_codec {
 public:
  explicit rpc_server_codec(const grpc_server_config& config) : config_(config) {}

  // Both sessions order their replies themselves.
  bool ordered() const override { return false; }
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue& out,
                     std::error_code& error) override;
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override {
    if (chosen_) chosen_->encode_reply(key, ok, body, out);
  }
  std::error_code produce(gather_queue& out) override { return chosen_ ? chosen_->produce(out) : std::error_code(); }
  void going_away(gather_queue& out) override {
    if (chosen_) chosen_->going_away(out);
  }
  void last_read(gather_queue& out) override {
    if (chosen_) chosen_->last_read(out);
  }
  // A client silent since it connected cannot be pinged in a protocol it has not named: nothing
  // is sent, and the keep-alive closes it when the ping's time is up, as one that never answers.
  bool ping(gather_queue& out) override { return !chosen_ || chosen_->ping(out); }
  std::size_t replies_in_flight() const override { return chosen_ ? chosen_->replies_in_flight() : 0; }
  // Before the first bytes say which, the host keeps them (decode consumes none).
  bool mid_request() const override { return chosen_ && chosen_->mid_request(); }
  bool busy() const override { return chosen_ && chosen_->busy(); }
  bool output_depends_on_reads() const override { return true; }
  std::chrono::steady_clock::time_point next_deadline() override {
    return chosen_ ? chosen_->next_deadline() : std::chrono::steady_clock::time_point::max();
  }
  void expire(std::chrono::steady_clock::time_point now, gather_queue& out) override {
    if (chosen_) chosen_->expire(now, out);
  }
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  grpc_server_config config_;
  std::unique_ptr<server_codec> chosen_;
};

}  // namespace wirebench::grpc_wire
