#!/usr/bin/env python3
"""tests/daemon/smtp_server.py -- the SMTP server of the daemon's tests, on
127.0.0.1 (a free port, written to PORTFILE): it takes every mail, writes
each as DIR/N.eml (dot-unstuffed), and with DELAY > 0 (default 1) waits
that many seconds after the end of DATA before it answers 250, as a
remote smarthost might (DELAY 0: a plain sink).  It says what happens in
LOG, one line each, times in seconds since the epoch:
  connect C                  TCP connection number C accepted
  data C N T                 mail N's final dot read on connection C
  accepted C N T MSGID       mail N answered 250 (written as DIR/N.eml)
  dropped C N T MSGID        the client left during the delay: mail N is
                             not taken (a server that commits with its
                             reply), so a client killed then must send it
                             again
  quit C T                   the client said QUIT on connection C
Usage: smtp_server.py DIR PORTFILE LOG [DELAY]"""
import os
import re
import select
import socket
import socketserver
import sys
import threading
import time

OUT, PORTFILE, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
DELAY = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
lock = threading.Lock()
counts = {"conn": 0, "mail": 0}


def log(line):
    with lock:
        with open(LOG, "a") as f:
            f.write(line + "\n")


def client_gone(sock):
    """The client closed its end (EOF waiting to be read)."""
    r, _, _ = select.select([sock], [], [], 0)
    if not r:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class Session(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self):
        with lock:
            counts["conn"] += 1
            conn = counts["conn"]
        log("connect %d" % conn)
        self.reply("220 slow ESMTP")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line.strip().split(b" ")[0].upper()
            if verb in (b"EHLO", b"HELO"):
                self.reply("250 slow")
            elif verb == b"DATA":
                self.reply("354 go on")
                data = []
                while True:
                    d = self.rfile.readline()
                    if not d or d == b".\r\n":
                        break
                    data.append(d[1:] if d.startswith(b"..") else d)
                with lock:
                    counts["mail"] += 1
                    n = counts["mail"]
                raw = b"".join(data)
                m = re.search(rb"^Message-ID:\s*(\S+)", raw, re.M | re.I)
                mid = m.group(1).decode() if m else "-"
                log("data %d %d %.3f" % (conn, n, time.time()))
                time.sleep(DELAY)
                if client_gone(self.connection):
                    log("dropped %d %d %.3f %s" % (conn, n, time.time(), mid))
                    return
                path = os.path.join(OUT, "%d.eml" % n)
                with open(path + ".tmp", "wb") as f:
                    f.write(raw)
                os.rename(path + ".tmp", path)
                log("accepted %d %d %.3f %s" % (conn, n, time.time(), mid))
                self.reply("250 queued")
            elif verb == b"QUIT":
                log("quit %d %.3f" % (conn, time.time()))
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
