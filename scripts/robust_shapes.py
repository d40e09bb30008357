#!/usr/bin/env python3
"""Questions of shapes no movies-skb training question has (the engineer's
development set sdev, docs/robustness.md, stop 80).

The training asks for a person's films, two people's, a genre's, and the
directors, writers, cast and genres of a person's films, except these: the
writers of a director's films, the people who acted beside an actor, and
the other films of a film's director. Each is asked in two frames written
for this set, filled with 20 nodes of the SKB drawn by a hash of the name
(nodes whose name no other node shares); the answers come from the graph,
the anchor itself left out (an actor is not their own co-star, a film not
another film of its director). A planner answers one only with a plan of a
shape no training plan had.

Usage: robust_shapes.py SKBDIR OUTDIR
Writes OUTDIR/sdev.csv (id, query, answer_ids; ids from 7,400,000) and
OUTDIR/sdev.tsv (id, frame, shape).
"""
import csv, hashlib, json, os, subprocess, sys
from collections import Counter, defaultdict

FRAMES = [
    ("s-dirwri-1", "dir>wri", "Who wrote the films that {} directed?"),
    ("s-dirwri-2", "dir>wri", "Name the screenwriters of the movies {} directed."),
    ("s-actact-1", "act>act", "Which actors appeared in films together with {}?"),
    ("s-actact-2", "act>act", "Who has acted in a movie alongside {}?"),
    ("s-filmdir-1", "film>dir>film", "Which other films were directed by the director of {}?"),
    ("s-filmdir-2", "film>dir>film", "What else did the director of {} direct?"),
]
N = 20


def lines(path):
    if os.path.exists(path):
        return open(path, encoding="utf-8").read().splitlines()
    return subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True).stdout.decode("utf-8").splitlines()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: robust_shapes.py SKBDIR OUTDIR")
    skb, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(skb, "schema.json")))
    if "movie" not in schema.get("node_types", []) or "directed_by" not in schema.get("relation_types", []):
        sys.exit("robust_shapes: not the movies SKB")
    nodes = [json.loads(l) for l in lines(os.path.join(skb, "nodes.jsonl"))]
    fwd = defaultdict(lambda: defaultdict(set))  # film -> relation -> people
    back = defaultdict(lambda: defaultdict(set))  # person -> relation -> films
    for l in lines(os.path.join(skb, "edges.tsv")):
        s, r, d = l.split("\t")
        fwd[int(s)][r].add(int(d))
        back[int(d)][r].add(int(s))
    names = Counter(n["name"].lower() for n in nodes)

    def step(ids, rel, forward):
        out = set()
        for v in ids:
            out |= (fwd if forward else back)[v][rel]
        return out

    answers = {
        "dir>wri": lambda v: step(step({v}, "directed_by", False), "written_by", True),
        "act>act": lambda v: step(step({v}, "starred_actors", False), "starred_actors", True) - {v},
        "film>dir>film": lambda v: step(step({v}, "directed_by", True), "directed_by", False) - {v},
    }
    anchor_type = {"dir>wri": "person", "act>act": "person", "film>dir>film": "movie"}
    os.makedirs(out, exist_ok=True)
    qid = 7_400_000
    with open(os.path.join(out, "sdev.csv"), "w", newline="", encoding="utf-8") as fc, \
            open(os.path.join(out, "sdev.tsv"), "w", encoding="utf-8") as ft:
        w = csv.writer(fc)
        w.writerow(["id", "query", "answer_ids"])
        for shape in answers:
            pool = [n for n in nodes if n["type"] == anchor_type[shape] and names[n["name"].lower()] == 1
                    and len(n["name"]) >= 6 and answers[shape](n["id"])]
            pool.sort(key=lambda n: hashlib.sha256((shape + n["name"]).encode()).hexdigest())
            for fid, sh, frame in FRAMES:
                if sh != shape:
                    continue
                for n in pool[:N]:
                    w.writerow([qid, frame.format(n["name"]), json.dumps(sorted(answers[shape](n["id"])))])
                    ft.write(f"{qid}\t{fid}\t{shape}\n")
                    qid += 1


main()
