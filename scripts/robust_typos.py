#!/usr/bin/env python3
"""The SKB's own questions with a name misspelt, as users type them.

    python3 scripts/robust_typos.py SKBDIR OUTDIR val|test [N [OFFSET]]

For each of the first N (default 400) questions of the split, in the
split's order: the longest run of words that is some node's name or alias
item (case-folded, whole words; lemmas on WordNet) is found, one of its
words of 5 or more letters is picked and one edit is made to it (a letter
dropped, two neighbours swapped, a letter changed or one added; seeded by
the question's id), and the question is kept when the misspelt run names
no node itself. Writes OUTDIR/typos-SPLIT.csv (id,query,answer_ids: the
question's own answers; ids OFFSET, default 0, plus the question's),
OUTDIR/typos-SPLIT.index (the ids) and OUTDIR/typos-SPLIT.tsv
(id<TAB>edit). The val set is for development (scripts/dev_score.sh's
typos); the test set is held out (make experiments-robust's (m)).
"""
import csv
import json
import os
import random
import re
import subprocess
import sys

WORD = re.compile(r"[A-Za-z0-9]+(?:['.][A-Za-z0-9]+)*")
EDITS = ["drop", "swap", "change", "add"]


def lines(path):
    if os.path.exists(path):
        with open(path) as f:
            return f.read().splitlines()
    out = subprocess.run(["zstd", "-dc", path + ".zst"], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def names(skb):
    schema = json.load(open(os.path.join(skb, "schema.json")))
    alias = [f for f in ("lemmas", "aliases", "synonyms") if f in schema.get("text_fields", [])]
    out = set()
    for line in lines(os.path.join(skb, "nodes.jsonl")):
        o = json.loads(line)
        out.add(o["name"].lower())
        for f in alias:
            for item in re.split(r"[,;|]", o.get("fields", {}).get(f, "") or ""):
                if item.strip():
                    out.add(item.strip().lower())
    return out


def misspell(word, rng):
    w = list(word)
    kind = rng.choice(EDITS)
    i = rng.randrange(1, len(w) - 1)  # keep the first and last letters
    if kind == "drop":
        del w[i]
    elif kind == "swap":
        w[i], w[i + 1] = w[i + 1], w[i]
    elif kind == "change":
        w[i] = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != w[i].lower()])
    else:
        w.insert(i, rng.choice("abcdefghijklmnopqrstuvwxyz"))
    return "".join(w), kind


def main():
    if len(sys.argv) not in (4, 5, 6):
        sys.exit(__doc__)
    skb, outdir, split = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) >= 5 else 400
    offset = int(sys.argv[5]) if len(sys.argv) == 6 else 0
    known = names(skb)
    ids = [int(x) for x in open(os.path.join(skb, "split", split + ".index")).read().split()]
    qa = {int(r["id"]): r for r in csv.DictReader(open(os.path.join(skb, "stark_qa", "stark_qa.csv")))}
    rows, tsv = [], []
    for qid in ids:
        if len(rows) == n:
            break
        q = qa[qid]["query"]
        ws = list(WORD.finditer(q))
        best = None
        for i in range(len(ws)):
            for j in range(len(ws), i, -1):
                text = q[ws[i].start():ws[j - 1].end()].lower()
                if text in known and (best is None or j - i > best[1] - best[0]):
                    best = (i, j)
                    break
        if best is None:
            continue
        rng = random.Random(qid)
        long = [k for k in range(best[0], best[1]) if ws[k].group().isalpha() and len(ws[k].group()) >= 5]
        if not long:
            continue
        k = rng.choice(long)
        bad, kind = misspell(ws[k].group(), rng)
        typed = q[:ws[k].start()] + bad + q[ws[k].end():]
        run = typed[ws[best[0]].start():ws[best[1] - 1].end() + len(bad) - len(ws[k].group())]
        if run.lower() in known:
            continue
        rows.append((offset + qid, typed, qa[qid]["answer_ids"]))
        tsv.append(f"{offset + qid}\t{kind}")
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, f"typos-{split}.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        w.writerows(rows)
    with open(os.path.join(outdir, f"typos-{split}.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    with open(os.path.join(outdir, f"typos-{split}.index"), "w") as f:
        f.write("".join(f"{r[0]}\n" for r in rows))
    print(f"{len(rows)} questions in {outdir}/typos-{split}.csv", file=sys.stderr)


if __name__ == "__main__":
    main()
