#!/usr/bin/env python3
"""Questions in frames nobody tuned for, asked of the WordNet SKB's graph.

Builds protocol (d) of docs/robustness.md, WordNet's counterpart of (c)
(robust_freeframes.py): sentence frames written in one sitting, before any
of them was run, one question shape each and in words of their own ("What
different varieties of X are there?", "What is X made up of?", "Which
adjectives mean nearly the same as 'X'?", ...). The frames come in two
sets written together: DEV frames, which a developer may read and tune on,
and HELD frames, read once after a change is decided. Each frame is filled
with 30 anchors drawn with a fixed seed (disjoint between the two sets)
among the synsets whose name is no other synset's lemma (so the question
names one node); the answers are computed from the graph (the hyponyms of
X, the parts of X, the parts of X's hyponyms, ...), not from any question
set. The SKB's own questions play no part.

Usage: robust_wnframes.py SKBDIR OUTDIR
Needs WordNet's relations (hypernym, part holonym, member holonym, similar
to, instance hypernym, domain topic); exits 2 on another schema. Writes
OUTDIR/{wdev,wheld}.csv (id,query,answer_ids; ids from 4,000,000 and
5,000,000) and OUTDIR/{wdev,wheld}.tsv (id, frame, shape).
"""
import collections, csv, json, os, random, sys

from skbfiles import first, lines

# id, text, shape. Shapes: a relation name walks it backwards from the
# anchor (the nodes whose <relation> is X); "a/b" walks a then b;
# "kind&part" is the nodes of type-word T (a hyponym of T) that are parts of X.
DEV = [
    ("d-hypo-1", "What different varieties of {X} are there?", "hypernym"),
    ("d-hypo-2", "{X} includes which more specific things?", "hypernym"),
    ("d-part-1", "What is {X} made up of?", "part holonym"),
    ("d-part-2", "Which pieces make up {X}?", "part holonym"),
    ("d-memb-1", "Which things are members of the group {X}?", "member holonym"),
    ("d-memb-2", "{X} is made up of which members?", "member holonym"),
    ("d-sim-1", "Which adjectives mean nearly the same as '{X}'?", "similar to"),
    ("d-sim-2", "Give me adjectives close to '{X}' in meaning.", "similar to"),
    ("d-inst-1", "Name some particular examples of {X}.", "instance hypernym"),
    ("d-inst-2", "Which specific individuals are instances of {X}?", "instance hypernym"),
    ("d-dom-1", "Which terms belong to the field of {X}?", "domain topic"),
    ("d-dom-2", "What vocabulary is used in {X}?", "domain topic"),
    ("d-hypo2-1", "What are the varieties of the varieties of {X}?", "hypernym/hypernym"),
    ("d-hypo2-2", "Which concepts sit two levels beneath {X}?", "hypernym/hypernym"),
    ("d-kpart-1", "What parts do the various types of {X} have?", "hypernym/part holonym"),
    ("d-kandp-1", "Which type of {T} is found in {X}?", "kind&part"),
]
HELD = [
    ("h-hypo-1", "What sorts of {X} exist?", "hypernym"),
    ("h-hypo-2", "Tell me the narrower concepts under {X}.", "hypernym"),
    ("h-part-1", "What does {X} contain?", "part holonym"),
    ("h-part-2", "Name the constituents of {X}.", "part holonym"),
    ("h-memb-1", "Who or what belongs to {X}?", "member holonym"),
    ("h-memb-2", "Which members does {X} have?", "member holonym"),
    ("h-sim-1", "What other adjectives express something like '{X}'?", "similar to"),
    ("h-sim-2", "Find me words that are almost synonyms of the adjective '{X}'.", "similar to"),
    ("h-inst-1", "Which named things are a {X}?", "instance hypernym"),
    ("h-inst-2", "Give me real-world examples of a {X}.", "instance hypernym"),
    ("h-dom-1", "What words does the subject {X} use?", "domain topic"),
    ("h-dom-2", "List terminology from {X}.", "domain topic"),
    ("h-hypo2-1", "Name subtypes of subtypes of {X}.", "hypernym/hypernym"),
    ("h-hypo2-2", "What lies two steps down from {X} in the hierarchy?", "hypernym/hypernym"),
    ("h-kpart-1", "Name the components of any kind of {X}.", "hypernym/part holonym"),
    ("h-kandp-1", "What {T} is a piece of {X}?", "kind&part"),
]
PER_FRAME = 30
MAX_GOLD = 30


def main():
    skb, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(skb, "schema.json")))
    need = {"hypernym", "part holonym", "member holonym", "similar to", "instance hypernym", "domain topic"}
    if not need <= set(schema.get("relation_types", [])):
        print(f"robust_wnframes: {skb} is not the WordNet SKB's schema", file=sys.stderr)
        sys.exit(2)
    nodes = {}
    lemma_count = collections.Counter()
    for l in lines(first(skb, "nodes.jsonl.zst", "nodes.jsonl", prog="robust_wnframes")):
        r = json.loads(l)
        nodes[r["id"]] = r
        lemmas = {x.strip().lower() for x in r.get("fields", {}).get("lemmas", "").split(";") if x.strip()}
        lemmas.add(r["name"].lower())
        for x in lemmas:
            lemma_count[x] += 1
    into = collections.defaultdict(set)
    for l in lines(first(skb, "edges.tsv.zst", "edges.tsv", prog="robust_wnframes")):
        a, rel, b = l.split("\t")
        into[(int(b), rel)].add(int(a))

    def unique(i):
        n = nodes[i]["name"]
        return lemma_count[n.lower()] == 1 and "(" not in n and len(n) > 2

    def walk(x, shape):
        cur = {x}
        for rel in shape.split("/"):
            nxt = set()
            for c in cur:
                nxt |= into[(c, rel)]
            cur = nxt
        return cur

    anchors = sorted(i for i in nodes if unique(i))
    used = set()
    rows = {}
    for split, frames, base, seed in (("wdev", DEV, 4000000, 11), ("wheld", HELD, 5000000, 29)):
        rnd = random.Random(seed)
        rs = []
        for fid, frame, shape in frames:
            n = tries = 0
            while n < PER_FRAME and tries < 500000:
                tries += 1
                x = rnd.choice(anchors)
                if x in used:
                    continue
                text = frame.replace("{X}", nodes[x]["name"])
                if shape == "kind&part":
                    parts = sorted(into[(x, "part holonym")])
                    if len(parts) < 2:
                        continue
                    p = rnd.choice(parts)
                    # The part's own hypernyms name the kind.
                    hyps = sorted(t for t in hypernyms_of(p, into) if unique(t))
                    if not hyps:
                        continue
                    t = rnd.choice(hyps)
                    gold = into[(t, "hypernym")] & set(parts)
                    if len(gold) == len(parts):
                        continue
                    text = text.replace("{T}", nodes[t]["name"])
                else:
                    gold = walk(x, shape)
                    gold.discard(x)
                if not 1 <= len(gold) <= MAX_GOLD:
                    continue
                used.add(x)
                n += 1
                rs.append((base + len(rs), text, sorted(gold), fid, shape))
            if n < PER_FRAME:
                print(f"robust_wnframes: frame {fid}: only {n} anchors", file=sys.stderr)
        rows[split] = rs
    os.makedirs(out, exist_ok=True)
    for split, rs in rows.items():
        with open(os.path.join(out, split + ".csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "query", "answer_ids"])
            for qid, text, gold, _, _ in rs:
                w.writerow([qid, text, json.dumps(gold)])
        with open(os.path.join(out, split + ".tsv"), "w") as f:
            for qid, _, _, fid, shape in rs:
                f.write(f"{qid}\t{fid}\t{shape}\n")


_hyp = {}


def hypernyms_of(p, into):
    """The nodes p is a hyponym of (p's hypernyms), from the reversed index."""
    if not _hyp:
        for (dst, rel), srcs in into.items():
            if rel == "hypernym":
                for s in srcs:
                    _hyp.setdefault(s, []).append(dst)
    return _hyp.get(p, [])


if __name__ == "__main__":
    main()
