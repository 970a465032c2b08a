#pragma once
// What the two codec fuzz targets (client_codec, server_codec) share: the registry's protocols
// that have a codec, and a connection's bounded read buffer.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "fuzz_support.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::fuzz {

// The codec an input drives, and the input its settings and stream are read from (4 settings:
// the first is the pick's, then flags, pattern, seed). Two forms:
//   "@" name "\n" flags pattern seed stream: the protocol of that name, as the seeds say
//     (make_seed_corpus.py), so that a new protocol renumbers no one's seeds; the returned input
//     starts at the "\n", its settings 1-3 the three bytes after it;
//   anything else: the first byte picks, modulo how many there are (what mutations make).
// Among the registered protocols whose codec factory `codecs` is set (&protocol::client_codecs
// or ::server_codecs). WIREBENCH_FUZZ_PROTOCOLS=a,b narrows them to those named: a campaign that
// gives each codec its own minutes (entries that share a codec, as http1-close shares http1's
// server, need none).
struct picked {
  const protocol& chosen;
  input in;
};
inline constexpr std::size_t max_seed_name = 32;

template <class Factory>
picked pick(const char* target, const std::uint8_t* data, std::size_t size, Factory protocol::*codecs) {
  static const std::vector<const protocol*> protocols = [target, codecs] {
    const char* only = std::getenv("WIREBENCH_FUZZ_PROTOCOLS");
    const std::string wanted = only ? "," + std::string(only) + "," : "";
    std::vector<const protocol*> out;
    for (const protocol& p : protocol_registry::builtin().all())
      if (p.*codecs && (wanted.empty() || wanted.find("," + p.name + ",") != std::string::npos))
        out.push_back(&p);
    if (out.empty()) fail(target, "no protocol (named in WIREBENCH_FUZZ_PROTOCOLS) has the codec");
    return out;
  }();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.starts_with('@')) {
    const std::size_t end = bytes.find('\n');
    if (end != std::string_view::npos && end <= max_seed_name) {
      const std::string_view name = bytes.substr(1, end - 1);
      for (const protocol* p : protocols)
        if (p->name == name) return {*p, input(data + end, size - end, 4)};
    }
  }
  const input in(data, size, 4);
  return {*protocols[in.setting(0) % protocols.size()], in};
}

// Feeds `reads` to a codec as a connection does: each piece is appended to the unconsumed bytes
// (a read buffer of at most `max_read` bytes), and `decode(unconsumed, error)` returns the bytes
// it used. The last line of the run's transcript: `failure` once decode sets an error, "failed:
// read buffer full" when a piece finds the buffer full, "" when the stream ended without either.
template <class Decode>
std::string feed_reads(const std::vector<std::string_view>& reads, std::size_t max_read,
                       const char* failure, Decode&& decode) {
  std::string pending;
  for (std::string_view read : reads) {
    while (!read.empty()) {
      if (pending.size() >= max_read) return "failed: read buffer full";
      const std::size_t take = std::min(read.size(), max_read - pending.size());
      pending.append(read.substr(0, take));
      read.remove_prefix(take);
      std::error_code error;
      pending.erase(0, decode(std::string_view(pending), error));
      if (error) return failure;
    }
  }
  return {};
}

// Aborts when a decode consumed more bytes than it was given.
inline void check_consumed(const char* target, std::size_t consumed, std::size_t given) {
  if (consumed > given)
    fail(target, "consumed " + std::to_string(consumed) + " of " + std::to_string(given) + " bytes");
}

}  // namespace wirebench::fuzz
