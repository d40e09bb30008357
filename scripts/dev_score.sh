#!/usr/bin/env bash
# Scores a planner run on the engineer's development sets of one SKB
# (docs/robustness.md names them; none of them is a held-out protocol):
#   movies-skb   mdev, idev, adev, tdev, t3dev, t4dev, t5dev, i3dev, t6dev,
#                t7dev, t8dev, t9dev, t10dev, t11dev, t12dev, t13dev, t14dev, t15dev,
#                t16dev, t17dev, t18dev, t19dev, t20dev, t21dev, t22dev, t23dev, t24dev, t25dev, t26dev,
#                t27dev, t28dev, t29dev, t30dev, t31dev, t32dev, t33dev, t34dev,
#                t35dev, t36dev, t37dev, t38dev, t39dev, t40dev, t41dev, t42dev, t43dev, typos
#                (21,666 questions)
#   wordnet-skb  wdev, wadev, w5dev, w7dev, w8dev, w9dev, w10dev, w11dev, w12dev, w13dev,
#                w14dev, w15dev, w16dev, w17dev, w18dev, w19dev, w20dev, w21dev, w22dev, w23dev, w24dev, w25dev,
#                w26dev, w27dev, w28dev, w29dev, w30dev, w31dev, w32dev, w33dev, w34dev, w35dev,
#                w36dev, w37dev, w38dev, w39dev, w40dev, w41dev, w42dev, typos
#                (7,940 questions)
# The sets are written once under SETS (default out/dev-sets/SKB) by the
# scripts that define them; each run's rankings go to OUT/SET.jsonl, and
# one Markdown row per set to stdout: questions, Hit@1, how many fell back.
# With BASE, another OUT of this script, each set's row also counts the
# questions right only in BASE or only here, and the questions that
# differ are listed on stderr.
#
#   scripts/dev_score.sh movies-skb out/robust/movies-skb/ws \
#     out/robust/movies-skb/ws/runs/planner-text out/dev/now
#   BASE=out/dev/now scripts/dev_score.sh movies-skb WS RUN out/dev/new
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: dev_score.sh movies-skb|wordnet-skb WORKSPACE RUN OUT" >&2
  exit 2
fi
name=$1 ws=$2 run=$3 out=$4
strata=${STRATA:-bin/strata}
data=${SHARED:-../shared/data}/$name
sets=${SETS:-out/dev-sets/$name}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$data" ]; then
  echo "dev_score: $data is absent (it ships with the project's shared data, not with a clone)" >&2
  exit 1
fi
[ -f "$sets/typos/typos-val.csv" ] || python3 "$here/robust_typos.py" "$data" "$sets/typos" val >&2
case $name in
movies-skb)
  [ -f "$sets/mfrm/mdev.csv" ] || python3 "$here/robust_mframes.py" "$data" "$sets/mfrm" >&2
  [ -f "$sets/inv/i3dev.csv" ] || python3 "$here/robust_inverse.py" "$data" "$sets/inv" >&2
  [ -f "$sets/auth/adev.csv" ] || python3 "$here/robust_authored.py" "$data" "$sets/auth" >&2
  [ -f "$sets/tw/tdev.csv" ] || python3 "$here/robust_twin.py" "$data" "$sets/tw" >&2
  for n in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43; do
    [ -f "$sets/tw$n/theld.csv" ] || python3 "$here/robust_twin.py" "$data" "$sets/tw$n" "$here/twin${n}_frames.json" >&2
  done
  list="mdev:mfrm/mdev idev:inv/idev adev:auth/adev tdev:tw/tdev t3dev:tw3/theld t4dev:tw4/theld t5dev:tw5/theld i3dev:inv/i3dev t6dev:tw6/theld t7dev:tw7/theld t8dev:tw8/theld t9dev:tw9/theld t10dev:tw10/theld t11dev:tw11/theld t12dev:tw12/theld t13dev:tw13/theld t14dev:tw14/theld t15dev:tw15/theld t16dev:tw16/theld t17dev:tw17/theld t18dev:tw18/theld t19dev:tw19/theld t20dev:tw20/theld t21dev:tw21/theld t22dev:tw22/theld t23dev:tw23/theld t24dev:tw24/theld t25dev:tw25/theld t26dev:tw26/theld t27dev:tw27/theld t28dev:tw28/theld t29dev:tw29/theld t30dev:tw30/theld t31dev:tw31/theld t32dev:tw32/theld t33dev:tw33/theld t34dev:tw34/theld t35dev:tw35/theld t36dev:tw36/theld t37dev:tw37/theld t38dev:tw38/theld t39dev:tw39/theld t40dev:tw40/theld t41dev:tw41/theld t42dev:tw42/theld t43dev:tw43/theld typos:typos/typos-val"
  ;;
wordnet-skb)
  [ -f "$sets/wfrm/wdev.csv" ] || python3 "$here/robust_wnframes.py" "$data" "$sets/wfrm" >&2
  [ -f "$sets/wauth/wadev.csv" ] || python3 "$here/robust_wnauthored.py" "$data" "$sets/wauth" >&2
  for n in 5 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42; do
    [ -f "$sets/w$n/waheld.csv" ] || python3 "$here/robust_wnauthored.py" "$data" "$sets/w$n" "$here/wn${n}_frames.json" >&2
  done
  list="wdev:wfrm/wdev wadev:wauth/wadev w5dev:w5/waheld w7dev:w7/waheld w8dev:w8/waheld w9dev:w9/waheld w10dev:w10/waheld w11dev:w11/waheld w12dev:w12/waheld w13dev:w13/waheld w14dev:w14/waheld w15dev:w15/waheld w16dev:w16/waheld w17dev:w17/waheld w18dev:w18/waheld w19dev:w19/waheld w20dev:w20/waheld w21dev:w21/waheld w22dev:w22/waheld w23dev:w23/waheld w24dev:w24/waheld w25dev:w25/waheld w26dev:w26/waheld w27dev:w27/waheld w28dev:w28/waheld w29dev:w29/waheld w30dev:w30/waheld w31dev:w31/waheld w32dev:w32/waheld w33dev:w33/waheld w34dev:w34/waheld w35dev:w35/waheld w36dev:w36/waheld w37dev:w37/waheld w38dev:w38/waheld w39dev:w39/waheld w40dev:w40/waheld w41dev:w41/waheld w42dev:w42/waheld typos:typos/typos-val"
  ;;
*)
  echo "dev_score: no development sets for $name (movies-skb or wordnet-skb)" >&2
  exit 2
  ;;
esac
mkdir -p "$out"
echo "| set | n | Hit@1 | fell back |${BASE:+ right only in BASE / only here |}"
echo "|---|---|---|---|${BASE:+---|}"
for entry in $list; do
  set=${entry%%:*} csv=$sets/${entry#*:}.csv
  "$strata" score "$ws" --pipeline "$run" --queries "$csv" --out "$out/$set.jsonl" --force >/dev/null
  python3 - "$set" "$csv" "$out/$set.jsonl" "${BASE:+$BASE/$set.jsonl}" <<'EOF'
import csv, json, os, sys

name, queries, run, base = sys.argv[1:5]
gold, text = {}, {}
with open(queries, newline="", encoding="utf-8") as f:
    for r in csv.DictReader(f):
        gold[int(r["id"])] = set(json.loads(r["answer_ids"]))
        text[int(r["id"])] = r["query"]


def hits(path):
    out, fell = {}, 0
    for line in open(path, encoding="utf-8"):
        o = json.loads(line)
        out[o["id"]] = bool(o["ranking"]) and o["ranking"][0]["node"] in gold[o["id"]]
        fell += bool(o.get("fallback"))
    return out, fell


now, fell = hits(run)
row = f"| {name} | {len(now)} | {sum(now.values()) / max(1, len(now)):.4f} | {fell} |"
if base and not os.path.exists(base):
    row += " (not in BASE) |"
elif base:
    was, _ = hits(base)
    lost = sorted(k for k in now if was.get(k) and not now[k])
    won = sorted(k for k in now if now[k] and not was.get(k))
    row += f" {len(lost)} / {len(won)} |"
    for k in lost:
        print(f"{name} - {text[k]}", file=sys.stderr)
    for k in won:
        print(f"{name} + {text[k]}", file=sys.stderr)
print(row)
EOF
done
