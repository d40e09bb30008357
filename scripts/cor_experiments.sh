#!/usr/bin/env bash
# CoR experiments for docs/methods.md (make experiments): for the prime and mag
# presets at 20,000 nodes, train the encoder and CoR with its three
# ablations, evaluate everything on the test split and draw CoR's curves.
# Usage: scripts/cor_experiments.sh [OUTDIR]   (default out/experiments)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/experiments}
strata=./bin/strata
make build >/dev/null
mkdir -p "$out" docs
for preset in prime mag; do
  skb="$out/$preset-skb"; ws="$out/$preset-ws"
  rm -rf "$skb" "$ws"
  $strata gen --preset "$preset" --nodes 20000 --queries 3000 --seed 1 --out "$skb"
  $strata import --in "$skb" --out "$ws"
  $strata train encoder "$ws"
  $strata train cor "$ws"
  $strata train cor "$ws" --no-textual
  $strata train cor "$ws" --no-relational
  $strata train cor "$ws" --no-hybrid
  $strata eval "$ws" --method bm25,dense \
    --model "$ws/runs/cor/best,$ws/runs/cor-no-textual/best,$ws/runs/cor-no-relational/best,$ws/runs/cor-no-hybrid/best" \
    --split test --json > "$out/$preset-test.jsonl"
  $strata curves "$ws" --run "$ws/runs/cor" --split val,test
  cp "$ws/runs/cor/curves.png" "docs/cor-curves-$preset.png"
  cat "$out/$preset-test.jsonl"
done
