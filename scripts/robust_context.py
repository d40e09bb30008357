#!/usr/bin/env python3
"""Questions after a sentence that sets the scene (protocol (k) of docs/robustness.md).

People chatting to an assistant often say something first: "I just
watched something with Tom Hanks in it. Which films did Tom Hanks direct
in 1996?". Each question of a split that ends with a question mark and
names a node of one of TYPES (the longest such name of two words or more
that no other node has) gets one of five scene-setting sentences naming
that node before it, chosen by a hash of the question; the question and
its answers are unchanged. Questions naming no such node are left out.
The sentences ask for nothing and name nothing the question does not.

Usage: robust_context.py STARK_QA_CSV SPLIT_INDEX SKBDIR OUTDIR [OFFSET [TYPES]]
Writes OUTDIR/context.csv (id,query,answer_ids; ids OFFSET + the
original's, OFFSET 13,000,000 by default) and OUTDIR/context.index;
TYPES is a comma-separated list of node types (default person). Exit
status 2 when the SKB has no node of TYPES or no question qualifies.
"""
import collections
import csv
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skbfiles  # noqa: E402

PROG = "robust_context"
SCENES = [
    "I've been reading about {p} lately.",
    "My friend keeps talking about {p}!",
    "{p} is one of my favourite people in film.",
    "Quick question about {p}.",
    "I just watched something with {p} in it.",
]


def names(skbdir, types):
    """The names of two words or more that exactly one node has, of a node of types."""
    path = skbfiles.first(skbdir, "nodes.jsonl.zst", "nodes.jsonl", prog=PROG)
    count, keep = collections.Counter(), set()
    for line in skbfiles.lines(path):
        r = json.loads(line)
        count[r["name"]] += 1
        if r.get("type") in types and len(r["name"].split()) >= 2:
            keep.add(r["name"])
    return sorted(n for n in keep if count[n] == 1)


def scene(query, pool):
    """The query after a scene naming the longest name of pool in it; None without one."""
    if not query.rstrip().endswith("?"):
        return None
    found = [n for n in pool if n in query]
    if not found:
        return None
    p = max(found, key=lambda n: (len(n), n))
    k = int(hashlib.md5(query.encode()).hexdigest(), 16) % len(SCENES)
    return SCENES[k].format(p=p) + " " + query


def main():
    if len(sys.argv) not in (5, 6, 7):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    src, index, skbdir, out = sys.argv[1:5]
    offset = int(sys.argv[5]) if len(sys.argv) >= 6 else 13_000_000
    types = set((sys.argv[6] if len(sys.argv) == 7 else "person").split(","))
    pool = names(skbdir, types)
    if not pool:
        print(f"{PROG}: no node of {sorted(types)} in {skbdir} has a name of its own", file=sys.stderr)
        sys.exit(2)
    keep = {l.strip() for l in open(index) if l.strip()}
    os.makedirs(out, exist_ok=True)
    n = 0
    with open(os.path.join(out, "context.csv"), "w", newline="") as f, open(os.path.join(out, "context.index"), "w") as ix:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for r in csv.DictReader(open(src, newline="")):
            if r["id"] not in keep:
                continue
            q = scene(r["query"], pool)
            if q is None:
                continue
            qid = str(offset + int(r["id"]))
            w.writerow([qid, q, r["answer_ids"]])
            ix.write(qid + "\n")
            n += 1
    if n == 0:
        print(f"{PROG}: no question of {index} names a node of {sorted(types)}", file=sys.stderr)
        sys.exit(2)
    print(f"{PROG}: {n} questions in {out}/context.csv", file=sys.stderr)


if __name__ == "__main__":
    main()
