// connectnode_peer: connect-node (@connectrpc/connect-node 2.1.1), Connect's Node.js
// implementation, as a peer we did not write: its server of wirebench.echo.Echo (Greet,
// GreetStream, Get, Expand, Collect, Update) answering Connect, gRPC and gRPC-Web, and its client
// calling those methods in the three protocols. For tests/protocols/connectnode_interop_test.cpp;
// scripts/setup installs it into the tools cache.
//
//   connectnode_peer serve -descriptor FILE [-port PORT] [-http1]
//       serves on 127.0.0.1:PORT (0: a free one), h2c or (-http1) HTTP/1.1, prints
//       "listening PORT", serves until killed
//   connectnode_peer call -descriptor FILE -url URL [-protocol connect|grpc|grpcweb] [-json]
//                         [-http1] [-method greet|get|expand|collect|update] [-text T]
//       prints each reply as "reply: TEXT", or the error as "error: CODE: MESSAGE"
//
// No generated code: FILE is the service's FileDescriptorSet (protoc --descriptor_set_out
// --include_imports proto/echo.proto), read at run time. Greet answers "hello, " + name (a name
// "fail:CODE" fails with that code); GreetStream each request with its id; Get the text; Expand
// one reply per word; Collect the texts joined; Update each text as it comes. Collect and Update
// send the words of -text one per message.
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";

function flags(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^-+/, "");
    if (i + 1 < argv.length && !argv[i + 1].startsWith("-")) out[name] = argv[++i];
    else out[name] = true;
  }
  return out;
}

function echoService(descriptor) {
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(descriptor)));
  const service = registry.getService("wirebench.echo.Echo");
  if (!service) throw new Error(`${descriptor}: no wirebench.echo.Echo`);
  return service;
}

function serve(f) {
  const service = echoService(f.descriptor);
  const handler = connectNodeAdapter({
    routes(router) {
      router.service(service, {
        greet(req) {
          if (req.name.startsWith("fail:")) {
            const name = req.name.slice(5).replace(/_(.)/g, (_, c) => c.toUpperCase());
            const code = Code[name.charAt(0).toUpperCase() + name.slice(1)] ?? Code.Unknown;
            throw new ConnectError("failed as asked", code);
          }
          return { greeting: "hello, " + req.name };
        },
        async *greetStream(requests) {
          for await (const r of requests) yield { id: r.id, greeting: "hello, " + r.name };
        },
        get(req) {
          return { text: req.text };
        },
        async *expand(req) {
          for (const word of req.text.split(" ").filter((w) => w !== "")) yield { text: word };
        },
        async collect(requests) {
          let joined = "";
          for await (const r of requests) joined += r.text;
          return { text: joined };
        },
        async *update(requests) {
          for await (const r of requests) yield { text: r.text };
        },
      });
    },
  });
  const server = f.http1 ? http.createServer(handler) : http2.createServer(handler);
  server.listen(Number(f.port ?? 0), "127.0.0.1", () => {
    console.log(`listening ${server.address().port}`);
  });
}

async function call(f) {
  const service = echoService(f.descriptor);
  const options = { baseUrl: f.url, httpVersion: f.http1 ? "1.1" : "2", useBinaryFormat: !f.json };
  const protocol = f.protocol ?? "connect";
  const transport =
    protocol === "grpc"
      ? createGrpcTransport(options)
      : protocol === "grpcweb"
        ? createGrpcWebTransport(options)
        : createConnectTransport(options);
  const client = createClient(service, transport);
  const text = f.text ?? "";
  async function* words() {
    for (const word of text.split(" ")) yield { text: word };
  }
  try {
    switch (f.method ?? "greet") {
      case "greet":
        console.log(`reply: ${(await client.greet({ name: text })).greeting}`);
        break;
      case "get":
        console.log(`reply: ${(await client.get({ text })).text}`);
        break;
      case "expand":
        for await (const r of client.expand({ text })) console.log(`reply: ${r.text}`);
        break;
      case "collect":
        console.log(`reply: ${(await client.collect(words())).text}`);
        break;
      case "update":
        for await (const r of client.update(words())) console.log(`reply: ${r.text}`);
        break;
      default:
        throw new Error(`unknown method ${f.method}`);
    }
  } catch (e) {
    const err = ConnectError.from(e);
    console.log(`error: ${Code[err.code]}: ${err.rawMessage}`);
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === "serve") serve(flags(rest));
else if (command === "call") await call(flags(rest));
else {
  console.error("usage: connectnode_peer serve|call -descriptor FILE ...");
  process.exit(2);
}
