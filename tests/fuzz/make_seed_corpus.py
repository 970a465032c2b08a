#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/): a few well-formed
exchanges per parser, so that mutation starts from inputs that reach deep into each one.
Each seed is the target's settings bytes followed by the stream (see each *_fuzz.cpp).
Run it again after changing a target's input layout; the files are committed."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERN, SEED = 0x02, 0x07  # the second run cuts the stream into pieces of 0-4 bytes


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def greetings(n):
    return [b"hello, n%d" % i for i in range(1, n + 1)]


# ---- line_decoder, length_prefix_decoder: [limit][flags][pattern][seed] stream -----------------
write("line_decoder", "lines", bytes([0x90, 0x01, PATTERN, SEED]) + b"one\r\ntwo\nthree\r\n\npartial")
write("line_decoder", "oversize", bytes([0x08, 0x02, PATTERN, SEED]) + b"short\nmuch too long a line\nok\n")
write("length_prefix_decoder", "frames",
      bytes([0x90, 0x02, PATTERN, SEED]) + b"".join(struct.pack(">I", len(g)) + g for g in greetings(3)))
write("length_prefix_decoder", "resync",
      bytes([0x08, 0x06, PATTERN, SEED]) + struct.pack(">I", 20) + b"x" * 20 + struct.pack(">I", 2) + b"ok")

# length_prefix_decoder with a lead byte before a 4-byte length (flags bit 3): gRPC's messages.
write("length_prefix_decoder", "lead_byte",
      bytes([0x90, 0x0a, PATTERN, SEED]) + b"".join(b"\x00" + struct.pack(">I", len(g)) + g for g in greetings(3)))

# ---- grpc_message: [limit][pattern][seed] stream -------------------------------------------------
def grpc_message(payload, compressed=False):
    return bytes([1 if compressed else 0]) + struct.pack(">I", len(payload)) + payload


write("grpc_message", "messages", bytes([0x90, PATTERN, SEED]) + grpc_message(b"\x0a\x02n1") +
      grpc_message(b"") + grpc_message(b"\x1f\x8b\x08\x00", compressed=True) + grpc_message(b"\x0a\x02n2"))
write("grpc_message", "too_long_and_bad_flag", bytes([0x08, PATTERN, SEED]) + grpc_message(b"ok") +
      grpc_message(b"much too long a message") + b"\x02\x00\x00\x00\x01x")

# ---- mux_frame: [limit][pattern][seed] stream ---------------------------------------------------
def mux(kind, ident, payload=b""):
    return struct.pack(">IBI", len(payload) + 5, kind, ident) + payload

write("mux_frame", "every_type", bytes([0x90, PATTERN, SEED]) + mux(1, 1, b"n1") + mux(2, 1, b"hello, n1")
      + mux(3, 2, b"no such call") + mux(4, 3) + mux(5, 0, b"ping") + mux(6, 0, b"ping") + mux(7, 0))
write("mux_frame", "bad_type", bytes([0x90, PATTERN, SEED]) + mux(2, 7, b"ok") + mux(9, 1, b"?"))

# ---- resp_request_parser: [limits][pattern][seed] stream ----------------------------------------
def command(*args):
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)

LIMITS = 0x3f  # bulk and inline 256 bytes, query 1024, 4 arguments
write("resp_request_parser", "multibulk", bytes([LIMITS, PATTERN, SEED]) + command(b"GREET", b"bob")
      + command(b"PING") + b"*0\r\n" + command(b"ECHO", b"a\r\nb"))
write("resp_request_parser", "inline", bytes([LIMITS, PATTERN, SEED])
      + b"PING\r\n\r\nGREET \"b\\x41\\nob\" 'it\\'s'\r\nECHO x\n")
write("resp_request_parser", "errors", bytes([LIMITS, PATTERN, SEED]) + command(b"GREET", b"x") + b"*2\r\n$-3\r\n")

# ---- http1_parser: [flags][pattern][seed] stream ------------------------------------------------
REQUESTS, RESPONSES = 7 << 2, 7 << 2 | 1
write("http1_parser", "requests", bytes([REQUESTS, PATTERN, SEED])
      + b"GET /greet?name=bob HTTP/1.1\r\nHost: x\r\n\r\n"
      + b"POST /greet HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{\"name\":\"bob\"}"
      + b"POST /greet HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"nam\r\n9\r\ne\":\"bob\"}\r\n0\r\n\r\n"
      + b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
write("http1_parser", "responses", bytes([RESPONSES, PATTERN, SEED])
      + b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 24\r\n\r\n{\"greeting\":\"hello, n1\"}"
      + b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
      + b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
      + b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end")

# ---- msgpack_rpc_codec: [limits][pattern][seed] stream ------------------------------------------
def mp_str(s):
    return bytes([0xa0 | len(s)]) + s

write("msgpack_rpc_codec", "messages", bytes([0x3f, PATTERN, SEED])
      + b"\x94\x00\x01" + mp_str(b"greet") + b"\x91" + mp_str(b"bob")          # request
      + b"\x94\x01\x01\xc0" + mp_str(b"hello, bob")                              # response
      + b"\x94\x01\xce\xff\xff\xff\xff" + mp_str(b"no such method") + b"\xc0"   # error response
      + b"\x93\x02" + mp_str(b"note") + b"\x90"                                  # notification
      + b"\x94\x00\x02\x07\x90")                                                 # a bad request

# ---- client_codec, server_codec: "@" protocol "\n" [flags][pattern][seed] then the bytes --------
# The protocol by its registry name (codec_fuzz_support.hpp's pick), not by its place in the
# registry: a new protocol moves no one's seeds.
def named(protocol, flags):
    return b"@" + protocol.encode() + b"\n" + bytes([flags, PATTERN, SEED])


# The server's bytes; flags 3: three calls (ids 1..3) were sent.
def codec_seed(protocol, name, stream, flags=3):
    write("client_codec", name, named(protocol, flags) + stream)

codec_seed("line", "line", b"".join(g + b"\n" for g in greetings(3)))
codec_seed("length-prefixed", "length_prefixed", b"".join(struct.pack(">I", len(g)) + g for g in greetings(3)))
codec_seed("mux", "mux", mux(2, 2, b"hello, n2") + mux(5, 0, b"p") + mux(3, 1, b"busy") + mux(2, 3, b"hello, n3")
           + mux(7, 0))
codec_seed("msgpack-rpc", "msgpack_rpc", b"".join(b"\x94\x01" + bytes([i]) + b"\xc0" + mp_str(g)
                                      for i, g in enumerate(greetings(3), 1)))
json = [b'{"greeting":"%s"}' % g for g in greetings(3)]
codec_seed("http1", "http1", b"".join(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                                % (len(j), j) for j in json[:2])
           + b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(json[2]), json[2]))

def h2_frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

def hpack_literal(name_index, value):  # without indexing, the name from the static table
    index = bytes([name_index]) if name_index < 15 else bytes([15, name_index - 15])  # 4-bit prefix
    return index + bytes([len(value)]) + value

settings = h2_frame(4, 0, 0, struct.pack(">HI", 3, 100)) + h2_frame(4, 1, 0)
codec_seed("http2", "http2", settings + h2_frame(1, 4, 1, b"\x88") + h2_frame(0, 1, 1, json[0])
           + h2_frame(1, 5, 3, b"\x88") + h2_frame(3, 0, 5, struct.pack(">I", 7))   # RST_STREAM REFUSED
           + h2_frame(6, 0, 0, b"pingping") + h2_frame(7, 0, 0, struct.pack(">II", 3, 0)))  # GOAWAY
def pb_string(field, value):  # a protobuf length-delimited field (values under 128 bytes)
    return bytes([field << 3 | 2, len(value)]) + value

# gRPC: HEADERS (:status 200, content-type literal), one GreetReply message, trailers; then a
# Trailers-Only UNIMPLEMENTED, and a response without grpc-status.
grpc_ok = h2_frame(1, 4, 1, b"\x88" + hpack_literal(31, b"application/grpc")) \
    + h2_frame(0, 0, 1, grpc_message(pb_string(2, b"hello, n1"))) \
    + h2_frame(1, 5, 1, b"\x00\x0bgrpc-status\x010")
grpc_err = h2_frame(1, 5, 3, b"\x88\x00\x0bgrpc-status\x0212\x00\x0cgrpc-message\x04no%21")
codec_seed("grpc", "grpc", settings + grpc_ok + grpc_err + h2_frame(1, 4, 5, b"\x88")
           + h2_frame(0, 1, 5, grpc_message(b"\xff")))
# gRPC user calls (flags bit 5): echo.proto's unary Get, EchoResponse{text} judged and made JSON;
# with bit 6 its server-streaming Expand, one EchoResponse per word. Then a Trailers-Only error, and
# a message that is not an EchoResponse.
grpc_headers = lambda stream: h2_frame(1, 4, stream, b"\x88" + hpack_literal(31, b"application/grpc"))
grpc_trailers_ok = lambda stream: h2_frame(1, 5, stream, b"\x00\x0bgrpc-status\x010")
codec_seed("grpc", "grpc_user_get", settings + grpc_headers(1) + h2_frame(0, 0, 1, grpc_message(pb_string(1, b"a b")))
           + grpc_trailers_ok(1) + grpc_err + grpc_headers(5) + h2_frame(0, 0, 5, grpc_message(b"\x0a\x05ab"))
           + grpc_trailers_ok(5), flags=3 | 32)
codec_seed("grpc", "grpc_user_expand", settings + grpc_headers(1)
           + h2_frame(0, 0, 1, grpc_message(pb_string(1, b"a")) + grpc_message(pb_string(1, b"b")))
           + grpc_trailers_ok(1) + grpc_err + grpc_headers(5) + h2_frame(0, 0, 5, grpc_message(b"\x08"))
           + grpc_trailers_ok(5), flags=3 | 32 | 64)
# gRPC streams: every call a message on stream 1: replies by id (out of order), one whose id is
# no call's, then the stream ends with RESOURCE_EXHAUSTED (the calls left fail with it).
def pb_varint(field, value):  # a protobuf varint field (values under 128)
    return bytes([field << 3, value])
def greet_reply(call_id):
    return pb_varint(1, call_id) + pb_string(2, b"hello, n%d" % call_id)
stream_end = h2_frame(1, 5, 1, b"\x00\x0bgrpc-status\x018\x00\x0cgrpc-message\x04busy")
codec_seed("grpc-stream", "grpc_stream", settings + h2_frame(1, 4, 1, b"\x88" + hpack_literal(31, b"application/grpc"))
           + h2_frame(0, 0, 1, grpc_message(greet_reply(2)) + grpc_message(greet_reply(9))[:4])
           + h2_frame(0, 0, 1, grpc_message(greet_reply(9))[4:] + grpc_message(greet_reply(1)))
           + stream_end)
batch = pb_string(1, greet_reply(3)) + pb_string(1, greet_reply(1))
codec_seed("grpc-batch", "grpc_batch", settings + h2_frame(1, 4, 1, b"\x88" + hpack_literal(31, b"application/grpc"))
           + h2_frame(0, 0, 1, grpc_message(batch) + grpc_message(pb_string(1, greet_reply(2))))
           + stream_end)
for protocol, name in (("resp", "resp"), ("redis-server", "redis_server")):
    codec_seed(protocol, name, b"$9\r\nhello, n1\r\n-ERR no\r\n+OK\r\n:1\r\n*1\r\n$9\r\nhello, n3\r\n")

# ---- server_codec: the client's bytes; flags 0x18: a 64-byte limit, oversize requests answered
# with an error (resync).
def server_seed(protocol, name, stream, flags=0):
    write("server_codec", name, named(protocol, flags) + stream)

server_seed("line", "line", b"alice\r\nbob\n\n" + b"x" * 100 + b"\nafter\npartial", 0x18)
server_seed("length-prefixed", "length_prefixed",
            b"".join(struct.pack(">I", len(g)) + g for g in greetings(3))
            + struct.pack(">I", 100) + b"y" * 100 + struct.pack(">I", 2) + b"ok", 0x18)
server_seed("mux", "mux", mux(1, 7, b"ann") + mux(5, 0, b"pp") + mux(6, 0) + mux(4, 7)
            + mux(1, 8, b"") + mux(1, 9, b"z" * 70) + mux(2, 3, b"reply?"), 0x08)
server_seed("msgpack-rpc", "msgpack_rpc", b"\x94\x00\x01" + mp_str(b"greet") + b"\x91" + mp_str(b"ann")
            + b"\x93\x02" + mp_str(b"note") + b"\x90"                                  # notification
            + b"\x94\x00\x02" + mp_str(b"nope") + b"\x90"                              # unknown method
            + b"\x94\x00\x03" + mp_str(b"greet") + b"\x92\x01\x02"                   # bad params
            + b"\x93\x00\x04\x05"                                                      # malformed
            + b"\x94\x00\x05" + mp_str(b"greet") + b"\x91" + mp_str(b"z" * 70), 0x08)
server_seed("http1", "http1", b"GET /greet?name=a HTTP/1.1\r\nHost: x\r\n\r\n"
            b"HEAD /greet?name=b HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
            b"POST /greet HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n{\"name\":\"c\"}"
            b"POST /greet HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
            b"c\r\n{\"name\":\"d\"}\r\n0\r\n\r\nDELETE /greet HTTP/1.1\r\n\r\n"
            b"GET /greet?name=e HTTP/1.1\r\nConnection: close\r\n\r\nGET /after HTTP/1.1\r\n\r\n")
server_seed("http1", "http1_errors", b"GET /greet?name=%FF HTTP/1.1\r\n\r\nGET /greet?name=x HTTP/1.1\r\n"
            b"Content-Length: 1\r\nContent-Length: 2\r\n\r\n", 0x08)
server_seed("resp", "resp", b"*2\r\n$5\r\nGREET\r\n$3\r\nbob\r\n\r\nPING\r\n*1\r\n$4\r\nPING\r\n"
            b"*0\r\n*2\r\n$5\r\ngreet\r\n$1\r\nx\r\nHELLO 3\r\n*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n"
            b"*1\r\n$4\r\nQUIT\r\nGREET after\r\n")
server_seed("resp", "resp_errors", b"GREET a\r\n*2\r\n$5\r\nGREET\r\n$x\r\n", 0x08)

# ---- h2_server_session: [flags][pattern][seed] client bytes after the preface -------------------
def h2_get(stream, path, flags=5):
    block = b"\x82\x86" + hpack_literal(4, path) + hpack_literal(1, b"localhost")
    return h2_frame(1, flags, stream, block)

H2_FLAGS = 3 << 1 | 2 << 4  # 64 streams, 256-byte bodies, preface added by the target
client_settings = h2_frame(4, 0, 0) + h2_frame(4, 1, 0)
post_block = b"\x83\x86" + hpack_literal(4, b"/greet") + hpack_literal(1, b"localhost")
write("h2_server_session", "requests", bytes([H2_FLAGS, PATTERN, SEED]) + client_settings
      + h2_get(1, b"/greet?name=ada") + h2_get(3, b"/nowhere")
      + h2_frame(1, 4, 5, post_block) + h2_frame(0, 1, 5, b'{"name":"bob"}')
      + h2_frame(6, 0, 0, b"pingping") + h2_frame(8, 0, 0, struct.pack(">I", 1024))
      + h2_get(7, b"/greet?name=x", flags=4) + h2_frame(3, 0, 7, struct.pack(">I", 8))
      + h2_frame(7, 0, 0, struct.pack(">II", 0, 0)))
write("h2_server_session", "skipped_ids", bytes([H2_FLAGS, PATTERN, SEED]) + client_settings
      + h2_get(5, b"/greet?name=a") + h2_get(3, b"/greet?name=b"))
# The same requests through the server codec target (the client preface is part of the stream).
h2_preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
server_seed("http2", "http2", h2_preface + client_settings
            + h2_get(1, b"/greet?name=ada") + h2_get(3, b"/nowhere")
            + h2_frame(1, 4, 5, post_block) + h2_frame(0, 1, 5, b'{"name":"bob"}')
            + h2_get(7, b"/greet?name=x", flags=4) + h2_frame(3, 0, 7, struct.pack(">I", 8))
            + h2_get(9, b"/greet?name=" + b"z" * 70))
# gRPC: Greet, an unknown method, Echo.Get, a bad flag, a compressed message, a timeout, too large.
def grpc_post(stream, path, extra=b""):
    block = (b"\x83\x86" + hpack_literal(4, path) + hpack_literal(1, b"localhost")
             + hpack_literal(31, b"application/grpc") + b"\x00\x02te\x08trailers" + extra)
    return h2_frame(1, 4, stream, block)
echo = b"/wirebench.echo.Echo/"
server_seed("grpc", "grpc", h2_preface + client_settings
            + grpc_post(1, echo + b"Greet") + h2_frame(0, 1, 1, grpc_message(pb_string(2, b"ada")))
            + grpc_post(3, echo + b"Nope") + h2_frame(0, 1, 3, grpc_message(b""))
            + grpc_post(5, echo + b"Get") + h2_frame(0, 1, 5, grpc_message(pb_string(1, b"hi")))
            + grpc_post(7, echo + b"Greet") + h2_frame(0, 1, 7, b"\x02\x00\x00\x00\x00")
            + grpc_post(9, echo + b"Collect") + h2_frame(0, 1, 9, grpc_message(b"x", True))
            + grpc_post(11, echo + b"Greet", b"\x00\x0cgrpc-timeout\x021S")
            + h2_frame(0, 1, 11, grpc_message(pb_string(2, b"z" * 70))))
# gRPC streams: GreetStream messages split across DATA frames, a GreetBatchStream batch, Update
# echoes, then a stream with a bad flag after a good message (still sending: reset).
greet_request = lambda i, name: pb_varint(1, i) + pb_string(2, name)
split = grpc_message(greet_request(2, b"bo"))
server_seed("grpc", "grpc_streams", h2_preface + client_settings
            + grpc_post(1, echo + b"GreetStream")
            + h2_frame(0, 0, 1, grpc_message(greet_request(1, b"ada")) + split[:3])
            + h2_frame(0, 1, 1, split[3:])
            + grpc_post(3, echo + b"GreetBatchStream")
            + h2_frame(0, 1, 3, grpc_message(pb_string(1, greet_request(4, b"x")) + pb_string(1, greet_request(5, b"y"))))
            + grpc_post(5, echo + b"Update") + h2_frame(0, 0, 5, grpc_message(pb_string(1, b"hi")))
            + h2_frame(0, 1, 5, grpc_message(pb_string(1, b"again")))
            + grpc_post(7, echo + b"GreetStream")
            + h2_frame(0, 0, 7, grpc_message(greet_request(6, b"z")) + b"\x02\x00\x00\x00\x00"))

# ---- Connect and gRPC-Web (client_codec: the server's replies; server_codec: the gRPC server,
# which answers both beside gRPC, on HTTP/2 and on HTTP/1.1 at the same port) ---------------------
import base64


def hpack_new(name, value):  # a literal header without indexing, its name new
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value


def web_trailers(status, message=b""):
    block = b"grpc-status:%d\r\n" % status + (b"grpc-message: %s\r\n" % message if message else b"")
    return bytes([0x80]) + struct.pack(">I", len(block)) + block


def text(*frames):  # gRPC-Web-text as Envoy sends it: each frame base64'd on its own, padded
    return b"".join(base64.b64encode(f) for f in frames)


def h1_reply(content_type, body, status=b"200 OK"):
    return b"HTTP/1.1 %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n\r\n%s" % (status, content_type, len(body), body)


reply1, reply2 = pb_string(2, b"hello, n1"), pb_string(2, b"hello, n2")
connect_error = b'{"code":"unavailable","message":"busy"}'
h2_head = lambda stream, content_type, status=b"\x88": h2_frame(1, 4, stream, status + hpack_literal(31, content_type))
codec_seed("connect", "connect", settings + h2_head(1, b"application/proto") + h2_frame(0, 1, 1, reply1)
           + h2_head(3, b"application/json", hpack_literal(8, b"503")) + h2_frame(0, 1, 3, connect_error)
           + h2_head(5, b"application/proto") + h2_frame(0, 1, 5, b"\xff"))
codec_seed("connect-json", "connect_json", settings + h2_head(1, b"application/json")
           + h2_frame(0, 1, 1, b'{"greeting":"hello, n1"}')
           + h2_head(3, b"application/json", hpack_literal(8, b"429")) + h2_frame(0, 1, 3, b"{}"))
web_ok = grpc_message(reply1) + web_trailers(0)
web_err = web_trailers(14, b"busy%21")
codec_seed("grpc-web", "grpc_web", settings + h2_head(1, b"application/grpc-web+proto") + h2_frame(0, 1, 1, web_ok)
           + h2_head(3, b"application/grpc-web+proto") + h2_frame(0, 1, 3, web_err)
           + h2_frame(1, 5, 5, b"\x88" + hpack_literal(31, b"application/grpc-web+proto") + hpack_new(b"grpc-status", b"12")))
codec_seed("grpc-web-text", "grpc_web_text", settings + h2_head(1, b"application/grpc-web-text+proto")
           + h2_frame(0, 0, 1, text(grpc_message(reply1))) + h2_frame(0, 1, 1, text(web_trailers(0)))
           + h2_head(3, b"application/grpc-web-text+proto") + h2_frame(0, 1, 3, text(web_err)))
codec_seed("connect-h1", "connect_h1", h1_reply(b"application/proto", reply1) + h1_reply(b"application/proto", reply2)
           + h1_reply(b"application/json", connect_error, b"503 Service Unavailable"))
codec_seed("grpc-web-h1", "grpc_web_h1", h1_reply(b"application/grpc-web+proto", web_ok)
           + h1_reply(b"application/grpc-web+proto", web_err)
           + b"HTTP/1.1 200 OK\r\ncontent-type: application/grpc-web+proto\r\ntransfer-encoding: chunked\r\n\r\n"
           + b"%x\r\n%s\r\n0\r\n\r\n" % (len(web_ok), web_ok))
codec_seed("grpc-web-text-h1", "grpc_web_text_h1", h1_reply(b"application/grpc-web-text+proto",
                                                             text(grpc_message(reply1), web_trailers(0)))
           + h1_reply(b"application/grpc-web-text+proto", text(web_err))
           + h1_reply(b"application/grpc-web-text+proto", b"not base64!"))

# The server: Connect unary in proto and JSON, with a timeout and an 11-digit one, a Connect
# stream, gRPC-Web binary and text, on HTTP/2; then the same port over HTTP/1.1.
connect_post = lambda stream, path, content_type, extra=b"": h2_frame(
    1, 4, stream, b"\x83\x86" + hpack_literal(4, path) + hpack_literal(1, b"localhost")
    + hpack_literal(31, content_type) + hpack_new(b"connect-protocol-version", b"1") + extra)
server_seed("grpc", "connect", h2_preface + client_settings
            + connect_post(1, echo + b"Greet", b"application/proto") + h2_frame(0, 1, 1, pb_string(2, b"ada"))
            + connect_post(3, echo + b"Greet", b"application/json", hpack_new(b"connect-timeout-ms", b"1000"))
            + h2_frame(0, 1, 3, b'{"name":"bob"}')
            + connect_post(5, echo + b"Get", b"application/proto", hpack_new(b"connect-timeout-ms", b"12345678901"))
            + h2_frame(0, 1, 5, pb_string(1, b"hi"))
            + connect_post(7, echo + b"Expand", b"application/connect+proto")
            + h2_frame(0, 1, 7, grpc_message(pb_string(1, b"a b")) + bytes([2]) + struct.pack(">I", 2) + b"{}")
            + connect_post(9, echo + b"Greet", b"application/grpc-web+proto")
            + h2_frame(0, 1, 9, grpc_message(pb_string(2, b"web")))
            + connect_post(11, echo + b"Greet", b"application/grpc-web-text")
            + h2_frame(0, 0, 11, text(grpc_message(pb_string(2, b"tx")))[:6])
            + h2_frame(0, 1, 11, text(grpc_message(pb_string(2, b"tx")))[6:]))
h1_post = lambda path, content_type, body, extra=b"": (
    b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\n%sContent-Length: %d\r\n\r\n%s"
    % (path, content_type, extra, len(body), body))
server_seed("grpc", "connect_http1",
            h1_post(echo + b"Greet", b"application/proto", pb_string(2, b"ada"), b"Connect-Protocol-Version: 1\r\n")
            + h1_post(echo + b"Greet", b"application/json", b'{"name":"bob"}', b"Connect-Timeout-Ms: 50\r\n")
            + b"GET " + echo + b"Get?connect=v1&encoding=json&message=%7B%22text%22%3A%22q%22%7D HTTP/1.1\r\nHost: x\r\n\r\n"
            + b"GET " + echo + b"Greet?connect=v1&encoding=proto&base64=1&message=EgNhZGE HTTP/1.1\r\nHost: x\r\n\r\n"
            + h1_post(echo + b"Greet", b"application/grpc-web-text", text(grpc_message(pb_string(2, b"t"))))
            + b"POST " + echo + b"Collect HTTP/1.1\r\nHost: x\r\nContent-Type: application/connect+proto\r\n"
            + b"Transfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n%s\r\n0\r\n\r\n" % (len(grpc_message(pb_string(1, b"c"))), grpc_message(pb_string(1, b"c")))
            + h1_post(echo + b"Update", b"application/connect+proto", grpc_message(pb_string(1, b"u"))))
# connect-stream: replies by id on the one stream, then its end of stream with an error (the calls
# left fail with it as Connect's code).
end_stream = bytes([2]) + struct.pack(">I", 60) + b'{"error":{"code":"resource_exhausted","message":"busy"}}    '
codec_seed("connect-stream", "connect_stream", settings + h2_head(1, b"application/connect+proto")
           + h2_frame(0, 0, 1, grpc_message(greet_reply(2)) + grpc_message(greet_reply(9))[:4])
           + h2_frame(0, 0, 1, grpc_message(greet_reply(9))[4:] + grpc_message(greet_reply(1)))
           + h2_frame(0, 1, 1, end_stream))

# ---- results_reader: a results file of one small run (the timeline dropped, three latency
# buckets kept), as `wirebench run -p line -D 0.1 -r 1 --out` writes it; read back whole.
write("results_reader", "one_point", open(os.path.join(HERE, "corpus", "results_reader", "one_point"), "rb").read()
      if os.path.exists(os.path.join(HERE, "corpus", "results_reader", "one_point")) else b"{}")

# ---- tool_input: [kind][form] then the text: 0 a YAML workload (aliases and all), 1 a request
# target with placeholders and picks, 2 a JSON workload and 3 a YAML one read for a form (0xff:
# all, by section).
write("tool_input", "workload_yaml", b"\x00\xff" + b"http:\n  requests:\n    - &r {url: /a, weight: 2}\n"
      b"    - *r\n    - {url: /b, body: \"x\", expect: 201, weight: 1.5e0}\n"
      b"laughs: &a [lol, lol]\nmore: [*a, *a, 12345678901234567890123, -0.5, ~, true]\n")
write("tool_input", "workload_json", b"\x02\xff" + b'{"http": {"keyspace": 100, "requests": [{"url": "/a", '
      b'"weight": 3, "expect": 200}, {"method": "POST", "url": "/b", "body": "x", "name": "b"}]}, '
      b'"resp": {"requests": [{"command": "GET k__rand_int__"}]}, "grpc": {"requests": [{"method": '
      b'"pkg.S/M", "message": {"a": [1, {"b": null}]}}]}, "msgpack": {"requests": [{"method": "m", '
      b'"params": [1, "two"]}]}}')
write("tool_input", "workload_one_form", b"\x03\x00" + b"requests:\n  - {url: /a, weight: 2}\n  - url: /b\n"
      b"    headers: {x-a: b}\n")
write("tool_input", "placeholders", b"\x01\x00" + b"k/__rand_int__/__rand_str_4__7/__payload_3__/__pick(a|bb|ccc)__"
      b"/__pick(x|y)__/__rand_str__/__sequence__")
