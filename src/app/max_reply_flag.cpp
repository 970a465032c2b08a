#include "max_reply_flag.hpp"

#include <string>

namespace wirebench::app {

void add_max_reply_flag(CLI::App& cmd, std::size_t& max_reply_bytes) {
  cmd.add_option("--max-reply", max_reply_bytes,
                 "The largest reply accepted, in bytes or with a unit (64KiB, 16MiB; default 4MiB, "
                 "gRPC's): a larger one fails its call with frame_too_long. Each connection's "
                 "buffer grows to the largest reply it read")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(std::size_t{1024}, most_max_reply_bytes, "from 1KiB to 1GiB"))
      ->default_str("4MiB");
}

}  // namespace wirebench::app
