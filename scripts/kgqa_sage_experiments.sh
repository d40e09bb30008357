#!/usr/bin/env bash
# docs/kgqa-sage.md: SimGRAG KGQA on the real MetaQA graph (when
# ../shared/data/metaqa is present), the pruning speed-up, and SAGE's
# before/after expansion table on the generated amazon preset.
set -euo pipefail
strata=${STRATA:-bin/strata}
out=${OUT:-out/kgqa-sage}
doc=docs/kgqa-sage.md
mkdir -p "$out" docs
{
  echo "# SimGRAG, KGQA and SAGE results"
  echo
  echo "Produced by \`make experiments-kgqa\` (scripts/kgqa_sage_experiments.sh) on $(nproc) cores."
} > "$doc"

metaqa=../shared/data/metaqa
if [ -d "$metaqa" ]; then
  ws="$out/metaqa-ws"
  rm -rf "$ws"
  $strata import --format triples --in "$metaqa" --out "$ws" 2>/dev/null >/dev/null
  # SimGRAG embeds pattern nodes and relations with the dense channel.
  $strata train encoder "$ws" --epochs 1 >/dev/null
  plans_out=$($strata train kgqa "$ws" --epochs 5 | head -1)
  mined_out=$($strata train kgqa "$ws" --epochs 5 --labels mined --out "$ws/runs/kgqa-mined" 2>&1 | grep -v '^evaluate' | tr '\n' ' ')
  splits=1-hop-dev/test-reachable,2-hop-dev/test-reachable,3-hop-dev/test-reachable
  {
    echo
    echo "## KGQA on MetaQA (real graph, 43k entities, 130k triples)"
    echo
    echo "The pattern predictor is trained on 60% of MetaQA's dev questions (every hop"
    echo "count together), selected on 20%, and reported on the remaining 20% whose"
    echo "answers are all in the reconstructed kb.txt and reachable by the question type's"
    echo "path (1-hop 1,998, 2-hop 2,491, 3-hop 1,941 questions). SimGRAG's published"
    echo "Hits@1 use an LLM for both the pattern and the final answer; here the pattern"
    echo "comes from the native predictor and the answer is the best-GSD binding of the"
    echo "target. k = 100 subgraphs, k(n) = 8 node and k(r) = 3 relation candidates."
    echo
    echo "- $plans_out"
    echo "- $mined_out"
    echo
    echo '```'
    $strata eval "$ws" --method simgrag --model "$ws/runs/kgqa/best,$ws/runs/kgqa-mined/best" --split "$splits"
    echo '```'
    echo
    echo "| Hits@1 | 1-hop | 2-hop | 3-hop |"
    echo "|---|---|---|---|"
    echo "| SimGRAG (published, LLM patterns) | 98.0 | 98.4 | 97.8 |"
    for m in simgrag "$ws/runs/kgqa/best" "$ws/runs/kgqa-mined/best"; do
      case $m in
        simgrag) label="strata SimGRAG, question-type patterns (oracle)";;
        *kgqa-mined*) label="strata KGQA, predictor trained on mined paths";;
        *) label="strata KGQA, predictor trained on question types";;
      esac
      if [ "$m" = simgrag ]; then flag=(--method simgrag); else flag=(--model "$m"); fi
      row=$($strata eval "$ws" "${flag[@]}" --split "$splits" --json | python3 -c '
import json, sys
r = [json.loads(l) for l in sys.stdin]
print(" | ".join("%.1f" % (100 * x["hit@1"]) for x in r))')
      echo "| $label | $row |"
    done
    cat <<'TXT'

Reading the table: with the question types' patterns every exact match has
GSD 0, so Hit@1 misses only where the graph is ambiguous. MetaQA merges films
of the same title into one entity ("King Kong" holds three films' actors, the
gold answers one film's), and some titles exist twice differing only in case
("King Kong" and "king kong" embed identically); ties at equal GSD go to the
smaller node id. The native predictor loses 0.1-0.4 points to the oracle
patterns; mining paths from answers alone (no question types) costs 1-2 more.
TXT
    echo
    echo "### Pruning (per-question subgraph search, real MetaQA, 200 questions per hop count)"
    echo
    echo '```'
    go test ./infer -run '^$' -bench SimGRAGPruning -benchtime 3x | grep Benchmark
    echo '```'
    cat <<'TXT'

Partial matches expanded per question are the deterministic measure of the
pruning (1-hop 51 vs 51, 2-hop 686 vs 1,911, 3-hop 1,699 vs 20,916: 12.3x
fewer); the microsecond figures are from a shared 2-core machine. Pruned and
unpruned searches return the same subgraphs (TestTopKSubgraphsExact against
brute force on random graphs; TestSimGRAGMetaQA on real questions).
TXT
  } >> "$doc"
fi

ws="$out/amazon-ws"
rm -rf "$out/amazon" "$ws"
$strata gen --preset amazon --nodes 5000 --out "$out/amazon" >/dev/null
$strata import --in "$out/amazon" --out "$ws" >/dev/null 2>&1
$strata train encoder "$ws" >/dev/null
{
  echo
  echo "## SAGE on the generated amazon preset (5,000 nodes, test split)"
  echo
  echo "Seeds: the top 10 of a seed ranking; expansion: their 1-hop candidate"
  echo "neighbours along every relation (sage), or along the similarity graph (sage-sim),"
  echo "rescored by 0.4·dense + 0.6·BM25 over the neighbour set (max-normalised), the"
  echo "best 10 added after the seeds; so Recall@20 before and after compare equal"
  echo "depths. Plan-based seeds are MoR's traversal with the query's plan; sage-plan"
  echo "applies SAGE's ±Edge policy (no expansion when the plan has relational hops)."
  echo
  echo '```'
  $strata eval "$ws" --method bm25+dense,sage,sage-sim,mor-traversal,sage-plan,sage-plan-always --split test
  echo '```'
  cat <<'TXT'

Hit@1 and Hit@5 cannot change (the seeds stay first). On this preset,
expansion along relations (also_buy, also_view, brand, category, color) lowers
Recall@20 from 0.566 to 0.489: neighbours of the top seeds are less often
gold than seeds 11-20. Expansion along the similarity graph raises it to 0.625.
For plan-based seeds every test plan has relational hops, so the ±Edge policy
never expands and keeps Recall@20 at 0.871, where expanding anyway drops it to
0.651: SAGE's reason for the policy. The similarity graph is dense on
generated text (OR over five fields at the 95th percentile links 18% of pairs).
TXT
  echo
  echo "Similarity graph degrees (SAGE Table 5):"
  echo
  echo '```'
  $strata simgraph "$ws"
  echo '```'
} >> "$doc"
cat "$doc"
