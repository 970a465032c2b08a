#pragma once
// How a multiplexing client's calls and replies look on the wire. mux_client keeps the calls
// (ids, deadlines, queue, cancel); a client_wire only encodes requests and decodes replies, so
// several protocols share one client: our mux frames (the default), msgpack-rpc, ...
// One instance per connection, used only on that connection's thread.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace wirebench {

class connection;

// Where a wire delivers what it decoded.
class reply_sink {
 public:
  // A reply (ec empty) or an error reply (ec = errc::remote_error, body = the reason) for `id`.
  // Returns false when the reply cannot be matched and the stream is lost (ordered matching).
  virtual bool reply(std::uint32_t id, std::error_code ec, std::string_view body) = 0;
  // The server is draining: send nothing more on this connection.
  virtual void drain() = 0;

 protected:
  ~reply_sink() = default;
};

class client_wire {
 public:
  virtual ~client_wire() = default;
  // Decodes what it can of `data` (every unconsumed byte), reporting to `sink`; returns the bytes
  // consumed. Sets `error` to close the connection (malformed input).
  virtual std::size_t decode(connection& c, std::span<const std::byte> data, reply_sink& sink,
                             std::error_code& error) = 0;
  virtual void write_request(connection& c, std::uint32_t id, std::string&& payload) = 0;
  // Tells the server a call was canceled; false if the protocol has no such message.
  virtual bool write_cancel(connection& c, std::uint32_t id) = 0;
  virtual bool mid_frame() const = 0;
  // Largest reply the decoder accepts; sizes the connection's read buffer.
  virtual std::size_t max_frame_bytes() const = 0;
};

// The default wire: our mux frames (docs/PROTOCOLS.md).
std::unique_ptr<client_wire> make_mux_client_wire(std::size_t max_frame_bytes);

}  // namespace wirebench
