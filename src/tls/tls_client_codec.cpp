#include "wirebench/tls/tls_client_codec.hpp"

#include "wirebench/core/error.hpp"
#include "wirebench/tls/tls_channel.hpp"

namespace wirebench::tls {
namespace {

class tls_client_codec final : public client_codec {
 public:
  tls_client_codec(std::unique_ptr<client_codec> inner, context_ptr context,
                   std::string_view server_name, std::string_view alpn)
      : inner_(std::move(inner)),
        context_(std::move(context)),
        channel_(context_.get(), tls_channel::role::client, server_name, alpn) {}

  reply_order order() const override { return inner_->order(); }
  bool may_refuse() const override { return inner_->may_refuse(); }

  // The ClientHello goes out first, with the inner codec's preface held behind it.
  std::error_code open(gather_queue& out) override {
    if (auto ec = inner_->open(plain_out_)) return ec;
    return seal(out, /*start=*/true);
  }

  std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) override {
    (void)out;  // sealed in produce(), with every other call of this loop turn
    return inner_->encode(id, request, plain_out_);
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override {
    // What the inner codec consumed last time goes now: the replies it returned viewed it.
    plain_in_.erase(0, plain_used_);
    plain_used_ = 0;
    const std::error_code tls_error = channel_.receive(data, plain_in_);
    // Handshake replies and alerts the channel wrote go out whatever happened.
    append_output(out);
    // Replies that came before the server's close_notify are replies: decoded, then the close.
    if (tls_error && tls_error != errc::peer_closed) {
      error = tls_error;
      return data.size();
    }
    if (!plain_in_.empty()) {
      plain_used_ = inner_->decode(
          std::span(reinterpret_cast<const std::byte*>(plain_in_.data()), plain_in_.size()), into,
          plain_out_, error);
      if (!error && plain_in_.size() - plain_used_ > inner_->max_read_bytes())
        error = errc::frame_too_long;  // a reply larger than the inner codec allows
    }
    if (!error) error = tls_error;
    return data.size();  // TLS takes every byte; what is not yet plaintext waits in the channel
  }

  bool cancel(std::uint32_t id, gather_queue& out) override {
    (void)out;
    return inner_->cancel(id, plain_out_);
  }

  bool ping(gather_queue& out) override {
    (void)out;  // sealed in produce(), as calls are
    return inner_->ping(plain_out_);
  }

  std::error_code produce(gather_queue& out) override {
    if (auto ec = inner_->produce(plain_out_)) return ec;
    return seal(out, /*start=*/false);
  }

  std::string failure() const override { return channel_.failure(); }
  bool mid_reply() const override {
    return inner_->mid_reply() || plain_used_ < plain_in_.size();
  }
  // A TLS record carries at most 16 KiB: room for one besides what the inner codec reads.
  std::size_t max_read_bytes() const override { return inner_->max_read_bytes() + 17 * 1024; }

 private:
  // Plaintext queued by the inner codec goes through the channel; its output to `out`.
  std::error_code seal(gather_queue& out, bool start) {
    std::error_code ec;
    if (start && plain_out_.empty()) ec = channel_.send({});  // the ClientHello alone
    plain_out_.for_each_segment([&](std::span<const std::byte> s) {
      if (!ec)
        ec = channel_.send(std::string_view(reinterpret_cast<const char*>(s.data()), s.size()));
    });
    plain_out_.clear();
    append_output(out);
    return ec;
  }
  void append_output(gather_queue& out) {
    const std::string cipher = channel_.take_output();
    if (!cipher.empty())
      out.append_bytes(std::span(reinterpret_cast<const std::byte*>(cipher.data()), cipher.size()));
  }

  std::unique_ptr<client_codec> inner_;
  context_ptr context_;  // outlives the channel's SSL
  tls_channel channel_;
  gather_queue plain_out_;   // what the inner codec wrote, until sealed
  std::string plain_in_;     // decrypted bytes; [0, plain_used_) consumed by the inner codec
  std::size_t plain_used_ = 0;
};

}  // namespace

std::unique_ptr<client_codec> make_tls_client_codec(std::unique_ptr<client_codec> inner,
                                                    context_ptr context,
                                                    std::string_view server_name,
                                                    std::string_view alpn) {
  return std::make_unique<tls_client_codec>(std::move(inner), std::move(context), server_name, alpn);
}

client_codec_factory tls_client_codecs(client_codec_factory inner_codecs, context_ptr context,
                                       std::string server_name, std::string alpn) {
  return [inner = std::move(inner_codecs), context = std::move(context),
          name = std::move(server_name), alpn = std::move(alpn)] {
    return make_tls_client_codec(inner(), context, name, alpn);
  };
}

}  // namespace wirebench::tls
