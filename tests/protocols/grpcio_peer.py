"""grpcio (Debian's python3-grpcio), a gRPC implementation we did not write, as a peer of ours.
Run by grpc_user_call_test.cpp:

  grpcio_peer.py serve PORT [gzip|refuse|metadata|log FILE]
                               a grpcio server of wirebench.echo.Echo/Get, /Update (bidi),
                               /Greet, /GreetStream and /GreetBatchStream from the same echo.proto
                               (with gzip: replies compressed; with refuse: Greet and
                               GreetStream fail with RESOURCE_EXHAUSTED and REFUSAL; with
                               metadata: Get names the call's metadata, see get(); with log
                               FILE: a line per unary call appended to FILE, see log_call()):
                               it prints "listening" and serves until killed
  grpcio_peer.py reflect PORT  lists the services our server names by reflection
                               (grpc.reflection.v1alpha), one per line
  grpcio_peer.py call PORT METHOD NAME [TIMEOUT [gzip]]
                               calls /wirebench.echo.Echo/METHOD once with GreetRequest{name}
                               (or EchoRequest{text}: field 2 or 1 by METHOD; with gzip, the
                               request compressed), and prints the status code's name, then the
                               reply's string field (or the details)
  grpcio_peer.py idle PORT SECONDS
                               calls /wirebench.echo.Echo/Greet with "a", leaves the channel idle
                               for SECONDS, then calls it with "b" on the same channel; prints each
                               greeting (or the status code's name)
  grpcio_peer.py stream PORT N  calls /wirebench.echo.Echo/GreetStream with N requests (id i,
                               name "n<i>" for i in 1..N) on one stream, and prints "<id> <greeting>"
                               per reply as it comes, then the status code's name

No generated code: the methods take and give bytes. Their requests and replies are both one
string in field 1 (EchoRequest and EchoResponse), so the server answers a request with its own
bytes (Update: each message of the stream); Greet answers GreetReply{greeting: "hello, " + name}
(field 2 of each), GreetStream each GreetRequest{id: 1, name: 2} with GreetReply{id: 1, greeting:
2}, and GreetBatchStream each GreetBatch{requests: 1} with a GreetReplyBatch{replies: 1};
the reflection request is list_services (field 7, empty), and the names are read from the reply's
list_services_response (field 6) > service (1) > name (1)."""
import sys
import threading
import time
from concurrent import futures

import grpc


def fields(data):
    """(number, value) for each field of a protobuf message: bytes when length-delimited, an int
    when a varint."""
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 2:
            size, i = varint(data, i)
            yield number, data[i:i + size]
            i += size
        elif wire == 0:
            value, i = varint(data, i)
            yield number, value
        else:
            raise ValueError(f"wire type {wire}")


def encode_varint(value):
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def length_delimited(number, value):
    return encode_varint(number << 3 | 2) + encode_varint(len(value)) + value


def greet_reply(request):
    """GreetReply{id, greeting: "hello, " + name} for a GreetRequest."""
    f = dict(fields(request))
    return (encode_varint(1 << 3) + encode_varint(f.get(1, 0)) +
            length_delimited(2, b"hello, " + f.get(2, b"")))


LOG = None
LOG_LOCK = threading.Lock()  # the server answers on several threads


def log_call(method, request, context):
    """In log mode, one line per unary call, written as it is answered: the method, the request's
    string field (Get's text, Greet's name) and its "x-" metadata as get() names it, tab-separated."""
    if LOG is None:
        return
    f = dict(fields(request))
    text = f.get(1 if method == "Get" else 2, b"").decode()
    metadata = "".join(f"{k}={v};" for k, v in sorted(context.invocation_metadata()) if k.startswith("x-"))
    with LOG_LOCK:
        LOG.write(f"{method}\t{text}\t{metadata}\n")


def get(request, context):
    """Echo.Get: the request itself; with metadata, EchoResponse{text} naming the call's "x-"
    metadata instead, "key=value;" each by key (a -bin key's value as bin:HEX of its bytes): the
    order of different keys is not kept by every client."""
    log_call("Get", request, context)
    if MODE != "metadata":
        return request
    text = "".join(f"{k}={'bin:' + v.hex() if isinstance(v, bytes) else v};"
                   for k, v in sorted(context.invocation_metadata()) if k.startswith("x-"))
    return length_delimited(1, text.encode())


def greet_stream(requests, context):
    if MODE == "refuse":
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, REFUSAL)
    return (greet_reply(r) for r in requests)


def greet_batch_reply(batch):
    return b"".join(length_delimited(1, greet_reply(r)) for n, r in fields(batch) if n == 1)


def varint(data, i):
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


REFUSAL = "busy: 100% \u2014 later"
MODE = ""


def greet(request, context):
    log_call("Greet", request, context)
    if MODE == "refuse":
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, REFUSAL)
    name = dict(fields(request)).get(2, b"")
    greeting = b"hello, " + name
    return bytes([2 << 3 | 2, len(greeting)]) + greeting


def serve(port, mode="", log_path=""):
    global MODE, LOG
    MODE = mode
    if mode == "log":
        LOG = open(log_path, "a", buffering=1)  # a line at a time: the test kills the server
    handler = grpc.method_handlers_generic_handler(
        "wirebench.echo.Echo",
        {"Get": grpc.unary_unary_rpc_method_handler(get),
         "Greet": grpc.unary_unary_rpc_method_handler(greet),
         "Update": grpc.stream_stream_rpc_method_handler(
             lambda requests, context: (request for request in requests)),
         "GreetStream": grpc.stream_stream_rpc_method_handler(greet_stream),
         "GreetBatchStream": grpc.stream_stream_rpc_method_handler(
             lambda requests, context: (greet_batch_reply(b) for b in requests))})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4),
                         compression=grpc.Compression.Gzip if mode == "gzip" else None)
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


def call(port, method, name, timeout=10.0, compression=""):
    field = 2 if method.startswith("Greet") else 1
    request = bytes([field << 3 | 2, len(name)]) + name.encode()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = channel.unary_unary(f"/wirebench.echo.Echo/{method}")
        try:
            reply = stub(request, timeout=timeout,
                         compression=grpc.Compression.Gzip if compression == "gzip" else None)
        except grpc.RpcError as e:
            print(e.code().name)
            print(e.details())
            return
        print("OK")
        for number, value in fields(reply):
            if number == field:
                print(value.decode())


def idle(port, seconds):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = channel.unary_unary("/wirebench.echo.Echo/Greet")
        for i, name in enumerate(["a", "b"]):
            if i:
                time.sleep(seconds)
            try:
                reply = stub(bytes([2 << 3 | 2, len(name)]) + name.encode(), timeout=10)
            except grpc.RpcError as e:
                print(e.code().name)
                continue
            print(dict(fields(reply)).get(2, b"").decode())


def stream(port, n):
    requests = [encode_varint(1 << 3) + encode_varint(i) + length_delimited(2, f"n{i}".encode())
                for i in range(1, n + 1)]
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.stream_stream("/wirebench.echo.Echo/GreetStream")
        try:
            for reply in call(iter(requests), timeout=10):
                f = dict(fields(reply))
                print(f.get(1, 0), f.get(2, b"").decode())
        except grpc.RpcError as e:
            print(e.code().name)
            print(e.details())
            return
        print("OK")


if __name__ == "__main__":
    if sys.argv[1] == "call":
        call(int(sys.argv[2]), sys.argv[3], sys.argv[4], *(float(t) for t in sys.argv[5:6]),
             *sys.argv[6:7])
    elif sys.argv[1] == "idle":
        idle(int(sys.argv[2]), float(sys.argv[3]))
    elif sys.argv[1] == "stream":
        stream(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "serve":
        serve(int(sys.argv[2]), *sys.argv[3:5])
    else:
        reflect(int(sys.argv[2]))
