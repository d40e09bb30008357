#!/usr/bin/env bash
# docs/grasp-results.md: BM25, dense, mFAR, GRASP's graph branch, stage-2
# fusion and stage 3 on the generated amazon, mag and prime presets.
set -euo pipefail
strata=${STRATA:-bin/strata}
out=${OUT:-out/grasp}
nodes=${NODES:-5000}
queries=${QUERIES:-4000}
doc=docs/grasp-results.md
mkdir -p "$out" docs
{
  echo "# mFAR and GRASP on the generated presets"
  echo
  echo "Produced by \`make experiments-grasp\` (scripts/grasp_experiments.sh): $nodes nodes and"
  echo "$queries queries per preset (60/20/20 train/val/test), seed 1, $(nproc) cores. Test split."
  echo "The dense channel is strata's hashed n-gram encoder trained on the train split; mFAR"
  echo "uses it for every field. GRASP's plans come from the native planner (no ground-truth"
  echo "plan is used at test time); stage 3 is MoR's trajectory reranker planning with the"
  echo "same planner, fused with stage 2 by static RRF fitted on val."
} > "$doc"
for preset in amazon mag prime; do
  skb="$out/$preset"
  ws="$out/$preset-ws"
  rm -rf "$skb" "$ws"
  $strata gen --preset "$preset" --nodes "$nodes" --queries "$queries" --out "$skb" >/dev/null
  $strata import --in "$skb" --out "$ws" >/dev/null 2>&1
  $strata train encoder "$ws" >/dev/null
  mfar=$($strata train mfar "$ws" --epochs 3 --checkpoint-every 25 | sed -n 1p)
  planner=$($strata train planner "$ws" --epochs 10 | sed -n 1p)
  $strata train mor "$ws" --planner "$ws/runs/planner/best" --epochs 3 >/dev/null
  grasp=$($strata train grasp "$ws" --mfar "$ws/runs/mfar" --planner "$ws/runs/planner" --stage3 "$ws/runs/mor")
  {
    echo
    echo "## $preset"
    echo
    echo "- $mfar"
    echo "- $planner"
    echo
    echo '```'
    $strata eval "$ws" --method bm25,dense --split test
    echo
    echo "$grasp"
    echo '```'
  } >> "$doc"
done
echo "Summary table and reading: see the committed docs/grasp-results.md (written from these outputs)." >&2
cat "$doc"
