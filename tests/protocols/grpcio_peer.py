"""grpcio (Debian's python3-grpcio), a gRPC implementation we did not write, as a peer of ours.
Run by grpc_user_call_test.cpp:

  grpcio_peer.py serve PORT    a grpcio server of wirebench.echo.Echo/Get and /Update (bidi)
                               from the same echo.proto: it prints "listening" and serves
                               until killed
  grpcio_peer.py reflect PORT  lists the services our server names by reflection
                               (grpc.reflection.v1alpha), one per line

No generated code: the methods take and give bytes. Their requests and replies are both one
string in field 1 (EchoRequest and EchoResponse), so the server answers a request with its own
bytes (Update: each message of the stream);
the reflection request is list_services (field 7, empty), and the names are read from the reply's
list_services_response (field 6) > service (1) > name (1)."""
import sys
import time
from concurrent import futures

import grpc


def fields(data):
    """(number, bytes) for each length-delimited field of a protobuf message; others skipped."""
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 2:
            size, i = varint(data, i)
            yield number, data[i:i + size]
            i += size
        elif wire == 0:
            _, i = varint(data, i)
        else:
            raise ValueError(f"wire type {wire}")


def varint(data, i):
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def serve(port):
    handler = grpc.method_handlers_generic_handler(
        "wirebench.echo.Echo",
        {"Get": grpc.unary_unary_rpc_method_handler(lambda request, context: request),
         "Update": grpc.stream_stream_rpc_method_handler(
             lambda requests, context: (request for request in requests))})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    print("listening", flush=True)
    while True:
        time.sleep(3600)


def reflect(port):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.stream_stream("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo")
        for reply in call(iter([b"\x3a\x00"]), timeout=10):
            for number, listed in fields(reply):
                if number != 6:
                    continue
                for _, service in fields(listed):
                    for n, name in fields(service):
                        if n == 1:
                            print(name.decode())


if __name__ == "__main__":
    {"serve": serve, "reflect": reflect}[sys.argv[1]](int(sys.argv[2]))
