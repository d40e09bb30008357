#!/usr/bin/env python3
"""An independent safetensors reader (Python standard library only), used by
the Go tests to check that Python reads strata's files. Prints one line per
tensor: name dtype shape values."""
import json
import struct
import sys

with open(sys.argv[1], "rb") as f:
    b = f.read()
(n,) = struct.unpack("<Q", b[:8])
header = json.loads(b[8:8 + n])
data = b[8 + n:]
meta = header.pop("__metadata__", {})
for name in sorted(header):
    e = header[name]
    lo, hi = e["data_offsets"]
    assert e["dtype"] == "F32", e["dtype"]
    count = (hi - lo) // 4
    vals = struct.unpack("<%df" % count, data[lo:hi])
    print(name, e["dtype"], e["shape"], " ".join(repr(v) for v in vals))
print("metadata", json.dumps(meta, sort_keys=True))
