#!/usr/bin/env python3
"""robust_authored.py -- an independently authored English test set for the movie SKB.

What it builds
    Questions over the movies-skb graph (movie -> person/genre edges directed_by,
    written_by, starred_actors, has_genre) in the graph's question shapes, each with an
    exact gold answer set computed from the graph itself. 55 templates ("frames") cover
    26 shapes: a person's films (act, dir, wri), a person's films of one release year or
    language (act@year, dir@year, wri@year, act@lang, dir@lang), the genre(s) that every
    film of a person has (act/dir/wri>every genre), films linking two people (act&act,
    act&dir, dir&wri), two-hop people (act>dir, dir>act, wri>act, act>wri, act>act),
    the cast of a director's films of one year (dir@year>act), a person's films of a
    genre (genre&act, genre&dir) and the inverse, from a film (film>dir, film>act,
    film>wri, film>genre).

How the frames were written
    By an author who saw neither the SKB's shipped questions nor the system under test;
    only the graph's README (shapes described in words), its schema and the node/edge
    files. The frames imitate how different people type into a movie search box or a
    chatbot: casual, formal, terse keywords, imperatives, answer types named by a noun,
    fronted restrictions, passive voice, possessives, relative clauses and synonyms
    (picture, flick, feature, helmed, penned, scripted, ...). Names are inserted
    verbatim; genre names are lowercased.

Fillings
    random.Random(11); every set is sorted before a random choice, so runs are
    deterministic. People: names unique among all nodes. Films: names unique among all
    nodes, at least 2 words or 6 characters, not a merge of same-titled films (details
    listing several release years). 12 fillings per frame, anchors not reused within a
    shape; gold sets of 1..30 ids. Year and language come from a movie's
    details text ("Released in 1994.", "Language: English."); MetaQA merges same-titled
    films, so some details list several years or languages: a year/language filling is
    skipped when any of the anchor's films lists more than one, which keeps the gold
    free of that ambiguity. Restricted shapes (year, language, genre, two-person) require
    a non-empty strict subset of the anchor's films; two-hop answers exclude the anchor.

Usage
    python3 scripts/robust_authored.py SKBDIR OUTDIR

Outputs (in OUTDIR)
    adev.csv, aheld.csv   header id,query,answer_ids (answer_ids a JSON list of node ids);
                          ids from 8,000,000 up, one counter for both files. Frames
                          alternate dev/held within each shape.
    authored.tsv          id<TAB>frame_id<TAB>shape<TAB>dev|held per question.
Exits 2 when the schema lacks one of the four relations.
"""
import csv
import json
import os
import random
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

PROG = "robust_authored"
RELS = ("directed_by", "written_by", "starred_actors", "has_genre")
ROLE = {"act": "starred_actors", "dir": "directed_by", "wri": "written_by"}
PER_FRAME = 12
MIN_ANS, MAX_ANS = 1, 30
FIRST_ID = 8_000_000

# (frame id, shape, text). Placeholders: {p} first person, {q} second person,
# {y} year, {lang} language, {g} genre (lowercased), {f} film.
FRAMES = [
    ("P01", "act", "Which movies has {p} acted in?"),
    ("P02", "act", "list every flick {p} appeared in"),
    ("P03", "dir", "films helmed by {p}"),
    ("P04", "dir", "What titles did {p} direct over the years?"),
    ("P05", "wri", "Show me the pictures that {p} penned."),
    ("P06", "wri", "{p} screenwriting credits"),
    ("P07", "act@year", "From {y}, which films featured {p} in the cast?"),
    ("P08", "act@year", "what was {p} in back in {y}"),
    ("P09", "dir@year", "{p} directed movies {y}"),
    ("P10", "dir@year", "Which features did {p} helm that were released in {y}?"),
    ("P11", "wri@year", "Name the {y} releases scripted by {p}."),
    ("P12", "wri@year", "Were any films written by {p} released in {y}? List them."),
    ("P13", "act@lang", "Which {lang}-language pictures has {p} starred in?"),
    ("P14", "act@lang", "{p} movies in {lang}"),
    ("P15", "dir@lang", "list the {lang} language films that {p} directed"),
    ("P16", "dir@lang", "Among the motion pictures helmed by {p}, which ones are in {lang}?"),
    ("P17", "dir>every genre", "What genre do all of {p}'s directorial efforts share?"),
    ("P18", "dir>every genre", "which category does every film directed by {p} fall under"),
    ("P19", "act>every genre", "Every movie {p} has acted in belongs to what genre?"),
    ("P20", "act>every genre", "genre common to all films starring {p}"),
    ("P21", "wri>every genre", "Which genres are shared by all the screenplays {p} wrote?"),
    ("P22", "wri>every genre",
     "Name the category that each and every film scripted by {p} is classified as."),
    ("P23", "act&act", "movies with both {p} and {q}"),
    ("P24", "act&act", "In which films did {p} appear alongside {q}?"),
    ("P25", "act&dir", "Which of {p}'s films as an actor were directed by {q}?"),
    ("P26", "act&dir", "titles where {q} directed and {p} was in the cast"),
    ("P27", "dir&wri", "What pictures did {p} direct from a script by {q}?"),
    ("P28", "dir&wri", "films directed by {p} and written by {q}"),
    ("P29", "act>dir", "Which filmmakers have directed {p}?"),
    ("P30", "act>dir", "who were the directors of the movies {p} starred in"),
    ("P31", "dir>act", "Which cast members have appeared in films helmed by {p}?"),
    ("P32", "dir>act", "actors {p} has directed"),
    ("P33", "wri>act", "Who acted in movies written by {p}?"),
    ("P34", "wri>act", "List the performers featured in pictures that {p} penned."),
    ("P35", "act>wri", "Which screenwriters wrote films that {p} acted in?"),
    ("P36", "act>wri", "who wrote the flicks {p} was in"),
    ("P37", "act>act", "Who has shared the screen with {p}?"),
    ("P38", "act>act", "co-stars of {p}"),
    ("P39", "dir@year>act", "Which actors appeared in {p}'s {y} directorial work?"),
    ("P40", "dir@year>act", "From {y}, name the performers in movies that {p} helmed."),
    ("P41", "dir@year>act", "cast list for pictures {p} directed in {y}"),
    ("P42", "genre&act", "Which {g} movies has {p} acted in?"),
    ("P43", "genre&act", "{p} {g} films"),
    ("P44", "genre&act", "Has {p} appeared in any {g} pictures? Which ones?"),
    ("P45", "genre&dir", "list {g} features directed by {p}"),
    ("P46", "genre&dir", "What {g} titles were helmed by {p}?"),
    ("P47", "genre&dir", "Of the flicks {p} directed, which are classified as {g}?"),
    ("P48", "film>dir", "Who directed {f}?"),
    ("P49", "film>dir", "{f} director"),
    ("P50", "film>act", "Which actors are in the cast of {f}?"),
    ("P51", "film>act", "who stars in {f}"),
    ("P52", "film>wri", "Who wrote the screenplay for {f}?"),
    ("P53", "film>wri", "Name the screenwriters credited on the motion picture {f}."),
    ("P54", "film>genre", "What genre is {f}?"),
    ("P55", "film>genre", "{f} is classified under which categories"),
]


def details(node):
    return node.get("details") or node.get("fields", {}).get("details", "") or ""


def year_list(node):
    m = re.search(r"Released in (\d{4}(?:, \d{4})*)\.", details(node))
    return m.group(1).split(", ") if m else []


def lang_list(node):
    m = re.search(r"Language: ([^.]+)\.", details(node))
    return m.group(1).split(", ") if m else []


class Graph:
    def __init__(self, nodes, out_e, in_e):
        self.nodes, self.out_e, self.in_e = nodes, out_e, in_e
        counts = Counter(n["name"] for n in nodes.values())
        self.people = sorted(i for i, n in nodes.items()
                             if n["type"] == "person" and counts[n["name"]] == 1)
        self.years = {i: year_list(n) for i, n in nodes.items() if n["type"] == "movie"}
        # a film listing several release years is a MetaQA merge of same-titled films
        # (remakes): its edges are the union, so it is not used as a film anchor
        self.films = sorted(i for i, n in nodes.items()
                            if n["type"] == "movie" and counts[n["name"]] == 1
                            and len(self.years[i]) <= 1
                            and (len(n["name"].split()) >= 2 or len(n["name"]) >= 6))
        self.langs = {i: lang_list(n) for i, n in nodes.items() if n["type"] == "movie"}
        self.unique_people = set(self.people)

    def films_of(self, p, role):
        return self.in_e.get((p, ROLE[role]), set())

    def of_film(self, f, rel):
        return self.out_e.get((f, rel), set())

    def name(self, i):
        return self.nodes[i]["name"]


def fill(g, shape, anchor, rng):
    """(slots, gold set) for shape anchored at anchor, or None when it does not fit."""
    if shape.startswith("film>"):
        rel = {"dir": "directed_by", "act": "starred_actors", "wri": "written_by",
               "genre": "has_genre"}[shape[5:]]
        return {"f": g.name(anchor)}, set(g.of_film(anchor, rel))
    slots = {"p": g.name(anchor)}
    if shape in ROLE:
        return slots, set(g.films_of(anchor, shape))
    if "@year" in shape or "@lang" in shape:
        role = shape[:3]
        films = g.films_of(anchor, role)
        table = g.years if "@year" in shape else g.langs
        if len(films) < 2 or any(len(table[m]) > 1 for m in films):
            return None
        values = sorted({table[m][0] for m in films if table[m]})
        if not values:
            return None
        v = rng.choice(values)
        mid = {m for m in films if table[m] == [v]}
        if not mid or mid == films:
            return None
        if "@year" in shape:
            slots["y"] = v
        else:
            slots["lang"] = v
        if shape.endswith(">act"):
            gold = set().union(*(g.of_film(m, "starred_actors") for m in mid)) - {anchor}
            return slots, gold
        return slots, mid
    if shape.endswith(">every genre"):
        films = [m for m in g.films_of(anchor, shape[:3]) if g.of_film(m, "has_genre")]
        if len(films) < 2:
            return None
        return slots, set.intersection(*(set(g.of_film(m, "has_genre")) for m in films))
    if shape.startswith("genre&"):
        films = g.films_of(anchor, shape[6:])
        genres = sorted(set().union(*(g.of_film(m, "has_genre") for m in films))) if films else []
        if not genres:
            return None
        ge = rng.choice(genres)
        mid = {m for m in films if ge in g.of_film(m, "has_genre")}
        if mid == films:
            return None
        slots["g"] = g.name(ge).lower()
        return slots, mid
    if "&" in shape:
        r1, r2 = shape.split("&")
        films = g.films_of(anchor, r1)
        partners = sorted(set().union(*(g.of_film(m, ROLE[r2]) for m in films)) - {anchor}
                          if films else set())
        partners = [q for q in partners if q in g.unique_people]
        if not partners:
            return None
        q = rng.choice(partners)
        mid = films & g.films_of(q, r2)
        if not mid or mid == films:
            return None
        slots["q"] = g.name(q)
        return slots, set(mid)
    if ">" in shape:
        r1, r2 = shape.split(">")
        films = g.films_of(anchor, r1)
        gold = set().union(*(g.of_film(m, ROLE[r2]) for m in films)) if films else set()
        return slots, gold - {anchor}
    raise ValueError(shape)


def main():
    if len(sys.argv) != 3:
        sys.exit(f"usage: {PROG}.py SKBDIR OUTDIR")
    skbdir, outdir = sys.argv[1], sys.argv[2]
    try:
        schema = json.load(open(os.path.join(skbdir, "schema.json")))
    except (OSError, ValueError) as e:
        print(f"{PROG}: cannot read schema.json: {e}", file=sys.stderr)
        sys.exit(2)
    missing = [r for r in RELS if r not in schema.get("relation_types", [])]
    if missing:
        print(f"{PROG}: schema lacks relation(s) {', '.join(missing)}", file=sys.stderr)
        sys.exit(2)
    from skbfiles import load_graph
    g = Graph(*load_graph(skbdir, prog=PROG))

    rng = random.Random(11)
    pools, seen_in_shape = {}, defaultdict(int)
    rows = {"dev": [], "held": []}
    tsv = []
    qid = FIRST_ID
    for fid, shape, text in FRAMES:
        split = "dev" if seen_in_shape[shape] % 2 == 0 else "held"
        seen_in_shape[shape] += 1
        if shape not in pools:
            pool = list(g.films if shape.startswith("film>") else g.people)
            rng.shuffle(pool)
            pools[shape] = pool
        pool, got = pools[shape], 0
        while got < PER_FRAME and pool:
            anchor = pool.pop()
            r = fill(g, shape, anchor, rng)
            if r is None:
                continue
            slots, gold = r
            if not MIN_ANS <= len(gold) <= MAX_ANS:
                continue
            rows[split].append([qid, text.format(**slots), json.dumps(sorted(gold))])
            tsv.append(f"{qid}\t{fid}\t{shape}\t{split}")
            qid += 1
            got += 1
        if got < PER_FRAME:
            print(f"{PROG}: frame {fid} ({shape}) got only {got} fillings", file=sys.stderr)

    os.makedirs(outdir, exist_ok=True)
    for split, fname in (("dev", "adev.csv"), ("held", "aheld.csv")):
        with open(os.path.join(outdir, fname), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "query", "answer_ids"])
            w.writerows(rows[split])
    with open(os.path.join(outdir, "authored.tsv"), "w") as fh:
        fh.write("\n".join(tsv) + "\n")
    print(f"{PROG}: {len(rows['dev'])} dev, {len(rows['held'])} held questions, "
          f"{len(FRAMES)} frames -> {outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
