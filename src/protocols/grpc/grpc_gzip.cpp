#include "grpc_gzip.hpp"

#include <zlib.h>

#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {
namespace {

constexpr int gzip_window = 16 + MAX_WBITS;  // zlib: a gzip header and trailer, not zlib's
constexpr std::size_t step_bytes = 16 * 1024;  // how much `out` grows at a time

Bytef* in_bytes(std::span<const std::byte> bytes) {
  return reinterpret_cast<Bytef*>(const_cast<std::byte*>(bytes.data()));  // zlib reads only
}

}  // namespace

std::error_code gunzip(std::span<const std::byte> compressed, std::size_t max_bytes, std::string& out) {
  out.clear();
  z_stream z{};
  if (inflateInit2(&z, gzip_window) != Z_OK) return errc::protocol_error;
  z.next_in = in_bytes(compressed);
  z.avail_in = static_cast<uInt>(compressed.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    const std::size_t at = out.size();
    if (at > max_bytes) break;
    out.resize(at + step_bytes);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + at);
    z.avail_out = static_cast<uInt>(step_bytes);
    rc = inflate(&z, Z_NO_FLUSH);
    out.resize(out.size() - z.avail_out);
  }  // Z_STREAM_END, or an error: Z_BUF_ERROR when the input ends inside the member
  inflateEnd(&z);
  if (out.size() > max_bytes) return errc::frame_too_long;
  if (rc != Z_STREAM_END || z.avail_in != 0) return errc::protocol_error;
  return {};
}

void gzip(std::span<const std::byte> plain, std::string& out) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip_window, 8, Z_DEFAULT_STRATEGY);
  out.resize(deflateBound(&z, static_cast<uLong>(plain.size())));
  z.next_in = in_bytes(plain);
  z.avail_in = static_cast<uInt>(plain.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);  // the bound makes one call enough
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
}

}  // namespace wirebench::grpc_wire
