#!/usr/bin/env bash
# STaRK-size runs on one machine: each step of the real-SKB path (gen,
# import, mine-plans, train planner, eval) timed with its peak resident
# memory (/usr/bin/time), at Prime density (130,000 nodes, 7.65 million
# edges) and at MAG size (1.9 million nodes, 40 million edges), 3,000
# questions each. The workspaces get questions and answers only: the
# planner learns from plans mined from the train answers, as on a real SKB.
# Markdown on stdout; SIZES=prime or SIZES=mag runs one. MAG needs about
# 12 GB of memory and 20 GB of disk, and half an hour on 2 cores.
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
for size in ${SIZES:-prime mag}; do
  case $size in
  prime) args=(--preset prime --nodes 130000 --edges 7650000) ;;
  mag) args=(--preset mag --nodes 1900000 --edges 40000000) ;;
  *) echo "bench_scale: unknown size $size (prime or mag)" >&2; exit 1 ;;
  esac
  d="$out/$size"
  rm -rf "$d"
  echo
  echo "### $size: ${args[*]} --queries 3000"
  echo
  echo "| step | wall | peak RSS |"
  echo "|---|---|---|"
  tm "gen" "$strata" gen "${args[@]}" --queries 3000 --out "$d/skb"
  rm -f "$d/skb/stark_qa/plans.jsonl" # questions and answers only, as a real SKB
  tm "import" "$strata" import --format skbdir --in "$d/skb" --out "$d/ws"
  tm "mine-plans (2,400 train+val)" "$strata" mine-plans "$d/ws"
  tm "train planner" "$strata" train planner "$d/ws"
  tm "eval bm25 + plan-exec (600 test)" "$strata" eval "$d/ws" --planner "$d/ws/runs/planner/best" --method bm25,plan-exec
done
