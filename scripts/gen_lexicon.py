#!/usr/bin/env python3
"""Writes data/lexicon/wordnet.lex.gz, the general English lexicon strata's
planner reads to relate a question word the training never used to the words
it knows ("penned" ~ "wrote", "performers" ~ "actors").

Source: Princeton WordNet 3.0 as Debian's wordnet-base ships it
(/usr/share/wordnet; `apt-get install wordnet-base`). License: WordNet 3.0
(data/lexicon/LICENSE, copied from the package). Only what the relatedness
needs is kept: noun, verb and adjective synsets with their one-word lemmas,
their hypernym links (nouns, verbs) and similar-to links (adjectives), and
the morphological exception lists. Glosses, examples and every other
pointer are dropped; instance synsets (people, places) are dropped: a
question's proper names are its anchors, never its relation words.

Format (gzip, text, deterministic bytes: mtime 0):
  line 1   "strata-lexicon 2 wordnet-3.0"
  S <pos> <lemma,lemma,...> <link,link,...>   one per synset, numbered from 0
                                              in order; links are synset numbers;
                                              "lemma*": the lemma's most frequent
                                              sense in its part of speech
  D <pos> <synset> <synset,synset,...>       derivational links of a noun or verb
                                              synset to the other part of speech's,
                                              both ways, after every S line
  X <pos> <inflected> <base,base,...>         morphological exceptions
Usage: scripts/gen_lexicon.py [WORDNET_DIR] [OUT]
"""
import gzip, os, sys

src = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet"
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "data", "lexicon", "wordnet.lex.gz")

syn = {}      # (pos, offset) -> (lemmas, links[(pos, offset)])
deriv = {}    # (pos, offset) -> {(pos, offset)}: "+" pointers between nouns and verbs
order = []
for pos, fn in (("n", "data.noun"), ("v", "data.verb"), ("a", "data.adj")):
    for line in open(os.path.join(src, fn), encoding="latin-1"):
        if line.startswith("  "):
            continue
        head = line.split("|")[0].split()
        off, ss = head[0], head[2]
        nw = int(head[3], 16)
        lemmas = []
        for i in range(nw):
            w = head[4 + 2 * i].lower()
            if ss == "s" or pos == "a":
                w = w.split("(")[0]       # adjective markers: "galore(ip)"
            lemmas.append(w)
        k = 4 + 2 * nw
        np_ = int(head[k]); k += 1
        links, inst = [], False
        for _ in range(np_):
            sym, o, p = head[k], head[k + 1], head[k + 2]; k += 4
            p = "a" if p == "s" else p
            if sym == "@i":
                inst = True
            if sym in ("@", "&") and p == pos:
                links.append((p, o))
            if sym == "+" and {pos, p} == {"n", "v"}:
                deriv.setdefault((pos, off), set()).add((p, o))
                deriv.setdefault((p, o), set()).add((pos, off))
        if inst:
            continue
        syn[(pos, off)] = (lemmas, links)
        order.append((pos, off))

first = set()   # (pos, offset, lemma): the lemma's most frequent sense in pos
for pos, fn in (("n", "index.noun"), ("v", "index.verb"), ("a", "index.adj")):
    for line in open(os.path.join(src, fn), encoding="latin-1"):
        if line.startswith("  "):
            continue
        f = line.split()
        lemma, nsyn, np_ = f[0].lower(), int(f[2]), int(f[3])
        offs = f[6 + np_:6 + np_ + nsyn]
        if offs:
            first.add((pos, offs[0], lemma))

num = {key: i for i, key in enumerate(order)}
lines = ["strata-lexicon 2 wordnet-3.0"]
for key in order:
    lemmas, links = syn[key]
    one = sorted(set(w + ("*" if (key[0], key[1], w) in first else "") for w in lemmas if "_" not in w and "-" not in w and w.isalpha()))
    ls = sorted(set(num[l] for l in links if l in num))
    lines.append("S %s %s %s" % (key[0], ",".join(one) or "-", ",".join(map(str, ls)) or "-"))
for key in order:
    ds = sorted(set(num[d] for d in deriv.get(key, ()) if d in num))
    if ds:
        lines.append("D %s %d %s" % (key[0], num[key], ",".join(map(str, ds))))
for pos, fn in (("n", "noun.exc"), ("v", "verb.exc"), ("a", "adj.exc")):
    ex = {}
    for line in open(os.path.join(src, fn), encoding="latin-1"):
        p = line.split()
        if len(p) >= 2 and p[0].isalpha():
            ex.setdefault(p[0], set()).update(b for b in p[1:] if b.isalpha())
    for w in sorted(ex):
        if ex[w]:
            lines.append("X %s %s %s" % (pos, w, ",".join(sorted(ex[w]))))
data = ("\n".join(lines) + "\n").encode()
tmp = out + ".tmp"
with open(tmp, "wb") as f:
    with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as g:
        g.write(data)
os.replace(tmp, out)
print(f"{out}: {len(order)} synsets, {len(data)} bytes, {os.path.getsize(out)} gzipped")
