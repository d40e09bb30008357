#!/usr/bin/env bash
# Served exactly as evaluated, on real SKBs with questions and answers only
# (../shared/data/wordnet-skb and movies-skb): plans mined from the train
# answers, the planner trained on them, then the test split three ways:
#   eval --planner RUN --method plan-exec     (the row training selects by)
#   score --pipeline RUN                      (the run directory, as served)
#   score --pipeline RUN.tar                  (its bundle, elsewhere)
# each scored file evaluated with eval --run. The three rows must be equal,
# and the two scored files byte-identical.
set -euo pipefail
strata=${STRATA:-bin/strata}
shared=${SHARED:-../shared/data}
out=${OUT:-out/served}
mkdir -p "$out"
for name in ${SETS:-wordnet-skb movies-skb}; do
  data="$shared/$name"
  if [ ! -d "$data" ]; then
    echo "served_real: $data is absent (it ships with the project's shared data, not with a clone)" >&2
    exit 1
  fi
  ws="$out/$name-ws"
  rm -rf "$ws"
  $strata import --format skbdir --in "$data" --out "$ws" >/dev/null
  $strata mine-plans "$ws" | tail -1
  $strata train planner "$ws" | tail -1
  # The test questions as a query file, answers left out: what a user scores.
  python3 "$(dirname "$0")/split_queries.py" "$data/stark_qa/stark_qa.csv" "$data/split/test.index" "$out/$name-test.csv"
  k=$($strata info "$ws" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["candidates"])')
  $strata bundle "$ws" --pipeline "$ws/runs/planner" --out "$out/$name-planner.tar" --force >/dev/null
  $strata score "$ws" --pipeline "$ws/runs/planner" --queries "$out/$name-test.csv" --out "$out/$name-run.jsonl" -k "$k" --force
  $strata score "$ws" --pipeline "$out/$name-planner.tar" --queries "$out/$name-test.csv" --out "$out/$name-bundle.jsonl" -k "$k" --force
  echo "== $name, test split"
  $strata eval "$ws" --planner "$ws/runs/planner/best" --method plan-exec --pipeline "$ws/runs/planner" \
    --run "$out/$name-run.jsonl,$out/$name-bundle.jsonl" --split test --json | tee "$out/$name-rows.jsonl" |
    python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
keys = ("n", "hit@1", "hit@5", "recall@20", "mrr")
for r in rows:
    print("%-45s %s" % (r["method"], "  ".join("%s %s" % (k, r[k]) for k in keys)))
if any(tuple(r[k] for k in keys) != tuple(rows[0][k] for k in keys) for r in rows):
    sys.exit("served_real: the rows differ")
print("eval, score of the run directory and of the bundle: identical, every digit")
'
  cmp "$out/$name-run.jsonl" "$out/$name-bundle.jsonl" && echo "run directory and bundle: byte-identical rankings"
done
