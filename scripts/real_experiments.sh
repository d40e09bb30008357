#!/usr/bin/env bash
# docs/real-data.md: every method on a real SKB that ships questions and
# answer ids only (../shared/data/wordnet-skb): plans are mined from the
# train answers, and nothing that uses a test question's answers appears
# outside the row marked oracle.
set -euo pipefail
strata=${STRATA:-bin/strata}
data=${DATA:-../shared/data/wordnet-skb}
out=${OUT:-out/real}
doc=${DOC:-docs/real-data.md}
if [ ! -d "$data" ]; then
  echo "real_experiments: $data is absent (it ships with the project's shared data, not with a clone)" >&2
  exit 1
fi
ws="$out/wordnet-ws"
rm -rf "$ws"
mkdir -p "$out" "$(dirname "$doc")"
times="$out/times.txt"
: > "$times"
# timed NAME CMD...: run CMD, record its wall time and peak RSS.
timed() {
  local name=$1
  shift
  /usr/bin/time -f "$name	%e	%M" -a -o "$times" "$@"
}
timed "import" $strata import --format skbdir --in "$data" --out "$ws" >/dev/null
mine=$(timed "mine-plans (train, val)" $strata mine-plans "$ws")
timed "mine-plans (test, oracle only)" $strata mine-plans "$ws" --split test --out "$out/mined-test.jsonl" --force >/dev/null
encoder=$(timed "train encoder" $strata train encoder "$ws")
cor=$(timed "train cor" $strata train cor "$ws" --epochs "${COR_EPOCHS:-10}")
cor_all=$(timed "train cor --loss all" $strata train cor "$ws" --loss all --epochs "${COR_EPOCHS:-10}" --out "$ws/runs/cor-eq11")
mfar=$(timed "train mfar" $strata train mfar "$ws" --epochs "${MFAR_EPOCHS:-10}")
planner=$(timed "train planner" $strata train planner "$ws")
mor=$(timed "train mor" $strata train mor "$ws" --planner "$ws/runs/planner/best")
grasp=$(timed "train grasp" $strata train grasp "$ws" --mfar "$ws/runs/mfar" --planner "$ws/runs/planner" --stage3 "$ws/runs/mor")
sage=$(timed "eval sage" $strata eval "$ws" --method bm25+dense,sage --split test 2>&1)
sagesim=$(timed "eval sage-sim (with its graph)" $strata eval "$ws" --method sage-sim --split test 2>&1)
planned=$(timed "eval planner methods" $strata eval "$ws" --planner "$ws/runs/planner/best" --method plan-exec,mor-traversal,simgrag,simgrag-gsd,sage-plan --split test 2>&1)
base=$($strata eval "$ws" --method bm25,dense,bm25-stem,reading --model "$ws/runs/cor/best,$ws/runs/cor-eq11/best,$ws/runs/mfar/best,$ws/runs/mor/best" --split test)
oracle=$($strata eval "$ws" --plans "$out/mined-test.jsonl" --method plan-exec --split test)
# Hit@1 per plan shape, the test questions grouped by their own mined plans
# (the grouping uses test answers; it explains the rows, it ranks nothing).
shapes=$($strata eval "$ws" --planner "$ws/runs/planner/best" --method bm25,plan-exec,mor-traversal,simgrag,simgrag-gsd \
  --model "$ws/runs/mor/best,$ws/runs/grasp" --split test --by-shape "$out/mined-test.jsonl" --json 2>/dev/null |
  python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
groups = [r for r in rows if r.get("by") == "shape"]
methods = list(dict.fromkeys(r["method"] for r in groups))
# Run directories by their name; "planner+" (the plan source) left out.
short = {m: (m.rstrip("/").split("/")[-2] if m.rstrip("/").endswith("best") else m.rstrip("/").split("/")[-1]).removeprefix("planner+") for m in methods}
n = {r["group"]: r["n"] for r in groups if r["method"] == methods[0]}
cell = {(r["method"], r["group"]): r["hit@1"] for r in groups}
print("| mined plan (shape, relations) | n | " + " | ".join(short[m] for m in methods) + " |")
print("|---|---|" + "---|" * len(methods))
for g in sorted(n, key=lambda g: (-n[g], g)):
    if n[g] >= 8:
        print("| %s | %d | %s |" % (g, n[g], " | ".join("%.3f" % cell[(m, g)] for m in methods)))
')
{
  echo "# Real data: WordNet, questions and answers only"
  echo
  echo "Produced by \`make experiments-real\` (scripts/real_experiments.sh) on $(nproc) cores,"
  echo "$(date -u +%Y-%m-%d). Data: ../shared/data/wordnet-skb (117,659 synsets, 186,325 edges,"
  echo "6,000 questions, 3,600/1,200/1,200 train/val/test), which ships no plans."
  echo
  echo "## Mined plans (train and val answers)"
  echo
  echo '```'
  echo "$mine"
  echo '```'
  echo
  echo "## Training"
  echo
  echo '```'
  printf '%s\n' "$encoder" "$cor" "$cor_all" "$mfar" "$planner" "$mor"
  echo
  echo "$grasp"
  echo '```'
  echo
  echo "## Test split"
  echo
  echo '```'
  echo "$base"
  echo
  echo "$planned"
  echo
  echo "$sage"
  echo
  echo "$sagesim"
  echo
  echo "$oracle"
  echo '```'
  echo
  echo "## Per plan shape (test Hit@1, grouped by each question's mined plan; shapes with at least 8 questions)"
  echo
  echo "$shapes"
  echo
  echo "## Wall time and peak memory"
  echo
  echo "| step | seconds | peak RSS (MB) |"
  echo "|---|---|---|"
  awk -F'\t' '{printf "| %s | %.0f | %.0f |\n", $1, $2, $3/1024}' "$times"
  if [ -d "${MOVIES:-../shared/data/movies-skb}" ]; then
    STRATA=$strata OUT=$out bash scripts/movies_shapes.sh
    STRATA=$strata OUT=$out bash scripts/movies_phrasings.sh
  fi
} > "$doc.raw"
echo "raw outputs in $doc.raw; the committed $doc adds the summary table and reading" >&2
cat "$doc.raw"
