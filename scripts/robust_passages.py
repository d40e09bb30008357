#!/usr/bin/env python3
"""Passages of an SKB's own text, asked as queries (the engineer's check of
the text-fit gate, docs/robustness.md, stop 80).

Each query is one node's text fields but its name and aliases, cut at 32
words, as the planner's gate is trained and calibrated on
(planner.Passages), for 2,000 nodes of a seeded shuffle with at least three
words; its answer is the node. The gate saw some of these nodes' passages
in training or calibration (a seeded draw of its own), most of them never:
a threshold that lets one through plans text no plan fits.

Usage: robust_passages.py SKBDIR OUT.csv [FIELDS...]
FIELDS default to every text field of the schema but "name" and the
WordNet SKB's alias field "lemmas". Ids from 20,000,000.
"""
import csv, json, os, random, subprocess, sys


def lines(path):
    if os.path.exists(path):
        return open(path, encoding="utf-8").read().splitlines()
    return subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True).stdout.decode("utf-8").splitlines()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: robust_passages.py SKBDIR OUT.csv [FIELDS...]")
    skb, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(skb, "schema.json")))
    fields = sys.argv[3:] or [f for f in schema.get("text_fields", []) if f not in ("name", "lemmas")]
    nodes = [json.loads(l) for l in lines(os.path.join(skb, "nodes.jsonl"))]
    random.Random(80).shuffle(nodes)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        k = 0
        for n in nodes:
            words = []
            for fl in fields:
                words += str(n.get("fields", {}).get(fl, "")).split()
            if len(words) < 3:
                continue
            w.writerow([20_000_000 + k, " ".join(words[:32]), json.dumps([n["id"]])])
            k += 1
            if k == 2000:
                break


main()
