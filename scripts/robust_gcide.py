#!/usr/bin/env python3
"""Text written by other people, asked against the WordNet SKB.

Builds protocol (b) of docs/robustness.md: for a deterministic sample of
words that both Debian's dict-gcide (the GNU Collaborative International
Dictionary of English, mostly Webster's 1913) and the WordNet SKB define, the
query is GCIDE's first definition of the word, cleaned of markup, citations
and the word itself; the answers are the SKB's synsets of the word in the
part of speech GCIDE gives (all its synsets when GCIDE's is unknown). No
WordNet text enters a query.

Usage: robust_gcide.py SKBDIR OUTDIR [N [SKIP]]
The words are ordered by the SHA-256 of the word; the first N after SKIP are
taken (SKIP 0, the held-out set; SKIP 400, a disjoint development set for
tuning text encoders). Writes OUTDIR/gcide.csv (id,query,answer_ids; ids from
1,000,000 + SKIP) and
OUTDIR/gcide.tsv (id, word, part of speech) for reading the results.
"""
import base64, collections, csv, gzip, hashlib, io, json, os, re, subprocess, sys

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64int(s):
    v = 0
    for c in s:
        v = v * 64 + B64.index(c)
    return v


POS = {"n.": "noun", "a.": "adj", "adv.": "adv", "v. t.": "verb", "v. i.": "verb", "v.": "verb"}


def unbracket(text):
    """Drops [...] spans, nested ones included (etymologies, sources)."""
    while True:
        t = re.sub(r"\[[^\[\]]*\]", " ", text)
        if t == text:
            return t
        text = t


def clean(text, word):
    text = re.split(r"\s--|;\s*as,|\bSyn\b|\bNote:|\bSee\b|\"", text)[0]
    text = re.sub(r"\([^)]*\)", " ", text)  # fields of use, (a), (b)
    text = re.sub(r"[{}]", "", text)
    stem = word[:max(4, len(word) - 2)]
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if not w.lower().startswith(stem)]
    return " ".join(words)


SOURCE = re.compile(r"\n\s*\[(?:1913 Webster|PJC|Century Dict\.|Webster 1913 Suppl\.|[A-Za-z0-9 .]+)\]\s*(?:\n|$)")


def first_definition(entry, word):
    """The first sense of an entry (its '1.' text, or the text after the
    headword line of a one-sense entry) up to its source mark, and the
    part of speech of the headword line; None for an entry of another
    headword."""
    if entry.split(" ", 1)[0].lower() != word:
        return None, None
    head = entry.split("\n", 1)[0]
    m = re.search(r"\\[^\\]*\\(?:\s*\([^)]*\))?,\s*((?:v\. [ti]\.)|n\.|a\.|adv\.|v\.)", head)
    pos = POS.get(m.group(1)) if m else None
    body = SOURCE.split(entry, 1)[0]
    m1 = re.search(r"\n\s+1\.\s+(.*)", body, re.S)
    if m1:
        text = m1.group(1)
    else:
        text = unbracket(body)
        text = text.split("\n", 1)[1] if "\n" in text else ""
    return clean(unbracket(text), word), pos


def main():
    skb, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    skip = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    idx_path, dz = "/usr/share/dictd/gcide.index", "/usr/share/dictd/gcide.dict.dz"
    if not os.path.exists(dz):
        sys.exit("robust_gcide: install Debian's dict-gcide first (apt-get install dict-gcide)")
    nodes = os.path.join(skb, "nodes.jsonl")
    raw = open(nodes, "rb").read() if os.path.exists(nodes) else subprocess.run(
        ["zstd", "-dc", nodes + ".zst"], check=True, capture_output=True).stdout
    synsets = collections.defaultdict(list)  # (lemma, pos) -> ids
    for line in io.BytesIO(raw):
        r = json.loads(line)
        pos = r["fields"].get("pos", "")
        pos = "adj" if pos.startswith("adj") or pos == "adjective" else pos
        for l in r["fields"].get("lemmas", "").split(";"):
            l = l.strip().lower()
            if l:
                synsets[(l, pos)].append(r["id"])
    poses = collections.defaultdict(set)
    for (l, p) in synsets:
        poses[l].add(p)
    d = gzip.open(dz).read()
    seen, rows = set(), []
    for line in open(idx_path, encoding="utf-8"):
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 3:
            continue
        word = parts[0].lower()
        if word in seen or not re.fullmatch(r"[a-z]{4,}", word) or word not in poses:
            continue
        seen.add(word)
        entry = d[b64int(parts[1]):b64int(parts[1]) + b64int(parts[2])].decode("utf-8", "replace")
        definition, pos = first_definition(entry, word)
        if definition is None or not 4 <= len(definition.split()) <= 30:
            continue
        ans = sorted({i for p in ([pos] if pos in poses[word] else sorted(poses[word])) for i in synsets[(word, p)]})
        if not 1 <= len(ans) <= 5:
            continue
        rows.append((hashlib.sha256(word.encode()).hexdigest(), word, pos or "?", definition, ans))
    rows.sort()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "gcide.csv"), "w", newline="") as f, open(os.path.join(out, "gcide.tsv"), "w") as g:
        w = csv.writer(f)
        w.writerow(["id", "query", "answer_ids"])
        for i, (_, word, pos, definition, ans) in enumerate(rows[skip:skip + n]):
            w.writerow([1000000 + skip + i, definition, json.dumps(ans)])
            g.write(f"{1000000 + skip + i}\t{word}\t{pos}\n")
    print(f"robust_gcide: {len(rows[skip:skip + n])} of {len(rows)} words defined by both (from {skip})", file=sys.stderr)


main()
