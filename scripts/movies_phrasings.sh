#!/usr/bin/env bash
# Phrasings the training never showed, on ../shared/data/movies-skb: the
# questions are grouped by their sentence frame (the question with its
# linked anchor mentions replaced by X and digit runs by N), and within
# each question shape a third of the frames is held out. The planner
# trains and selects on the questions of the other frames (of the original
# train and val splits) and is evaluated on the original test questions of
# seen frames and on every question of a held-out frame. Frames and shapes
# come from plans mined over all splits: they define the split, never a
# model input. Markdown on stdout.
set -euo pipefail
strata=${STRATA:-bin/strata}
data=${MOVIES:-../shared/data/movies-skb}
out=${OUT:-out/real}/phrasings
if [ ! -d "$data" ]; then
  echo "movies_phrasings: $data is absent (it ships with the project's shared data, not with a clone)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cp -r "$data" "$out/skb"
chmod -R u+w "$out/skb"
$strata import --format skbdir --in "$out/skb" --out "$out/all-ws" >/dev/null
$strata mine-plans "$out/all-ws" --split train,val,test --no-universal --no-ranked-middle --out "$out/frames.jsonl" --force >/dev/null
python3 - "$out/frames.jsonl" "$out/skb/split" <<'PY'
import collections, hashlib, json, re, sys
mined, split = sys.argv[1], sys.argv[2]
orig = {s: [int(l) for l in open(f"{split}/{s}.index") if l.strip()] for s in ("train", "val", "test")}
frame, shape = {}, {}
for line in open(mined):
    r = json.loads(line)
    q = r["query"]
    for a in sorted((a["text"] for a in r["plan"].get("Anchors") or []), key=len, reverse=True):
        q = q.replace(a, "X")
    frame[r["q_id"]] = re.sub(r"\d+", "N", q)
    shape[r["q_id"]] = r["mined"]["shape"] + " " + " / ".join(
        t for p in r["plan"]["Metapath"] for t in p[1::2])
# A frame's shape: the most common among its questions.
by_frame = collections.defaultdict(collections.Counter)
for q, f in frame.items():
    by_frame[f][shape[q]] += 1
frames_of = collections.defaultdict(list)
for f, c in by_frame.items():
    frames_of[c.most_common(1)[0][0]].append(f)
held = set()
for s, fs in frames_of.items():
    fs.sort(key=lambda f: hashlib.sha256(f.encode()).hexdigest())
    held.update(fs[: len(fs) // 3])  # a third, rounded down: a shape with one or two frames keeps them all
def out(name, ids):
    with open(f"{split}/{name}.index", "w") as f:
        f.write("".join(f"{i}\n" for i in sorted(ids)))
seen = lambda q: q in frame and frame[q] not in held
unseen = lambda q: q in frame and frame[q] in held
out("train", [q for q in orig["train"] if seen(q)])
out("val", [q for q in orig["val"] if seen(q)])
out("test", [q for q in orig["test"] if seen(q)])
out("unseen", [q for s in orig.values() for q in s if unseen(q)])
n = lambda name: sum(1 for _ in open(f"{split}/{name}.index"))
print(f"{len(by_frame)} frames, {len(held)} held out; train {n('train')}, val {n('val')}, test (seen frames) {n('test')}, unseen frames {n('unseen')}", file=sys.stderr)
PY
ws="$out/ws"
$strata import --format skbdir --in "$out/skb" --out "$ws" >/dev/null
$strata mine-plans "$ws" >/dev/null
$strata train planner "$ws" >/dev/null
$strata eval "$ws" --planner "$ws/runs/planner/best" --method plan-exec --split test,unseen --json > "$out/rows.jsonl"
echo
echo "## movies-skb: phrasings the planner never saw"
echo
echo "Questions grouped by sentence frame (anchors replaced by X, numbers by N);"
echo "within each question shape a third of the frames is held out (none for a"
echo "shape with fewer than three). The planner trains on the train questions of"
echo "the other frames (plans mined from their answers, default settings) and is"
echo "evaluated on the test questions of seen frames and on every question of a"
echo "held-out frame. Produced by \`scripts/movies_phrasings.sh\`."
echo
echo "| questions | n | hit@1 | hit@5 | recall@20 | mrr |"
echo "|---|---|---|---|---|---|"
python3 - "$out/rows.jsonl" <<'PY'
import json, sys
names = {"test": "test, seen frames", "unseen": "held-out frames (never trained on)"}
for l in open(sys.argv[1]):
    r = json.loads(l)
    print("| %s | %d | %.3f | %.3f | %.3f | %.3f |" % (names.get(r["split"], r["split"]), r["n"], r["hit@1"], r["hit@5"], r["recall@20"], r["mrr"]))
PY
