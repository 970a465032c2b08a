#pragma once
// protobuf logs an ERROR line to stderr for every string field with invalid UTF-8 it refuses to
// parse. Our parses already fail such a message with a typed error (INTERNAL on the server,
// wrong_reply on the client), so those lines only let a hostile peer flood our stderr: they are
// dropped, everything else protobuf logs still goes to the handler it had.
namespace wirebench::grpc_wire {

/// Installs the filter once per process (thread-safe; call at start-up, before parsing).
void drop_protobuf_parse_complaints();

}  // namespace wirebench::grpc_wire
