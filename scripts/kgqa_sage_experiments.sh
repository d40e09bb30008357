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
  # The question-only encoder (--neighbors 0 --span-pairs 0): a triples
  # KB's documents are names, and with the defaults (neighbour names read
  # into every document) the mined-path predictor scored 95.5 / 97.5 / 98.3
  # (November 29) against 95.9 / 98.1 / 98.4.
  $strata train encoder "$ws" --epochs 1 --neighbors 0 --span-pairs 0 >/dev/null
  plans_out=$($strata train kgqa "$ws" --epochs 5 | sed -n 1p)
  mined_out=$($strata train kgqa "$ws" --epochs 5 --labels mined --out "$ws/runs/kgqa-mined" 2>&1 | grep -v '^evaluate\|^step ' | tr '\n' ' ')
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
    echo "target. k = 100 subgraphs, k(n) = 16 node and k(r) = 16 relation candidates (the paper's k(n), k(r))."
    echo "The dense channel is the encoder trained on the questions alone (\`strata train encoder WS --epochs 1"
    echo "--neighbors 0 --span-pairs 0\`): with its defaults, which read neighbour names into every document,"
    echo "the mined-path row was 95.5 / 97.5 / 98.3 and the question-type row 96.4 / 99.6 / 99.6 (November 29)."
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
patterns; mining paths from answers alone (no question types) costs 0.4-1.5
more. 3-hop questions went from 96.0 to 99.7 (oracle) when the matcher stopped
requiring distinct nodes: MetaQA's 3-hop answer sets include entities met
earlier on the path, and the rule that replaced it (no going straight back
over a fact), walked along the question types, gives them.
TXT
    echo
    echo "### Pruning (per-question subgraph search, real MetaQA, 200 questions per hop count)"
    echo
    echo '```'
    go test ./infer/simgrag -run '^$' -bench SimGRAGPruning -benchtime 3x | grep Benchmark
    echo '```'
    cat <<'TXT'

Partial matches expanded per question are the deterministic measure of the
pruning: at the paper's k(n) = k(r) = 16, 1-hop 135 vs 142, 2-hop 1,392 vs
13,822 (9.9x fewer), 3-hop 1,597 vs 355,442 (223x fewer); at the former 8 / 3
they were 51 vs 51, 687 vs 1,914 and 1,688 vs 20,965 (12.4x). More candidate
relations per triple multiply the full enumeration, not the pruned search.
The microsecond figures are from a shared 2-core machine. Pruned and
unpruned searches return the same subgraphs (`graphops/subgraph` TestTopKExact against
brute force on random graphs; TestSimGRAGMetaQA on real questions).

Before and after the paper's k(n) = k(r) = 16 (and name-vector matching),
the same models, Hits@1 on MetaQA 1- / 2- / 3-hop: question-type predictor
96.3 / 99.7 / 99.6 at 8 / 3 and 96.3 / 99.7 / 99.6 at 16 / 16; mined-path
predictor 95.9 / 98.2 / 98.4 and 95.9 / 98.1 / 98.4 (the previous run:
commit d4986a1).
TXT
  } >> "$doc"
fi

pq=../shared/data/pathquestion
if [ -d "$pq" ]; then
  # PathQuestion (IRN): no official split, so three seeded random 80/10/10
  # splits per set; every model trained on train, selected on val, reported
  # on test.
  # PQL-2H's KB (FB2M) has 363 relation types: it imports since relation
  # ids are wider than a byte.
  rm -f "$out/pq.jsonl.tmp"
  for set in PQ-2H PQ-3H PQL-2H; do
    case $set in
      PQ-2H) kb=2H-kb.txt tag=pq2H ;;
      PQ-3H) kb=3H-kb.txt tag=pq3H ;;
      PQL-2H) kb=PQL2-KB.txt tag=pql2H ;;
    esac
    for seed in 1 2 3; do
      ws="$out/$tag-s$seed-ws"
      rm -rf "$ws"
      $strata import --format triples --in "$pq/$kb" --kgqa "$pq/$set.txt" --seed $seed --out "$ws" >/dev/null 2>&1
      $strata train encoder "$ws" --epochs 1 --neighbors 0 --span-pairs 0 >/dev/null
      $strata train kgqa "$ws" --labels mined --out "$ws/runs/kgqa-mined-e10" >/dev/null 2>&1
      $strata train kgqa "$ws" --labels mined --epochs 100 --out "$ws/runs/kgqa-mined" >/dev/null 2>&1
      $strata train kgqa "$ws" --labels plans --epochs 100 --out "$ws/runs/kgqa" >/dev/null
      $strata eval "$ws" --method simgrag --model "$ws/runs/kgqa-mined/best,$ws/runs/kgqa-mined-e10/best,$ws/runs/kgqa/best" --split test --json |
        sed "s/^{/{\"set\":\"$set\",\"tag\":\"$tag\",\"seed\":$seed,/" >> "$out/pq.jsonl.tmp"
    done
  done
  mv "$out/pq.jsonl.tmp" "$out/pq.jsonl"
  {
    echo
    echo "## KGQA on PathQuestion (IRN's PQ-2H, PQ-3H and PQL-2H, random 80/10/10 splits)"
    echo
    echo "PathQuestion has no official split; IRN splits at random, and so does"
    echo "\`strata import\` for a PathQuestion file given without one: a seeded 80/10/10"
    echo "permutation (PQ-2H 1,526 / 190 / 192 questions, PQ-3H 4,158 / 519 / 521,"
    echo "PQL-2H 1,275 / 159 / 160). PQL-2H is PathQuestion's large-vocabulary set: its KB"
    echo "(PQL2-KB.txt, from Freebase's FB2M) has 363 relation types, which strata reads"
    echo "since relation ids outgrew a byte. Three split seeds; every model is trained on"
    echo "train, its checkpoint selected by val path accuracy, Hits@1 on test. For each"
    echo "seed S and set (PQ-2H with 2H-kb.txt, PQ-3H with 3H-kb.txt, PQL-2H with"
    echo "PQL2-KB.txt):"
    echo
    echo '```'
    echo 'strata import --format triples --in ../shared/data/pathquestion/2H-kb.txt \'
    echo '    --kgqa ../shared/data/pathquestion/PQ-2H.txt --seed S --out WS'
    echo 'strata train encoder WS --epochs 1 --neighbors 0 --span-pairs 0'
    echo 'strata train kgqa WS --labels mined --epochs 100 --out WS/runs/kgqa-mined'
    echo 'strata eval WS --model WS/runs/kgqa-mined/best --split test'
    echo '```'
    echo
    echo "\`--labels mined\` labels each train and val question with infer.MinePlans (the"
    echo "plan miner: the relation path of at most 3 steps from the topic that best"
    echo "explains the answers, each step in its stored direction; paths for all 1,716"
    echo "PQ-2H and 4,677 PQ-3H train and val questions of seed 1); of the path column"
    echo "only its first element, the topic, is used (imported as the question's"
    echo "[bracketed] topic). 100 epochs were chosen"
    echo "by val path accuracy on PQ-3H seed 1 (10 / 30 / 60 / 100 epochs: 0.60 / 0.83 /"
    echo "0.90 / 0.90); the default 10 epochs are shown too. \"Path labels\" trains on the"
    echo "path column's relations (stored direction), and the oracle row runs SimGRAG on each test"
    echo "question's own path (no predictor). k = 100, k(n) = 16, k(r) = 16."
    echo
    echo "| Hits@1 (test) | PQ-2H | PQ-3H | PQL-2H |"
    echo "|---|---|---|---|"
    echo "| IRN (published) | 96.0 | 87.7 | 72.5 |"
    echo "| SimGRAG (published, LLM patterns and answers) | 88.7 | 78.6 | - |"
    python3 - "$out/pq.jsonl" "$out" <<'PY'
import json, sys
out = sys.argv[2]
rows = [json.loads(l) for l in open(sys.argv[1])]
labels = [
    (out + "/{tag}-s{s}-ws/runs/kgqa-mined/best", "strata KGQA, mined labels, 100 epochs"),
    (out + "/{tag}-s{s}-ws/runs/kgqa-mined-e10/best", "strata KGQA, mined labels, 10 epochs (default)"),
    (out + "/{tag}-s{s}-ws/runs/kgqa/best", "strata KGQA, path labels, 100 epochs"),
    ("simgrag", "strata SimGRAG on the gold path (oracle pattern)"),
]
for method, label in labels:
    cells = []
    for set, tag in (("PQ-2H", "pq2H"), ("PQ-3H", "pq3H"), ("PQL-2H", "pql2H")):
        v = []
        for s in (1, 2, 3):
            m = method.format(tag=tag, s=s)
            v += [100 * r["hit@1"] for r in rows if r["set"] == set and r["seed"] == s and r["method"] == m]
        cells.append("%.1f (%s)" % (sum(v) / len(v), " / ".join("%.1f" % x for x in v)))
    print("| %s | %s |" % (label, " | ".join(cells)))
PY
    echo
    cat <<'TXT'
Cells: the mean over split seeds 1, 2, 3 (each seed's figure in parentheses).

Reading the table: trained on mined labels, the native predictor reaches 98.1
on PQ-2H and 93.2 on PQ-3H, above the published SimGRAG (an LLM writes the
pattern and picks the answer) and IRN (a supervised network trained on each
set) figures; IRN's random split is not ours, so the comparison is indicative.
Trained on the path column's relations (each step in its stored direction)
it reaches 98.1 / 94.9, and SimGRAG on each test question's own path 99.8 /
99.9: read in its stored direction, the path gives the answer set. Mined
labels lose 0.0 / 1.7 points to the path labels. Before the paper's
k(n) = k(r) = 16 (8 / 3, commit d4986a1) the same models scored 97.9 / 92.6
(mined, 100 epochs), 89.4 / 70.3 (mined, 10 epochs) and 98.1 / 94.4 (path
labels): the wider candidate lists gain 0.0-1.4 points. The default 10 epochs
underfit (PQ-3H: 191 mined relation paths, val path accuracy 0.60). PQ-2H's
test split has 192 questions (one question is 0.5 points), hence the spread
over seeds.

PQL-2H: the mined labels reach 95.4, 22.9 points above IRN's published
72.5. FB2M's names collapse entities: a recording and its track, or an
album and its release, share a name and so a node, and 348 of PQL-2H's
1,594 questions (21.8%) walk one self-loop fact twice ("what is the
Waterloo 's tracks 's tracks ?": `Waterloo#tracks#Waterloo#tracks#Waterloo`).
A SimGRAG match never lets two pattern triples that meet at a node take the
same stored triple (the rule MetaQA's answer sets need, see above), so those
gold paths find no subgraph (34 of seed 1's 160 test questions); the miner
labels such questions with a path the matcher can follow (often the one-hop
relation itself). A question that no pattern matches (nor, for KGQA, any
topic's own path) falls back to BM25 and is counted (eval warns how many
fell back); BM25 finds the collapsed node by the name the question says,
which lifts the path-label and oracle rows (79.4 and 81.0 before the
fallback). Seed 1 in full:
TXT
    echo
    echo '```'
    for tag in pq2H pq3H pql2H; do
      ws="$out/$tag-s1-ws"
      $strata eval "$ws" --method simgrag --model "$ws/runs/kgqa-mined/best,$ws/runs/kgqa-mined-e10/best,$ws/runs/kgqa/best" --split test
    done
    echo '```'
  } >> "$doc"
fi

# WorldCup2014 (IRN): measured when ../shared/data/worldcup holds the KB
# and the three question files; otherwise the section says what was run.
wc=../shared/data/worldcup
if [ -f "$wc/WC2014.txt" ] && [ -f "$wc/WC-P1.txt" ] && [ -f "$wc/WC-P2.txt" ] && [ -f "$wc/WC-C.txt" ]; then
  rm -f "$out/wc.jsonl.tmp"
  for set in WC-P1 WC-P2 WC-C; do
    for seed in 1 2 3; do
      ws="$out/$set-s$seed-ws"
      rm -rf "$ws"
      $strata import --format triples --in "$wc/WC2014.txt" --kgqa "$wc/$set.txt" --seed $seed --out "$ws" >/dev/null 2>&1
      $strata train encoder "$ws" --epochs 1 --neighbors 0 --span-pairs 0 >/dev/null
      $strata train kgqa "$ws" --labels mined --epochs 100 --out "$ws/runs/kgqa-mined" >/dev/null 2>&1
      $strata train kgqa "$ws" --labels plans --epochs 100 --out "$ws/runs/kgqa" >/dev/null
      $strata eval "$ws" --method simgrag --model "$ws/runs/kgqa-mined/best,$ws/runs/kgqa/best" --split test --json |
        sed "s/^{/{\"set\":\"$set\",\"seed\":$seed,/" >> "$out/wc.jsonl.tmp"
    done
  done
  mv "$out/wc.jsonl.tmp" "$out/wc.jsonl"
  {
    echo
    echo "## KGQA on WorldCup2014 (IRN's WC-P1, WC-P2, WC-C, random 80/10/10 splits)"
    echo
    echo "Each question file with the KB WC2014.txt, three split seeds, 100 epochs;"
    echo "WC-C's conjunctive questions are two paths meeting at the answers."
    echo
    echo "| Hits@1 (test) | WC-P1 | WC-P2 | WC-C |"
    echo "|---|---|---|---|"
    python3 - "$out/wc.jsonl" "$out" <<'PY'
import json, sys
out = sys.argv[2]
rows = [json.loads(l) for l in open(sys.argv[1])]
for method, label in ((out + "/{set}-s{s}-ws/runs/kgqa-mined/best", "strata KGQA, mined labels"),
                      (out + "/{set}-s{s}-ws/runs/kgqa/best", "strata KGQA, path labels"),
                      ("simgrag", "strata SimGRAG on the gold paths (oracle pattern)")):
    cells = []
    for set in ("WC-P1", "WC-P2", "WC-C"):
        v = [100 * r["hit@1"] for s in (1, 2, 3) for r in rows
             if r["set"] == set and r["seed"] == s and r["method"] == method.format(set=set, s=s)]
        cells.append("%.1f (%s)" % (sum(v) / len(v), " / ".join("%.1f" % x for x in v)))
    print("| %s | %s |" % (label, " | ".join(cells)))
PY
    echo
    echo "SimGRAG's paper reports 98.1 Hits@1 on WC2014 as a whole (an LLM writes the pattern)."
  } >> "$doc"
else
  cat >> "$doc" <<'TXT'

## WorldCup2014 (IRN's WC-P1, WC-P2, WC-C): format read, full sets not measured

`strata import --format triples --in WC2014.txt --kgqa WC-P1.txt --kgqa
WC-C.txt` reads IRN's WorldCup2014 files natively (the layout is detected:
question, answer, path, `/`-terminated answers, facts and, for WC-C, the
topics). The KB stores every relation and its `_inverse` as triples of their
own, so each path step keeps its stored direction; a conjunctive WC-C
question ("name a player who plays at Forward position at the club
Tigres_UANL ?") becomes two paths from its two topics meeting at the
answers, the intersection plans the miner and KGQA already use.

The WorldCup files are not in `../shared/data` and this machine has no
network, so WC-P1, WC-P2 and WC-C were **not** run in full (this script runs
them, three seeds each, once `../shared/data/worldcup` holds `WC2014.txt`,
`WC-P1.txt`, `WC-P2.txt` and `WC-C.txt`). What was run by hand: the KB
(`WC2014.txt`, 6,482 triples, 1,127 entities) and the first 65 lines of
WC-P2 and 55 of WC-C, copied into `/tmp` from a stored copy of IRN's
repository for this check only (WC-P1 was not available at all). Imported
with `--seed 1` (96 / 11 / 13 questions):

| on the 120 sample questions (train / val / test) | Hit@1 |
|---|---|
| plan-structure, oracle-plan and SimGRAG on the files' own paths | 1.000 / 1.000 / 1.000 |
| `mine-plans` (train + val: 80 one-hop plans, 27 intersections of two one-hop paths) | mean F1 1.000 on 107 of 107 |

So the reader, the conjunctive plans and the miner hold on the real lines;
KGQA's Hits@1 on WC-P1 / WC-P2 / WC-C waits for the files.
TXT
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
  echo "Seeds: the top 10 of a seed ranking (sage-hybrid: SAGE's 0.6·BM25/max +"
  echo "0.4·cosine over every candidate); expansion: their 1-hop candidate neighbours"
  echo "along every relation (sage), or along the similarity graph (sage-sim), rescored"
  echo "by the same fusion over the neighbour set, the best 10 added after the seeds; so"
  echo "Recall@20 before and after compare equal depths. Plan-based seeds are MoR's"
  echo "traversal with the query's plan; sage-plan applies SAGE's ±Edge policy (no"
  echo "expansion when the plan has relational hops)."
  echo
  echo '```'
  $strata eval "$ws" --method bm25+dense,sage-hybrid,sage,sage-sim,mor-traversal,sage-plan,sage-plan-always --split test
  echo '```'
  cat <<'TXT'

Hit@1 and Hit@5 cannot change (the seeds stay first). SAGE's linear fusion
makes far better seeds than strata's earlier RRF of BM25 and the dense channel
(Hit@1 0.505 against 0.170: the RRF gave the weak hashed encoder BM25's weight).
On this preset expansion lowers Recall@20 a little, along relations (0.637 to
0.619; also_buy, also_view, brand, category, color) and along the similarity
graph (0.616): neighbours of the top seeds are less often gold than seeds
11-20. With the earlier all-pairs graph (mean degree 761; the 95th percentile
links 18% of all pairs on generated text) sage-sim raised the RRF seeds'
Recall@20 from 0.566 to 0.625; the graph is now each candidate's 10 nearest
per field above the threshold (mean degree 62), which scales to WordNet's
117,659 candidates. For plan-based seeds every test plan has relational hops,
so the ±Edge policy never expands and keeps Recall@20 at 0.871, where
expanding anyway drops it to 0.651: SAGE's reason for the policy.
TXT
  echo
  echo "Similarity graph degrees (SAGE Table 5):"
  echo
  echo '```'
  $strata simgraph "$ws"
  echo '```'
} >> "$doc"
cat "$doc"
