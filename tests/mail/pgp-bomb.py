#!/usr/bin/env python3
"""tests/mail/pgp-bomb.py -- make hostile OpenPGP blobs for the tests of
the pre-scan (src/mail/pgp_scan.c) and of the gpg budget: never checked
in, made at test time.

  pgp-bomb.py bomb GIB [--levels N] [--armor LABEL]
      a compressed packet (tag 8) holding, through N levels of nested
      compressed packets, a literal data packet of GIB GiB of zeros
  pgp-bomb.py sigs COUNT SIGFILE [--armor LABEL]
      COUNT copies of the signature packet(s) in SIGFILE (binary), one
      after the other
LABEL is e.g. "PGP SIGNATURE" or "PGP PUBLIC KEY BLOCK"; without it the
packets are written raw.  Output on stdout.
"""
import base64
import sys
import zlib

MIB = 1 << 20


def new_header(tag, n):
    """A new-format packet header of tag for a body of n bytes."""
    h = bytes([0xC0 | tag])
    if n < 192:
        return h + bytes([n])
    if n < 8384:
        n -= 192
        return h + bytes([(n >> 8) + 192, n & 0xFF])
    return h + b"\xff" + n.to_bytes(4, "big")


def repeat_deflate(prefix, unit, count):
    """A raw deflate stream of prefix followed by count copies of unit,
    made without compressing every copy: after a full flush the
    compressor starts afresh, so each copy of unit compresses to the same
    bytes, which are repeated."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = [c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)]
    block = c.compress(unit) + c.flush(zlib.Z_FULL_FLUSH)
    out.append(block * count)
    out.append(c.flush())
    return b"".join(out)


def bomb(gib, levels):
    # innermost: an old-format literal packet of indeterminate length
    # (tag 11, length type 3), binary, no name, date 0, then zeros
    literal_head = bytes([0x80 | (11 << 2) | 3]) + b"b\x00" + b"\x00" * 4
    zeros = b"\x00" * MIB
    body = b"\x01" + repeat_deflate(literal_head, zeros, gib * 1024)
    pkt = new_header(8, len(body)) + body
    for _ in range(levels - 1):
        body = b"\x01" + zlib.compress(pkt, 9)[2:-4]
        pkt = new_header(8, len(body)) + body
    return pkt


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(label, data):
    b64 = base64.b64encode(data).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    crc = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return ("-----BEGIN %s-----\n\n%s\n=%s\n-----END %s-----\n"
            % (label, "\n".join(lines), crc, label)).encode()


def main(argv):
    label = None
    if "--armor" in argv:
        i = argv.index("--armor")
        label = argv[i + 1]
        del argv[i:i + 2]
    levels = 2
    if "--levels" in argv:
        i = argv.index("--levels")
        levels = int(argv[i + 1])
        del argv[i:i + 2]
    if argv[1] == "bomb":
        out = bomb(int(argv[2]), levels)
    elif argv[1] == "sigs":
        with open(argv[3], "rb") as f:
            out = f.read() * int(argv[2])
    else:
        sys.exit(__doc__)
    sys.stdout.buffer.write(armor(label, out) if label else out)


if __name__ == "__main__":
    main(sys.argv)
