#!/usr/bin/env python3
"""Development requests with an adjective put before their object.

    python3 scripts/robust_modifiers.py SETSDIR OUT.csv [N]

Reads every development set under SETSDIR (scripts/dev_score.sh's sets of
one SKB, out/dev-sets/SKB; the held-out shapes set sheld is skipped),
keeps the distinct questions that open with a request and a determiner
("List the ...", "Name the ...", "Give me the ...", "Show me the ...",
"Find the ...", "Tell me the ...", "Give the ...", "Show the ..."),
shuffles them (seed 7), takes the first N (default 400) and puts "other",
"different", "remaining" or "various" (in turn) after the determiner:
"List the other films in Hindi where X has a role." Writes OUT.csv
(id,query,answer_ids; ids 9900000 on, the questions' own answers). A
development set, made from development sets (docs/robustness.md, stop
121): a paraphrase perturbation of a request's object.
"""
import csv
import glob
import os
import random
import re
import sys

MODIFIERS = ["other", "different", "remaining", "various"]
REQUEST = re.compile(r"^(List|Name|Give me|Show me|Find|Tell me|Give|Show) the (\w)", re.I)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sets, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 400
    rows, seen = [], set()
    for path in sorted(glob.glob(os.path.join(sets, "*", "*.csv"))):
        if os.path.basename(path).startswith("sheld"):
            continue
        with open(path, newline="") as f:
            for line, r in enumerate(csv.DictReader(f), start=2):
                q, a = r.get("query"), r.get("answer_ids")
                if q is None or a is None:
                    sys.exit(f"{path}:{line}: no query or answer_ids field")
                if REQUEST.match(q) and q not in seen:
                    seen.add(q)
                    rows.append((q, a))
    if not rows:
        sys.exit(f"{sets}: no request opens a development question")
    random.Random(7).shuffle(rows)
    tmp = out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for i, (q, a) in enumerate(rows[:n]):
            m = REQUEST.match(q)
            w.writerow([9900000 + i, q[: m.end(1)] + " the " + MODIFIERS[i % len(MODIFIERS)] + " " + q[m.end(1) + 5 :], a])
    os.replace(tmp, out)
    print(f"{out}: {min(n, len(rows))} requests of {len(rows)}")


if __name__ == "__main__":
    main()
