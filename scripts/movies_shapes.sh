#!/usr/bin/env bash
# Markdown on stdout (real_experiments.sh appends it to docs/real-data.md):
# planner + plan-exec on ../shared/data/movies-skb (questions and answer ids
# only) per question shape, before and after each plan operator. Each row
# trains the planner on plans mined from the train answers with the
# operator off or on; the test questions are grouped by the shape of the
# plan mined from their own answers with every operator off (a grouping
# that explains rows, never an input to them), so every row splits the
# same questions the same way.
set -euo pipefail
strata=${STRATA:-bin/strata}
data=${MOVIES:-../shared/data/movies-skb}
out=${OUT:-out/real}/movies
if [ ! -d "$data" ]; then
  echo "movies_shapes: $data is absent (it ships with the project's shared data, not with a clone)" >&2
  exit 1
fi
mkdir -p "$out"
ws="$out/ws"
rm -rf "$ws"
$strata import --format skbdir --in "$data" --out "$ws" >/dev/null
$strata mine-plans "$ws" --split test --no-universal --no-ranked-middle --out "$out/groups.jsonl" --force >/dev/null
# Each operator's row: label|mine-plans flags|train planner flags, leaving
# the later operators out.
rows=("existential paths only (before)|--no-universal --no-ranked-middle|--no-ranked-middle --no-attributes" "+ universal steps (∀)|--no-ranked-middle|--no-ranked-middle --no-attributes" "+ ranked middle positions (~)||--no-attributes" "+ attribute filters (where)||")
i=0
for row in "${rows[@]}"; do
  IFS='|' read -r _ mflags tflags <<<"$row"
  # shellcheck disable=SC2086
  $strata mine-plans "$ws" $mflags --out "$out/mined-$i.jsonl" --force >/dev/null
  # shellcheck disable=SC2086
  $strata train planner "$ws" --mined "$out/mined-$i.jsonl" $tflags --out "$ws/runs/planner-$i" >/dev/null
  $strata eval "$ws" --planner "$ws/runs/planner-$i/best" --method plan-exec --split test --json --by-shape "$out/groups.jsonl" > "$out/rows-$i.jsonl"
  i=$((i + 1))
done
echo
echo "## movies-skb: planner + plan-exec per question shape, by operator"
echo
echo "\`../shared/data/movies-skb\` (MetaQA's movie KB as an SKB: release year and"
echo "language in the films' text only; questions and answer ids only). Plans are"
echo "mined from the train answers, the planner trained on them (default"
echo "settings), test Hit@1. Test questions are grouped by the plan mined from their"
echo "own answers with every operator off, so each column splits the same"
echo "questions. Produced by \`scripts/movies_shapes.sh\` (part of"
echo "\`make experiments-real\`)."
echo
python3 - "$out" "${#rows[@]}" "${rows[@]}" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
labels = [r.split("|")[0] for r in sys.argv[3:3 + n]]
cols = []
for i in range(n):
    rows = [json.loads(l) for l in open(f"{out}/rows-{i}.jsonl")]
    whole = [r for r in rows if "by" not in r][0]
    groups = {r["group"]: r for r in rows if r.get("by") == "shape"}
    cols.append((whole, groups))
print("| test questions (shape of the plan mined from their answers) | n | " + " | ".join(labels) + " |")
print("|---|---|" + "---|" * n)
w = cols[0][0]
print("| **whole split** | %d | %s |" % (w["n"], " | ".join("**%.3f**" % c[0]["hit@1"] for c in cols)))
for g in sorted(cols[0][1], key=lambda g: (-cols[0][1][g]["n"], g)):
    print("| %s | %d | %s |" % (g, cols[0][1][g]["n"], " | ".join("%.3f" % c[1][g]["hit@1"] for c in cols)))
PY
