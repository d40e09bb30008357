#!/usr/bin/env bash
# docs/llm-reranker.md: a tiny Qwen3-architecture reranker trained from a
# random base in Go (LoRA) on GRASP stage-3 records of the demo's amazon
# preset, exported to ONNX, run by ONNX Runtime and fused as GRASP's stage 3;
# rows for the untrained base (zero-shot) and the fine-tuned model.
set -euo pipefail
strata=${STRATA:-bin/strata}
out=${OUT:-out/llm}
tok=.cache/tokenizer-qwen3-3.7.2/tokenizer.json
doc=docs/llm-reranker.md
epochs=${EPOCHS:-1}
group=${GROUP:-8}
maxlen=${MAXLEN:-256}
mkdir -p "$out" docs
ws="$out/demo/workspace"
if [ ! -d "$ws/runs/grasp" ]; then
  $strata demo --dir "$out/demo" >/dev/null
fi
# Stage 2 alone (the demo's GRASP run also fuses MoR as stage 3).
stage2="$out/stage2"
rm -rf "$stage2" # this script's own output from an earlier run
$strata train grasp "$ws" --mfar "$ws/runs/mfar" --planner "$ws/runs/planner" --out "$stage2" >/dev/null
$strata export reranker-data "$ws" --model "$stage2" --split train --out "$out/train.jsonl" --force >/dev/null
$strata export reranker-data "$ws" --model "$stage2" --split val --out "$out/val.jsonl" --force >/dev/null
head -50 "$out/val.jsonl" > "$out/val50.jsonl"
rm -rf "$out/base" "$out/run" "$out/merged" "$out/onnx-zero" "$out/onnx-tuned"
$strata init-qwen3 --tokenizer "$tok" --out "$out/base" --force >/dev/null
train=$($strata train llm-reranker "$ws" --base "$out/base" --records "$out/train.jsonl" --val-records "$out/val50.jsonl" \
  --out "$out/run" --epochs "$epochs" --batch 8 --group "$group" --lr 3e-3 --max-len "$maxlen" --checkpoint-every 15)
$strata merge-lora --base "$out/base" --adapters "$out/run" --out "$out/merged" --force >/dev/null
for v in zero tuned; do
  m="$out/merged"; [ $v = zero ] && m="$out/base"
  $strata export onnx --model "$m" --out "$out/onnx-$v" --first-stage "$stage2" --max-len "$maxlen" >/dev/null
done
{
  echo "# Qwen3 LLM reranker as GRASP's stage 3"
  echo
  echo "Produced by \`make experiments-llm\` (scripts/llm_experiments.sh) on $(nproc) cores: the demo's"
  echo "amazon preset (5,000 nodes, 1,000 queries). Base: \`strata init-qwen3\` (2 layers, hidden 64,"
  echo "4/2 heads of 16, MLP 128, Qwen3's 151,669-token vocabulary, random weights). LoRA rank 32,"
  echo "alpha 64 on every linear layer; groups of $group prompts (one positive); prompts truncated"
  echo "to $maxlen tokens; $epochs epoch(s) over the 600 training records; val group accuracy on 50 val"
  echo "records selects the checkpoint. Prompts: appendix B.5's instruction in B.5's wording with the"
  echo "workspace's node types, candidates serialized as B.6 (fields cut to 300 model tokens). Each"
  echo "reranker rescores the top 100 of GRASP's stage 2 through ONNX Runtime; as GRASP's stage 3 it"
  echo "reranks stage 2's top 100 and that ranking is fused with stage 2 by RRF, (w, k) by val Hit@1."
  echo
  echo "- $train"
  echo
  echo '```'
  $strata checkpoints list "$out/run"
  echo '```'
  echo
  echo '```'
  $strata eval "$ws" --model "$stage2,$out/onnx-zero,$out/onnx-tuned" --split test
  echo '```'
  for v in zero tuned; do
    echo
    echo "Stage 3 = $v:"
    echo
    echo '```'
    $strata train grasp "$ws" --mfar "$ws/runs/mfar" --planner "$ws/runs/planner" --stage3 "$out/onnx-$v" --out "$out/grasp-$v" | sed -n '/stage 3/,$p'
    echo '```'
  done
} > "$doc"
echo "The Reading section of the committed docs/llm-reranker.md is written from these outputs." >&2
cat "$doc"
