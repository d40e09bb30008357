#!/usr/bin/env python3
"""robust_wnauthored.py -- independently authored English questions over the WordNet SKB.

What it builds
    A robustness test set for the `wordnet-skb` knowledge base (Princeton WordNet 3.0, one node
    per synset): 35 question frames ("W01".."W35"), 5-6 for each of the seven question shapes
    A-G that the SKB README's "Queries" section describes in words, each filled 10 times from
    the graph (seeded `random.Random(13)`, every choice made from sorted lists), so about 350
    questions with exact gold answer sets computed from the graph:

      A  ISA-children of an anchor whose definition contains a quoted 6-10-word verbatim
         fragment of the answer's definition (word boundaries, case-insensitive)
      B  ISA-child of anchor Y that is a member/part/substance holonym source of anchor Z
         ("members / parts / substances of Z")
      C  ISA-grandchildren of a noun anchor (exactly 2 hops; all of them ISA-leaves and none a
         direct child)
      D  ISA-child of anchor Y that has `domain topic` / `domain region` / `domain usage` Z
      E  ISA-children of an anchor having a given polysemous word among their lemmas (the
         word also names synsets outside the answer)
      F  adjective satellites `similar to` a head adjective whose definition contains a given
         word (not one of the head's lemma words; it also occurs in other definitions), word
         boundaries, case-insensitive
      G  parts (sources of `part holonym` edges) of the ISA-children of a noun anchor (the
         children are ISA-leaves; some answer is not a direct part of the anchor)

    ISA is one direct `hypernym` or `instance hypernym` edge (child -> parent). Anchors are
    named by one of their lemmas (underscores as spaces) that no other synset of the same part
    of speech has (adjectives and adjective satellites count as one part of speech; compared
    case-insensitively), the first lemma with probability 0.6 when it qualifies. Only fillings
    with 1-20 answers are kept, and no filling (shape + anchors + restriction) or text repeats.
    For A/E/F the relational part alone is always ambiguous (the anchor has more children or
    satellites than answers); for B/D each anchor alone has more candidates than answers.

How the frames were written
    By an author who saw neither the SKB's own (training) questions nor the system under test:
    only the README's prose description of the shapes and its handful of example questions,
    whose wording was deliberately not reused. The frames imitate different people asking a
    dictionary / thesaurus assistant: casual, formal, terse, imperative, answer-type nouns,
    fronted restrictions, passives, relative clauses and synonyms ("sort of", "variety of",
    "is made of", "in the domain of", ...). Frames alternate dev / held within each shape.

Usage
    python3 scripts/robust_wnauthored.py SKBDIR OUTDIR [FRAMES.json]
    (stdlib only; reads SKBDIR/schema.json, nodes.jsonl[.zst], edges.tsv[.zst] via skbfiles.py)

Another author's frames (FRAMES.json)
    A JSON list of {"shape": "A".."G", "variant": ..., "frame": ...} objects replaces the frames
    above: variants as above (A/E "noun", "verb" or "any"; B "part holonym", "member holonym" or
    "substance holonym"; C/G "noun"; D "domain topic", "domain region" or "domain usage"; F ""),
    each frame using its shape's slots (A {Y} {Q}, B {Y} {Z}, C {Y}, D {Y} {Z}, E {W} {Y}, F {H}
    {W}, G {Y}; {aY} for {Y} with "a"/"an"). Filled by the same rules with random.Random(17);
    every question is held (waheld.csv), ids from 9,500,000, frame ids V01... Exit status 2 when
    the file does not fit, naming the frame by its number.

Outputs (OUTDIR is created)
    wadev.csv, waheld.csv   `id,query,answer_ids` (answer_ids a JSON list of node ids);
                            question ids count up from 9,000,000
    wauthored.tsv           `id<TAB>frame_id<TAB>shape<TAB>dev|held`, one line per question
    stderr                  one summary line; nothing is printed on stdout.
    Exit status 2 if the schema lacks hypernym, part holonym, member holonym, similar to or
    domain topic.
"""
import csv
import json
import os
import random
import re
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from skbfiles import load_graph  # noqa: E402

PROG = "robust_wnauthored"
REQUIRED = ["hypernym", "part holonym", "member holonym", "similar to", "domain topic"]
PER_FRAME = 10
# a fragment should not stop on a word that needs a continuation
DANGLING = set("a an the of and or but that which who to with in on at by for from as into than its their is are".split())
FIRST_ID = 9_000_000
STOP = set("""a an the and or but of to in on at by for with from into onto upon as is are was
were be been being that this these those which who whom whose what when where why how it its
their there than then not no nor any all some such very more most less least other another
one ones used use using especially usually often something someone having has have had can may
might would should could also only just like e.g i.e etc""".split())

# ---------------------------------------------------------------------------------------------
# Frames: (id, split, shape, variant, template). Variant restricts the filling:
#   A/E: "noun", "verb" or "any" anchor; B: holonym relation; D: domain relation.
# Slots: {Y} anchor (hypernym side), {aY} the same with a/an, {Z} second anchor, {Q} A's fragment, {W} E/F word,
#        {H} F's head adjective.
FRAMES = [
    # A -- children of Y picked out by a quoted fragment of their definition
    ("W01", "dev", "A", "noun", "Which {Y} is described as {Q}?"),
    ("W02", "held", "A", "noun", "there's a sort of {Y} whose dictionary entry says \"{Q}\" -- what is it called?"),
    ("W03", "dev", "A", "verb", "What is the more specific way to {Y} that is glossed as \"{Q}\"?"),
    ("W04", "held", "A", "noun", "'{Q}' -- that is the gloss of which subtype of {Y}?"),
    ("W05", "dev", "A", "any", "Among the hyponyms of {Y}, identify the one defined as: {Q}."),
    # B -- child of Y and member / part / substance of Z
    ("W06", "held", "B", "part holonym", "What kind of {Y} forms part of {Z}?"),
    ("W07", "dev", "B", "member holonym", "Which {Y} is counted among the members of {Z}?"),
    ("W08", "held", "B", "substance holonym", "{Z} is made of which type of {Y}?"),
    ("W09", "dev", "B", "part holonym", "list every sort of {Y} that is one component of {Z}"),
    ("W10", "held", "B", "member holonym", "i need {aY} that belongs to {Z}, any ideas?"),
    ("W11", "dev", "B", "part holonym", "Which variety of {Y} is contained in {Z} as one of its parts?"),
    # C -- grandchildren (2 ISA hops)
    ("W12", "held", "C", "noun", "What are the grandchildren of {Y} in the WordNet hierarchy?"),
    ("W13", "dev", "C", "noun", "list all subtypes of subtypes of {Y}"),
    ("W14", "held", "C", "noun", "Which terms sit two levels beneath {Y}, i.e. kinds of kinds of {Y}?"),
    ("W15", "dev", "C", "noun", "Starting from {Y}, take each of its direct hyponyms and give me their hyponyms."),
    ("W16", "held", "C", "noun", "Name every narrower term found exactly two steps down from {Y}."),
    # D -- child of Y with a domain topic / region / usage Z
    ("W17", "dev", "D", "domain topic", "Which type of {Y} is a term used in the field of {Z}?"),
    ("W18", "held", "D", "domain region", "What {Y} is specific to {Z}?"),
    ("W19", "dev", "D", "domain usage", "What {Y} carries the usage label '{Z}'?"),
    ("W20", "held", "D", "domain topic", "In the domain of {Z}, which kind of {Y} comes up?"),
    ("W21", "dev", "D", "domain region", "give me {aY} from {Z}"),
    ("W22", "held", "D", "domain usage", "Which form of {Y} would be classed as {Z}?"),
    # E -- sense of a polysemous word among Y's children
    ("W23", "dev", "E", "noun", "Which meaning of \"{W}\" refers to a type of {Y}?"),
    ("W24", "held", "E", "verb", "When {W} is used as a verb for a particular way to {Y}, which synset is meant?"),
    ("W25", "dev", "E", "noun", "{W} -- the one that's a kind of {Y}. which entry is that?"),
    ("W26", "held", "E", "noun", "Disambiguate '{W}': I mean the sense in which it is a variety of {Y}."),
    ("W27", "dev", "E", "any", "Among the different senses of the word {W}, pick the one classified under {Y}."),
    # F -- satellites of head adjective H whose definition contains W
    ("W28", "held", "F", "", "Which adjective similar in meaning to {H} has a definition mentioning \"{W}\"?"),
    ("W29", "dev", "F", "", "Find me a close synonym of {H} whose gloss uses the word {W}."),
    ("W30", "held", "F", "", "Of the adjectives clustered around '{H}', which are glossed with the word '{W}'?"),
    ("W31", "dev", "F", "", "what's a word that means roughly {H} and has {W} in its definition?"),
    # G -- parts of the children of Y
    ("W32", "held", "G", "noun", "What are the parts of the various kinds of {Y}?"),
    ("W33", "dev", "G", "noun", "Name the components of each subtype of {Y}."),
    ("W34", "held", "G", "noun", "If you take all the kinds of {Y}, what are their constituent parts?"),
    ("W35", "dev", "G", "noun", "parts belonging to subtypes of {Y}?"),
]


def norm(s):
    return " ".join(s.split()).lower()


def contains(text, phrase):
    """phrase occurs in text at word boundaries, case-insensitively, whitespace-normalized."""
    return re.search(r"(?<!\w)" + re.escape(norm(phrase)) + r"(?!\w)", norm(text)) is not None


def posgroup(node):
    p = node["fields"].get("pos", "")
    return "adjective" if p.startswith("adjective") else p


class Graph:
    def __init__(self, skbdir):
        self.nodes, self.out_e, self.in_e = load_graph(skbdir, prog=PROG)
        self.isa_rels = ["hypernym", "instance hypernym"]
        self.lemma_ids = {}        # (posgroup, lower lemma) -> set of ids
        self.lemma_any = {}        # lower lemma -> number of synsets (any pos)
        for i in sorted(self.nodes):
            n = self.nodes[i]
            for l in self.lemmas(i):
                self.lemma_ids.setdefault((posgroup(n), l.lower()), set()).add(i)
                self.lemma_any[l.lower()] = self.lemma_any.get(l.lower(), 0) + 1

    def defword_count(self, w):
        """How many definitions contain the alphabetic word w (as a \\w+ token)."""
        if not hasattr(self, "_defwords"):
            self._defwords = {}
            for i in sorted(self.nodes):
                for t in set(re.findall(r"\w+", self.defn(i).lower())):
                    self._defwords[t] = self._defwords.get(t, 0) + 1
        return self._defwords.get(w.lower(), 0)

    def lemmas(self, i):
        s = self.nodes[i]["fields"].get("lemmas", "")
        return [l.replace("_", " ").strip() for l in s.split(";") if l.strip()]

    def defn(self, i):
        return self.nodes[i]["fields"].get("definition", "")

    def children(self, i):
        out = set()
        for r in self.isa_rels:
            out |= self.in_e.get((i, r), set())
        return out

    def parents(self, i):
        out = set()
        for r in self.isa_rels:
            out |= self.out_e.get((i, r), set())
        return out

    def unique_lemmas(self, i, strict=False):
        """Lemmas of i no other synset of its part of speech has (strict: of any part of
        speech, for frames whose wording does not fix it)."""
        g = posgroup(self.nodes[i])
        return [l for l in self.lemmas(i) if self.lemma_ids.get((g, l.lower())) == {i}
                and (not strict or self.lemma_any.get(l.lower()) == 1)]

    def name_anchor(self, i, rng, strict=False):
        """A lemma that identifies i within its part of speech, or None."""
        ls = self.lemmas(i)
        ok = self.unique_lemmas(i, strict)
        if not ok:
            return None
        if ls and ls[0] in ok and (len(ok) == 1 or rng.random() < 0.6):
            return ls[0]
        others = [l for l in ok if l != ls[0]]
        return rng.choice(others) if others else ls[0]


# ---------------------------------------------------------------------------------------------
# Fillers: each returns (slots, key, gold) or None for one base candidate.

def fill_A(g, base, rng, variant):
    y, c = base
    kids = g.children(y)
    words = g.defn(c).split()
    if len(words) < 6:
        return None
    n = rng.randint(6, min(10, len(words)))
    s = 0 if rng.random() < 0.5 else rng.randint(0, len(words) - n)
    frag = " ".join(words[s:s + n]).strip(" ,;:()[]'\"")
    fw = frag.split()
    if len(fw) < 6 or not re.search(r"\w", frag) or fw[-1].lower() in DANGLING \
            or frag.count("(") != frag.count(")"):
        return None
    gold = sorted(k for k in kids if contains(g.defn(k), frag))
    if not gold or len(gold) > 20 or len(gold) >= len(kids):
        return None
    ny = g.name_anchor(y, rng, strict=variant == "any")
    if ny is None:
        return None
    return {"Y": ny, "Q": frag}, ("A", y, norm(frag)), gold


def fill_B(g, base, rng, variant):
    y, z, rel = base
    if g.nodes[y]["fields"].get("pos") != "noun" or g.nodes[z]["fields"].get("pos") != "noun":
        return None  # the frames ask about nouns
    kids, comp = g.children(y), g.in_e.get((z, rel), set())
    gold = sorted(kids & comp)
    if not gold or len(gold) > 20 or len(kids) <= len(gold) or len(comp) <= len(gold):
        return None
    ny, nz = g.name_anchor(y, rng), g.name_anchor(z, rng)
    if ny is None or nz is None or ny.lower() == nz.lower():
        return None
    return {"Y": ny, "Z": nz}, ("B", y, z, rel), gold


def fill_C(g, base, rng, variant):
    y = base
    kids = g.children(y)
    gold = set()
    for k in kids:
        gold |= g.children(k)
    if not gold or len(gold) > 20 or gold & kids or y in gold:
        return None
    if any(g.children(x) for x in gold):
        return None
    ny = g.name_anchor(y, rng)
    if ny is None:
        return None
    return {"Y": ny}, ("C", y), sorted(gold)


def fill_D(g, base, rng, variant):
    y, z, rel = base
    if g.nodes[y]["fields"].get("pos") != "noun" or g.nodes[z]["fields"].get("pos") != "noun":
        return None  # the frames ask about nouns
    if rel == "domain usage" and g.nodes[z]["type"] != "noun.communication":
        return None  # a handful of usage pointers go to places (United Kingdom) or acts
    kids, dom = g.children(y), g.in_e.get((z, rel), set())
    gold = sorted(kids & dom)
    if not gold or len(gold) > 20 or len(kids) <= len(gold) or len(dom) <= len(gold):
        return None
    ny, nz = g.name_anchor(y, rng), g.name_anchor(z, rng)
    if ny is None or nz is None or ny.lower() == nz.lower():
        return None
    return {"Y": ny, "Z": nz}, ("D", y, z, rel), gold


def fill_E(g, base, rng, variant):
    y, c = base
    kids = g.children(y)
    ws = [l for l in g.lemmas(c) if g.lemma_any.get(l.lower(), 0) >= 2]
    if not ws:
        return None
    w = rng.choice(ws)
    gold = sorted(k for k in kids if w.lower() in {l.lower() for l in g.lemmas(k)})
    if not gold or len(gold) > 20 or len(gold) >= len(kids) or g.lemma_any[w.lower()] <= len(gold):
        return None  # the word alone must also name synsets outside the answer
    ny = g.name_anchor(y, rng, strict=variant == "any")
    if ny is None or ny.lower() == w.lower():
        return None
    return {"Y": ny, "W": w}, ("E", y, w.lower()), gold


def fill_F(g, base, rng, variant):
    h, s = base
    sats = g.in_e.get((h, "similar to"), set())
    banned = {t.lower() for l in g.lemmas(h) for t in re.findall(r"\w+", l)}
    ws = sorted({w.lower() for w in re.findall(r"[A-Za-z]{4,}", g.defn(s))} - STOP - banned)
    ws = [w for w in ws if contains(g.defn(s), w)]
    if not ws:
        return None
    w = rng.choice(ws)
    gold = sorted(x for x in sats if contains(g.defn(x), w))
    if not gold or len(gold) > 20 or len(gold) >= len(sats) or g.defword_count(w) <= len(gold):
        return None  # the word alone must also occur in other definitions
    nh = g.name_anchor(h, rng)
    if nh is None:
        return None
    return {"H": nh, "W": w}, ("F", h, w), gold


def fill_G(g, base, rng, variant):
    y = base
    kids = g.children(y)
    if not kids or any(g.children(k) for k in kids):
        return None
    gold = set()
    for k in kids:
        gold |= g.in_e.get((k, "part holonym"), set())
    direct = g.in_e.get((y, "part holonym"), set())
    if not gold or len(gold) > 20 or not (gold - direct):
        return None
    ny = g.name_anchor(y, rng)
    if ny is None:
        return None
    return {"Y": ny}, ("G", y), sorted(gold)


FILL = {"A": fill_A, "B": fill_B, "C": fill_C, "D": fill_D, "E": fill_E, "F": fill_F, "G": fill_G}


def bases(g, shape, variant):
    """Sorted base candidates for a frame (cheap pre-filter; the filler checks the rest)."""
    N = g.nodes
    ids = sorted(N)
    pos_ok = (lambda i: N[i]["fields"].get("pos") in ("noun", "verb")) if variant == "any" else \
        (lambda i: N[i]["fields"].get("pos") == variant)
    if shape in ("A", "E"):
        out = []
        for y in ids:
            if not pos_ok(y):
                continue
            kids = g.children(y)
            if len(kids) >= 2 and g.unique_lemmas(y):
                out.extend((y, c) for c in sorted(kids))
        return out
    if shape in ("B", "D"):
        out = set()
        for (x, r), zs in g.out_e.items():
            if r != variant:
                continue
            for z in zs:
                for y in g.parents(x):
                    out.add((y, z, r))
        return sorted(out)
    if shape in ("C", "G"):
        return [y for y in ids if N[y]["fields"].get("pos") == "noun" and g.children(y)
                and g.unique_lemmas(y)]
    if shape == "F":
        out = []
        for h in ids:
            if N[h]["fields"].get("pos") != "adjective":
                continue
            sats = g.in_e.get((h, "similar to"), set())
            if len(sats) >= 2 and g.unique_lemmas(h):
                out.extend((h, s) for s in sorted(sats))
        return out
    raise ValueError(shape)


VARIANTS = {"A": ("noun", "verb", "any"), "B": ("part holonym", "member holonym", "substance holonym"),
            "C": ("noun",), "D": ("domain topic", "domain region", "domain usage"),
            "E": ("noun", "verb", "any"), "F": ("",), "G": ("noun",)}
SLOTS = {"A": {"Y", "Q"}, "B": {"Y", "Z"}, "C": {"Y"}, "D": {"Y", "Z"}, "E": {"W", "Y"}, "F": {"H", "W"}, "G": {"Y"}}


def load_frames(path):
    """FRAMES from a JSON file of another author (all held, ids V01..); exit 2 when it does not fit."""
    def fail(msg):
        sys.stderr.write(f"{PROG}: {path}: {msg}\n")
        sys.exit(2)
    try:
        with open(path, encoding="utf-8") as f:
            items = json.load(f)
    except (OSError, ValueError) as e:
        fail(str(e))
    if not isinstance(items, list) or not items:
        fail("want a non-empty JSON list of {shape, variant, frame} objects")
    out = []
    for k, it in enumerate(items, 1):
        if not isinstance(it, dict) or not isinstance(it.get("frame"), str):
            fail(f"frame {k}: want an object with a string \"frame\"")
        shape, variant = it.get("shape"), it.get("variant", "")
        if shape not in VARIANTS or variant not in VARIANTS[shape]:
            fail(f"frame {k}: shape {shape!r} variant {variant!r} unknown")
        try:
            used = {n for _, n, _, _ in string.Formatter().parse(it["frame"]) if n is not None}
        except ValueError as e:
            fail(f"frame {k}: {e}")
        want = SLOTS[shape]
        got = {"Y" if n == "aY" else n for n in used}
        if got != want:
            fail(f"frame {k}: uses slots {sorted(used)}, want {sorted(want)}")
        out.append((f"V{k:02d}", "held", shape, variant, it["frame"]))
    return out


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(f"usage: {PROG}.py SKBDIR OUTDIR [FRAMES.json]\n")
        return 1
    skbdir, outdir = argv[1], argv[2]
    frames, seed, first = FRAMES, 13, FIRST_ID
    if len(argv) == 4:
        frames, seed, first = load_frames(argv[3]), 17, 9_500_000
    with open(os.path.join(skbdir, "schema.json")) as f:
        rels = set(json.load(f).get("relation_types", []))
    missing = [r for r in REQUIRED if r not in rels]
    if missing:
        sys.stderr.write(f"{PROG}: schema lacks relation(s) {', '.join(missing)}; not a WordNet SKB\n")
        return 2
    g = Graph(skbdir)
    rng = random.Random(seed)
    seen_keys, seen_text = set(), set()
    rows, short = [], []
    qid = first
    cache = {}
    for fid, split, shape, variant, tmpl in frames:
        ck = (shape, variant)
        if ck not in cache:
            cache[ck] = bases(g, shape, variant)
        cand = cache[ck]
        got, tries = 0, 0
        while got < PER_FRAME and cand and tries < 5000:
            tries += 1
            r = FILL[shape](g, rng.choice(cand), rng, variant)
            if r is None:
                continue
            slots, key, gold = r
            if "Y" in slots:
                slots["aY"] = ("an " if slots["Y"][:1].lower() in "aeiou" else "a ") + slots["Y"]
            text = tmpl.format(**slots)
            if key in seen_keys or text.lower() in seen_text:
                continue
            seen_keys.add(key)
            seen_text.add(text.lower())
            rows.append((qid, fid, shape, split, text, gold))
            qid += 1
            got += 1
        if got < PER_FRAME:
            short.append(f"{fid}:{got}")
    os.makedirs(outdir, exist_ok=True)
    for split, fn in (("dev", "wadev.csv"), ("held", "waheld.csv")):
        with open(os.path.join(outdir, fn), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "query", "answer_ids"])
            for q, _, _, s, text, gold in rows:
                if s == split:
                    w.writerow([q, text, json.dumps(gold)])
    with open(os.path.join(outdir, "wauthored.tsv"), "w") as f:
        for q, fid, shape, s, _, _ in rows:
            f.write(f"{q}\t{fid}\t{shape}\t{s}\n")
    ndev = sum(1 for r in rows if r[3] == "dev")
    sys.stderr.write(f"{PROG}: {len(rows)} questions from {len(frames)} frames "
                     f"(dev {ndev}, held {len(rows) - ndev}; mean answers "
                     f"{sum(len(r[5]) for r in rows) / max(1, len(rows)):.2f})"
                     f"{'; short frames ' + ' '.join(short) if short else ''} -> {outdir}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
