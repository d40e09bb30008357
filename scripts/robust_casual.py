#!/usr/bin/env python3
"""Questions typed casually (protocol (h) of docs/robustness.md).

People type questions in lower case and leave off the question mark.
Each question of a split is rewritten so: lower case throughout (names
too: "which films did tom hanks direct"), closing question marks, full
stops and exclamation marks dropped; nothing else changes, and the
question keeps its answers. strata's linking matches names without case,
so what this measures is everything else that reads case or the closing
mark (the text-fit gate, above all).

Usage: robust_casual.py STARK_QA_CSV SPLIT_INDEX OUTDIR [OFFSET]
Writes OUTDIR/casual.csv (id,query,answer_ids; ids OFFSET + the
original's, OFFSET 10,000,000 by default) and OUTDIR/casual.index.
"""
import csv, os, re, sys


def casual(q):
    return re.sub(r"[?.! ]+$", "", q.strip()).lower()


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    src, index, out = sys.argv[1:4]
    offset = int(sys.argv[4]) if len(sys.argv) == 5 else 10_000_000
    keep = {l.strip() for l in open(index) if l.strip()}
    os.makedirs(out, exist_ok=True)
    n = 0
    with open(os.path.join(out, "casual.csv"), "w", newline="") as f, open(os.path.join(out, "casual.index"), "w") as ix:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for r in csv.DictReader(open(src, newline="")):
            if r["id"] not in keep:
                continue
            qid = str(offset + int(r["id"]))
            w.writerow([qid, casual(r["query"]), r["answer_ids"]])
            ix.write(qid + "\n")
            n += 1
    print(f"robust_casual: {n} questions -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
