#!/usr/bin/env python3
"""tests/archive/tar-bomb.py -- make a .tar.gz bomb for the tests of
`ashes archive verify` (src/archive/archive_untar.c): never checked in,
made at test time.

  tar-bomb.py OUT SIZE
      a gzip'd GNU tar in OUT holding one file, game-1/0001.eml, whose
      header says SIZE bytes, all zeros (2 GiB is ~9 MB of gzip)
"""
import sys
import tarfile
import zlib

out, size = sys.argv[1], int(sys.argv[2])
ti = tarfile.TarInfo("game-1/0001.eml")
ti.size = size
c = zlib.compressobj(1, zlib.DEFLATED, 31)
with open(out, "wb") as f:
    f.write(c.compress(ti.tobuf(format=tarfile.GNU_FORMAT)))
    chunk = bytes(1 << 20)
    for _ in range(size >> 20):
        f.write(c.compress(chunk))
    f.write(c.compress(bytes(1024)))
    f.write(c.flush())
