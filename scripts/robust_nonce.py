#!/usr/bin/env python3
"""A noun no lexicon knows in the asking slot (docs/robustness.md, stop 125).

Every development question (the CSVs given, the engineer's, with
answer_ids: those scripts/dev_score.sh scores, never a held-out set) that opens with "Which" and a lower-case word other than "of"
is written again with that word replaced by a nonce noun, "blickets",
which neither WordNet nor any training question has: "Which directors
worked with X?" becomes "Which blickets worked with X?". The answers stay
the question's own. Up to N questions (default 800), one per id, in an
order drawn with a fixed seed; OUTDIR/nonce.csv holds the rewritten
questions and OUTDIR/orig.csv the same questions as written, so a run's
loss from the word alone can be read off.

What the nonce leaves is the rest of the question: the verb whose subject
it is ("Which blickets directed ...", "Which blickets wrote films that X
acted in?"), the nouns after it ("Which blickets films did X direct?"),
or nothing that says what is asked ("Which blickets did X direct?":
films or actors), which no reader can recover.

Usage: robust_nonce.py OUTDIR DEVCSV...
  e.g. robust_nonce.py OUT out/dev-sets/movies-skb/{mfrm/mdev,inv/idev,auth/adev,tw/tdev,inv/i3dev,typos/typos-val}.csv out/dev-sets/movies-skb/tw[0-9]*/theld.csv
"""
import csv
import os
import random
import re
import sys

NONCE = "blickets"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, n = sys.argv[1], 800
    rows, seen = [], set()
    for f in sorted(sys.argv[2:]):
        with open(f, newline="") as fh:
            for r in csv.DictReader(fh):
                if "answer_ids" not in r or r["id"] in seen:
                    continue
                m = re.match(r"Which ([a-z]+) ", r["query"])
                if not m or m.group(1) == "of":
                    continue
                seen.add(r["id"])
                rows.append((r["id"], m.group(1), r["query"][m.end():], r["answer_ids"]))
    random.Random(1).shuffle(rows)
    rows = rows[:n]
    os.makedirs(out, exist_ok=True)
    for name, word in (("nonce.csv", lambda w: NONCE), ("orig.csv", lambda w: w)):
        with open(os.path.join(out, name), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "query", "answer_ids"])
            for i, noun, rest, ans in rows:
                w.writerow([i, f"Which {word(noun)} {rest}", ans])
    print(f"{len(rows)} questions -> {out}/nonce.csv, {out}/orig.csv")


if __name__ == "__main__":
    main()
