#!/usr/bin/env bash
# Robustness protocols of docs/robustness.md, on the real SKBs of
# ../shared/data (questions and answer ids only):
#   (a) paraphrase perturbation of the movies-skb and wordnet-skb test
#       questions (scripts/robust_paraphrase.py): synonyms, fronted
#       restrictions, reordered clauses, imperatives as questions, the
#       answer type named by a noun; anchors kept verbatim;
#   (b) text written by other people: the first GCIDE definition of 400
#       words (Debian's dict-gcide, installed here) asked against the
#       WordNet SKB, answers = the word's synsets (scripts/robust_gcide.py);
#   (c) movies-skb only: 17 frames written after the planner's features,
#       filled from the graph, answers from the graph
#       (scripts/robust_freeframes.py);
#   (d) wordnet-skb only: 16 held-out frames of WordNet's shapes, filled
#       from the graph (scripts/robust_wnframes.py, split wfree);
#   (e) movies-skb only: a film's director, writers or cast, a direction
#       no training question asks in, six held-out frames filled with 30
#       films each (scripts/robust_inverse.py, split inv).
#   (f) movies-skb only: 27 held-out frames of every question shape,
#       written by an author who saw neither the SKB's questions nor
#       strata, filled with 12 people or films each
#       (scripts/robust_authored.py, split auth).
#   (g) wordnet-skb only: 17 held-out frames of WordNet's shapes written
#       the same way, filled with 10 anchors each
#       (scripts/robust_wnauthored.py, split wauth);
#   (h) the test questions typed casually: lower case, no closing
#       question mark or full stop (scripts/robust_casual.py, split
#       casual).
#   (i) movies-skb only: a twin of the test, the README's question shapes
#       in 22 held-out frames a third author wrote, filled with 10 people
#       each (scripts/robust_twin.py, split twin); only its total is
#       printed, so its frames stay unread by whoever tunes the planner.
#   (j) movies-skb only: the same shapes in 44 frames a fourth author
#       wrote, all held out, filled with 10 people each
#       (scripts/twin2_frames.json through scripts/robust_twin.py, split
#       twin2); only its total is printed.
#   (m) the first 400 test questions (in the split's order) with one
#       letter of a name edited: dropped, swapped, changed or added
#       (scripts/robust_typos.py, split typos).
#   (k) movies-skb only: the test questions after a sentence that sets
#       the scene, naming the question's person ("I just watched
#       something with X in it. ..."; scripts/robust_context.py, split
#       ctx).
# The sets are appended to a copy of each SKB as their own splits (para,
# gcide); training reads only train and val, so the planner is the one the
# original SKB trains. Each set is scored as served (score --pipeline RUN)
# and evaluated from the run file (eval --run), beside BM25. Markdown on
# stdout.
set -euo pipefail
strata=${STRATA:-bin/strata}
shared=${SHARED:-../shared/data}
out=${OUT:-out/robust}
here=$(cd "$(dirname "$0")" && pwd)
seed=${SEED:-1}
if [ ! -f /usr/share/dictd/gcide.dict.dz ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq dict-gcide >/dev/null
fi
mkdir -p "$out"

for name in ${SETS:-movies-skb wordnet-skb}; do
  data="$shared/$name"
  if [ ! -d "$data" ]; then
    echo "robust_experiments: $data is absent (it ships with the project's shared data, not with a clone)" >&2
    exit 1
  fi
  d="$out/$name"
  rm -rf "$d"
  mkdir -p "$d"
  cp -r "$data" "$d/skb"
  chmod -R u+w "$d/skb"
  # The test questions' anchors and shapes, from plans mined from their
  # own answers: the protocol's grouping, never a model input.
  $strata import --format skbdir --in "$d/skb" --out "$d/ws0" >/dev/null
  $strata mine-plans "$d/ws0" --split test --no-universal --no-ranked-middle --out "$d/groups.jsonl" --force >/dev/null
  rm -rf "$d/ws0"
  python3 "$here/robust_paraphrase.py" "$d/skb/stark_qa/stark_qa.csv" "$d/groups.jsonl" "$d/para"
  tail -n +2 "$d/para/para.csv" >>"$d/skb/stark_qa/stark_qa.csv"
  cp "$d/para/para.index" "$d/skb/split/para.index"
  # (h): the test questions typed casually (lower case, no closing mark).
  python3 "$here/robust_casual.py" "$d/skb/stark_qa/stark_qa.csv" "$d/skb/split/test.index" "$d/casual" 2>/dev/null
  tail -n +2 "$d/casual/casual.csv" >>"$d/skb/stark_qa/stark_qa.csv"
  cp "$d/casual/casual.index" "$d/skb/split/casual.index"
  splits="test,para,casual"
  # (m): the first 400 test questions with one letter of a name edited.
  python3 "$here/robust_typos.py" "$d/skb" "$d/typos" test 400 14000000 2>/dev/null
  tail -n +2 "$d/typos/typos-test.csv" >>"$d/skb/stark_qa/stark_qa.csv"
  cp "$d/typos/typos-test.index" "$d/skb/split/typos.index"
  splits="$splits,typos"
  # (k): the test questions after a sentence that sets the scene,
  # naming the question's person (movies-skb: WordNet has no person).
  if python3 "$here/robust_context.py" "$d/skb/stark_qa/stark_qa.csv" "$d/skb/split/test.index" "$d/skb" "$d/ctx" 2>/dev/null; then
    tail -n +2 "$d/ctx/context.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cp "$d/ctx/context.index" "$d/skb/split/ctx.index"
    splits="$splits,ctx"
  fi
  if python3 "$here/robust_freeframes.py" "$d/skb" "$d/free" 2>/dev/null; then
    tail -n +2 "$d/free/free.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/free/free.csv" | tail -n +2 >"$d/skb/split/free.index"
    splits="$splits,free"
  fi
  if python3 "$here/robust_inverse.py" "$d/skb" "$d/inv" 2>/dev/null; then
    tail -n +2 "$d/inv/inv.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/inv/inv.csv" | tail -n +2 >"$d/skb/split/inv.index"
    splits="$splits,inv"
  fi
  # (f): frames another author wrote, the held-out half (aheld; the
  # development half, adev, is robust_dev.sh's).
  if python3 "$here/robust_authored.py" "$d/skb" "$d/auth" 2>/dev/null; then
    tail -n +2 "$d/auth/aheld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/auth/aheld.csv" | tail -n +2 >"$d/skb/split/auth.index"
    awk -F'\t' '$4 == "held" {print $1 "\t" $2 "\t" $3}' "$d/auth/authored.tsv" >"$d/auth/aheld.tsv"
    splits="$splits,auth"
  fi
  # (i): the twin's held-out half (theld; the development half, tdev,
  # is robust_dev.sh's).
  if python3 "$here/robust_twin.py" "$d/skb" "$d/twin" 2>/dev/null; then
    tail -n +2 "$d/twin/theld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/twin/theld.csv" | tail -n +2 >"$d/skb/split/twin.index"
    splits="$splits,twin"
  fi
  # (j): a fourth author's frames of the same shapes, every one held out.
  # A frames file that does not fit says so (on movies-skb; WordNet's
  # schema has none of the shapes' relations).
  if [ -f "$here/twin2_frames.json" ]; then
    if python3 "$here/robust_twin.py" "$d/skb" "$d/twin2" "$here/twin2_frames.json" 2>"$d/twin2.err"; then
      tail -n +2 "$d/twin2/theld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/twin2/theld.csv" | tail -n +2 >"$d/skb/split/twin2.index"
      splits="$splits,twin2"
    elif [ "$name" = movies-skb ]; then
      echo "robust_experiments: (j) skipped: $(tail -1 "$d/twin2.err")" >&2
    fi
  fi
  if [ "$name" = wordnet-skb ]; then
    python3 "$here/robust_gcide.py" "$d/skb" "$d/gcide" 400
    tail -n +2 "$d/gcide/gcide.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/gcide/gcide.csv" | tail -n +2 >"$d/skb/split/gcide.index"
    splits="$splits,gcide"
    # (d): WordNet's free frames; the held-out half (wheld), never read
    # while tuning (robust_dev.sh uses the development half, wdev).
    python3 "$here/robust_wnframes.py" "$d/skb" "$d/wfree"
    tail -n +2 "$d/wfree/wheld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/wfree/wheld.csv" | tail -n +2 >"$d/skb/split/wfree.index"
    splits="$splits,wfree"
    # (g): WordNet frames another author wrote, the held-out half
    # (waheld; the development half, wadev, is robust_dev.sh's).
    python3 "$here/robust_wnauthored.py" "$d/skb" "$d/wauth"
    tail -n +2 "$d/wauth/waheld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/wauth/waheld.csv" | tail -n +2 >"$d/skb/split/wauth.index"
    awk -F'\t' '$4 == "held" {print $1 "\t" $2 "\t" $3}' "$d/wauth/wauthored.tsv" >"$d/wauth/waheld.tsv"
    splits="$splits,wauth"
  fi
  ws="$d/ws"
  $strata import --format skbdir --in "$d/skb" --out "$ws" >/dev/null
  $strata mine-plans "$ws" >/dev/null
  # The encoder (the dense channel) first: the planner from mined plans
  # reads no query vector, so --text bm25 trains the planner a workspace
  # without one would (the same model, to the byte), and the default
  # (--text auto) the one whose queries no plan fits are answered by BM25
  # fused with the dense channel when that ranks val better.
  $strata train encoder "$ws" --seed "$seed" >"$d/train-encoder.log" 2>&1
  $strata train planner "$ws" --seed "$seed" --text bm25 --out "$ws/runs/planner" >"$d/train.log"
  $strata train planner "$ws" --seed "$seed" --out "$ws/runs/planner-text" >"$d/train-text.log"
  if [ "$name" = wordnet-skb ]; then
    $strata train planner "$ws" --seed "$seed" --text bm25 --no-fit --out "$ws/runs/nofit" >"$d/train-nofit.log"
  fi
  printf '{"format":"strata-pipeline/1","name":"bm25","scorers":[{"method":"bm25"}]}\n' >"$d/bm25.json"
  for s in ${splits//,/ }; do
    python3 "$here/split_queries.py" "$d/skb/stark_qa/stark_qa.csv" "$d/skb/split/$s.index" "$d/$s.csv"
    $strata score "$ws" --pipeline "$ws/runs/planner" --queries "$d/$s.csv" --out "$d/planner-$s.jsonl" -k 100 --force | tee "$d/score-$s.txt" >&2
    $strata score "$ws" --pipeline "$d/bm25.json" --queries "$d/$s.csv" --out "$d/bm25-$s.jsonl" -k 100 --force >/dev/null
    $strata score "$ws" --pipeline "$ws/runs/planner-text" --queries "$d/$s.csv" --out "$d/text-$s.jsonl" -k 100 --force >/dev/null
    if [ -d "$ws/runs/nofit" ]; then
      $strata score "$ws" --pipeline "$ws/runs/nofit" --queries "$d/$s.csv" --out "$d/nofit-$s.jsonl" -k 100 --force >/dev/null
    fi
  done
  # Served rows from the run files, per split; eval's own row on test.
  for s in ${splits//,/ }; do
    files="$d/planner-$s.jsonl,$d/bm25-$s.jsonl"
    [ -f "$d/nofit-$s.jsonl" ] && files="$files,$d/nofit-$s.jsonl"
    $strata eval "$ws" --run "$files" --split "$s" --json >"$d/rows-$s.jsonl"
  done
  $strata eval "$ws" --planner "$ws/runs/planner/best" --method plan-exec --split test,para --json \
    --by-shape "$d/groups.jsonl" >"$d/shape-test.jsonl" 2>/dev/null
  $strata eval "$ws" --planner "$ws/runs/planner/best" --method plan-exec --split para --json \
    --by-shape "$d/para/para-groups.jsonl" >"$d/shape-para.jsonl" 2>/dev/null
done

python3 - "$out" ${SETS:-movies-skb wordnet-skb} <<'PY'
import collections, csv, json, os, sys
out, sets = sys.argv[1], sys.argv[2:]

def rows(path):
    return [json.loads(l) for l in open(path)]

def hits(d, run, answers):
    h1, h10 = {}, {}
    for l in open(f"{d}/{run}"):
        r = json.loads(l)
        rk = [x["node"] for x in r["ranking"]]
        a = answers[r["id"]]
        h1[r["id"]] = bool(rk) and rk[0] in a
        h10[r["id"]] = any(x in a for x in rk[:10])
    return h1, h10

def fallbacks(d, run):
    return sum(1 for l in open(f"{d}/{run}") if json.loads(l).get("fallback"))

text = {}
for name in sets:
    m = json.load(open(f"{out}/{name}/ws/runs/planner-text/best/manifest.json"))
    text[name] = m["config"]["model"].get("text") or "bm25"
print("## Served planner against BM25 (Hit@1 / Hit@10, as scored by `score --pipeline`)\n")
print("| SKB | set | n | planner Hit@1 | planner Hit@10 | fell back | BM25 Hit@1 | BM25 Hit@10 | planner without the gate Hit@1 | Hit@10 | planner, fallback's text channel (`--text auto`) | Hit@1 | Hit@10 |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in sets:
    d = f"{out}/{name}"
    answers = {int(r["id"]): set(json.loads(r["answer_ids"])) for r in csv.DictReader(open(f"{d}/skb/stark_qa/stark_qa.csv"))}
    for s in ("test", "para", "casual", "typos", "ctx", "free", "inv", "auth", "twin", "twin2", "gcide", "wfree", "wauth"):
        try:
            p1, p10 = hits(d, f"planner-{s}.jsonl", answers)
        except FileNotFoundError:
            continue
        b1, b10 = hits(d, f"bm25-{s}.jsonl", answers)
        n = len(p1)
        mean = lambda h: sum(h.values()) / max(len(h), 1)
        nf = "—", "—"
        try:
            f1, f10 = hits(d, f"nofit-{s}.jsonl", answers)
            nf = "%.4f" % mean(f1), "%.4f" % mean(f10)
        except FileNotFoundError:
            pass
        x1, x10 = hits(d, f"text-{s}.jsonl", answers)
        print(f"| {name} | {s} | {n} | {mean(p1):.4f} | {mean(p10):.4f} | {fallbacks(d, f'planner-{s}.jsonl')} | {mean(b1):.4f} | {mean(b10):.4f} | {nf[0]} | {nf[1]} | {text[name]} | {mean(x1):.4f} | {mean(x10):.4f} |")
print()
for name in sets:
    d = f"{out}/{name}"
    answers = {int(r["id"]): set(json.loads(r["answer_ids"])) for r in csv.DictReader(open(f"{d}/skb/stark_qa/stark_qa.csv"))}
    p1, _ = hits(d, "planner-para.jsonl", answers)
    t1, _ = hits(d, "planner-test.jsonl", answers)
    fam = {}
    for l in open(f"{d}/para/para.tsv"):
        nid, qid, f, _ = l.rstrip("\n").split("\t", 3)
        fam[int(nid)] = (int(qid), f)
    by = collections.defaultdict(list)
    for nid, (qid, f) in fam.items():
        by[f].append((t1.get(qid, False), p1.get(nid, False)))
    print(f"### {name}: (a) per rewrite family (Hit@1 of the served planner)\n")
    print("| family | n | original test | paraphrased |")
    print("|---|---|---|---|")
    for f in sorted(by, key=lambda f: -len(by[f])):
        v = by[f]
        print(f"| {f} | {len(v)} | {sum(a for a, _ in v) / len(v):.3f} | {sum(b for _, b in v) / len(v):.3f} |")
    print()
    shapes = {}
    for path, split in ((f"{d}/shape-test.jsonl", "test"), (f"{d}/shape-para.jsonl", "para")):
        for r in rows(path):
            if r.get("by") == "shape" and r["split"] == split:
                shapes.setdefault(r["group"], {})[split] = r
    for split, base, proto in (("free", "free/free", "(c)"), ("wfree", "wfree/wheld", "(d)"), ("auth", "auth/aheld", "(f)"), ("wauth", "wauth/waheld", "(g)")):
        if not os.path.exists(f"{d}/{base}.tsv"):
            continue
        f1, _ = hits(d, f"planner-{split}.jsonl", answers)
        b1, _ = hits(d, f"bm25-{split}.jsonl", answers)
        fb = {json.loads(l)["id"] for l in open(f"{d}/planner-{split}.jsonl") if json.loads(l).get("fallback")}
        by = collections.defaultdict(list)
        for l in open(f"{d}/{base}.tsv"):
            qid, fid, shape = l.rstrip("\n").split("\t")
            by[(fid, shape)].append(int(qid))
        text = {int(r["id"]): r["query"] for r in csv.DictReader(open(f"{d}/{base}.csv"))}
        print(f"### {name}: {proto} per free frame (Hit@1 of the served planner and of BM25)\n")
        print("| frame | shape | example | n | planner | fell back | BM25 |")
        print("|---|---|---|---|---|---|---|")
        for (fid, shape), ids in sorted(by.items()):
            print(f"| {fid} | {shape} | {text[ids[0]]} | {len(ids)} | {sum(f1[i] for i in ids) / len(ids):.3f} | {sum(i in fb for i in ids)} | {sum(b1[i] for i in ids) / len(ids):.3f} |")
        print()
    if os.path.exists(f"{d}/inv/inv.tsv"):
        # (e): the type of each run's first answer, against the person
        # every frame asks for.
        import subprocess
        raw = subprocess.run(["zstd", "-dc", f"{d}/skb/nodes.jsonl.zst"], capture_output=True).stdout.decode() if not os.path.exists(f"{d}/skb/nodes.jsonl") else open(f"{d}/skb/nodes.jsonl").read()
        ntype = {}
        for l in raw.splitlines():
            o = json.loads(l)
            ntype[o["id"]] = o["type"]
        def firsts(run):
            return {json.loads(l)["id"]: [x["node"] for x in json.loads(l)["ranking"]][:1] for l in open(f"{d}/{run}")}
        pf, bf = firsts("planner-inv.jsonl"), firsts("bm25-inv.jsonl")
        fb = {json.loads(l)["id"] for l in open(f"{d}/planner-inv.jsonl") if json.loads(l).get("fallback")}
        by = collections.defaultdict(list)
        for l in open(f"{d}/inv/inv.tsv"):
            qid, fid, rel, want = l.rstrip("\n").split("\t")
            by[(fid, rel, want)].append(int(qid))
        text = {int(r["id"]): r["query"] for r in csv.DictReader(open(f"{d}/inv/inv.csv"))}
        print(f"### {name}: (e) per frame, a film's people (Hit@1 of the served planner and of BM25; first answers of another type than the frame asks for)\n")
        print("| frame | relation | example | n | planner | fell back | planner's first answer of another type | BM25 |")
        print("|---|---|---|---|---|---|---|---|")
        for (fid, rel, want), ids in sorted(by.items()):
            other = sum(1 for i in ids if pf[i] and ntype[pf[i][0]] != want)
            print(f"| {fid} | {rel} | {text[ids[0]]} | {len(ids)} | {sum(answers[i] & set(pf[i]) != set() for i in ids) / len(ids):.3f} | {sum(i in fb for i in ids)} | {other} | {sum(answers[i] & set(bf[i]) != set() for i in ids) / len(ids):.3f} |")
        print()
    print(f"### {name}: per question shape (shape of the plan mined from the original's answers; plan-exec Hit@1)\n")
    print("| shape | n | test | paraphrased |")
    print("|---|---|---|---|")
    for g in sorted(shapes, key=lambda g: -shapes[g].get("test", {"n": 0})["n"]):
        t, p = shapes[g].get("test"), shapes[g].get("para")
        print("| %s | %d | %s | %s |" % (g, (t or p)["n"], "%.3f" % t["hit@1"] if t else "—", "%.3f" % p["hit@1"] if p else "—"))
    print()
PY
