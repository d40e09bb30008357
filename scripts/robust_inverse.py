#!/usr/bin/env python3
"""Questions in a direction the training never asked (protocol (e) of
docs/robustness.md, movies-skb).

Every movies-skb training question asks for films (of a person, of two,
of a genre) or for the people and genres of a person's films; none starts
from a film. These ask for a film's director, writers or cast, in frames
written for this protocol, each filled with 30 films of the SKB drawn by
a hash of the name (films whose name no other node shares and that have a
director, a writer and a cast); the answers are the film's neighbours
along the relation, from the graph. The planner can answer one only with
a plan of a shape no training question had, or declare that no plan fits.

The development half (split idev: three frames, the first 30 films) was
used to decide the planner's schema steps and its refusal of ruled-out
plans; the held-out half (split inv: six other frames, the next 30 films)
is read once after each change, never to tune.

A third set, i3dev (docs/robustness.md, stop 75), is the engineer's own
development set: 13 frames of the engineer's, genres among them, over the
61st to the 90th films (those without a genre left out of the genre
frames).

Usage: robust_inverse.py SKBDIR OUTDIR
Writes OUTDIR/{idev,inv,i3dev}.csv (id, query, answer_ids; ids from
7,000,000, i3dev's from 7,200,000) and OUTDIR/{idev,inv,i3dev}.tsv (id,
frame, relation, answer type).
"""
import csv, hashlib, json, os, subprocess, sys
from collections import Counter, defaultdict

DEV = [
    ("i-dir-1", "directed_by", "Who directed {}?"),
    ("i-wri-1", "written_by", "Who wrote the screenplay of {}?"),
    ("i-act-1", "starred_actors", "Who starred in {}?"),
]
HELD = [
    ("i-dir-2", "directed_by", "{} was directed by whom?"),
    ("i-dir-3", "directed_by", "Name the director of {}."),
    ("i-act-2", "starred_actors", "Which people acted in {}?"),
    ("i-act-3", "starred_actors", "Who are the actors in {}?"),
    ("i-wri-2", "written_by", "Which person wrote {}?"),
    ("i-wri-3", "written_by", "Who is credited as the writer of {}?"),
]
DEV3 = [
    ("i3-act-1", "starred_actors", "Who acted in {}?"),
    ("i3-act-2", "starred_actors", "Who appeared in {}?"),
    ("i3-act-3", "starred_actors", "Tell me which individuals performed in {}."),
    ("i3-act-4", "starred_actors", "{} had which performers in it?"),
    ("i3-act-5", "starred_actors", "Name someone who acted in the picture {}."),
    ("i3-dir-1", "directed_by", "Who was behind the camera for {}?"),
    ("i3-dir-2", "directed_by", "{} was directed by whom?"),
    ("i3-dir-3", "directed_by", "Which person made the film {} as its director?"),
    ("i3-wri-1", "written_by", "Who scripted {}?"),
    ("i3-wri-2", "written_by", "{} was written by which people?"),
    ("i3-wri-3", "written_by", "Who is credited with the screenplay of {}?"),
    ("i3-gen-1", "has_genre", "What sort of film is {}?"),
    ("i3-gen-2", "has_genre", "{} belongs to which genre?"),
]
N = 30


def lines(path):
    if os.path.exists(path):
        return open(path, encoding="utf-8").read().splitlines()
    return subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True).stdout.decode("utf-8").splitlines()


def main():
    skb, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(skb, "schema.json")))
    if "movie" not in schema.get("node_types", []) or "directed_by" not in schema.get("relation_types", []):
        sys.exit("robust_inverse: not the movies SKB")
    nodes = [json.loads(l) for l in lines(os.path.join(skb, "nodes.jsonl"))]
    nbr = defaultdict(lambda: defaultdict(list))
    for l in lines(os.path.join(skb, "edges.tsv")):
        s, r, d = l.split("\t")
        nbr[int(s)][r].append(int(d))
    names = Counter(n["name"].lower() for n in nodes)
    films = [n for n in nodes if n["type"] == "movie" and names[n["name"].lower()] == 1 and len(n["name"]) >= 6
             and all(nbr[n["id"]][r] for r in ("directed_by", "written_by", "starred_actors"))]
    films.sort(key=lambda n: hashlib.sha256(n["name"].encode()).hexdigest())
    os.makedirs(out, exist_ok=True)
    for split, frames, pick, qid in (("idev", DEV, films[:N], 7_000_000), ("inv", HELD, films[N:2 * N], 7_000_000 + len(DEV) * N),
                                     ("i3dev", DEV3, films[2 * N:3 * N], 7_200_000)):
        with open(os.path.join(out, split + ".csv"), "w", newline="", encoding="utf-8") as fc, \
                open(os.path.join(out, split + ".tsv"), "w", encoding="utf-8") as ft:
            w = csv.writer(fc)
            w.writerow(["id", "query", "answer_ids"])
            for fid, rel, frame in frames:
                for n in pick:
                    if not nbr[n["id"]][rel]:
                        continue
                    w.writerow([qid, frame.format(n["name"]), json.dumps(sorted(nbr[n["id"]][rel]))])
                    ft.write(f"{qid}\t{fid}\t{rel}\t{'genre' if rel == 'has_genre' else 'person'}\n")
                    qid += 1


main()
