#!/usr/bin/env python3
"""outbox_check.py MAIL [--body FILE] [options] -- check a mail the outbox
composed (raw bytes from outbox_compose, or the file Postfix/Dovecot
delivered) with Python's own MIME parser, independent of ours.

  --headers A,B,..   the exact set of top-level header names (any order)
  --header NAME=VAL  that header has exactly that (unfolded) value
  --date EPOCH       Date is that instant
  --body FILE        the text/plain part decodes to FILE's text
  --html [PICFILE]   a text/html alternative showing a picture by cid: (an
                     SVG document or a PNG image, offered as board.svg or
                     board.png; with PICFILE, exactly those bytes), its
                     <pre> the text/plain part, escaped
  --image-type TYPE  that picture is of TYPE (image/png, image/svg+xml)
  --no-html          a single text/plain part
  --signed FPR GNUPGHOME   PGP/MIME, and gpg verifies it as made by FPR
  --crlf             every line of the raw bytes ends in CRLF
Exit 0 when all holds; else prints why and exits 1.
"""
import argparse
import email
import email.policy
import email.utils
import html
import html.parser
import os
import re
import subprocess
import sys
import tempfile
import struct
import xml.etree.ElementTree
import zlib


def fail(msg):
    print("outbox_check: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class HtmlCheck(html.parser.HTMLParser):
    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack, self.errors, self.imgs = [], [], []
        self.in_pre, self.pre = False, []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs.append(dict(attrs))
        if tag in self.VOID:
            return
        self.stack.append(tag)
        if tag == "pre":
            self.in_pre = True

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack))
            return
        self.stack.pop()
        if tag == "pre":
            self.in_pre = False

    def handle_data(self, data):
        if self.in_pre:
            if "<" in data or ">" in data:
                self.errors.append("raw < or > in <pre>")
            self.pre.append(data)

    def handle_entityref(self, name):
        if self.in_pre:
            self.pre.append("&%s;" % name)

    def handle_charref(self, name):
        if self.in_pre:
            self.pre.append("&#%s;" % name)


def check_png(pic):
    """A PNG as the spec has it: signature, chunks with good CRCs, IHDR
    first, IEND last, and IDAT inflating to exactly the rows IHDR says."""
    if pic[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the picture has no PNG signature")
    at, chunks = 8, []
    while at < len(pic):
        if at + 12 > len(pic):
            fail("a truncated PNG chunk")
        n, kind = struct.unpack(">I4s", pic[at:at + 8])
        data = pic[at + 8:at + 8 + n]
        crc, = struct.unpack(">I", pic[at + 8 + n:at + 12 + n])
        if zlib.crc32(kind + data) & 0xffffffff != crc:
            fail("PNG chunk %r has a bad CRC" % kind)
        chunks.append((kind, data))
        at += 12 + n
    kinds = [k for k, _ in chunks]
    if not kinds or kinds[0] != b"IHDR" or kinds[-1] != b"IEND":
        fail("PNG chunks %s" % kinds)
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if channels is None or interlace != 0 or w < 1 or h < 1:
        fail("PNG header %s" % ((w, h, depth, ctype, interlace),))
    if ctype == 3 and b"PLTE" not in kinds:
        fail("an indexed PNG without a palette")
    raw = zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
    if len(raw) != h * (1 + (w * channels * depth + 7) // 8):
        fail("PNG data of %d bytes for %dx%d" % (len(raw), w, h))


def text_of(part):
    if part.get_content_type() not in ("text/plain", "text/html"):
        fail("not text: " + part.get_content_type())
    if (part.get_content_charset() or "").lower() != "utf-8":
        fail("charset is not utf-8: %s" % part.get_content_charset())
    if part.get("Content-Transfer-Encoding", "").lower() != "quoted-printable":
        fail("not quoted-printable")
    return part.get_payload(decode=True).decode("utf-8").replace("\r\n", "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mail")
    ap.add_argument("--body")
    ap.add_argument("--headers")
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--date", type=int)
    ap.add_argument("--html", nargs="?", const="")
    ap.add_argument("--image-type")
    ap.add_argument("--no-html", action="store_true")
    ap.add_argument("--signed", nargs=2)
    ap.add_argument("--crlf", action="store_true")
    a = ap.parse_args()

    raw = open(a.mail, "rb").read()
    body = open(a.body, "rb").read().decode("utf-8") if a.body else None
    if a.crlf and re.search(rb"(?<!\r)\n", raw):
        fail("a bare LF in the raw bytes")
    for line in raw.split(b"\n"):
        if len(line) > 998:
            fail("a line longer than 998 bytes")
    msg = email.message_from_bytes(raw, policy=email.policy.default)

    names = [k for k in msg.keys()]
    # Delivery adds its own trace headers above ours.
    trace = {"return-path", "delivered-to", "received", "x-original-to"}
    mine = [n for n in names if n.lower() not in trace]
    if a.headers is not None:
        want = sorted(h.lower() for h in a.headers.split(","))
        got = sorted(n.lower() for n in mine)
        if want != got:
            fail("headers %s, expected %s" % (got, want))
    if len(set(n.lower() for n in mine)) != len(mine):
        fail("a header appears twice: %s" % mine)
    if "precedence" in (n.lower() for n in names):
        fail("a Precedence header")
    if msg.get("MIME-Version") != "1.0":
        fail("MIME-Version is not 1.0")
    for hv in a.header:
        name, _, val = hv.partition("=")
        got = msg.get(name)
        got = None if got is None else re.sub(r"\s*\r?\n\s+", " ", str(got))
        if got != val:
            fail("%s is %r, expected %r" % (name, got, val))
    if a.date is not None:
        d = email.utils.parsedate_to_datetime(msg["Date"])
        if int(d.timestamp()) != a.date:
            fail("Date %s is not %d" % (msg["Date"], a.date))

    content = msg
    if a.signed:
        fpr, home = a.signed
        if msg.get_content_type() != "multipart/signed":
            fail("not multipart/signed: " + msg.get_content_type())
        if msg.get_param("protocol") != "application/pgp-signature":
            fail("signed protocol is %s" % msg.get_param("protocol"))
        if not (msg.get_param("micalg") or "").startswith("pgp-"):
            fail("micalg %s" % msg.get_param("micalg"))
        # RFC 3156: verify the exact bytes of the first part, with CRLF.
        crlf = re.sub(rb"(?<!\r)\n", b"\r\n", raw)
        b = msg.get_param("boundary").encode()
        start = crlf.index(b"--" + b + b"\r\n") + len(b) + 4
        end = crlf.index(b"\r\n--" + b + b"\r\n", start)
        signed = crlf[start:end]
        parts = msg.get_payload()
        if len(parts) != 2 or parts[1].get_content_type() != "application/pgp-signature":
            fail("multipart/signed without a signature part")
        sig = parts[1].get_payload(decode=True)
        with tempfile.TemporaryDirectory() as td:
            open(os.path.join(td, "data"), "wb").write(signed)
            open(os.path.join(td, "sig.asc"), "wb").write(sig)
            r = subprocess.run(["gpg", "--homedir", home, "--batch", "--status-fd", "1",
                                "--verify", os.path.join(td, "sig.asc"),
                                os.path.join(td, "data")],
                               capture_output=True, text=True)
        if r.returncode != 0 or "[GNUPG:] GOODSIG" not in r.stdout:
            fail("gpg does not verify: %s %s" % (r.stdout, r.stderr))
        m = re.search(r"VALIDSIG (\w+) .* (\w+)$", r.stdout, re.M)
        if not m or fpr.upper() not in (m.group(1), m.group(2)):
            fail("signed by another key: %s" % r.stdout)
        content = parts[0]

    if a.no_html:
        if content.get_content_type() != "text/plain":
            fail("not a single text/plain: " + content.get_content_type())
        if body is not None and text_of(content) != body:
            fail("text/plain does not decode to the body: %r" % text_of(content))
    if a.html is not None:
        if content.get_content_type() != "multipart/alternative":
            fail("not multipart/alternative: " + content.get_content_type())
        alts = content.get_payload()
        if len(alts) != 2:
            fail("%d alternatives" % len(alts))
        if alts[0].get_content_type() != "text/plain":
            fail("text/plain is not the first alternative")
        text = text_of(alts[0])
        if body is not None and text != body:
            fail("text/plain does not decode to the body")
        rel = alts[1]
        if rel.get_content_type() != "multipart/related" or \
                rel.get_param("type") != "text/html":
            fail("second alternative is not multipart/related of text/html")
        hpart, img = rel.get_payload()
        page = text_of(hpart)
        hc = HtmlCheck()
        hc.feed(page)
        hc.close()
        if hc.errors or hc.stack:
            fail("html not well-formed: %s open %s" % (hc.errors, hc.stack))
        if not page.lstrip().lower().startswith("<!doctype html>"):
            fail("html lacks a doctype")
        if html.unescape("".join(hc.pre)) != text:
            fail("the html <pre> is not the escaped body: %r" % "".join(hc.pre))
        if len(hc.imgs) != 1 or not hc.imgs[0].get("src", "").startswith("cid:"):
            fail("html has no cid: image: %s" % hc.imgs)
        cid = hc.imgs[0]["src"][4:]
        itype = img.get_content_type()
        names = {"image/svg+xml": "board.svg", "image/png": "board.png"}
        if itype not in names:
            fail("the picture is %s" % itype)
        if a.image_type is not None and itype != a.image_type:
            fail("the picture is %s, expected %s" % (itype, a.image_type))
        if img.get_filename() != names[itype] or \
                img.get_param("name") != names[itype]:
            fail("the picture is offered as %s / %s, expected %s" %
                 (img.get_filename(), img.get_param("name"), names[itype]))
        if img.get("Content-ID") != "<%s>" % cid:
            fail("Content-ID %s does not match cid:%s" % (img.get("Content-ID"), cid))
        pic = img.get_payload(decode=True)
        if a.html and pic != open(a.html, "rb").read():
            fail("the picture's bytes differ")
        if itype == "image/png":
            check_png(pic)
        else:
            try:
                root = xml.etree.ElementTree.fromstring(pic)
            except xml.etree.ElementTree.ParseError as e:
                fail("the picture is not well-formed XML: %s" % e)
            if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
                fail("the picture is not an SVG document: %s" % root.tag)
    print("outbox_check: ok")


main()
