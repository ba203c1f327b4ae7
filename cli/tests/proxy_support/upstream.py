#!/usr/bin/env python3
"""A non-Rust upstream for cli/tests/proxy.rs: Python's http.server, on 127.0.0.1 at a free
port (printed first: "port N"), answering every request 200 "python upstream" and writing
what it received as one JSON line on stdout: method, target, headers (name and value, in
order, as received), the body's length."""
import http.server
import json
import sys


class Recorder(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def record(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        print(json.dumps({
            "method": self.command,
            "target": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body_len": len(body),
        }), flush=True)
        answer = b"python upstream"
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = do_PUT = do_DELETE = record

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
print("port %d" % server.server_address[1], flush=True)
server.serve_forever()
