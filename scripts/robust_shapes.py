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

With "held" (stop 82), the held-out set sheld instead: ten frames written
once before anything was scored on them, never tuned on: two new ones for
each shape above, filled with the next 20 nodes of each pool (none of
sdev's), and two shapes more that start at a film, like the third: the
other films of its writer, and the other films of its cast.

With "dev2" (stop 82), the development set sdev2: seven more frames of
the engineer's, none of sheld's, filled with the nodes after sheld's.

With "dev3" (stop 84), the development set sdev3: six frames of the
engineer's that name the answers with a co-word ("co-starred", "costars",
"co-writers"), written before any was scored, after sheld's co-star
frame had been seen failing; two shapes more, the people who wrote or
directed a film with a writer or director, filled like the others.

Usage: robust_shapes.py SKBDIR OUTDIR [held|dev2|dev3]
Writes OUTDIR/sdev.csv (id, query, answer_ids; ids from 7,400,000) and
OUTDIR/sdev.tsv (id, frame, shape); with held, OUTDIR/sheld.csv and
OUTDIR/sheld.tsv (ids from 7,500,000); with dev2, OUTDIR/sdev2.csv and
OUTDIR/sdev2.tsv (ids from 7,600,000); with dev3, OUTDIR/sdev3.csv and
OUTDIR/sdev3.tsv (ids from 7,700,000).
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
HELD = [
    ("h-dirwri-1", "dir>wri", "Which screenwriters worked on movies directed by {}?"),
    ("h-dirwri-2", "dir>wri", "Who wrote the screenplays for films directed by {}?"),
    ("h-actact-1", "act>act", "Who were the co-stars of {}?"),
    ("h-actact-2", "act>act", "Name actors who have worked alongside {} in a film."),
    ("h-filmdir-1", "film>dir>film", "List the other movies made by the director of {}."),
    ("h-filmdir-2", "film>dir>film", "Besides {}, which films did its director make?"),
    ("h-filmwri-1", "film>wri>film", "What else has the screenwriter of {} written?"),
    ("h-filmwri-2", "film>wri>film", "Which other films were written by whoever wrote {}?"),
    ("h-filmact-1", "film>act>film", "In which other films did the cast of {} appear?"),
    ("h-filmact-2", "film>act>film", "What other movies feature actors from {}?"),
]
DEV2 = [
    ("d-dirwri-3", "dir>wri", "Whose scripts has {} directed?"),
    ("d-actact-3", "act>act", "Who has {} acted with?"),
    ("d-filmdir-3", "film>dir>film", "Show me more films by the director of {}."),
    ("d-filmwri-1", "film>wri>film", "What else did the writer of {} write?"),
    ("d-filmwri-2", "film>wri>film", "Which films share a screenwriter with {}?"),
    ("d-filmact-1", "film>act>film", "What else have the stars of {} appeared in?"),
    ("d-filmact-2", "film>act>film", "Which movies share an actor with {}?"),
]
DEV3 = [
    ("e-actact-4", "act>act", "Which performers has {} co-starred with?"),
    ("e-actact-5", "act>act", "{}'s costars"),
    ("e-actact-6", "act>act", "Give me the co-actors of {}."),
    ("e-wriwri-1", "wri>wri", "Who has co-written a film with {}?"),
    ("e-wriwri-2", "wri>wri", "Name {}'s co-writers."),
    ("e-dirdir-1", "dir>dir", "Who co-directed movies with {}?"),
]
N = 20


def lines(path):
    if os.path.exists(path):
        return open(path, encoding="utf-8").read().splitlines()
    return subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True).stdout.decode("utf-8").splitlines()


def main():
    if len(sys.argv) not in (3, 4) or len(sys.argv) == 4 and sys.argv[3] not in ("held", "dev2", "dev3"):
        sys.exit("usage: robust_shapes.py SKBDIR OUTDIR [held|dev2|dev3]")
    skb, out = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) == 4 else ""
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
        "wri>wri": lambda v: step(step({v}, "written_by", False), "written_by", True) - {v},
        "dir>dir": lambda v: step(step({v}, "directed_by", False), "directed_by", True) - {v},
        "film>dir>film": lambda v: step(step({v}, "directed_by", True), "directed_by", False) - {v},
        "film>wri>film": lambda v: step(step({v}, "written_by", True), "written_by", False) - {v},
        "film>act>film": lambda v: step(step({v}, "starred_actors", True), "starred_actors", False) - {v},
    }
    anchor_type = {"dir>wri": "person", "act>act": "person", "wri>wri": "person", "dir>dir": "person", "film>dir>film": "movie",
                   "film>wri>film": "movie", "film>act>film": "movie"}
    frames, name, qid = FRAMES, "sdev", 7_400_000
    if mode == "held":
        frames, name, qid = HELD, "sheld", 7_500_000
    elif mode == "dev2":
        frames, name, qid = DEV2, "sdev2", 7_600_000
    elif mode == "dev3":
        frames, name, qid = DEV3, "sdev3", 7_700_000
    # Each set takes the nodes after those of the sets before it (sdev,
    # sheld, sdev2) that ask the same shape.
    before = {"": [], "held": [FRAMES], "dev2": [FRAMES, HELD], "dev3": [FRAMES, HELD, DEV2]}[mode]
    skip = {sh: N * sum(any(f[1] == sh for f in fs) for fs in before) for sh in answers}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".csv"), "w", newline="", encoding="utf-8") as fc, \
            open(os.path.join(out, name + ".tsv"), "w", encoding="utf-8") as ft:
        w = csv.writer(fc)
        w.writerow(["id", "query", "answer_ids"])
        for shape in answers:
            pool = [n for n in nodes if n["type"] == anchor_type[shape] and names[n["name"].lower()] == 1
                    and len(n["name"]) >= 6 and answers[shape](n["id"])]
            pool.sort(key=lambda n: hashlib.sha256((shape + n["name"]).encode()).hexdigest())
            for fid, sh, frame in frames:
                if sh != shape:
                    continue
                for n in pool[skip[shape]:skip[shape] + N]:
                    w.writerow([qid, frame.format(n["name"]), json.dumps(sorted(answers[shape](n["id"])))])
                    ft.write(f"{qid}\t{fid}\t{shape}\n")
                    qid += 1


main()
