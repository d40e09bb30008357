#!/usr/bin/env python3
"""Questions in frames nobody tuned for, asked of the movies-skb graph.

Builds protocol (c) of docs/robustness.md: 17 sentence frames written after
the planner's features and never used to choose one ("Show me every movie
that has X in the cast.", "X was behind the camera on which films?", "Whose
scripts has X performed in?", ...), each filled with 30 people (and genres)
of the SKB drawn with a fixed seed; the answers come from the graph itself
(the films X starred in, the directors of X's films, the genres common to
every film X directed, ...), not from any question set. A frame tests one
question shape in words of its own; the SKB's own questions play no part.

Usage: robust_freeframes.py SKBDIR OUTDIR
Needs the movies-skb relations (directed_by, has_genre, starred_actors,
written_by); exits 2 on another schema. Writes OUTDIR/free.csv
(id,query,answer_ids; ids from 3,000,000) and OUTDIR/free.tsv (id, frame,
shape).
"""
import collections, csv, json, os, random, sys

from skbfiles import load_graph

FRAMES = [
    # id, text, shape
    ("A1", "Show me every movie that has {X} in the cast.", "act"),
    ("A2", "{X} has been in which films?", "act"),
    ("A3", "I'd like a list of the films {X} acted in.", "act"),
    ("A4", "Films with {X} in them?", "act"),
    ("B1", "{X} was behind the camera on which films?", "dir"),
    ("B2", "Give me the movies {X} made as a director.", "dir"),
    ("C1", "Which films have a screenplay by {X}?", "wri"),
    ("C2", "{X} wrote the script for what movies?", "wri"),
    ("D1", "Who directed {X} in a movie?", "act>dir"),
    ("D2", "Name the directors {X} has worked with as an actor.", "act>dir"),
    ("E1", "Which performers has {X} directed?", "dir>act"),
    ("E2", "Who acted under the direction of {X}?", "dir>act"),
    ("F1", "Looking for {G} titles with {X}.", "genre&act"),
    ("F2", "{X} starred in which {G} films?", "genre&act"),
    ("G1", "Movies in which {X} and {Y} appear together?", "act&act"),
    ("H1", "Whose scripts has {X} performed in?", "act>wri"),
    ("I1", "Which genre fits all of the films {X} directed?", "dir>every genre"),
]
RELS = {"act": "starred_actors", "dir": "directed_by", "wri": "written_by"}
PER_FRAME = 30


def main():
    skb, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(skb, "schema.json")))
    if not set(RELS.values()) | {"has_genre"} <= set(schema.get("relation_types", [])):
        print(f"robust_freeframes: {skb} is not movies-skb's schema", file=sys.stderr)
        sys.exit(2)
    nodes, out_e, in_e = load_graph(skb, prog="robust_freeframes")
    by_name = collections.Counter((r["type"], r["name"]) for r in nodes.values())

    def films(p, rel):
        return in_e[(p, rel)]

    def unique(i):
        return by_name[(nodes[i]["type"], nodes[i]["name"])] == 1

    people = sorted(i for i, r in nodes.items() if r["type"] == "person" and unique(i))
    rnd = random.Random(7)
    rows = []
    for fid, frame, shape in FRAMES:
        n = tries = 0
        while n < PER_FRAME and tries < 200000:
            tries += 1
            p = rnd.choice(people)
            text = frame.replace("{X}", nodes[p]["name"])
            if shape in RELS:
                gold = films(p, RELS[shape])
                if not 2 <= len(gold) <= 30:
                    continue
            elif shape == "dir>every genre":
                fs = films(p, "directed_by")
                if len(fs) < 2:
                    continue
                common = None
                for f in fs:
                    g = out_e[(f, "has_genre")]
                    if g:
                        common = set(g) if common is None else common & g
                if not common:
                    continue
                gold = common
            elif ">" in shape:
                a, b = shape.split(">")
                fs = films(p, RELS[a])
                if not 1 <= len(fs) <= 10:
                    continue
                gold = set()
                for f in fs:
                    gold |= out_e[(f, RELS[b])]
                if not 1 <= len(gold) <= 30:
                    continue
            elif shape == "genre&act":
                fs = films(p, "starred_actors")
                if len(fs) < 3:
                    continue
                genres = sorted({g for f in fs for g in out_e[(f, "has_genre")]})
                if not genres:
                    continue
                g = rnd.choice(genres)
                gold = {f for f in fs if g in out_e[(f, "has_genre")]}
                if len(gold) == len(fs):
                    continue
                text = text.replace("{G}", nodes[g]["name"].lower())
            elif shape == "act&act":
                fs = films(p, "starred_actors")
                if len(fs) < 2:
                    continue
                co = sorted({a for f in fs for a in out_e[(f, "starred_actors")] if a != p and unique(a) and len(films(a, "starred_actors")) >= 2})
                if not co:
                    continue
                y = rnd.choice(co)
                gold = fs & films(y, "starred_actors")
                if len(gold) == len(fs):
                    continue
                text = text.replace("{Y}", nodes[y]["name"])
            n += 1
            rows.append((3000000 + len(rows), text, sorted(gold), fid, shape))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "free.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for qid, text, gold, _, _ in rows:
            w.writerow([qid, text, json.dumps(gold)])
    with open(os.path.join(out, "free.tsv"), "w") as f:
        for qid, _, _, fid, shape in rows:
            f.write(f"{qid}\t{fid}\t{shape}\n")


if __name__ == "__main__":
    main()
