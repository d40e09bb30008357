#!/usr/bin/env python3
"""Writes one split's questions of a STaRK-style QA file as a query file
(id, query; answers left out): what a user scores.

Usage: split_queries.py QA.csv SPLIT.index OUT.csv
"""
import csv, sys

qa, split, dst = sys.argv[1:4]
ids = {l.strip() for l in open(split) if l.strip()}
with open(qa, newline="") as f, open(dst, "w", newline="") as o:
    w = csv.writer(o)
    w.writerow(["id", "query"])
    for row in csv.DictReader(f):
        if row["id"] in ids:
            w.writerow([row["id"], row["query"]])
