#include "codec_server.hpp"

#include "greet_server.hpp"
#include "wirebench/server/codec_session.hpp"

namespace wirebench {

std::unique_ptr<protocol_server> make_codec_server(const server_config& c,
                                                   server_codec_factory codecs, alpn_choice alpn,
                                                   std::string thread_name) {
  const std::size_t read_bytes = codecs()->max_read_bytes();  // one codec asked, then dropped
  return std::make_unique<greet_server<codec_session>>(
      c, std::move(thread_name),
      codec_session::settings{.codecs = std::move(codecs),
                              .dispatch = greet_dispatch(c),
                              .max_read_bytes = read_bytes},
      alpn);
}

}  // namespace wirebench
