#!/usr/bin/env bash
# STaRK-size runs on one machine: each step of the real-SKB path (gen,
# import, mine-plans, train planner, eval) timed with its peak resident
# memory (/usr/bin/time), at Prime density (130,000 nodes, 7.65 million
# edges) and at MAG size (1.9 million nodes, 40 million edges), 3,000
# questions each, and (hubs) at the size of a real biomedical SKB with hub
# degrees (64,000 nodes, 384,000 edges drawn with --skew 1, 6,000
# questions). The workspaces get questions and answers only: the planner
# learns from plans mined from the train answers, as on a real SKB.
# Markdown on stdout; SIZES=prime, SIZES=mag or SIZES=hubs runs one. MAG
# needs about 12 GB of memory and 20 GB of disk, and half an hour on 2
# cores; hubs about 15 minutes.
set -euo pipefail
strata=$(realpath "${STRATA:-bin/strata}")
out=${OUT:-out/scale}
mkdir -p "$out"
tm() { # label, command...: one table row
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >"$out/last.log" 2>&1 || {
    cat "$out/last.log" >&2
    exit 1
  }
  read -r s kb <"$out/time"
  awk -v l="$label" -v s="$s" -v kb="$kb" 'BEGIN { printf "| %s | %s s | %.2f GB |\n", l, s, kb / 1048576 }'
}
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')."
for size in ${SIZES:-prime mag hubs}; do
  case $size in
  prime) args=(--preset prime --nodes 130000 --edges 7650000) ;;
  mag) args=(--preset mag --nodes 1900000 --edges 40000000) ;;
  hubs) args=(--preset prime --nodes 64000 --edges 384000 --skew 1) ;;
  *) echo "bench_scale: unknown size $size (prime, mag or hubs)" >&2; exit 1 ;;
  esac
  queries=3000
  [ "$size" = hubs ] && queries=6000
  d="$out/$size"
  rm -rf "$d"
  echo
  echo "### $size: ${args[*]} --queries $queries"
  echo
  echo "| step | wall | peak RSS |"
  echo "|---|---|---|"
  tm "gen" "$strata" gen "${args[@]}" --queries "$queries" --out "$d/skb"
  rm -f "$d/skb/stark_qa/plans.jsonl" # questions and answers only, as a real SKB
  tm "import" "$strata" import --format skbdir --in "$d/skb" --out "$d/ws"
  tm "mine-plans (train+val)" "$strata" mine-plans "$d/ws"
  tm "train planner" "$strata" train planner "$d/ws"
  tm "eval bm25 + plan-exec (test)" "$strata" eval "$d/ws" --planner "$d/ws/runs/planner/best" --method bm25,plan-exec
done
