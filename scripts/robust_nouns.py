#!/usr/bin/env python3
"""The answer type named by another noun (docs/robustness.md, stop 125).

A development protocol for movies-skb: every development question (the
CSVs given, the engineer's, with answer_ids: those scripts/dev_score.sh
scores, never a held-out set) in which "which" or "what" asks with one of
the schema's nouns ("Which directors ...", "what genre ...") is written
again with that noun replaced by another a person might use, drawn with a
fixed seed from a list written for this protocol: synonyms ("flicks",
"motion pictures", "performers"), nouns of a wider or a narrower sense
("individuals", "stars", "titles"), nouns the lexicon does not know
("moviemakers") and phrases ("cast members", "kind of film",
"directing talents"). The answers stay the question's own. Up to 1,000
questions, one per id, in an order drawn with the seed; OUTDIR/syn.csv
holds the rewritten questions and OUTDIR/orig.csv the same questions as
written.

It was written, and scored, while the rules of stop 125 were chosen:
it is development evidence, not a held-out set.

Usage: robust_nouns.py OUTDIR DEVCSV...
  e.g. robust_nouns.py OUT out/dev-sets/movies-skb/{mfrm/mdev,inv/idev,auth/adev,tw/tdev,inv/i3dev}.csv out/dev-sets/movies-skb/tw[0-9]*/theld.csv
"""
import csv
import os
import random
import re
import sys

SUBS = {
    "films": ["motion pictures", "flicks", "pictures", "features", "productions", "releases", "titles", "cinema works"],
    "movies": ["motion pictures", "flicks", "pictures", "features", "productions", "releases", "titles"],
    "film": ["motion picture", "flick", "picture", "feature", "production", "release", "title"],
    "movie": ["motion picture", "flick", "picture", "feature", "production", "release", "title"],
    "directors": ["filmmakers", "moviemakers", "film directors", "directing talents"],
    "actors": ["performers", "players", "cast members", "thespians", "film actors", "stars"],
    "screenwriters": ["scriptwriters", "scenarists", "writers", "authors", "script writers"],
    "writers": ["scriptwriters", "scenarists", "screenwriters", "authors"],
    "genre": ["category", "kind of film", "type of film", "film category"],
    "genres": ["categories", "kinds of film", "types of film", "film categories"],
    "people": ["individuals", "persons", "folks"],
    "person": ["individual", "human", "one"],
}
ASKED = re.compile(r"\b(Which|What|which|what) (" + "|".join(SUBS) + r")\b")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    rnd = random.Random(2)
    rows, seen = [], set()
    for f in sys.argv[2:]:
        with open(f, newline="") as fh:
            for r in csv.DictReader(fh):
                if r["id"] in seen:
                    continue
                m = ASKED.search(r["query"])
                if not m:
                    continue
                seen.add(r["id"])
                q = r["query"]
                new = q[:m.start(2)] + rnd.choice(SUBS[m.group(2)]) + q[m.end(2):]
                rows.append((r["id"], new, r["answer_ids"], q))
    rnd.shuffle(rows)
    rows = rows[:1000]
    os.makedirs(out, exist_ok=True)
    for name, col in (("syn.csv", 1), ("orig.csv", 3)):
        with open(os.path.join(out, name), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "query", "answer_ids"])
            for row in rows:
                w.writerow([row[0], row[col], row[2]])
    print(f"{len(rows)} questions -> {out}/syn.csv, {out}/orig.csv")


if __name__ == "__main__":
    main()
