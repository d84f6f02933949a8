#!/usr/bin/env python3
"""bench/smtp_slow.py -- a slow smarthost for the load bench: an SMTP
server on 127.0.0.1 that takes DELAY seconds (default 1) before it answers
250 to each mail's DATA, as a remote relay with TLS and AUTH may.  Mails
are counted, not kept: COUNTFILE holds how many were accepted so far.
Writes its port to PORTFILE once it listens.
Usage: smtp_slow.py PORTFILE COUNTFILE [DELAY]"""
import os
import socketserver
import sys
import threading
import time

PORTFILE, COUNTFILE = sys.argv[1], sys.argv[2]
DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
lock = threading.Lock()
count = [0]


class Session(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self):
        self.reply("220 slow ESMTP")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line.strip().split(b" ")[0].upper()
            if verb == b"EHLO":
                self.wfile.write(b"250-slow\r\n250-8BITMIME\r\n"
                                 b"250 SIZE 52428800\r\n")
                self.wfile.flush()
            elif verb == b"HELO":
                self.reply("250 slow")
            elif verb == b"DATA":
                self.reply("354 go on")
                while True:
                    d = self.rfile.readline()
                    if not d or d == b".\r\n":
                        break
                if not d:
                    return
                time.sleep(DELAY)
                with lock:
                    count[0] += 1
                    with open(COUNTFILE + ".tmp", "w") as f:
                        f.write("%d\n" % count[0])
                    os.rename(COUNTFILE + ".tmp", COUNTFILE)
                self.reply("250 queued")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Session)
with open(COUNTFILE, "w") as f:
    f.write("0\n")
with open(PORTFILE + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(PORTFILE + ".tmp", PORTFILE)
srv.serve_forever()
