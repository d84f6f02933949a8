#!/usr/bin/env python3
"""tests/daemon/smtp_sink.py -- a minimal SMTP server for tests: takes
every mail on 127.0.0.1 (a free port, written to PORTFILE) and writes each
as DIR/N.eml, dot-unstuffed.  Usage: smtp_sink.py DIR PORTFILE"""
import os
import socketserver
import sys

OUT, PORTFILE = sys.argv[1], sys.argv[2]
count = [0]


class Session(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self):
        self.reply("220 sink ESMTP")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line.strip().split(b" ")[0].upper()
            if verb in (b"EHLO", b"HELO"):
                self.reply("250 sink")
            elif verb == b"DATA":
                self.reply("354 go on")
                data = []
                while True:
                    d = self.rfile.readline()
                    if not d or d == b".\r\n":
                        break
                    data.append(d[1:] if d.startswith(b"..") else d)
                count[0] += 1
                path = os.path.join(OUT, "%d.eml" % count[0])
                with open(path + ".tmp", "wb") as f:
                    f.write(b"".join(data))
                os.rename(path + ".tmp", path)
                self.reply("250 queued")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


with Server(("127.0.0.1", 0), Session) as srv:
    with open(PORTFILE + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(PORTFILE + ".tmp", PORTFILE)
    srv.serve_forever()
