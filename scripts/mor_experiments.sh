#!/usr/bin/env bash
# MoR experiments for docs/mor-results.md (make experiments-mor): on the
# prime and mag presets at 20,000 nodes (the workspaces of
# scripts/cor_experiments.sh, made here if missing), train the native
# planner and MoR with its ablations, and evaluate on the test split with
# the planner's plans. Usage: scripts/mor_experiments.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/experiments}
strata=./bin/strata
make build >/dev/null
mkdir -p "$out" docs
doc=docs/mor-results.md
{
  echo "# MoR on the generated benchmarks"
  echo
  echo "Made by \`scripts/mor_experiments.sh\`: prime and mag at 20,000 nodes, 3,000 queries"
  echo "(seed 1); the native planner and MoR's reranker trained on the train split"
  echo "(reranker 5 epochs, 100 negatives); test split, 600 queries. Every MoR row plans"
  echo "the test queries with the trained planner (no ground-truth plan). \"w/o reranker\""
  echo "(planner+mor-traversal) ranks the traversal pool by BM25."
} > "$doc"
for preset in prime mag; do
  skb="$out/$preset-skb"; ws="$out/$preset-ws"
  if [ ! -f "$ws/workspace.snap" ]; then
    rm -rf "$skb" "$ws"
    $strata gen --preset "$preset" --nodes 20000 --queries 3000 --seed 1 --out "$skb"
    $strata import --in "$skb" --out "$ws"
    $strata train encoder "$ws"
  fi
  rm -rf "$ws/runs/planner" "$ws"/runs/mor*
  planner_out=$($strata train planner "$ws")
  planner="$ws/runs/planner/best"
  models=""
  for flags in "" "--no-textual-retrieval" "--no-structural-retrieval" "--no-tf" "--no-sf" "--no-ti" \
               "--no-sf --no-ti" "--no-tf --no-ti" "--no-tf --no-sf" "--last-node-only"; do
    # shellcheck disable=SC2086
    $strata train mor "$ws" --planner "$planner" --epochs 5 $flags >/dev/null
    name=mor$(echo "$flags" | sed 's/--no-textual-retrieval/-no-textual/; s/--no-structural-retrieval/-no-structural/; s/--last-node-only/-last-node/; s/ --/-/g; s/--/-/g; s/ //g')
    models="$models,$ws/runs/$name/best"
  done
  {
    echo
    echo "## $preset"
    echo
    echo "$planner_out"
    echo
    echo '```'
    $strata eval "$ws" --method bm25,dense --model "${models#,}" --split test
    $strata eval "$ws" --planner "$planner" --method mor-traversal --split test
    echo '```'
    echo
    echo "Hit@1 per template:"
    echo
    echo '```'
    $strata eval "$ws" --method bm25 --model "$ws/runs/mor/best" --split test --by-template | sed -n '/by template/,$p'
    echo '```'
  } >> "$doc"
done
# MetaQA, the real movie graph of ../shared/data, when present: plans from
# the question types, planner and reranker trained on 60% of the dev
# questions, reported on the test questions whose answers are reachable.
metaqa=../shared/data/metaqa
if [ -d "$metaqa" ]; then
  ws="$out/metaqa-ws"
  rm -rf "$ws"
  $strata import --format triples --in "$metaqa" --out "$ws" 2>/dev/null
  planner_out=$($strata train planner "$ws" --epochs 10)
  planner="$ws/runs/planner/best"
  models=""
  for flags in "" "--no-structural-retrieval" "--no-tf" "--last-node-only"; do
    # shellcheck disable=SC2086
    $strata train mor "$ws" --planner "$planner" --epochs 3 $flags >/dev/null
    name=mor$(echo "$flags" | sed 's/--no-structural-retrieval/-no-structural/; s/--last-node-only/-last-node/; s/--/-/g')
    models="$models,$ws/runs/$name/best"
  done
  {
    echo
    echo "## MetaQA (real knowledge graph)"
    echo
    echo "$planner_out"
    echo
    echo '```'
    $strata eval "$ws" --method bm25 --model "${models#,}" --split test-reachable
    $strata eval "$ws" --planner "$planner" --method mor-traversal --split test-reachable
    echo '```'
    echo
    echo "Hit@1 per template:"
    echo
    echo '```'
    $strata eval "$ws" --model "$ws/runs/mor/best" --split test-reachable --by-template | sed -n '/by template/,$p'
    echo '```'
  } >> "$doc"
fi
cat "$doc"
