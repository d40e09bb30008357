#!/usr/bin/env python3
"""Paraphrase perturbation of an SKB's test questions (protocol (a) of
docs/robustness.md).

Each test question is rewritten so that its meaning stays: the spans that
name its anchors (from plans mined from its own answers: the protocol's
grouping, never a model input) and quoted words are kept verbatim, and the
rest is rewritten by general English rules, never by a data set's
templates. Every question gets synonyms of its relation, type and
question words, and one structural rewrite when one applies (chosen by a
hash of the question, in a hashed order of the families):

  fronted      a trailing restriction ("... in 2009?", "... in French?") goes
               to the front: "In 2009, which ...?"
  declarative  "What X did A V?" becomes "A V-ed which X?"
  question     an imperative ("Find X.", "List X.") becomes a question
               ("What are the X?")
  noun-type    the answer type named by a noun: "Who" becomes "Which
               person", "Which X were ...?" becomes "What are the X that
               were ...?"
  tell-me      "Which X ...?" becomes "Tell me which X ...."
  clause-swap  "Which X is Y?" becomes "Among the possible X, which is Y?"

Usage: robust_paraphrase.py QA.csv MINED.jsonl OUTDIR [--no-synonyms]
--no-synonyms keeps the question's own words and rewrites only the frame
(robust_dev.sh's vframe set).
MINED: mine-plans --split test rows (their anchors). Writes OUTDIR/para.csv
(id, query, answer_ids; ids 2,000,000 + the original's), OUTDIR/para.index,
OUTDIR/para-groups.jsonl (the original's mined row under the new id, for
eval --by-shape) and OUTDIR/para.tsv (id, original id, family, text).
"""
import csv, hashlib, json, os, re, sys

SYN = {
    "film": "movie", "films": "movies", "movie": "film", "movies": "pictures",
    "directed": "helmed", "direct": "helm", "directs": "helms", "director": "filmmaker",
    "directors": "filmmakers", "starred": "appeared", "star": "appear", "stars": "appears",
    "starring": "featuring", "featuring": "with", "actor": "performer", "actors": "performers",
    "acted": "performed", "act": "perform", "cast": "performers",
    "wrote": "penned", "written": "penned", "write": "pen", "writer": "screenwriter",
    "writers": "screenwriters", "script": "screenplay", "genre": "category",
    "genres": "categories", "released": "put out", "language": "tongue",
    "kind": "sort", "kinds": "sorts", "type": "variety", "types": "varieties",
    "subtype": "subclass", "subtypes": "subclasses", "part": "component",
    "parts": "components", "member": "constituent", "members": "constituents",
    "sense": "meaning", "meaning": "sense", "meanings": "senses", "senses": "meanings",
    "word": "term", "definition": "description", "defined": "described",
    "gloss": "description", "similar": "akin", "every": "each",
    "share": "have in common", "common": "shared", "find": "show me", "list": "enumerate",
    "things": "items", "refer": "point", "denotes": "signifies", "includes": "contains",
    "mentioning": "citing", "contains": "includes", "belongs": "pertains",
    "which": "what", "what": "which",
}

PAST = {"star": "starred", "write": "wrote", "direct": "directed", "act": "acted",
        "appear": "appeared", "make": "made", "have": "had", "do": "did", "be": "were",
        "get": "got", "give": "gave", "take": "took", "see": "saw", "come": "came", "go": "went"}


def past(v):
    if v in PAST:
        return PAST[v]
    return v + "d" if v.endswith("e") else v + "ed"


def protect(text, anchors):
    """Replaces anchors and quoted spans with placeholders Q0Q, Q1Q, ..."""
    kept = []
    for a in sorted(anchors, key=len, reverse=True):
        if a and a in text:
            text = text.replace(a, f"Q{len(kept)}Q")
            kept.append(a)
    def quote(m):
        kept.append(m.group(0))
        return f"Q{len(kept) - 1}Q"
    text = re.sub(r"'[^']+'", quote, text)
    return text, kept


def restore(text, kept):
    for i in reversed(range(len(kept))):
        text = text.replace(f"Q{i}Q", kept[i])
    return text


def case_like(src, dst):
    return dst[:1].upper() + dst[1:] if src[:1].isupper() else dst


def synonyms(t):
    return re.sub(r"\b[A-Za-z]+\b", lambda m: case_like(m.group(0), SYN.get(m.group(0).lower(), m.group(0))), t)


def lower_first(t):
    return t if re.match(r"Q\d+Q", t) else t[:1].lower() + t[1:]


def fronted(t):
    m = re.match(r"^(.*\S)\s+((?:in|from|during)\s+(?:the\s+)?(?:\d+|[A-Z][a-z]+)(?:\s+language)?)\s*([?.])$", t)
    if not m or len(m.group(1).split()) < 3:
        return None
    return f"{m.group(2)[:1].upper()}{m.group(2)[1:]}, {lower_first(m.group(1))}{m.group(3)}"


def declarative(t):
    m = re.match(r"^(What|Which)\s+(.+?)\s+(did|does|do)\s+(Q\d+Q)\s+([a-z]+)\b(.*)\?$", t)
    if not m:
        return None
    rest, tail = m.group(6), ""
    r = re.match(r"^(.*?)(\s+(?:in|from|during)\s+\S+)$", rest)
    if r:
        rest, tail = r.group(1), r.group(2)
    return f"{m.group(4)} {past(m.group(5))}{rest} {m.group(1).lower()} {m.group(2)}{tail}?"


def question(t):
    m = re.match(r"^(Find|List|Name|Show|Give)\s+(?:me\s+)?(.+?)\.?$", t)
    if not m:
        return None
    rest = m.group(2)
    if re.match(r"(a|an)\b", rest):
        return f"What is {rest}?"
    if not re.match(r"(the|all|every|each)\b", rest):
        rest = "the " + rest
    head = re.match(r"(?:the|all|every|each)\s+(?:of\s+the\s+)?(\S+)", rest)
    be = "are" if head and head.group(1).endswith("s") else "is"
    return f"What {be} {rest}?"


def clause_swap(t):
    m = re.match(r"^(Which|What)\s+((?:(?!\b(?:is|are|was|were)\b).)+?)\s+(is|are|was|were)\s+(.+)\?$", t)
    if not m:
        return None
    return f"Among the possible {m.group(2)}, which {m.group(3)} {m.group(4)}?"


def noun_type(t):
    if re.match(r"^Who\b", t):
        return re.sub(r"^Who\b", "Which person", t)
    m = re.match(r"^(Which|What)\s+([a-z]+)\s+(were|was|are|is)\s+(.+)\?$", t)
    if not m:
        return None
    be = "are" if m.group(2).endswith("s") else "is"
    return f"What {be} the {m.group(2)} that {m.group(3)} {m.group(4)}?"


def tell_me(t):
    m = re.match(r"^(Which|What)\s+(.+)\?$", t)
    if not m:
        return None
    return f"Tell me {m.group(1).lower()} {m.group(2)}."


FAMILIES = [("fronted", fronted), ("declarative", declarative), ("question", question),
            ("noun-type", noun_type), ("tell-me", tell_me), ("clause-swap", clause_swap)]


def main():
    args = [a for a in sys.argv[1:] if a != "--no-synonyms"]
    use_syn = "--no-synonyms" not in sys.argv[1:]
    qa, mined, out = args[:3]
    rows = {}
    for line in open(mined):
        r = json.loads(line)
        rows[r["q_id"]] = r
    os.makedirs(out, exist_ok=True)
    with open(qa, newline="") as f, open(f"{out}/para.csv", "w", newline="") as o, \
            open(f"{out}/para.tsv", "w") as tsv, open(f"{out}/para-groups.jsonl", "w") as g, \
            open(f"{out}/para.index", "w") as idx:
        w = csv.writer(o)
        w.writerow(["id", "query", "answer_ids"])
        for row in csv.DictReader(f):
            qid = int(row["id"])
            if qid not in rows:
                continue
            anchors = [a["text"] for a in rows[qid]["plan"].get("Anchors") or []]
            t, kept = protect(row["query"].strip(), anchors)
            h = hashlib.sha256(row["query"].encode()).digest()
            order = sorted(range(len(FAMILIES)), key=lambda i: (h[i] + h[0] * i) % 251)
            fam, new = "synonyms", t
            for i in order:
                name, fn = FAMILIES[i]
                r = fn(t)
                if r and r != t:
                    fam, new = name, r
                    break
            if use_syn:
                new = synonyms(new)
            new = restore(new, kept)
            nid = 2000000 + qid
            w.writerow([nid, new, row["answer_ids"]])
            idx.write(f"{nid}\n")
            tsv.write(f"{nid}\t{qid}\t{fam}\t{new}\n")
            r = dict(rows[qid])
            r["q_id"] = nid
            r["family"] = fam
            g.write(json.dumps(r) + "\n")


main()
