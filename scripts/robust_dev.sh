#!/usr/bin/env bash
# The development sets of docs/robustness.md, cut from the VALIDATION
# questions of movies-skb and wordnet-skb (never the test questions, which
# robust_experiments.sh keeps for the held-out protocol):
#   vframe  each val question rewritten in another sentence frame
#           (scripts/robust_paraphrase.py --no-synonyms: fronted
#           restriction, declarative, question, answer type named by a
#           noun), anchors kept verbatim;
#   vsyn    the same rewrites with synonyms for the relation words;
#   wdev    wordnet-skb only: the development half of WordNet's free
#           frames (scripts/robust_wnframes.py; robust_experiments.sh
#           keeps the other half held out);
#   mdev    movies-skb only: 53 development frames of every question
#           shape (scripts/robust_mframes.py; protocol (c)'s frames stay
#           held out);
#   idev    movies-skb only: a film's director, writers or cast, three
#           development frames (scripts/robust_inverse.py; protocol (e)'s
#           six frames stay held out).
#   adev    movies-skb only: 28 development frames of every question
#           shape written by another author (scripts/robust_authored.py;
#           protocol (f)'s other 27 stay held out);
#   wadev   wordnet-skb only: 18 development frames of WordNet's shapes
#           written by another author (scripts/robust_wnauthored.py;
#           protocol (g)'s other 17 stay held out).
#   tdev    movies-skb only: 26 development frames of the README's
#           question shapes written by a third author
#           (scripts/robust_twin.py; protocol (i)'s other 22 stay held
#           out).
#   cdev    movies-skb only: mdev's questions after a sentence that
#           sets the scene, naming the question's person
#           (scripts/robust_context.py; protocol (k) does the same to
#           the test questions).
#   t3dev   movies-skb only: 66 frames of the README's question shapes
#           by a fifth author (scripts/twin3_frames.json through
#           scripts/robust_twin.py; development, read, unlike (j)'s).
#   w5dev   wordnet-skb only: 35 frames of WordNet's shapes by a sixth
#           author (scripts/wn5_frames.json through
#           scripts/robust_wnauthored.py; development).
# Both are appended to a copy of each SKB as their own splits, so
# training (train and val only) is the original SKB's. Then `train
# planner` runs with the flags given (default, then each ablation named
# in ABLATIONS) and plan-exec is evaluated on val, vframe and vsyn.
# Markdown on stdout.
#
#   STRATA=bin/strata scripts/robust_dev.sh
#   ABLATIONS="--no-compose --no-frame-words" SETS=movies-skb scripts/robust_dev.sh
set -euo pipefail
strata=${STRATA:-bin/strata}
shared=${SHARED:-../shared/data}
out=${OUT:-out/robust-dev}
here=$(cd "$(dirname "$0")" && pwd)
seed=${SEED:-1}
ablations=${ABLATIONS---no-compose --no-frame-words}
mkdir -p "$out"
echo "| SKB | planner | val | vframe | vsyn | wdev / mdev | idev | adev / wadev | tdev | cdev | t3dev / w5dev |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for name in ${SETS:-movies-skb wordnet-skb}; do
  data="$shared/$name"
  if [ ! -d "$data" ]; then
    echo "robust_dev: $data is absent (it ships with the project's shared data, not with a clone)" >&2
    exit 1
  fi
  d="$out/$name"
  rm -rf "$d"
  mkdir -p "$d"
  cp -r "$data" "$d/skb"
  chmod -R u+w "$d/skb"
  # The val questions' anchors and shapes, from plans mined from their
  # answers (the rewrites keep the anchors' text verbatim).
  "$strata" import --format skbdir --in "$d/skb" --out "$d/ws0" >/dev/null
  "$strata" mine-plans "$d/ws0" --split val --no-universal --no-ranked-middle --out "$d/groups.jsonl" --force >/dev/null
  rm -rf "$d/ws0"
  python3 "$here/robust_paraphrase.py" "$d/skb/stark_qa/stark_qa.csv" "$d/groups.jsonl" "$d/syn"
  python3 "$here/robust_paraphrase.py" "$d/skb/stark_qa/stark_qa.csv" "$d/groups.jsonl" "$d/frm" --no-synonyms
  tail -n +2 "$d/syn/para.csv" >> "$d/skb/stark_qa/stark_qa.csv"
  cp "$d/syn/para.index" "$d/skb/split/vsyn.index"
  # The frame-only rewrites get ids of their own (both scripts number a
  # rewrite 2000000 + the question's id).
  python3 - "$d" <<'PY'
import csv, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + "/frm/para.csv")))[1:]
with open(d + "/skb/stark_qa/stark_qa.csv", "a", newline="") as f, open(d + "/skb/split/vframe.index", "w") as ix:
    w = csv.writer(f)
    for r in rows:
        r[0] = str(int(r[0]) + 1000000)
        w.writerow(r)
        ix.write(r[0] + "\n")
PY
  splits=val,vframe,vsyn
  if python3 "$here/robust_wnframes.py" "$d/skb" "$d/wfrm" 2>/dev/null; then
    tail -n +2 "$d/wfrm/wdev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/wfrm/wdev.csv" | tail -n +2 >"$d/skb/split/wdev.index"
    splits=val,vframe,vsyn,wdev
    if python3 "$here/robust_wnauthored.py" "$d/skb" "$d/wauth" 2>/dev/null; then
      tail -n +2 "$d/wauth/wadev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/wauth/wadev.csv" | tail -n +2 >"$d/skb/split/wadev.index"
      splits="$splits,wadev"
    fi
    # w5dev: a sixth author's frames (ids 9,500,000 on).
    if python3 "$here/robust_wnauthored.py" "$d/skb" "$d/wauth5" "$here/wn5_frames.json" 2>/dev/null; then
      tail -n +2 "$d/wauth5/waheld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/wauth5/waheld.csv" | tail -n +2 >"$d/skb/split/w5dev.index"
      splits="$splits,w5dev"
    fi
  elif python3 "$here/robust_mframes.py" "$d/skb" "$d/mfrm" 2>/dev/null; then
    tail -n +2 "$d/mfrm/mdev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
    cut -d, -f1 "$d/mfrm/mdev.csv" | tail -n +2 >"$d/skb/split/mdev.index"
    splits=val,vframe,vsyn,mdev
    if python3 "$here/robust_inverse.py" "$d/skb" "$d/inv" 2>/dev/null; then
      tail -n +2 "$d/inv/idev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/inv/idev.csv" | tail -n +2 >"$d/skb/split/idev.index"
      splits=val,vframe,vsyn,mdev,idev
    fi
    if python3 "$here/robust_authored.py" "$d/skb" "$d/auth" 2>/dev/null; then
      tail -n +2 "$d/auth/adev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/auth/adev.csv" | tail -n +2 >"$d/skb/split/adev.index"
      splits="$splits,adev"
    fi
    if python3 "$here/robust_twin.py" "$d/skb" "$d/twin" 2>/dev/null; then
      tail -n +2 "$d/twin/tdev.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/twin/tdev.csv" | tail -n +2 >"$d/skb/split/tdev.index"
      splits="$splits,tdev"
    fi
    # cdev: mdev's questions after a sentence that sets the scene
    # (protocol (k); ids 13,000,000 + mdev's).
    if python3 "$here/robust_context.py" "$d/skb/stark_qa/stark_qa.csv" "$d/skb/split/mdev.index" "$d/skb" "$d/ctx" 2>/dev/null; then
      tail -n +2 "$d/ctx/context.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cp "$d/ctx/context.index" "$d/skb/split/cdev.index"
      splits="$splits,cdev"
    fi
    # t3dev: a fifth author's frames (ids 12,000,000 on).
    if python3 "$here/robust_twin.py" "$d/skb" "$d/twin3" "$here/twin3_frames.json" 2>/dev/null; then
      tail -n +2 "$d/twin3/theld.csv" >>"$d/skb/stark_qa/stark_qa.csv"
      cut -d, -f1 "$d/twin3/theld.csv" | tail -n +2 >"$d/skb/split/t3dev.index"
      splits="$splits,t3dev"
    fi
  fi
  "$strata" import --format skbdir --in "$d/skb" --out "$d/ws" >/dev/null
  "$strata" mine-plans "$d/ws" >/dev/null
  while read -r label flags; do
    run="$d/ws/runs/${label}"
    # shellcheck disable=SC2086
    "$strata" train planner "$d/ws" --seed "$seed" --out "$run" $flags > "$d/$label.out" 2> "$d/$label.err"
    n=$(echo "$splits" | tr , '\n' | wc -l)
    # One value per split, in the table's columns (— where a set has
    # none: WordNet has no idev, tdev or cdev, movies-skb no wadev).
    declare -A hit=()
    while read -r sp v; do hit[$sp]=$v; done < <(paste <(echo "$splits" | tr , '\n') <("$strata" eval "$d/ws" --planner "$run/best" --method plan-exec --split "$splits" 2>/dev/null | tail -"$n" | awk '{print $4}'))
    row=""
    for col in val vframe vsyn wdev/mdev idev adev/wadev tdev cdev t3dev/w5dev; do
      v="—"
      for sp in ${col//\// }; do v=${hit[$sp]:-$v}; done
      row="$row | $v"
    done
    unset hit
    echo "| $name | ${flags:-default}$row |"
  done < <(echo "default"; for a in $ablations; do echo "${a#--} $a"; done)
done
