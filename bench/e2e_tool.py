#!/usr/bin/env python3
"""bench/e2e_tool.py -- the python side of the e2e benches (bench/e2e-*.sh).

  watch LOG PID OUT CHECKPOINTS [IDREGEX]
      Follow ashesd's log (it has no time stamps) and write to OUT, for
      each line about a mail whose Message-ID's left part matches IDREGEX
      (default: the load mails, <load.PHASE.INDEX@...>), the
      wall time it was read, the Message-ID and the outcome: the time the
      daemon committed it (the line is logged after the commit), within
      the ~10 ms this polls.  When the count of such lines reaches each of
      CHECKPOINTS (comma-separated), and at the end, append ashesd's VmHWM
      and VmRSS (kB, /proc/PID/status) to OUT.rss.  Stops when OUT.stop
      exists or ashesd is gone.
  send PORT DOMAIN PLAN PHASE DIR RATE OUT
      Hand the PHASE mails in DIR to Postfix on ONE SMTP connection, each
      from its player's address (as PLAN says), RATE mails/s (0: at
      once); OUT gets the start and end times.
  accept PORT COUNT FILE...
      Postfix's own acceptance time: send the FILEs (one after the other:
      one round) COUNT times to alice on one connection; print the median
      and mean time of one round (ms) and the files' sizes.
  idle IMAP_PORT LMTP_PORT USER PASSWORD MAILDIR COUNT
      Dovecot's own IDLE notify delay: in IDLE on USER's INBOX, deliver a
      small mail by LMTP COUNT times and time the untagged EXISTS; print
      the median from Dovecot's save (the Maildir file name: where
      e2e-mail.sh's latency starts) and from the LMTP reply (ms).
  report PLAN PHASE STAMPS STACKDIR PLAYERS [END]
      Match each move mail's delivery (its Maildir file name in the
      daemon's mailbox, INBOX or Archive: Dovecot's save time, to the
      microsecond), its commit (STAMPS) and the daemon's reply to the
      mover delivered to the player (the reply's Maildir file name; found
      by In-Reply-To); print the latencies' median and 99th percentile.
      With END (a time), also delivery to commit over every delivered
      mail, one not committed by END counting as at least END - delivery.
"""
import os
import re
import smtplib
import sys
import time

LOG_LINE = rb"uid \d+: <?(%s@[^ >]+)>? from \S+: (.*)$"
MAILDIR_TIME = re.compile(r"^(\d+)\.M(\d+)P")


def vm(pid):
    out = {}
    try:
        with open("/proc/%s/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmHWM", "VmRSS"):
                    out[k] = int(v.split()[0])
    except OSError:
        pass
    return out


def watch(log, pid, out, checkpoints, idpat=r"load\.\d+\.\d+"):
    line_re = re.compile(LOG_LINE % idpat.encode())
    marks = sorted(int(c) for c in checkpoints.split(",") if c)
    n, buf = 0, b""
    with open(log, "rb") as f, open(out, "w") as o, \
            open(out + ".rss", "w") as r:
        while True:
            data = f.read()
            if data:
                t = time.time()
                buf += data
                lines = buf.split(b"\n")
                buf = lines.pop()
                for line in lines:
                    m = line_re.search(line)
                    if not m:
                        continue
                    n += 1
                    o.write("%.6f <%s> %s\n" % (t, m.group(1).decode(),
                                                m.group(2).decode("utf-8",
                                                                  "replace")))
                    if marks and n >= marks[0]:
                        v = vm(pid)
                        r.write("%d %d %d\n" % (marks.pop(0),
                                                v.get("VmHWM", 0),
                                                v.get("VmRSS", 0)))
                        r.flush()
                o.flush()
                continue
            if os.path.exists(out + ".stop") or not os.path.exists(
                    "/proc/%s" % pid):
                v = vm(pid)
                if v:
                    r.write("end %d %d\n" % (v.get("VmHWM", 0),
                                             v.get("VmRSS", 0)))
                return
            time.sleep(0.01)


def plan_rows(plan, phase):
    rows = []
    with open(plan) as f:
        for line in f:
            ph, idx, game, ply, player, msgid = line.split()
            if ph == phase:
                rows.append((int(idx), player, msgid))
    return rows


def send(port, domain, plan, phase, folder, rate, out):
    rows = plan_rows(plan, phase)
    rate = float(rate)
    s = smtplib.SMTP("127.0.0.1", int(port))
    t0 = time.time()
    for k, (idx, player, _) in enumerate(rows):
        if rate > 0:
            wait = t0 + k / rate - time.time()
            if wait > 0:
                time.sleep(wait)
        with open(os.path.join(folder, "%05d.eml" % idx), "rb") as f:
            s.sendmail("%s@%s" % (player, domain), ["ashes@%s" % domain],
                       f.read())
    t1 = time.time()
    s.quit()
    with open(out, "w") as f:
        f.write("%.6f %.6f\n" % (t0, t1))


def accept(port, count, *paths):
    """COUNT rounds of every file in PATHS, one connection, to alice."""
    datas = []
    for p in paths:
        with open(p, "rb") as f:
            datas.append(f.read())
    s = smtplib.SMTP("127.0.0.1", int(port))
    each = []
    for _ in range(int(count)):
        a = time.time()
        for d in datas:
            s.sendmail("bench@mailstack.test", ["alice@mailstack.test"], d)
        each.append(time.time() - a)
    s.quit()
    each.sort()
    print("%.3f %.3f %s" % (each[len(each) // 2] * 1e3,
                            sum(each) / len(each) * 1e3,
                            "+".join(str(len(d)) for d in datas)))


def idle(imap_port, lmtp_port, user, password, maildir, count):
    """Dovecot's own IDLE notify delay, as ashesd's IDLE sees it."""
    import socket
    sock = socket.create_connection(("127.0.0.1", int(imap_port)))
    f = sock.makefile("rb")

    def until(prefix):
        while True:
            line = f.readline()
            if not line:
                raise SystemExit("idle: IMAP connection closed")
            if line.startswith(prefix):
                return line

    def names():
        # a selected mailbox moves its mail from new/ to cur/ at a sync
        return {os.path.basename(n).split(":")[0] for sub in ("new", "cur")
                for n in os.listdir(os.path.join(maildir, sub))}

    until(b"* OK")
    sock.sendall(b"a LOGIN %s %s\r\n" % (user.encode(), password.encode()))
    until(b"a OK")
    sock.sendall(b"b SELECT INBOX\r\n")
    until(b"b OK")
    sock.sendall(b"c IDLE\r\n")
    until(b"+")
    saved, seen = [], []
    for i in range(int(count)):
        before = names()
        lm = smtplib.LMTP("127.0.0.1", int(lmtp_port))
        lm.sendmail("bench@mailstack.test", ["%s@mailstack.test" % user],
                    b"From: bench@mailstack.test\r\nSubject: idle %d\r\n"
                    b"Message-ID: <idle.%d.%f@mailstack.test>\r\n\r\n"
                    b"ping\r\n" % (i, i, time.time()))
        t0 = time.time()
        while True:
            line = f.readline()
            if not line:
                raise SystemExit("idle: IMAP connection closed")
            if line.rstrip().endswith(b"EXISTS"):
                break
        t1 = time.time()
        lm.quit()
        new = names() - before
        ts = [maildir_time(n) for n in new if maildir_time(n) is not None]
        if ts:
            saved.append(t1 - min(ts))
        seen.append(t1 - t0)
        # the session's own sync after an EXISTS (new/ to cur/, index)
        # starts Dovecot's 500 ms notify delay timer again: a delivery
        # while it runs would be announced early, so let it run out
        time.sleep(1.2)
    sock.sendall(b"DONE\r\n")
    until(b"c OK")
    sock.sendall(b"d LOGOUT\r\n")
    print("%.1f %.1f %d" % (pct(saved, 0.5) * 1e3, pct(seen, 0.5) * 1e3,
                            len(saved)))


def maildir_time(path):
    m = MAILDIR_TIME.match(os.path.basename(path))
    return int(m.group(1)) + int(m.group(2)) / 1e6 if m else None


def headers(path):
    with open(path, "rb") as f:
        head = f.read(8192)
    return head.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]


def maildir_files(root):
    """Every mail file under root, subfolders (.Archive/...) included."""
    for d, _, files in os.walk(root):
        if os.path.basename(d) in ("cur", "new"):
            for name in files:
                yield os.path.join(d, name)


def pct(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    k = max(0, min(len(v) - 1, int(-(-q * len(v) // 1)) - 1))
    return v[k]


def report(plan, phase, stamps, stack, players, end=None):
    want = {msgid: idx for idx, _, msgid in plan_rows(plan, phase)}
    delivered, committed, replied, outcomes = {}, {}, {}, {}
    hdr_id = re.compile(rb"(?im)^message-id:\s*(<[^>]*>)")
    hdr_irt = re.compile(rb"(?im)^in-reply-to:\s*(<[^>]*>)")
    for p in maildir_files(os.path.join(stack, "mail", "ashes", "Maildir")):
        m = hdr_id.search(headers(p))
        t = maildir_time(p)
        if m and t is not None:
            mid = m.group(1).decode()
            if mid in want:
                delivered[mid] = min(t, delivered.get(mid, t))
    with open(stamps) as f:
        for line in f:
            t, mid, outcome = line.rstrip("\n").split(" ", 2)
            if mid in want and mid not in committed:
                committed[mid] = float(t)
                outcomes[mid] = outcome
    for who in players.split():
        md = os.path.join(stack, "mail", who, "Maildir")
        for p in maildir_files(md):
            m = hdr_irt.search(headers(p))
            t = maildir_time(p)
            if m and t is not None:
                mid = m.group(1).decode()
                if mid in want:
                    replied[mid] = min(t, replied.get(mid, t))
    d2c = [committed[m] - delivered[m] for m in want
           if m in delivered and m in committed]
    d2r = [replied[m] - delivered[m] for m in want
           if m in delivered and m in replied]
    bad = sum(1 for o in outcomes.values() if not o.startswith("ok"))
    first = min(delivered.values()) if delivered else 0
    last_c = max(committed.values()) if committed else 0
    last_r = max(replied.values()) if replied else 0
    print("mails %d delivered %d committed %d (not ok: %d) replied %d"
          % (len(want), len(delivered), len(committed), bad, len(replied)))
    print("d2c %.1f %.1f %.1f" % (pct(d2c, 0.5) * 1e3, pct(d2c, 0.99) * 1e3,
                                   max(d2c or [float("nan")]) * 1e3))
    print("d2r %.1f %.1f %.1f" % (pct(d2r, 0.5) * 1e3, pct(d2r, 0.99) * 1e3,
                                   max(d2r or [float("nan")]) * 1e3))
    print("span %.3f %.3f %.3f" % (first, last_c, last_r))
    if end is not None:
        # every delivered mail; one not committed by END counts as at
        # least END - delivery (printed with ">")
        allc = sorted((committed[m] - delivered[m], "") if m in committed
                      else (float(end) - delivered[m], ">")
                      for m in want if m in delivered)
        if allc:
            med = allc[max(0, -(-len(allc) // 2) - 1)]
            p99 = allc[max(0, int(-(-0.99 * len(allc) // 1)) - 1)]
            print("d2c_all %s%.0f %s%.0f" % (med[1], med[0] * 1e3,
                                            p99[1], p99[0] * 1e3))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"watch": watch, "send": send, "accept": accept, "idle": idle,
     "report": report}[cmd](*args)
