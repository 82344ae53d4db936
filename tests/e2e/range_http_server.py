#!/usr/bin/env python3
"""A file server for the data set fetch test: serves ROOT over HTTP on 127.0.0.1 with single
byte ranges ("Range: bytes=START-[END]", 206 with Content-Range, 416 past the end), which
python3 -m http.server does not. It logs each request as "GET <path> <range or ->" to LOG.

--cut-after N: a response that starts at byte 0 sends its first N bytes, then closes the
connection (a broken transfer). --stall-after N: it sends N bytes, then sends nothing more
until the client gives up. Responses that start later (resumed ones) are sent whole."""
import argparse
import http.server
import os
import re
import threading
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("root")
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--cut-after", type=int)
    p.add_argument("--stall-after", type=int)
    a = p.parse_args()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            rng = self.headers.get("Range")
            with lock, open(a.log, "a") as log:
                log.write(f"GET {self.path} {rng or '-'}\n")
            path = os.path.join(a.root, self.path.lstrip("/"))
            if ".." in self.path.split("/") or not os.path.isfile(path):
                return self.plain(404, "Not Found")
            size = os.path.getsize(path)
            start, end = 0, size - 1
            if rng:
                m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
                if not m:
                    return self.plain(400, "Bad Range")
                start = int(m.group(1))
                if m.group(2):
                    end = min(int(m.group(2)), size - 1)
                if start >= size:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
            self.send_response(206 if rng else 200)
            if rng:
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(end - start + 1))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            with open(path, "rb") as f:
                f.seek(start)
                body = f.read(end - start + 1)
            limit = a.cut_after if a.cut_after is not None else a.stall_after
            if start == 0 and limit is not None and limit < len(body):
                self.wfile.write(body[:limit])
                self.wfile.flush()
                if a.stall_after is not None:
                    time.sleep(3600)
                self.close_connection = True
                return
            self.wfile.write(body)

        def plain(self, code, text):
            data = (text + "\n").encode()
            self.send_response(code)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
