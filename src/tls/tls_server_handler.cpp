#include "wirebench/tls/tls_server_handler.hpp"

#include <algorithm>
#include <string>

#include "wirebench/core/error.hpp"
#include "wirebench/tls/tls_channel.hpp"

namespace wirebench::tls {
namespace {

class tls_server_handler final : public connection_handler {
 public:
  tls_server_handler(std::unique_ptr<connection_handler> inner, context_ptr context,
                     std::size_t max_plain_bytes)
      : inner_(std::move(inner)),
        context_(std::move(context)),
        channel_(context_.get(), tls_channel::role::server),
        max_plain_bytes_(max_plain_bytes) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    c.divert_output(plain_out_);
    const std::error_code tls_error = channel_.receive(data, plain_in_);
    append_output(c);  // handshake replies and alerts go out whatever happened
    // Requests that came before the client's close_notify are answered, then the connection
    // closes (the connection flushes what on_data queued before it closes for an error).
    if (tls_error && tls_error != errc::peer_closed) {
      error = tls_error;
      return data.size();
    }
    // Called even with no plaintext, as the connection calls a handler with nothing buffered
    // (input resumed after a pause): the inner handler may have held input of its own.
    const std::size_t used = inner_->on_data(
        c, std::span(reinterpret_cast<const std::byte*>(plain_in_.data()), plain_in_.size()),
        error);
    plain_in_.erase(0, std::min(used, plain_in_.size()));
    // Held: at most a partial request (under the limit, or the session would have refused it)
    // plus one read, which the connection makes only while the session accepts input.
    if (!error && plain_in_.size() > 2 * max_plain_bytes_) error = errc::frame_too_long;
    if (!error) error = tls_error;
    return data.size();  // TLS takes every byte; what is not yet plaintext waits in the channel
  }

  void before_write(connection& c, std::error_code& error) override {
    c.divert_output(plain_out_);
    inner_->before_write(c, error);
    if (error) return;
    // Each contiguous run goes in one SSL_write: up to 16 KiB per record.
    plain_out_.for_each_segment([&](std::span<const std::byte> s) {
      if (!error)
        error = channel_.send(std::string_view(reinterpret_cast<const char*>(s.data()), s.size()));
    });
    plain_out_.clear();
    append_output(c);
  }

  void on_close(connection& c, std::error_code reason) override { inner_->on_close(c, reason); }
  bool awaiting_peer() const override { return inner_->awaiting_peer(); }
  bool mid_frame() const override { return inner_->mid_frame() || !plain_in_.empty(); }
  std::size_t calls_in_flight() const override { return inner_->calls_in_flight(); }
  bool busy() const override { return inner_->busy(); }
  void on_drain(connection& c) override {
    c.divert_output(plain_out_);
    inner_->on_drain(c);
  }
  void on_last_read(connection& c) override { inner_->on_last_read(c); }
  bool on_keepalive(connection& c) override {
    c.divert_output(plain_out_);  // sealed in before_write, which the flush runs
    return inner_->on_keepalive(c);
  }
  bool accepting_input() const override { return inner_->accepting_input(); }

 private:
  void append_output(connection& c) {
    const std::string cipher = channel_.take_output();
    if (!cipher.empty())
      c.wire_outbox().append_bytes(
          std::span(reinterpret_cast<const std::byte*>(cipher.data()), cipher.size()));
  }

  std::unique_ptr<connection_handler> inner_;
  context_ptr context_;  // outlives the channel's SSL
  tls_channel channel_;
  std::size_t max_plain_bytes_;
  std::string plain_in_;     // decrypted bytes the inner handler has not consumed
  gather_queue plain_out_;   // what the inner handler wrote, sealed in before_write
};

}  // namespace

std::unique_ptr<connection_handler> make_tls_server_handler(std::unique_ptr<connection_handler> inner,
                                                            context_ptr context,
                                                            std::size_t max_plain_bytes) {
  return std::make_unique<tls_server_handler>(std::move(inner), std::move(context),
                                              max_plain_bytes);
}

}  // namespace wirebench::tls
