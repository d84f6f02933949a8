#!/usr/bin/env python3
"""tests/archive/tar-bomb.py -- make a .tar.gz bomb for the tests of
`ashes archive verify` (src/archive/archive_untar.c): never checked in,
made at test time.

  tar-bomb.py OUT SIZE
      a gzip'd GNU tar in OUT holding one file, game-1/0001.eml, whose
      header says SIZE bytes, all zeros (2 GiB is ~9 MB of gzip)

Each MiB of zeros is deflated once: after a full flush the compressor
starts afresh, so the same bytes stand for every MiB, and only the CRC
is computed over the whole (a few times quicker than deflating 2 GiB).
"""
import struct
import sys
import tarfile
import zlib

out, size = sys.argv[1], int(sys.argv[2])
ti = tarfile.TarInfo("game-1/0001.eml")
ti.size = size
head, chunk, tail = ti.tobuf(format=tarfile.GNU_FORMAT), bytes(1 << 20), bytes(1024)


def deflate(data, mode=zlib.Z_FULL_FLUSH):
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush(mode)


mib = deflate(chunk)
crc = zlib.crc32(head)
for _ in range(size >> 20):
    crc = zlib.crc32(chunk, crc)
crc = zlib.crc32(tail, crc)
with open(out, "wb") as f:
    f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x04\xff")  # gzip, no name
    f.write(deflate(head))
    for _ in range(size >> 20):
        f.write(mib)
    f.write(deflate(tail, zlib.Z_FINISH))
    f.write(struct.pack("<II", crc, (len(head) + size + len(tail)) & 0xffffffff))
