"""A MessagePack-RPC server on python3-msgpack (a MessagePack implementation we did not write), as
a peer of our msgpack-rpc client's user calls. Run by msgpack_rpc_test.cpp:

  msgpack_rpc_peer.py PORT    prints "listening", serves 127.0.0.1:PORT until killed

Methods: add(a, b) -> a + b; echo(x) -> x; fail() -> the error "failed on purpose"; any other ->
the error "no method NAME". Requests are answered in order, each as it is read."""
import asyncio
import sys

import msgpack


async def serve_one(reader, writer):
    unpacker = msgpack.Unpacker(raw=False)
    while data := await reader.read(65536):
        unpacker.feed(data)
        out = bytearray()
        for message in unpacker:
            kind, msgid, method, params = message
            if kind != 0:
                continue
            if method == "add":
                reply = [1, msgid, None, params[0] + params[1]]
            elif method == "echo":
                reply = [1, msgid, None, params[0]]
            elif method == "fail":
                reply = [1, msgid, "failed on purpose", None]
            else:
                reply = [1, msgid, f"no method {method}", None]
            out += msgpack.packb(reply, use_bin_type=True)
        writer.write(out)
        await writer.drain()
    writer.close()


async def main(port):
    server = await asyncio.start_server(serve_one, "127.0.0.1", port)
    print("listening", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
