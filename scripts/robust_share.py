#!/usr/bin/env python3
"""Development questions that ask for what a node shares with another.

    python3 scripts/robust_share.py ../shared/data/movies-skb OUTDIR

Writes OUTDIR/share.csv (id,query,answer_ids) and OUTDIR/share.tsv
(id<TAB>frame). Eight frames of mine, written after the planner's
SharedWith rule (so they overstate it), ten questions each (seed 86):
the people who shared a film, the stage, scenes or screen time with an
actor who only acted (their co-stars), writing credits with a writer who
only wrote, directing duties with a director who only directed, and the
films that share a director or a screenwriter with a film. Anchors are
names no other node has; gold sets hold 1 to 20 nodes. A development set:
nothing here is held out.
"""
import collections
import csv
import json
import os
import random
import subprocess
import sys

FRAMES = [
    ("S1", "starred_actors", "person", "Who has shared a film with {x}?"),
    ("S2", "starred_actors", "person", "Name the actors who shared the stage with {x}."),
    ("S3", "starred_actors", "person", "Which performers have shared scenes with {x}?"),
    ("S4", "written_by", "person", "Who has shared writing credits with {x}?"),
    ("S5", "directed_by", "person", "Which filmmakers shared directing duties with {x}?"),
    ("S6", "directed_by", "movie", "Which movies share a director with {x}?"),
    ("S7", "written_by", "movie", "What films share a screenwriter with {x}?"),
    ("S8", "starred_actors", "person", "list everyone who has shared screen time with {x}"),
]
PER_FRAME, MAX_GOLD, FIRST_ID = 10, 20, 9900000


def lines(path):
    out = subprocess.run(["zstd", "-dc", path], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    skb, outdir = sys.argv[1:]
    nodes = {}
    for line in lines(os.path.join(skb, "nodes.jsonl.zst")):
        o = json.loads(line)
        nodes[o["id"]] = o
    out = collections.defaultdict(lambda: collections.defaultdict(set))
    inn = collections.defaultdict(lambda: collections.defaultdict(set))
    for line in lines(os.path.join(skb, "edges.tsv.zst")):
        a, r, b = line.split("\t")
        out[int(a)][r].add(int(b))
        inn[int(b)][r].add(int(a))
    names = collections.Counter(o["name"].lower() for o in nodes.values())
    rng = random.Random(86)
    rows, tsv, qid = [], [], FIRST_ID
    for fid, rel, kind, frame in FRAMES:
        pool = sorted(i for i, o in nodes.items() if o["type"] == kind)
        rng.shuffle(pool)
        n = 0
        for x in pool:
            if names[nodes[x]["name"].lower()] > 1:
                continue
            gold = set()
            if kind == "person":
                if not inn[x][rel] or any(r != rel for r in inn[x]):
                    continue
                for film in inn[x][rel]:
                    gold |= out[film][rel]
            else:
                for y in out[x][rel]:
                    gold |= inn[y][rel]
            gold.discard(x)
            if not 1 <= len(gold) <= MAX_GOLD:
                continue
            rows.append((qid, frame.format(x=nodes[x]["name"]), json.dumps(sorted(gold))))
            tsv.append(f"{qid}\t{fid}")
            qid += 1
            n += 1
            if n == PER_FRAME:
                break
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "share.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        w.writerows(rows)
    with open(os.path.join(outdir, "share.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    print(f"{len(rows)} questions in {outdir}/share.csv", file=sys.stderr)


if __name__ == "__main__":
    main()
