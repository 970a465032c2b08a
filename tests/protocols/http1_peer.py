#!/usr/bin/env python3
"""An HTTP server we did not write (Python's http.server) for our HTTP/1.1 client's tests.

    http1_peer.py eof PORT          HTTP/1.0 responses with neither Content-Length nor chunking:
                                    each body ends when the server closes the connection
    http1_peer.py close-idle PORT   HTTP/1.1 keep-alive responses (Content-Length, no
                                    "Connection: close"), but the connection is closed right after
                                    each one, as a server dropping an idle keep-alive connection

GET /greet?name=N answers {"greeting":"hello, N"}; POST /greet answers the same for the body's name.
Binds 127.0.0.1 only.
"""
import http.server
import json
import socketserver
import sys
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    mode = "eof"

    def greet(self, name):
        body = json.dumps({"greeting": "hello, " + name}, separators=(",", ":")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if self.mode == "close-idle":
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if self.mode == "close-idle":
            self.close_connection = True  # without saying so: the client thinks it persists

    def do_GET(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        self.greet(query.get("name", [""])[0])

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.greet(self.rfile.read(length).decode())

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    Handler.mode = mode
    Handler.protocol_version = "HTTP/1.0" if mode == "eof" else "HTTP/1.1"
    Server(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
