#!/usr/bin/env python3
"""A development probe of part questions in frames WordNet's training never uses (stop 71,
docs/robustness.md, "Parts asked in a frame the training never used").

Usage: scripts/part_probe.py SKBDIR OUT.csv [N]

Writes N (200) questions to OUT.csv (id, query, answer_ids; ids from 7000000): nodes with one
to twenty part holonyms (parts: the nodes whose "part holonym" edge points at them) and a name
no other node has, shuffled with seed 7, each asked in one of four frames in turn: "What are
the parts of a X?", "What are the components of X?", "What parts does X have?", "What does X
consist of?". The answers are all of X's parts. This is a development set, tuned on: the frames
are mine, and an SKB without a "part holonym" relation gets none. Standard library only; reads
SKBDIR/nodes.jsonl[.zst] and edges.tsv[.zst] (skbfiles.py)."""
import collections
import csv
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from skbfiles import load_graph  # noqa: E402

FRAMES = ["What are the parts of {a}{x}?", "What are the components of {a}{x}?",
          "What parts does {a}{x} have?", "What does {a}{x} consist of?"]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    skb, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 200
    nodes, _, in_e = load_graph(skb, prog="part_probe")
    names = {i: r["name"] for i, r in nodes.items()}
    count = collections.Counter(names.values())
    xs = sorted(x for x in names if count[names[x]] == 1 and 1 <= len(in_e.get((x, "part holonym"), ())) <= 20)
    random.seed(7)
    random.shuffle(xs)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for k, x in enumerate(xs[:n]):
            nm = names[x]
            a = "" if nm[0].isupper() else ("an " if nm[0] in "aeiou" else "a ")
            w.writerow([7000000 + k, FRAMES[k % 4].format(a=a, x=nm), json.dumps(sorted(in_e[(x, "part holonym")]))])
    print(f"part_probe: {min(n, len(xs))} questions of {len(xs)} nodes with parts -> {out}")


if __name__ == "__main__":
    main()
