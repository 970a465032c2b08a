// TLS under a client codec, sans-IO: the mux client codec wrapped, paired in memory with a server
// tls_channel. The handshake is the connection's preface; calls encoded before it completes go
// out after; requests arrive as the inner codec's exact bytes; replies come back through
// decode(), whole or a byte at a time; a certificate that does not verify, and garbage, end in
// tls_failed.
#include "wirebench/tls/tls_client_codec.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/cert_files.hpp"
#include "support/queued_text.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/tls/tls_channel.hpp"

namespace wirebench::tls {
namespace {

using test::take_queued_text;

std::string mux_bytes(mux_frame_type type, std::uint32_t id, std::string_view payload) {
  encoded_frame f;
  EXPECT_FALSE(encode_mux_frame(type, id, as_bytes(payload), SIZE_MAX, f));
  gather_queue q;
  q.append(f);
  return take_queued_text(q);
}

class tls_mux_codec : public ::testing::Test {
 protected:
  explicit tls_mux_codec(tls_options client_options = test::insecure_client_options())
      : server_context_(make_server_context({}, {})),
        client_context_(make_client_context(client_options, "")),
        server_(server_context_.get(), tls_channel::role::server) {}

  void make_codec(context_ptr client_context) {
    codec_ = make_tls_client_codec(make_mux_client_codec(1 << 20, reply_order::by_id),
                                   std::move(client_context), "localhost");
  }
  // Client bytes to the server, server bytes to the client, until both are quiet. What the
  // server decrypted is in server_plain_; replies the client decoded in replies_.
  void pump(bool byte_at_a_time = false) {
    for (int round = 0; round < 20; ++round) {
      std::string to_server = take_queued_text(out_);
      std::error_code ec = codec_->produce(out_);
      ASSERT_FALSE(ec) << ec.message();
      to_server += take_queued_text(out_);
      if (!to_server.empty()) server_error_ = server_.receive(as_bytes(to_server), server_plain_);
      const std::string to_client = server_.take_output();
      if (to_server.empty() && to_client.empty()) return;
      feed(to_client, byte_at_a_time);
    }
  }
  void feed(const std::string& cipher, bool byte_at_a_time) {
    auto one = [&](std::string_view bytes) {
      decoded into;
      const std::size_t used = codec_->decode(as_bytes(bytes), into, out_, client_error_);
      EXPECT_EQ(used, bytes.size());
      for (const codec_reply& r : into.replies) replies_.push_back({r.id, std::string(r.body)});
    };
    if (!byte_at_a_time) return one(cipher);
    for (char c : cipher)
      if (!client_error_) one(std::string_view(&c, 1));
  }

  context_ptr server_context_, client_context_;
  tls_channel server_;
  std::unique_ptr<client_codec> codec_;
  gather_queue out_;
  std::string server_plain_;
  std::error_code server_error_, client_error_;
  std::vector<std::pair<std::uint32_t, std::string>> replies_;
};

TEST_F(tls_mux_codec, calls_made_before_the_handshake_go_out_after_it_byte_exact) {
  make_codec(client_context_);
  EXPECT_EQ(codec_->order(), reply_order::by_id);
  ASSERT_FALSE(codec_->open(out_));
  const std::size_t hello = out_.bytes();
  EXPECT_GT(hello, 0u) << "the ClientHello is the connection's preface";
  ASSERT_FALSE(codec_->encode(7, "ann", out_));
  ASSERT_FALSE(codec_->encode(8, "bob", out_));
  EXPECT_EQ(out_.bytes(), hello) << "calls are sealed in produce(), never in encode()";
  pump();
  ASSERT_FALSE(server_error_) << server_.failure();
  ASSERT_FALSE(client_error_);
  EXPECT_EQ(server_plain_, mux_bytes(mux_frame_type::request, 7, "ann") +
                               mux_bytes(mux_frame_type::request, 8, "bob"));
  // Replies in any order, whole and a byte at a time.
  ASSERT_FALSE(server_.send(mux_bytes(mux_frame_type::reply, 8, "hello, bob")));
  feed(server_.take_output(), false);
  ASSERT_FALSE(server_.send(mux_bytes(mux_frame_type::reply, 7, "hello, ann")));
  feed(server_.take_output(), true);
  ASSERT_FALSE(client_error_) << client_error_.message();
  ASSERT_EQ(replies_.size(), 2u);
  EXPECT_EQ(replies_[0], (std::pair<std::uint32_t, std::string>{8, "hello, bob"}));
  EXPECT_EQ(replies_[1], (std::pair<std::uint32_t, std::string>{7, "hello, ann"}));
  EXPECT_FALSE(codec_->mid_reply());
  // Half a reply is held as plaintext: mid_reply() tells the engine that EOF now truncates it.
  const std::string half = mux_bytes(mux_frame_type::reply, 9, "hello, cy").substr(0, 6);
  ASSERT_FALSE(server_.send(half));
  feed(server_.take_output(), false);
  EXPECT_TRUE(codec_->mid_reply());
  EXPECT_EQ(replies_.size(), 2u);
}

TEST_F(tls_mux_codec, garbage_from_the_server_is_tls_failed) {
  make_codec(client_context_);
  ASSERT_FALSE(codec_->open(out_));
  feed("HTTP/1.1 400 Bad Request\r\n\r\n", false);
  EXPECT_EQ(client_error_, errc::tls_failed);
}

// A reply and the close_notify behind it in one read (nginx ending a keep-alive connection): the
// reply is decoded, then the close is reported.
TEST_F(tls_mux_codec, the_servers_close_notify_is_peer_closed_after_the_replies_before_it) {
  make_codec(client_context_);
  ASSERT_FALSE(codec_->open(out_));
  ASSERT_FALSE(codec_->encode(7, "ann", out_));
  pump();
  ASSERT_FALSE(client_error_);
  ASSERT_FALSE(server_.send(mux_bytes(mux_frame_type::reply, 7, "hello, ann")));
  server_.shutdown();
  feed(server_.take_output(), false);
  EXPECT_EQ(client_error_, errc::peer_closed);
  ASSERT_EQ(replies_.size(), 1u);
  EXPECT_EQ(replies_[0], (std::pair<std::uint32_t, std::string>{7, "hello, ann"}));
}

// A client that verifies against a CA the server's certificate is not from: the handshake fails.
TEST_F(tls_mux_codec, a_certificate_that_does_not_verify_is_tls_failed) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("wirebench-tls-codec-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string ca = (dir / "other-ca.pem").string();
  std::ofstream(ca) << make_self_signed_certificate().certificate;
  tls_options verify;
  verify.ca_file = ca;
  make_codec(make_client_context(verify, ""));
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(codec_->open(out_));
  ASSERT_FALSE(codec_->encode(1, "x", out_));
  pump();
  EXPECT_EQ(client_error_, errc::tls_failed);
  EXPECT_TRUE(server_plain_.empty()) << "nothing was sent in the clear or to an unverified server";
}

}  // namespace
}  // namespace wirebench::tls
