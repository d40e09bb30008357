#!/usr/bin/env python3
"""Where a scored run's answers sit, and how far knowing their type would take it.

For a run written by `strata score` (JSON lines, -k 100 or more) over a query
file with answers (id,query,answer_ids), prints Hit@1 / Hit@10, how many
questions have their first answer at places 1, 2-10, 11-20, 21-50, 51-100
or beyond, and two oracles that keep the run's order but drop every
candidate whose node type differs from all of the question's answers' types:
exactly, and by the part before a type's first "." (WordNet's lexicographer
files: "verb.contact" -> "verb"; a type without a dot is its own part). The
oracles use the answers, so they bound what a better type model could give;
they are no method. docs/real-data.md ("What a passage does not gain from")
reads the GCIDE development definitions this way.

Usage: headroom.py SKBDIR QUERIES.csv RUN.jsonl
"""
import collections
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skbfiles  # noqa: E402

PROG = "headroom"
BUCKETS = [(0, 1, "1"), (1, 10, "2-10"), (10, 20, "11-20"), (20, 50, "21-50"), (50, 100, "51-100")]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    skbdir, queries, run = sys.argv[1:]
    types = {}
    nodes = skbfiles.first(skbdir, "nodes.jsonl.zst", "nodes.jsonl", prog=PROG)
    for ln, line in enumerate(skbfiles.lines(nodes), start=1):
        try:
            r = json.loads(line)
            types[r["id"]] = r["type"]
        except (KeyError, TypeError, ValueError) as e:
            sys.exit(f"{PROG}: {nodes}:{ln}: want a node with id and type ({e})")
    answers = {}
    with open(queries, newline="") as f:
        for n, r in enumerate(csv.DictReader(f), start=2):
            try:
                answers[int(r["id"])] = set(json.loads(r["answer_ids"]))
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f"{PROG}: {queries}:{n}: want id and answer_ids ({e})")
    part = lambda t: t.split(".", 1)[0]
    places = collections.Counter()
    hit1 = hit10 = exact = coarse = n = 0
    with open(run) as f:
        for ln, line in enumerate(f, start=1):
            try:
                r = json.loads(line)
                qid, ranking = r["id"], [h["node"] for h in r["ranking"]]
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f"{PROG}: {run}:{ln}: want {{\"id\", \"ranking\": [{{\"node\"}}, ...]}} ({e})")
            if qid not in answers:
                sys.exit(f"{PROG}: {run}:{ln}: query {qid} is not in {queries}")
            if unknown := [v for v in ranking + sorted(answers[qid]) if v not in types]:
                sys.exit(f"{PROG}: {run}:{ln}: node {unknown[0]} is not in {nodes}")
            a = answers[qid]
            n += 1
            first = next((i for i, v in enumerate(ranking) if v in a), None)
            label = "beyond 100 or absent"
            for lo, hi, name in BUCKETS:
                if first is not None and lo <= first < hi:
                    label = name
            places[label] += 1
            hit1 += first == 0
            hit10 += first is not None and first < 10
            at = {types[v] for v in a}
            kept = [v for v in ranking if types[v] in at]
            exact += any(v in a for v in kept[:10])
            parts = {part(t) for t in at}
            kept = [v for v in ranking if part(types[v]) in parts]
            coarse += any(v in a for v in kept[:10])
    if n == 0:
        sys.exit(f"{PROG}: {run} holds no query")
    print(f"{n} questions: Hit@1 {hit1 / n:.4f}, Hit@10 {hit10 / n:.4f}")
    print("first answer at: " + ", ".join(f"{name} {places[name]}" for _, _, name in BUCKETS)
          + f", beyond 100 or absent {places['beyond 100 or absent']}")
    print(f"Hit@10 keeping only the answers' types: {exact / n:.4f}; their parts (before the first '.'): {coarse / n:.4f}")


if __name__ == "__main__":
    main()
