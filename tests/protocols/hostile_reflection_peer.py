"""A gRPC server (Debian's python3-grpcio) whose reflection lies, as a hostile peer of our
reflection client (grpc_reflection_hostile_test.cpp):

  hostile_reflection_peer.py PORT chain N   the file of service hostile.S (method Call) imports
                                            f1.proto, which imports f2.proto ... fN.proto: all N+1
                                            files in the first answer
  hostile_reflection_peer.py PORT endless   each file imports one more, sent one per answer, for
                                            ever: every answer names a file not yet sent
  hostile_reflection_peer.py PORT error     answers with an error whose message carries a
                                            terminal's escape sequences and a newline
  hostile_reflection_peer.py PORT stall     takes each request and never answers

It prints "listening" and serves until killed. No generated code: the reflection messages are
written by hand (ServerReflectionResponse: file_descriptor_response 4 > file_descriptor_proto 1;
error_response 7 > error_code 1, error_message 2; FileDescriptorProto: name 1, package 2,
dependency 3, message_type 4, service 6)."""
import sys
import time
from concurrent import futures

import grpc


def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def field(number, payload):  # a length-delimited field
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def file_proto(name, imports, service=False):
    out = field(1, name.encode()) + field(2, b"hostile")
    for i in imports:
        out += field(3, i.encode())
    if service:
        out += field(4, field(1, b"M"))  # message M {}
        method = field(1, b"Call") + field(2, b".hostile.M") + field(3, b".hostile.M")
        out += field(6, field(1, b"S") + field(2, method))
    return out


def fields_of(message):  # the length-delimited fields of a message, by number
    out, at = {}, 0
    while at < len(message):
        tag, at = read_varint(message, at)
        length, at = read_varint(message, at)
        out[tag >> 3] = message[at:at + length]
        at += length
    return out


def read_varint(data, at):
    n, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, at


def files_answer(files):
    return field(4, b"".join(field(1, f) for f in files))


def main():
    port, mode = sys.argv[1], sys.argv[2]

    def reflection(requests, context):
        for request in requests:
            if mode == "stall":  # never answers
                time.sleep(3600)
            if mode == "error":
                message = b"\x1b[2J\x1b[31mowned\x1b[0m\nsecond line"
                yield field(7, varint(1 << 3) + varint(5) + field(2, message))
            elif mode == "chain":
                n = int(sys.argv[3])
                files = [file_proto("s.proto", ["f1.proto"], service=True)]
                files += [file_proto("f%d.proto" % i, ["f%d.proto" % (i + 1)] if i < n else []) for i in range(1, n + 1)]
                yield files_answer(files)
            else:  # endless: the file asked for (or the service's) imports the next one
                asked = fields_of(request).get(3, b"")  # file_by_filename
                number = int(asked[1:-len(b".proto")]) if asked.startswith(b"f") else 0
                name = "s.proto" if number == 0 else "f%d.proto" % number
                yield files_answer([file_proto(name, ["f%d.proto" % (number + 1)], service=number == 0)])

    handler = grpc.method_handlers_generic_handler(
        "grpc.reflection.v1alpha.ServerReflection",
        {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(reflection)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port("127.0.0.1:" + port)
    server.start()
    print("listening", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
