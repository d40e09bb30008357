#!/usr/bin/env python3
"""Copies a planner run's best checkpoint with some of its parts taken from
another run's, to measure which part of a retrain moves the rankings
(docs/robustness.md, stop 116):

  scripts/planner_swap.py BASE OTHER DEST PART...

BASE and OTHER are run directories (their best checkpoint) or checkpoint
directories; DEST gets BASE's pipeline.json and best checkpoint. A PART is a
tensor name (planner.fit, planner.ranker, planner.anchor, planner.w1 ...:
the checkpoint's model.safetensors header lists them) copied byte for byte, or cfg:KEY[.KEY...] for a
value of the planner's anchor configuration (cfg:fit.min, cfg:named). The
two checkpoints must hold the tensor with the same shape. DEST is replaced.
"""
import json
import os
import shutil
import struct
import sys


def best(d):
    link = os.path.join(d, "best")
    return os.path.join(d, os.readlink(link)) if os.path.islink(link) else d


def read(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        return n, json.loads(f.read(n)), f.read()


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    base, other, dest = sys.argv[1:4]
    parts = sys.argv[4:]
    bb, ob = best(base), best(other)
    if os.path.abspath(dest) in (os.path.abspath(base), os.path.abspath(other)):
        sys.exit(f"planner_swap: {dest} is an input")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    if os.path.exists(os.path.join(base, "pipeline.json")):
        shutil.copy(os.path.join(base, "pipeline.json"), dest)
    step = os.path.basename(bb)
    shutil.copytree(bb, os.path.join(dest, step))
    os.symlink(step, os.path.join(dest, "best"))
    n, head, data = read(os.path.join(bb, "model.safetensors"))
    _, ohead, odata = read(os.path.join(ob, "model.safetensors"))
    data = bytearray(data)
    mpath = os.path.join(dest, step, "manifest.json")
    m = json.load(open(mpath))
    om = json.load(open(os.path.join(ob, "manifest.json")))
    for part in parts:
        if part.startswith("cfg:"):
            keys = part[4:].split(".")
            a, b = m["config"]["model"]["anchors"], om["config"]["model"]["anchors"]
            for k in keys[:-1]:
                a, b = a[k], b[k]
            a[keys[-1]] = b[keys[-1]]
            continue
        if part not in head or part not in ohead or head[part]["shape"] != ohead[part]["shape"]:
            sys.exit(f"planner_swap: tensor {part} is not in both checkpoints with one shape")
        s, e = head[part]["data_offsets"]
        os_, oe = ohead[part]["data_offsets"]
        data[s:e] = odata[os_:oe]
    with open(os.path.join(dest, step, "model.safetensors"), "r+b") as f:
        f.seek(8 + n)
        f.write(data)
    with open(mpath, "w") as f:
        json.dump(m, f)
    print(f"{dest}: {bb} with {', '.join(parts)} from {ob}")


if __name__ == "__main__":
    main()
